"""`session start`, `ref` and what a command that records in the current log reads of it:
the few files a command needs read, the memory locked, one all-or-nothing write.

No command here reads a session log but the current one; an id is looked up in
continuity, then only if need be in vision, the archive files INDEX.md names for it,
and last in every archive file (an index a review has not refreshed yet).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.errors import MdmemError
from mdmem.format.sessionlog import Event, Scan, scan_log
from mdmem.format.textfile import decode, decode_text
from mdmem.git.discover import git_folder
from mdmem.store.files import read_bytes
from mdmem.store.lock import locked
from mdmem.store.resources import templates_dir
from mdmem.store.writer import write_files
from mdmem.writing import logs
from mdmem.writing.logs import NEWEST, STARTED, Current, SessionLog, current_session

TEMPLATE = "session.md"


def utc_now() -> dt.datetime:
    """The clock, read in one place: only a new log's name depends on it."""
    return dt.datetime.now(dt.timezone.utc)


@dataclass(frozen=True)
class Started:
    """What `session start` did: the new log, and the log that was current before it (not
    yet committed, so it too counts as a session when the review reads it), if any."""

    log: SessionLog
    earlier: SessionLog | None

    @property
    def note(self) -> str | None:
        if self.earlier is None:
            return None
        return (
            f"{self.earlier.display} is not committed either (another agent's session, or "
            "an earlier one of yours): the review counts it as a session too; once that "
            "session is over, commit it (or delete it if it holds nothing)"
        )

    @property
    def pin(self) -> str:
        """What pins this log for the agent that started it (its shell's variable)."""
        return logs.PIN.format(stem=self.log.stem)

    def as_dict(self) -> dict[str, Any]:
        earlier = None if self.earlier is None else self.earlier.stem
        fields = {"earlier_uncommitted": earlier, "note": self.note, "pin": self.pin}
        return {**self.log.as_dict(), **fields}


def start_session(root: Path, slug: str | None = None, now: dt.datetime | None = None) -> Started:
    """Create a new session log from the template, at the first free second from `now`:
    one log a second, so that the new log sorts after every log of that second (the
    current session is the newest in ledger order)."""
    if slug is not None:
        logs.check_slug(slug)
    template = (templates_dir() / TEMPLATE).read_text("utf-8")
    moment = utc_now() if now is None else now
    with locked(root):
        found = logs.open_logs(root) if git_folder(root) is not None else ()
        earlier = SessionLog(root, found[0], NEWEST) if found else None
        # A log's name opens with its `YYYY-MM-DD-HHMMSS`: one log a second.
        seconds = {name[:17] for name in logs.listing(root) if name.endswith(".md")}
        stem = logs.free_stem(moment, slug, lambda stem: stem[:17] in seconds)
        log = SessionLog(root, stem, STARTED)
        files = {log.relative: logs.log_text(template, slug)}
        write_files(root, files)
    return Started(log, earlier)


@dataclass(frozen=True)
class Referenced:
    """What `reference` did to a log."""

    log: SessionLog
    key: str
    added: tuple[str, ...]
    already: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.log.as_dict(),
            "key": self.key,
            "added": list(self.added),
            "already": list(self.already),
        }


def reference(
    root: Path,
    ids: Sequence[str],
    key: str = "referenced",
    named: str | None = None,
    source: str = "--session",
) -> Referenced:
    """Record `ids` on the `key` line of the current session's `## Memory References`
    (the log `named`, see `current_session`).

    Refuses (nothing written) a token that is not an id, an id no fact has, a superseded
    one and a blocked one.
    """
    # Here, not at the top: `session` and `session start` parse no fact, and these bring
    # the memory's parsers (`session start` at 300 logs: 628 against 483 million
    # instructions with them imported at the top, callgrind).
    from mdmem.writing.gathered import check_shape, gather
    from mdmem.writing.references import REFERENCE_KEYS, record

    if key not in REFERENCE_KEYS:
        raise MdmemError(f"cannot record {key!r}: the keys are {', '.join(REFERENCE_KEYS)}")
    check_shape(ids)
    with locked(root):
        session = read_current(root, named, source)
        gather(root, ids).refuse_citations(ids, session.events)
        recorded = record(session.text, key, ids, session.log.display)
        if recorded.changed:
            write_files(root, {session.log.relative: recorded.text})
    return Referenced(session.log, key, recorded.added, recorded.already)


def read_current(root: Path, named: str | None, source: str) -> Current:
    """The current session's log (see `current_session`), read."""
    return read_log(current_session(root, named, source))


def read_log(log: SessionLog) -> Current:
    """One session log, read as a command that records in it reads it."""
    data = read_bytes(log.path, log.display)
    return Current(log, decode(data, log.display).text(), _events(scan_log(data, log.display)))


def _events(scan: Scan) -> tuple[Event, ...]:
    """The typed lines of one log's `## Memory References`."""
    _, events, _, _ = scan
    return tuple(Event(kind, tuple(ids), new_id, line) for kind, ids, new_id, line in events)


@dataclass(frozen=True)
class Citations:
    """What a session log's `## Memory References` holds so far."""

    references: tuple[str, ...]  # every id named there, sorted
    events: tuple[Event, ...]  # its typed lines, in order


def citations(log: SessionLog) -> Citations:
    """The references and typed lines of one log (the only log this reads), to be shown:
    its secret material is masked first, so that no secret shaped like an id (a
    `password: long-pass-phrase`) is read as one and printed."""
    from mdmem.safety.secrets import redact  # only the command that prints a log needs it

    data = read_bytes(log.path, log.display)
    scan = scan_log(redact(decode_text(data, log.display)).encode("utf-8"), log.display)
    return Citations(tuple(scan[0]), _events(scan))
