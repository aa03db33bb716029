"""Ledger events whose order matters: `Superseded:`, `Restored:` and `Forgotten:` lines.

`record` (references.py) extends the first line of a key, which is right for references
but not for these: the review applies `Superseded:` and `Restored:` in ledger order, so a
restore appended to an earlier `Restored:` line would land before the supersession it
undoes. Each event is therefore a new line at the end of the section. Pure: a log's text
in, its new text out; every other line stays byte for byte.
"""

from __future__ import annotations

from mdmem.format.edit import Edit, apply_edits, blank
from mdmem.format.sessionlog import REFERENCES_HEADING, references_span
from mdmem.format.textfile import BOM, TextFile, check_conflict_markers, split_lines

EVENTS = ("superseded", "restored", "forgotten")
INVALIDATED = "(invalidated)"


def event_line(key: str, old: str, new: str | None = None) -> str:
    """`Superseded: OLD → NEW` (`OLD (invalidated)` without NEW), `Restored: OLD`,
    `Forgotten: OLD`, as the line's text after its `- `."""
    if key not in EVENTS:
        raise ValueError(f"not an ordered event: {key!r}")
    if key != "superseded":
        return f"{key.capitalize()}: {old}"
    return f"Superseded: {old} → {new}" if new else f"Superseded: {old} {INVALIDATED}"


def record_event(
    text: str, key: str, old: str, new: str | None = None, path: str = "session log"
) -> str:
    """`text` with the event as a new last line of its `## Memory References` section
    (after the section's last non-blank line; a section is appended when there is none)."""
    bom = text.startswith(BOM)
    lines = split_lines(text[1:] if bom else text)
    check_conflict_markers(lines, path)
    newline = TextFile(path, lines).newline
    line = f"- {event_line(key, old, new)}{newline}"
    span = references_span(lines)
    if span is None:
        opening = (newline,) if lines and not blank(lines[-1]) else ()
        edit = Edit(len(lines), len(lines), (*opening, REFERENCES_HEADING + newline, line))
    else:
        start, end = span
        at = next((i + 1 for i in range(end - 1, start, -1) if not blank(lines[i])), start + 1)
        edit = Edit(at, at, (line,))
    return (BOM if bom else "") + "".join(apply_edits(lines, [edit], newline))
