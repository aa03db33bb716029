"""Loading a memory folder from disk into plain, immutable data for the pure review."""

from __future__ import annotations

import contextlib
import functools
import gc
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

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
from mdmem.format.textfile import TextFile
from mdmem.format.vision import parse_vision
from mdmem.store import workers
from mdmem.store.files import archive_paths, read, read_bytes, refuse_link, thread_documents

Progress = Callable[[int, int], None]  # (files done, files in all)
T = TypeVar("T")


def _session_logs(root: Path) -> list[tuple[SessionName, str]]:
    """(name, file name) of every session log, in ledger order; a name that breaks the
    convention is an error."""
    folder = root / SESSIONS
    if not folder.is_dir():
        return []
    refuse_link(folder, f"{root.name}/{SESSIONS}")
    # Ledger order is (date, time, slug); the stems sort the same way as text, and are unique.
    files = sorted((name for name in os.listdir(folder) if name.endswith(".md")), key=_stem)
    names = parse_session_names(files, f"{root.name}/{SESSIONS}/")
    return list(zip(names, files, strict=True))


def _stem(filename: str) -> str:
    return filename[:-3]


# A log to scan: its path and its path as shown.
_LogJob = tuple[str, str]
# The share of the logs that a helper process scans, while this one parses the
# continuity and archive files and then scans the rest (see mdmem.store.workers), and
# builds every session from the scans. Counted in instructions on the benchmark memory,
# the documents cost about three quarters of what the logs do, so each process has half
# of the whole when the helper takes (3/4 + 1) / 2 of the logs; a little less, since
# this process also builds the sessions.
HELPER_SHARE = 0.8


@contextlib.contextmanager
def reading_sessions(
    root: Path, progress: Progress | None = None
) -> Iterator[Callable[[], tuple[Session, ...]]]:
    """Start reading the session logs; the function yielded finishes it and returns them.

    On a machine with a second core a helper process starts at once and scans part of
    the logs, so that the caller can parse other files meanwhile. Errors are raised by
    the function, in ledger order.
    """
    try:
        logs = _session_logs(root)
    except ParseError as error:
        yield functools.partial(_raise, error)  # when the sessions are asked for, as before
        return
    folder = os.path.join(root, SESSIONS, "")  # each log's path is this and its name
    shown = f"{root.name}/{SESSIONS}/"
    jobs = [(folder + file, shown + file) for _, file in logs]

    with workers.Shared(_scan_log, jobs, HELPER_SHARE) as shared:

        def finish() -> tuple[Session, ...]:
            own: list[Scan] = []
            for job in shared.own:
                own.append(_scan_log(job))
                if progress is not None and len(own) % 500 == 0:  # the helper keeps pace
                    progress(len(own) * len(jobs) // len(shared.own), len(jobs))
            scans = shared.results(own)
            if progress is not None and jobs:
                progress(len(jobs), len(jobs))
            return tuple(
                session_of(name, display, scan)
                for (name, _), (_, display), scan in zip(logs, jobs, scans, strict=True)
            )

        yield finish


def _raise(error: Exception) -> tuple[Session, ...]:
    raise error


def _scan_log(job: _LogJob) -> Scan:
    """One log's scan, from its bytes: no state, so a helper process can run it."""
    path, display = job
    return scan_log(read_bytes(path, display), display)


def read_optional(root: Path, relative: str) -> TextFile | None:
    """The memory's file at `relative`, or None when there is none."""
    path = root / relative
    if not path.exists() and not path.is_symlink():
        return None
    return read(path, f"{root.name}/{relative}")


@contextlib.contextmanager
def bulk_allocation() -> Iterator[None]:
    """Pause the cyclic garbage collector while a memory is parsed into many small objects
    and used (a review: plan, secret scan, write).

    Parsing creates hundreds of thousands of objects and no reference cycles worth
    collecting; without the pause, collections take a third of a large review's time.
    Nothing is frozen here (`gc.freeze` pins every object of the process, a library
    caller's garbage cycles too): the command line does it, just before it exits.
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
) -> Memory:
    """Read and validate a memory folder; any problem raises a ParseError naming file and line.

    An id in two documents, or twice in the archive, is let through: it is what
    parallel reviews leave after a merge, and the review keeps one copy (`mdmem.reviewing.repair`).
    `strict_ids=False` accepts an id twice in continuity too (lint reports it as a finding).
    `progress(done, total)` is called now and then while the session logs are read.
    `forward_layer=False` leaves blocked.md and vision.md unread (lint reads them itself,
    so that an error in one is a finding of its own).
    """
    root = Path(root).resolve()
    label = root.name
    with reading_sessions(root, progress) as finish_sessions:
        continuity = parse_document(
            read(root / CONTINUITY, f"{label}/{CONTINUITY}"), unique_ids=strict_ids
        )
        archives = tuple(
            parse_document(read(path, f"{label}/{ARCHIVE}/{path.name}"), unique_ids=False)
            for path in archive_paths(root)
        )
        threads = thread_documents(root)
        sessions = finish_sessions()
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
