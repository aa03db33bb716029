"""Recording ids in a session log's `## Memory References`: one line per key, each id once.

`record` and `record_event` are pure (a log's text in, its new text out) so that
every command that writes the ledger (`ref`, `add`, `supersede`, `forget`) records the
same way. Every line but the one written stays byte for byte as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mdmem.format.edit import Edit, apply_edits, blank
from mdmem.format.sessionlog import (
    REFERENCES_HEADING,
    id_tokens,
    item_key,
    listed_ids,
    note_left_open,
    references_span,
    references_spans,
    scan_log,
)
from mdmem.format.textfile import BOM, TextFile, body, check_conflict_markers, ending, split_lines

# The keys `mdmem ref` writes, as its flags name them; the line is written capitalized.
REFERENCE_KEYS = ("referenced", "created", "reactivated", "helpful", "harmful")
NONE_MARK = "(none)"
SUPERSEDED = "superseded"
ARROW = "→"
INVALIDATED = "(invalidated)"


@dataclass(frozen=True)
class Recorded:
    """A log's text after recording, and which ids were new on their line."""

    text: str
    added: tuple[str, ...]
    already: tuple[str, ...]  # on the key's line already (or, for Referenced, in the section)

    @property
    def changed(self) -> bool:
        return bool(self.added)


def label(key: str) -> str:
    """`referenced` -> `Referenced`, as the line is written."""
    return key.capitalize()


def record(
    text: str, key: str, ids: Sequence[str], path: str = "session log", width: int | None = None
) -> Recorded:
    """`text` with `ids` on the `- Key: ...` line of its `## Memory References` section.

    The first line with that key (case-insensitive) gets the ids that are not on it yet,
    after its last wrapped line (`(none)` alone is replaced); without one, a new line
    goes after the section's last non-blank line; without a section, one is appended.
    Every session references the ids anywhere in its section, so for `referenced` an id
    named anywhere there is already recorded. `path` names the log in errors. With
    `width`, the ids written wrap onto indented lines before a line passes that width.
    """
    bom, lines, newline = _split(text, path)
    span = references_span(lines)
    if span is None:
        wanted = tuple(dict.fromkeys(ids))
        edit = _new_section(lines, _line(key, wanted, newline, width), newline)
        return Recorded(_joined(apply_edits(lines, [edit], newline), bom), wanted, ())
    start, end = span
    items = _items(lines, start + 1, end)
    keyed = [item for item in items if item_key(lines[item[0]]) == key]
    if key == "referenced":  # named in any section (a heading written twice is read twice)
        present = {
            token
            for first, last in references_spans(lines)
            for token in id_tokens("".join(lines[first + 1 : last]))
        }
    else:
        present = {  # an id in a note is no event: recorded on the line
            token for first, last in keyed for token in listed_ids("".join(lines[first:last]))
        }
    added = tuple(dict.fromkeys(i for i in ids if i not in present))
    already = tuple(dict.fromkeys(i for i in ids if i in present))
    if not added:
        return Recorded(text, (), already)
    keyed = [item for item in keyed if not note_left_open("".join(lines[slice(*item)]))]
    if keyed:
        edit = _extended(lines, keyed[0], added, newline, width)
    else:
        at = _after_last(lines, start, end)
        edit = Edit(at, at, (_line(key, added, newline, width),))
    return Recorded(_joined(apply_edits(lines, [edit], newline), bom), added, already)


# Events whose order matters: the review applies `Superseded:` and `Restored:` in ledger
# order, so each is a line of its own at the end of the section (`record` would extend an
# earlier line of the key, and a restore could land before the supersession it undoes).
ORDERED = (SUPERSEDED, "restored", "forgotten")


def event_line(key: str, old: str, new: str | None = None) -> str:
    """`Superseded: OLD → NEW` (`OLD (invalidated)` without NEW), `Restored: OLD`,
    `Forgotten: OLD`: the line's text after its `- `."""
    if key != SUPERSEDED:
        return f"{label(key)}: {old}"
    return f"{label(key)}: {old} {ARROW} {new}" if new else f"{label(key)}: {old} {INVALIDATED}"


