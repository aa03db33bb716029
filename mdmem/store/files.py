"""Reading a file of a memory: the one reader every command uses.

A file is read whole, never through a symbolic link (a link could lead reads, and the
review's writes, outside the repository), and its text is decoded strictly
(`mdmem.format.textfile.decode`); every problem is a ParseError naming the file.
"""

from __future__ import annotations

from pathlib import Path

from mdmem.errors import ParseError
from mdmem.format.textfile import TextFile, decode


def refuse_link(path: Path, display: str) -> None:
    """Refuse a file or folder that is a symbolic link."""
    if path.is_symlink():
        raise ParseError("is a symbolic link; mdmem does not follow links", display)


def read_bytes(path: Path, display: str) -> bytes:
    """The bytes of the file at `path`, shown to the user as `display`."""
    refuse_link(path, display)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ParseError(f"cannot be read: {exc.strerror}", display) from None


def read(path: Path, display: str) -> TextFile:
    """The file at `path` as exact lines (strict UTF-8, endings kept)."""
    return decode(read_bytes(path, display), display)
