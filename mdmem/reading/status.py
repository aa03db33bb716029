"""`mdmem status`: the one command an agent runs to orient itself, as a value and its text.

A review is due once `review_every` session logs came after the last review's
through-session (REVIEW.md); lint calls it overdue past that (W007). Lint's counts are
those of the last `mdmem lint`, while the files they are kept against are unchanged
(`mdmem.store.cache.lint_counts`): running lint at every status would read every log.
They are counted as lint prints them (`mdmem.linting.tally`), so status says what the
last line of `mdmem lint` said.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from mdmem.linting.tally import Tally
from mdmem.reading.entries import Entry


@dataclass(frozen=True)
class Status:
    session: str | None  # the current session log, as shown; None when there is none
    session_source: str | None  # how it was found: the one uncommitted log, or a name
    last_review: str | None  # the session the last review read through
    since_review: int  # session logs after it
    review_every: int
    open_threads: tuple[Entry, ...]
    lint: Tally | None  # the count of the last lint, if still current
    # With no session: the uncommitted logs' stems, when there are several and none named.
    uncommitted: tuple[str, ...] = ()

    @property
    def review_due(self) -> bool:
        return self.since_review >= self.review_every


def render(status: Status) -> list[str]:
    session = status.session or "(none: run `mdmem session start`)"
    if status.session is None and status.uncommitted:
        shown = ", ".join(status.uncommitted)
        session = (
            f"(none chosen: {len(status.uncommitted)} session logs are not committed: "
            f"{shown}; name yours with --session STEM or MDMEM_SESSION=STEM)"
        )
    source = f" ({status.session_source})" if status.session and status.session_source else ""
    review = f"through {status.last_review}" if status.last_review else "none yet"
    due = "review due: run `mdmem review`" if status.review_due else "no review due"
    out = [
        f"session: {session}{source}",
        f"last review: {review}; {status.since_review} session "
        f"log{'' if status.since_review == 1 else 's'} since "
        f"(review_every: {status.review_every}): {due}",
    ]
    if status.lint is None:
        out.append("lint: not run since the memory changed; run `mdmem lint` (or status --lint)")
    else:
        out.append(f"lint: {status.lint.render()}")
    out.append(f"open threads: {len(status.open_threads)}")
    out += [
        f"  {entry.path}:{entry.line}  {entry.id}  {entry.text}" for entry in status.open_threads
    ]
    return out


def as_dict(status: Status) -> dict[str, Any]:
    counted = status.lint
    return {
        "session": None if status.session is None else PurePosixPath(status.session).stem,
        "log": status.session,
        "session_source": status.session_source,
        "uncommitted": list(status.uncommitted),
        "last_review": status.last_review,
        "since_review": status.since_review,
        "review_every": status.review_every,
        "review_due": status.review_due,
        "lint": {
            "current": counted is not None,
            "errors": None if counted is None else counted.errors,
            "warnings": None if counted is None else counted.warnings,
            "committed_log_warnings": None if counted is None else counted.committed,
        },
        "open_threads": [
            {"id": entry.id, "path": entry.path, "line": entry.line, "text": entry.text}
            for entry in status.open_threads
        ],
    }
