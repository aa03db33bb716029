"""Reading a file of a memory: the one reader every command uses.

A file is read whole, never through a symbolic link (a link could lead reads, and the
review's writes, outside the repository), and its text is decoded strictly
(`mdmem.format.textfile.decode`); every problem is a ParseError naming the file.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mdmem.errors import ParseError
from mdmem.format.memory import ARCHIVE, INDEX, OPEN_THREADS, is_thread_name
from mdmem.format.textfile import BOM, BOM_BYTES, TextFile, checked_text, decode

if TYPE_CHECKING:  # a thread file's parser only where a memory has thread files
    from mdmem.format.document import Document


def refuse_link(path: Path, display: str) -> None:
    """Refuse a file or folder that is a symbolic link."""
    if path.is_symlink():
        raise ParseError("is a symbolic link; mdmem does not follow links", display)


def archive_paths(root: Path) -> list[Path]:
    folder = root / ARCHIVE
    if not folder.is_dir():
        return []
    refuse_link(folder, f"{root.name}/{ARCHIVE}")
    return sorted(p for p in folder.iterdir() if p.name.endswith(".md") and p.name != INDEX)


def thread_paths(root: Path) -> list[Path]:
    """The thread files of the protocol's v4.39 layout (`open-threads/thread-<id>.md`), by
    name; none when the memory keeps its threads in continuity."""
    folder = root / OPEN_THREADS
    if not folder.is_dir():
        return []
    refuse_link(folder, f"{root.name}/{OPEN_THREADS}")
    return sorted(p for p in folder.iterdir() if is_thread_name(p.name))


def thread_documents(root: Path) -> tuple[Document, ...]:
    """Every thread file, parsed; an error names the file and line."""
    # Start-up: lookup and context import this module; the parser only for thread files.
    from mdmem.format.threads import parse_thread

    label = f"{root.name}/{OPEN_THREADS}"
    return tuple(parse_thread(read(path, f"{label}/{path.name}")) for path in thread_paths(root))


# O_NOFOLLOW refuses a link in the open itself; where it is missing, a look first.
_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)


def read_bytes(path: Path | str, display: str) -> bytes:
    """The bytes of the file at `path`, shown to the user as `display`.

    One open, one stat and, for a file that did not change meanwhile, one read of its
    size: a review reads every session log, thousands of small files.
    """
    if not hasattr(os, "O_NOFOLLOW"):
        refuse_link(Path(path), display)
    try:
        descriptor = os.open(path, _FLAGS)
    except OSError as exc:
        raise _refused(exc, display) from None
    try:
        size = os.fstat(descriptor).st_size
        data = os.read(descriptor, size + 1)
        if len(data) <= size:
            return data
        return _to_end(descriptor, data)  # the file grew since its size was taken
    except OSError as exc:
        raise ParseError(f"cannot be read: {exc.strerror}", display) from None
    finally:
        os.close(descriptor)


def _refused(exc: OSError, display: str) -> ParseError:
    """The error for a file that would not open or read."""
    if exc.errno in (errno.ELOOP, errno.EMLINK):  # EMLINK: the BSDs' answer to a link
        return ParseError("is a symbolic link; mdmem does not follow links", display)
    return ParseError(f"cannot be read: {exc.strerror}", display)


_CHUNK = 1 << 16


def read_all(folder: Path, names: Sequence[str], display: str) -> list[bytes]:
    """The bytes of each named file of `folder`, in order; a file is shown as `display`
    (the folder as shown, ending in `/`) and its name.

    `lookup --sessions` reads thousands of small logs, so each is opened relative to the
    folder's descriptor (no path resolved again) and read in one call of a fixed size,
    without a stat; a file that fills it is read on to its end."""
    if os.open not in os.supports_dir_fd or not hasattr(os, "O_NOFOLLOW"):
        return [read_bytes(folder / name, display + name) for name in names]
    name = ""
    try:
        where = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise _refused(exc, display.removesuffix("/")) from None
    found = []
    opened, read_at, close = os.open, os.read, os.close
    try:
        for name in names:
            descriptor = opened(name, _FLAGS, dir_fd=where)
            try:
                data = read_at(descriptor, _CHUNK)
                if len(data) == _CHUNK:
                    data = _to_end(descriptor, data)
            finally:
                close(descriptor)
            found.append(data)
    except OSError as exc:
        raise _refused(exc, display + name) from None
    finally:
        close(where)
    return found


def _to_end(descriptor: int, start: bytes) -> bytes:
    """`start` and the rest of the open file, to its end."""
    rest = [start]
    while rest[-1]:
        rest.append(os.read(descriptor, _CHUNK))
    return b"".join(rest)


def read(path: Path, display: str) -> TextFile:
    """The file at `path` as exact lines (strict UTF-8, endings kept)."""
    return decode(read_bytes(path, display), display)


def read_text(path: Path | str, display: str) -> str:
    """The text of the file at `path` as `read(path, display).text()` gives it (a BOM kept),
    without splitting it into lines: for the scanners that search a whole text."""
    return text_of(read_bytes(path, display), display)


def text_of(data: bytes, display: str) -> str:
    """The text of a file's bytes, as `read_text` gives it."""
    text = checked_text(data, display)
    return BOM + text if data.startswith(BOM_BYTES) else text
