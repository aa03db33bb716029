"""The `## Project State` stamps the review keeps: last_review and last_invariant_check."""

from __future__ import annotations

import re

from mdmem.format.document import Document
from mdmem.format.edit import Edit, append_point
from mdmem.format.sections import PROJECT_STATE_SECTION
from mdmem.format.textfile import TextFile, body, ending
from mdmem.reviewing.rows import throughs

_STAMP = re.compile(r"^(?P<lead>[-*+][ \t]+\*\*(?P<key>[a-z_]+):\*\*[ \t]*)(?P<value>.*?)[ \t]*$")
# The session a stamp names: `through STEM`, as mdmem writes it, also inside parentheses or
# followed by punctuation (`(through 2026-07-16-154437)`), as people write it.
_THROUGH = re.compile(r"\bthrough\s+([\w.-]*\w)")


def read_stamps(document: Document) -> dict[str, tuple[int, str]]:
    """key -> (line index, value) for the `**key:** value` bullets of Project State."""
    return {key: (index, value) for key, (index, value, _) in _stamp_lines(document).items()}


def _stamp_lines(document: Document) -> dict[str, tuple[int, str, str]]:
    """key -> (line index, value, the line's text before the value); the first line wins."""
    section = document.section(PROJECT_STATE_SECTION)
    if section is None:
        return {}
    found: dict[str, tuple[int, str, str]] = {}
    for index in range(section.start + 1, section.end):
        match = _STAMP.match(body(document.lines[index]))
        if match and match["key"] not in found:
            found[match["key"]] = (index, match["value"], match["lead"])
    return found


def stamp_value(date: str, through: str) -> str:
    """`2026-10-28 | through 2026-10-28-120000-x`: a stamp's value, `stamp_through` reads it."""
    return f"{date} | through {through}"


def stamp_through(value: str | None) -> str | None:
    if value is None:
        return None
    match = _THROUGH.search(value)
    return match[1] if match else None


def last_review_through(continuity: Document, reviews: TextFile | None) -> str | None:
    """The newest session the last review read: the stamp, else the last row of reviews.md."""
    stamp = read_stamps(continuity).get("last_review")
    if stamp is not None:
        return stamp_through(stamp[1])
    rows = throughs(reviews)
    return rows[-1] if rows else None


def stamp_edits(document: Document, stamps: dict[str, str]) -> list[Edit]:
    """Set each stamp in Project State (only when that section exists)."""
    section = document.section(PROJECT_STATE_SECTION)
    if section is None:
        return []
    current = _stamp_lines(document)
    newline = document.file.newline
    edits: list[Edit] = []
    missing: list[str] = []
    for key, value in stamps.items():
        if key in current:
            index, old, lead = current[key]
            if old != value:
                new = lead + value + ending(document.lines[index])
                edits.append(Edit(index, index + 1, (new,)))
        else:
            missing.append(f"- **{key}:** {value}{newline}")
    if missing:
        point, _ = append_point(document, section, set())
        if point == section.start + 1:
            missing.insert(0, newline)
        edits.append(Edit(point, point, tuple(missing)))
    return edits
