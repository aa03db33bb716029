"""Reading a file of a memory: the one reader every command uses.

A file is read whole, never through a symbolic link (a link could lead reads, and the
review's writes, outside the repository), and its text is decoded strictly
(`mdmem.format.textfile.decode`); every problem is a ParseError naming the file.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from mdmem.errors import ParseError
from mdmem.format.textfile import BOM, BOM_BYTES, TextFile, checked_text, decode


def refuse_link(path: Path, display: str) -> None:
    """Refuse a file or folder that is a symbolic link."""
    if path.is_symlink():
        raise ParseError("is a symbolic link; mdmem does not follow links", display)


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
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # EMLINK: the BSDs' answer to a link
            raise ParseError("is a symbolic link; mdmem does not follow links", display) from None
        raise ParseError(f"cannot be read: {exc.strerror}", display) from None
    try:
        size = os.fstat(descriptor).st_size
        data = os.read(descriptor, size + 1)
        if len(data) <= size:
            return data
        rest = [data]  # the file grew since its size was taken: read to its end
        while rest[-1]:
            rest.append(os.read(descriptor, 1 << 16))
        return b"".join(rest)
    except OSError as exc:
        raise ParseError(f"cannot be read: {exc.strerror}", display) from None
    finally:
        os.close(descriptor)


def read(path: Path, display: str) -> TextFile:
    """The file at `path` as exact lines (strict UTF-8, endings kept)."""
    return decode(read_bytes(path, display), display)


def read_text(path: Path | str, display: str) -> str:
    """The text of the file at `path` as `read(path, display).text()` gives it (a BOM kept),
    without splitting it into lines: for the scanners that search a whole text."""
    data = read_bytes(path, display)
    text = checked_text(data, display)
    return BOM + text if data.startswith(BOM_BYTES) else text
