"""Memory files as exact lines: strict UTF-8, with the BOM and every line ending kept."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

from mdmem.errors import ParseError

BOM = "\ufeff"
BOM_BYTES = BOM.encode("utf-8")
LONE_CR = re.compile(r"\r(?!\n)")
# A merge-conflict marker line: one of git's marker runs, then whitespace or the line's end.
MARKER_RUNS = ("<<<<<<<", "=======", ">>>>>>>", "|||||||")
_CONFLICT_MARKER = re.compile("(?:" + "|".join(map(re.escape, MARKER_RUNS)) + r")(?:\s|$)")


@dataclass(frozen=True)
class TextFile:
    """A text file split into lines that each keep their own ending."""

    path: str
    lines: tuple[str, ...]
    bom: bool = False

    @functools.cached_property
    def newline(self) -> str:
        """The dominant line ending, used for lines the review adds (counted once per file)."""
        crlf = sum(map(str.endswith, self.lines, repeat("\r\n")))
        lf = sum(map(str.endswith, self.lines, repeat("\n"))) - crlf
        return "\r\n" if crlf > lf else "\n"

    def text(self) -> str:
        return (BOM if self.bom else "") + "".join(self.lines)

    def with_lines(self, lines: list[str] | tuple[str, ...]) -> TextFile:
        return TextFile(self.path, tuple(lines), self.bom)


def split_lines(text: str) -> tuple[str, ...]:
    """Split on LF only, keeping endings; CR stays part of a CRLF ending."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return tuple(lines)


def body(line: str) -> str:
    """A line without its ending."""
    if line.endswith("\r\n"):
        return line[:-2]
    if line.endswith("\n"):
        return line[:-1]
    return line


def ending(line: str) -> str:
    return line[len(body(line)) :]


def with_ending(line: str, newline: str) -> str:
    return body(line) + newline


def decode(data: bytes, path: str) -> TextFile:
    """Decode strict UTF-8, naming the line of the first bad byte.

    A carriage return that ends no CRLF is refused: read as text it would glue lines
    together (a file with classic Mac endings would hold no facts at all), and read
    as a line ending it could not be written back byte for byte.
    """
    return TextFile(path, split_lines(checked_text(data, path)), data.startswith(BOM_BYTES))


def checked_text(data: bytes, path: str) -> str:
    """The text `decode` splits into lines: `decode_text`, with no lone carriage return."""
    text = decode_text(data, path)
    if "\r" in text:
        lone = LONE_CR.search(text)
        if lone is not None:
            raise ParseError(
                "a carriage return (CR) that is not part of a CRLF line ending; save the file "
                "with LF or CRLF line endings",
                path,
                text.count("\n", 0, lone.start()) + 1,
            )
    return text


def decode_text(data: bytes, path: str) -> str:
    """The text of a file's bytes: strict UTF-8, a leading BOM dropped, no BOM elsewhere."""
    if data.startswith(BOM_BYTES):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ParseError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); save the file as UTF-8",
            path,
            line,
        ) from None
    if BOM in text:
        line = text.count("\n", 0, text.index(BOM)) + 1
        raise ParseError("a byte-order mark (U+FEFF) inside the file", path, line)
    return text


def conflict_marker_lines(text: str | Sequence[str]) -> list[int]:
    """The 1-based numbers of the lines of a text, or of its lines, that are conflict markers."""
    whole = text if isinstance(text, str) else "".join(text)
    for run in MARKER_RUNS:
        if run in whole:
            break
    else:
        return []  # the usual text, found clean by substring search alone
    if isinstance(text, str):
        text = split_lines(text)
    return [number for number, line in enumerate(text, 1) if _CONFLICT_MARKER.match(line)]


def check_conflict_markers(text: str | Sequence[str], path: str) -> None:
    """Refuse a text, or its lines, that still holds merge-conflict markers."""
    markers = conflict_marker_lines(text)
    if markers:
        raise ParseError(
            "merge-conflict marker; resolve the conflict before running mdmem", path, markers[0]
        )
