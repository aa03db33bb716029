"""Loading a memory folder from disk into plain, immutable data for the pure review."""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mdmem.errors import ParseError
from mdmem.format.blocked import parse_blocked
from mdmem.format.document import parse_document
from mdmem.format.memory import (
    ARCHIVE,
    BLOCKED,
    CONTINUITY,
    INDEX,
    OPEN_THREADS,
    POLICY,
    REVIEWS,
    SESSIONS,
    VISION,
    Memory,
)
from mdmem.format.policy import parse_policy
from mdmem.format.sessionlog import (
    Scan,
    Session,
    SessionName,
    parse_session_names,
    scan_log,
    session_of,
)
from mdmem.format.textfile import TextFile, conflict_marker_lines
from mdmem.format.vision import parse_vision
from mdmem.store import cache
from mdmem.store.files import (
    archive_paths,
    read,
    read_bytes,
    refuse_link,
    text_of,
    thread_documents,
)
from mdmem.store.folders import exists

if TYPE_CHECKING:
    from mdmem.safety.secrets import SecretHit

Progress = Callable[[int, int], None]  # (files done, files in all)
T = TypeVar("T")

# A text's marks: the lines of its conflict markers, and [line, column, category] of each
# secret lint reports (`safety.secrets.reported_secrets`).
Marks = tuple[list[int], list[list[Any]]]


@dataclass(frozen=True)
class LogRead:
    """What one session log yields to a review and to lint. `scan` is None when the log
    does not read or scan (`error` says why); `marks` is None when its text does not read
    (`text_error`), or it is no regular file (a link), which lint leaves to `error`."""

    file: str
    display: str
    scan: Scan | None
    error: ParseError | None
    marks: Marks | None
    text_error: ParseError | None


@dataclass(frozen=True)
class Logs:
    """The sessions folder as read: its logs in ledger order, the error of the folder itself
    (a link, a name that breaks the convention), and its files that are no logs."""

    reads: tuple[LogRead, ...]
    names: tuple[SessionName, ...]
    error: ParseError | None
    strays: tuple[str, ...]


def read_logs(root: Path, progress: Progress | None = None) -> Logs:
    """Every session log's yield, read only when its cache entry (`store.cache.Stamped`)
    does not hold it."""
    folder = root / SESSIONS
    if not folder.is_dir():
        return Logs((), (), None, ())
    try:
        refuse_link(folder, f"{root.name}/{SESSIONS}")
    except ParseError as linked:
        return Logs((), (), linked, ())
    logs: list[tuple[str, os.DirEntry[str]]] = []
    strays = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(".md"):
                logs.append((entry.name[:-3], entry))
            elif entry.is_file(follow_symlinks=False) and not entry.name.startswith("."):
                strays.append(entry.name)
    # Ledger order is (date, time, slug); the stems sort the same way as text, and are unique.
    logs.sort(key=lambda log: log[0])
    shown = f"{root.name}/{SESSIONS}/"
    names: tuple[SessionName, ...] = ()
    error: ParseError | None = None
    try:
        names = tuple(parse_session_names([entry.name for _, entry in logs], shown))
    except ParseError as bad_name:
        error = bad_name
    # Start-up: the write commands import this module (`read_optional`) and no scanner;
    # importing it costs them 6 ms (`python -X importtime`, least of 5).
    from mdmem.safety.secrets import reported_secrets

    kept = cache.Stamped(root, "logs")  # empty, and never saved, with MDMEM_NO_CACHE set
    reads = []
    for _, entry in logs:
        reads.append(_read_log(entry, shown + entry.name, kept, reported_secrets))
        if progress is not None and len(reads) % 500 == 0:
            progress(len(reads), len(logs))
    if progress is not None and logs:
        progress(len(logs), len(logs))
    kept.save()
    return Logs(tuple(reads), names, error, tuple(strays))


