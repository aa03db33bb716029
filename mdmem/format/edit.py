"""Line edits on a document: replace, remove and insert whole lines, touching nothing else."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mdmem.format.document import Document, Section
from mdmem.format.textfile import body, with_ending


@dataclass(frozen=True)
class Edit:
    """Replace lines [start, end) with `lines`; start == end inserts."""

    start: int
    end: int
    lines: tuple[str, ...]


def apply_edits(lines: tuple[str, ...], edits: Iterable[Edit], newline: str) -> list[str]:
    """The lines after the edits; a last line that gets lines after it ends in `newline`."""
    ordered = sorted(edits, key=lambda edit: (edit.start, edit.end))
    out: list[str] = []
    position = 0
    for edit in ordered:
        if edit.start < position:
            raise AssertionError(f"overlapping edits at line {edit.start + 1}")
        out.extend(lines[position : edit.start])
        out.extend(edit.lines)
        position = edit.end
    out.extend(lines[position:])
    if len(out) > 1:
        # A line that was last (no ending) and now has lines after it needs one.
        for index in range(len(out) - 1):
            if not out[index].endswith("\n"):  # every ending, CRLF too, ends in LF
                out[index] = out[index] + newline
    return out


def blank(line: str) -> bool:
    return not body(line).strip()


def removal(lines: tuple[str, ...], start: int, end: int) -> Edit:
    """Remove an item; when it stood between blank lines, take the blank after it too."""
    if start > 0 and blank(lines[start - 1]):
        while end < len(lines) and blank(lines[end]):
            end += 1
    return Edit(start, end, ())


def normalized(lines: Iterable[str], newline: str) -> tuple[str, ...]:
    return tuple(with_ending(line, newline) for line in lines)


def append_point(document: Document, section: Section, removed: set[int]) -> tuple[int, bool]:
    """Where new items go in a section: after its last kept, non-blank line.

    Returns the index and whether a blank line must open the insertion (loose list,
    or a section that holds only its heading).
    """
    lines = document.lines
    for index in range(section.end - 1, section.start, -1):
        if index not in removed and not blank(lines[index]):
            return index + 1, _loose(document, section)
    return section.start + 1, True


def _loose(document: Document, section: Section) -> bool:
    facts = [f for f in document.facts if section.start < f.start < section.end]
    return any(blank(document.lines[b.start - 1]) for b in facts[1:])
