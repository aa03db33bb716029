"""The write path's edge: reads the few files a command needs, locks, writes all or nothing.

No command here reads every session log: the current session comes from a memo while
the sessions folder and HEAD's tree of it are unchanged (`newest`), else from listing the
folder and asking git about the newest few names; an id is looked up in
continuity, then only if need be in vision, the archive files INDEX.md names for it,
and last in every archive file (an index a review has not refreshed yet).
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mdmem.errors import MdmemError
from mdmem.format.blocked import BLOCKED, BlockedEntry, parse_blocked
from mdmem.format.document import Document, parse_document
from mdmem.format.footer import ID_RE
from mdmem.format.memory import ARCHIVE, CONTINUITY, INDEX, SESSIONS, VISION
from mdmem.format.sessionlog import Event, Scan, scan_log
from mdmem.format.textfile import decode, decode_text
from mdmem.format.vision import parse_vision
from mdmem.store.files import read, read_bytes
from mdmem.store.load import archive_paths, read_optional
from mdmem.store.lock import locked
from mdmem.store.resources import templates_dir
from mdmem.writing import known, logs, newest
from mdmem.writing.references import REFERENCE_KEYS, record

TEMPLATE = "session.md"
NEWEST = "newest uncommitted log"  # how the current session was found, when not named
ID_RULE = "lowercase words joined by hyphens, two or more: post-only-mutations"


def utc_now() -> dt.datetime:
    """The clock, read in one place: only a new log's name depends on it."""
    return dt.datetime.now(dt.timezone.utc)


@dataclass(frozen=True)
class SessionLog:
    """One session log of a memory, and how it was chosen."""

    root: Path
    stem: str
    source: str  # NEWEST, or the option or variable that named it
    seen: newest.Seen | None = field(default=None, compare=False, repr=False)  # see `newest`

    @property
    def relative(self) -> str:
        return f"{SESSIONS}/{self.stem}.md"

    @property
    def path(self) -> Path:
        return self.root / SESSIONS / f"{self.stem}.md"

    @property
    def display(self) -> str:
        return f"{self.root.name}/{self.relative}"


def start_session(
    root: Path, slug: str | None = None, now: dt.datetime | None = None
) -> SessionLog:
    """Create a new session log from the template, at the first free second from `now`."""
    if slug is not None:
        logs.check_slug(slug)
    template = (templates_dir() / TEMPLATE).read_text("utf-8")
    moment = utc_now() if now is None else now
    with locked(root):
        folder = root / SESSIONS
        stem = logs.free_stem(moment, slug, lambda stem: os.path.lexists(folder / f"{stem}.md"))
        log = SessionLog(root, stem, NEWEST)
        files = {log.relative: logs.log_text(template, slug)}
        newest.write(root, files, newest.remembered(root), created=stem)
    return log


def current_session(root: Path, named: str | None = None, source: str = "--session") -> SessionLog:
    """The log a command writes to: the one `named` (by `source`), else the newest one
    HEAD does not hold. A named log must exist and be uncommitted too."""
    if named:
        log = SessionLog(root, logs.named_stem(named), source)
        if not log.path.is_file():
            raise MdmemError(logs.NO_SUCH_LOG, log.display)
        if newest.committed(root, [log.path.name]):
            raise MdmemError(logs.COMMITTED_LOG, log.display)
        return log
    stem, seen = newest.find(root)
    if stem is None:
        raise MdmemError(logs.NO_SESSION)
    return SessionLog(root, stem, NEWEST, seen)


@dataclass(frozen=True)
class Referenced:
    """What `reference` did to a log."""

    log: SessionLog
    key: str
    added: tuple[str, ...]
    already: tuple[str, ...]


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
    if key not in REFERENCE_KEYS:
        raise MdmemError(f"cannot record {key!r}: the keys are {', '.join(REFERENCE_KEYS)}")
    malformed = [token for token in ids if not ID_RE.match(token)]
    if malformed:
        raise MdmemError(f"{malformed[0]!r} is not an id ({ID_RULE})")
    with locked(root):
        log = current_session(root, named, source)
        data = read_bytes(log.path, log.display)
        check_ids(root, ids, log_events(data, log.display))
        recorded = record(decode(data, log.display).text(), key, ids, log.display)
        if recorded.changed:
            newest.write(root, {log.relative: recorded.text}, log.seen)
    return Referenced(log, key, recorded.added, recorded.already)


def log_events(data: bytes, display: str) -> tuple[Event, ...]:
    """The typed lines of one log's `## Memory References`."""
    return _events(scan_log(data, display))


def _events(scan: Scan) -> tuple[Event, ...]:
    _, events, _, _ = scan
    return tuple(Event(kind, tuple(ids), new_id, line) for kind, ids, new_id, line in events)


def check_ids(root: Path, ids: Sequence[str], events: Sequence[Event] = ()) -> None:
    """Refuse, naming every problem at once, ids a session may not cite."""
    blocked = blocked_entries(root)
    continuity = read(root / CONTINUITY, f"{root.name}/{CONTINUITY}")
    documents = [parse_document(continuity, unique_ids=False)]
    missing = set(ids) - known.ids_in(documents) - set(blocked)
    if missing:
        vision = read_optional(root, VISION)
        documents += [] if vision is None else [parse_vision(vision)]
        missing -= known.ids_in(documents)
    if missing:
        documents += archive_documents(root, indexed_files(root, missing))
        missing -= known.ids_in(documents)
    if missing:
        documents += archive_documents(
            root, None, frozenset(document.path for document in documents)
        )
        missing -= known.ids_in(documents)
    superseded = known.after_events(known.supersessions(documents), events)
    problems = []
    for fact_id in dict.fromkeys(ids):
        if fact_id in blocked:
            problems.append(known.blocked_refusal(blocked[fact_id]))
        elif fact_id in superseded:
            problems.append(known.superseded_refusal(fact_id, superseded[fact_id]))
        elif fact_id in missing:
            live = known.ids_in(documents) - set(superseded)
            problems.append(known.unknown_refusal(fact_id, live))
    if len(problems) == 1:
        raise MdmemError(f"{problems[0]}; nothing written")
    if problems:
        raise MdmemError("\n  ".join(["nothing written:", *problems]))


def blocked_entries(root: Path) -> dict[str, BlockedEntry]:
    file = read_optional(root, BLOCKED)
    return {} if file is None else {entry.fact_id: entry for entry in parse_blocked(file)}


def indexed_files(root: Path, ids: set[str]) -> set[str]:
    """The archive files INDEX.md names for these ids (`- ID — summary — reason — FILE`)."""
    index = read_optional(root, f"{ARCHIVE}/{INDEX}")
    files = set()
    for line in () if index is None else index.lines:
        fact_id = line[2:].partition(" ")[0] if line.startswith("- ") else ""
        if fact_id in ids:
            files.add(line.rstrip().rpartition(" — ")[2])
    return files


def archive_documents(
    root: Path, names: set[str] | None, skip: frozenset[str] = frozenset()
) -> list[Document]:
    """The archive files named (all of them for None), parsed; those shown as in `skip` left out."""
    label = f"{root.name}/{ARCHIVE}"
    paths = [p for p in archive_paths(root) if names is None or p.name in names]
    return [
        parse_document(read(path, f"{label}/{path.name}"), unique_ids=False)
        for path in paths
        if f"{label}/{path.name}" not in skip
    ]


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