def _read_log(
    entry: os.DirEntry[str],
    display: str,
    kept: cache.Stamped,
    reported_secrets: Callable[..., list[SecretHit]],
) -> LogRead:
    stamp = cache.file_stamp(entry.stat(follow_symlinks=False))
    if (hit := kept.get(entry.name, stamp)) is not None:
        kept_scan, *kept_marks = hit  # as `put` below kept it (`store.cache.load`)
        return LogRead(entry.name, display, kept_scan, None, (kept_marks[0], kept_marks[1]), None)
    try:
        data = read_bytes(entry.path, display)
    except ParseError as unread:
        regular = entry.is_file(follow_symlinks=False)
        return LogRead(entry.name, display, None, unread, None, unread if regular else None)
    marks: Marks | None = None
    scan: Scan | None = None
    text_error = error = None
    try:
        text = text_of(data, display)
        secrets = reported_secrets(text, quoted=True)
        marks = conflict_marker_lines(text), [[s.line, s.column, s.category] for s in secrets]
    except ParseError as bad_text:
        text_error = bad_text
    try:
        scan = scan_log(data, display)
    except ParseError as bad_log:
        error = bad_log
    if scan is not None and marks is not None:
        kept.put(entry.name, stamp, [scan, *marks])
    return LogRead(entry.name, display, scan, error, marks, text_error)


def sessions_of(logs: Logs) -> tuple[Session, ...]:
    """The sessions of the logs read; the first error, in ledger order, is raised."""
    if logs.error is not None:
        raise logs.error
    sessions = []
    for name, log in zip(logs.names, logs.reads, strict=True):
        if log.error is not None or log.scan is None:
            raise log.error or ParseError("cannot be read", log.display)
        sessions.append(session_of(name, log.display, log.scan))
    return tuple(sessions)


def read_optional(root: Path, relative: str) -> TextFile | None:
    """The memory's file at `relative`, or None when there is none."""
    path = root / relative
    return read(path, f"{root.name}/{relative}") if exists(path) else None


@contextlib.contextmanager
def bulk_allocation() -> Iterator[None]:
    """Pause the cyclic garbage collector while a memory is read into many small objects
    and used (a review: plan, lint, write; lint alone).

    Reading creates hundreds of thousands of objects (the documents' lines and facts, the
    logs' yields decoded from the cache) and no reference cycles worth collecting; without
    the pause, collections take a sixth to a third of a review's or a lint's time at
    10,000 logs (benchmarks/README.md, "Mechanisms"). Nothing is frozen here
    (`gc.freeze` pins every object of the process, a library caller's garbage cycles too):
    the command line does it, just before it exits.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _forward(root: Path, relative: str, parse: Callable[[TextFile], T], absent: T) -> T:
    file = read_optional(root, relative)
    return absent if file is None else parse(file)


def load(
    root: Path,
    *,
    strict_ids: bool = True,
    progress: Progress | None = None,
    forward_layer: bool = True,
    logs: Logs | None = None,
) -> Memory:
    """Read and validate a memory folder; any problem raises a ParseError naming file and line.

    An id in two documents, or twice in the archive, is let through: it is what
    parallel reviews leave after a merge, and the review keeps one copy (`mdmem.reviewing.repair`).
    `strict_ids=False` accepts an id twice in continuity too (lint reports it as a finding).
    `progress(done, total)` is called now and then while the session logs are read.
    `forward_layer=False` leaves blocked.md and vision.md unread (lint reads them itself,
    so that an error in one is a finding of its own). `logs`: the session logs as
    `read_logs` read them, when the caller has them.
    """
    root = Path(root).resolve()
    label = root.name
    logs = read_logs(root, progress) if logs is None else logs
    continuity = parse_document(
        read(root / CONTINUITY, f"{label}/{CONTINUITY}"), unique_ids=strict_ids
    )
    archives = tuple(
        parse_document(read(path, f"{label}/{ARCHIVE}/{path.name}"), unique_ids=False)
        for path in archive_paths(root)
    )
    threads = thread_documents(root)
    sessions = sessions_of(logs)
    return Memory(
        root=root,
        continuity=continuity,
        archives=archives,
        sessions=sessions,
        policy=parse_policy(read_optional(root, POLICY)),
        reviews=read_optional(root, REVIEWS),
        index=read_optional(root, f"{ARCHIVE}/{INDEX}"),
        blocked=_forward(root, BLOCKED, parse_blocked, ()) if forward_layer else (),
        vision=_forward(root, VISION, parse_vision, None) if forward_layer else None,
        threads=threads,
        thread_layout=(root / OPEN_THREADS).is_dir(),
    )
