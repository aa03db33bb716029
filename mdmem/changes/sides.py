"""One side of a change: a memory parsed from its files' bytes (a commit's blobs, or the
working tree), with the existing parsers. Pure: the bytes are given.

An item (or a file) that does not parse is left out of its side and its error handed to
`format.leftout` (SPEC §2: a reading command leaves out what it cannot read and names
it), once for each side that holds it (`side`). The two sides share most of their files,
so what is parsed is kept by (path, bytes) in a `Parsed` cache that both sides use: a
10,000-session memory with a 20-session branch scans 10,020 logs, not 20,000.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from mdmem.changes.model import Unreadable
from mdmem.errors import ParseError
from mdmem.format.blocked import BlockedEntry, parse_blocked
from mdmem.format.document import Document, parse_document
from mdmem.format.leftout import holders, leave_out, leaving_out, left_out
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
    is_thread_name,
)
from mdmem.format.policy import parse_policy
from mdmem.format.sessionlog import Session, parse_session_name, scan_log, session_of
from mdmem.format.textfile import TextFile, decode
from mdmem.format.threads import parse_thread
from mdmem.format.vision import parse_vision
from mdmem.linting.texts import parse_finding

T = TypeVar("T")
Parsed = dict[tuple[str, str, bytes], Any]  # (kind, path, bytes) -> what the parser made


def memory_of(label: str, files: Mapping[str, bytes], parsed: Parsed | None = None) -> Memory:
    """The memory whose files (paths relative to the memory folder, '/'-separated) are
    `files`; `label` is the folder's name as paths are shown."""
    cache: Parsed = {} if parsed is None else parsed

    def document(relative: str, parse: Callable[[TextFile], T], absent: T) -> T:
        data = files.get(relative)
        if data is None:
            return absent
        return _parsed(
            cache, relative, data, lambda: parse(decode(data, f"{label}/{relative}")), absent
        )

    archives = [
        name for name in files if _in_folder(name, ARCHIVE) and not name.endswith(f"/{INDEX}")
    ]
    threads = [
        name
        for name in files
        if _in_folder(name, OPEN_THREADS) and is_thread_name(name.split("/")[-1])
    ]
    archive = functools.partial(parse_document, unique_ids=False)
    empty = Document(TextFile(f"{label}/{CONTINUITY}", ()), (), (), ())
    no_entries: tuple[BlockedEntry, ...] = ()
    return Memory(
        root=Path(label),
        continuity=document(CONTINUITY, parse_document, empty),
        archives=_present(document(name, archive, None) for name in sorted(archives)),
        sessions=_sessions(label, files, cache),
        policy=document(POLICY, parse_policy, parse_policy(None)),
        reviews=document(REVIEWS, _same, None),
        index=document(f"{ARCHIVE}/{INDEX}", _same, None),
        blocked=document(BLOCKED, parse_blocked, no_entries),
        vision=document(VISION, parse_vision, None),
        threads=_present(document(name, parse_thread, None) for name in sorted(threads)),
        thread_layout=any(name.startswith(f"{OPEN_THREADS}/") for name in files),
    )


def side(
    name: str, label: str, files: Mapping[str, bytes], parsed: Parsed
) -> tuple[Memory, tuple[Unreadable, ...]]:
    """The memory of one side (`name`: base or head) and what it holds that cannot be read,
    each item also handed on to the command's own list (`format.leftout`)."""
    with leaving_out() as errors:
        memory = memory_of(label, files, parsed)
    for error in errors:
        leave_out(error)
    documents = (*memory.live, *memory.archives, *(d for d in [memory.vision] if d))
    read = {fact.id for document in documents for fact in document.facts}

    def lines_of(path: str) -> list[str] | None:
        data = files.get(path.removeprefix(f"{label}/"))
        return None if data is None else data.decode("utf-8", "replace").splitlines()

    held = holders(lines_of, errors)
    items = []
    for error in left_out(errors):
        shown = parse_finding(error, label)
        ids = sorted(i for i, holder in held.items() if holder is error and i not in read)
        items.append(Unreadable(name, shown.path, shown.line, shown.message, tuple(ids)))
    return memory, tuple(items)


def _same(file: TextFile) -> TextFile:
    return file


def _present(documents: Any) -> tuple[Document, ...]:
    return tuple(document for document in documents if document is not None)


def _in_folder(name: str, folder: str) -> bool:
    """A file directly in `folder` (not below it) with a markdown name."""
    head, _, rest = name.partition("/")
    return head == folder and "/" not in rest and rest.endswith(".md")


def _sessions(label: str, files: Mapping[str, bytes], cache: Parsed) -> tuple[Session, ...]:
    """The session logs, in ledger order; a log whose name or bytes cannot be read is
    left out."""
    sessions = []
    for relative in sorted(
        (name for name in files if _in_folder(name, SESSIONS)), key=lambda n: n[:-3]
    ):
        display = f"{label}/{relative}"
        data = files[relative]

        def scanned(display: str = display, data: bytes = data) -> Session:
            name = parse_session_name(display.rsplit("/", 1)[-1], display)
            return session_of(name, display, scan_log(data, display))

        session = _parsed(cache, relative, data, scanned, None)
        if session is not None:
            sessions.append(session)
    return tuple(sessions)


def _parsed(cache: Parsed, relative: str, data: bytes, parse: Callable[[], T], absent: T) -> T:
    """`parse()`, once per (path, bytes), the items it leaves out (`absent` when the whole
    file is) kept with it and handed to `format.leftout` on each side that reads it."""
    key = ("file", relative, data)
    if key not in cache:
        with leaving_out() as errors:
            try:
                made = parse()
            except ParseError as refused:
                errors.append(refused)
                made = absent
        cache[key] = (made, tuple(errors))
    found, unread = cache[key]
    for error in unread:
        leave_out(error)
    kept: T = found
    return kept
