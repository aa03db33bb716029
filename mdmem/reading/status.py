"""`mdmem status`: the one command an agent runs to orient itself, as a value and its text.

A review is due once `review_every` session logs came after the last review's
through-session (REVIEW.md); lint calls it overdue past that (W007). Lint's counts are
those of the last `mdmem lint`, while the files they are kept against are unchanged
(`mdmem.store.cache.lint_counts`): running lint at every status would read every log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mdmem.reading.entries import Entry


@dataclass(frozen=True)
class Status:
    session: str | None  # the current session log, as shown; None when there is none
    session_source: str | None  # how it was found: the newest uncommitted log, or a name
    last_review: str | None  # the session the last review read through
    since_review: int  # session logs after it
    review_every: int
    open_threads: tuple[Entry, ...]
    lint: tuple[int, int] | None  # (errors, warnings) of the last lint, if still current

    @property
    def review_due(self) -> bool:
        return self.since_review >= self.review_every


def render(status: Status) -> list[str]:
    session = status.session or "(none: run `mdmem session start`)"
    source = f" ({status.session_source})" if status.session and status.session_source else ""
    review = status.last_review or "(never)"
    due = "review due: run `mdmem review`" if status.review_due else "no review due"
    out = [
        f"session: {session}{source}",
        f"last review: through {review}; {status.since_review} session "
        f"log{'' if status.since_review == 1 else 's'} since "
        f"(review_every: {status.review_every}): {due}",
    ]
    if status.lint is None:
        out.append("lint: not run since the memory changed; run `mdmem lint` (or status --lint)")
    else:
        errors, warnings = status.lint
        plural = ("" if errors == 1 else "s", "" if warnings == 1 else "s")
        out.append(f"lint: {errors} error{plural[0]}, {warnings} warning{plural[1]}")
    out.append(f"open threads: {len(status.open_threads)}")
    out += [
        f"  {entry.path}:{entry.line}  {entry.id}  {entry.text}" for entry in status.open_threads
    ]
    return out


def as_dict(status: Status) -> dict[str, Any]:
    errors, warnings = status.lint if status.lint is not None else (None, None)
    return {
        "session": status.session,
        "session_source": status.session_source,
        "last_review": status.last_review,
        "since_review": status.since_review,
        "review_every": status.review_every,
        "review_due": status.review_due,
        "lint": {"current": status.lint is not None, "errors": errors, "warnings": warnings},
        "open_threads": [
            {"id": entry.id, "path": entry.path, "line": entry.line, "text": entry.text}
            for entry in status.open_threads
        ],
    }