def record_event(
    text: str, key: str, old: str, new: str | None = None, path: str = "session log"
) -> Recorded:
    """`text` with the event `- Key: OLD` (for `superseded`, `→ NEW` or `(invalidated)`)
    as a line of its own after the section's last non-blank line (a `- Key: (none)` line
    after every other ordered event is replaced; without a section, one is appended).

    Already recorded, and nothing changes, when the log's last ordered event about OLD
    is this very one.
    """
    bom, lines, newline = _split(text, path)
    if _last_event(text, old, path) == (key, new if key == SUPERSEDED else None):
        return Recorded(text, (), (old,))
    line = f"- {event_line(key, old, new)}{newline}"
    span = references_span(lines)
    if span is None:
        edit = _new_section(lines, line, newline)
    else:
        start, end = span
        items = [
            (first, last, item_key(lines[first])) for first, last in _items(lines, start + 1, end)
        ]
        later = [first for first, _, found in items if found in ORDERED]
        empty = [
            first
            for first, last, found in items
            if found == key
            and last - first == 1
            and body(lines[first]).partition(":")[2].strip().lower() == NONE_MARK
            and first >= max(later, default=first)
        ]
        at = _after_last(lines, start, end)
        edit = Edit(empty[0], empty[0] + 1, (line,)) if empty else Edit(at, at, (line,))
    return Recorded(_joined(apply_edits(lines, [edit], newline), bom), (old,), ())


def _last_event(text: str, old: str, path: str) -> tuple[str, str | None] | None:
    """The kind and successor (for a supersession) of the log's last ordered event about
    `old`."""
    _, events, _, _ = scan_log(text.encode("utf-8"), path)
    found = None
    for kind, ids, new_id, _ in events:
        if kind in ORDERED and old in ids:
            found = (kind, new_id if kind == SUPERSEDED else None)
    return found


def _items(lines: Sequence[str], begin: int, end: int) -> list[tuple[int, int]]:
    """[first, last) line indexes of each top-level item in lines[begin:end]: its first
    line and the indented lines that continue it."""
    found = []
    index = begin
    while index < end:
        if lines[index][:1] in ("-", "*", "+") and item_key(lines[index]) is not None:
            last = index + 1
            while last < end and lines[last][:1] in (" ", "\t") and not blank(lines[last]):
                last += 1
            found.append((index, last))
            index = last
        else:
            index += 1
    return found


def _extended(
    lines: Sequence[str],
    item: tuple[int, int],
    ids: tuple[str, ...],
    newline: str,
    width: int | None,
) -> Edit:
    """The item's last line with the ids added after it."""
    first, last = item
    line = lines[last - 1]
    head, colon, rest = body(line).partition(":")
    if last - first == 1 and rest.strip().lower() == NONE_MARK:
        first_line, head_text = first, f"{head}{colon}"
    else:
        text = body(line).rstrip()
        first_line, head_text = last - 1, text + ("" if text.endswith((":", ",")) else ",")
    *inner, final = flowed(head_text, ids, width)
    return Edit(first_line, last, (*(part + newline for part in inner), final + ending(line)))


def flowed(head: str, ids: Sequence[str], width: int | None = None) -> list[str]:
    """`head` and the ids after it, comma separated; with `width`, an id that would take a
    line past it starts an indented line of its own (a wrapped item), as long as the line
    it leaves holds an id."""
    lines: list[str] = []
    line, holds_id = head, not head.rstrip().endswith(":")
    for index, fact_id in enumerate(ids):
        word = f" {fact_id}" + ("," if index < len(ids) - 1 else "")
        if width is not None and holds_id and len(line) + len(word) > width:
            lines.append(line)
            line = " "
        line += word
        holds_id = True
    return [*lines, line]


def _after_last(lines: Sequence[str], start: int, end: int) -> int:
    """Where a new line of the section goes: after its last non-blank line."""
    for index in range(end - 1, start, -1):
        if not blank(lines[index]):
            return index + 1
    return start + 1


def _line(key: str, ids: tuple[str, ...], newline: str, width: int | None) -> str:
    return "".join(line + newline for line in flowed(f"- {label(key)}:", ids, width))


def _new_section(lines: Sequence[str], line: str, newline: str) -> Edit:
    """A `## Memory References` section holding `line` at the end of a log that has none."""
    opening = (newline,) if lines and not blank(lines[-1]) else ()
    added = (*opening, REFERENCES_HEADING + newline, line)
    return Edit(len(lines), len(lines), added)


def _split(text: str, path: str) -> tuple[bool, tuple[str, ...], str]:
    """Whether the text opens with a BOM, its lines after it, and its line ending."""
    bom = text.startswith(BOM)
    lines = split_lines(text[1:] if bom else text)
    check_conflict_markers(lines, path)
    return bom, lines, TextFile(path, lines).newline


def _joined(lines: Sequence[str], bom: bool) -> str:
    return (BOM if bom else "") + "".join(lines)
