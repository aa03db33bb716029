"""Recording ids in a session log's `## Memory References`: one line per key, each id once.

`record` is pure (a log's text in, its new text out) so that every command that writes
the ledger (`ref` now; `add`, `supersede`, `forget` later) records the same way. Every
line but the one it extends stays byte for byte as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mdmem.format.edit import Edit, apply_edits, blank
from mdmem.format.sessionlog import (
    REFERENCES_HEADING,
    id_tokens,
    item_key,
    references_span,
)
from mdmem.format.textfile import BOM, TextFile, body, check_conflict_markers, ending, split_lines

# The keys `mdmem ref` writes, as its flags name them; the line is written capitalized.
REFERENCE_KEYS = ("referenced", "created", "reactivated", "helpful", "harmful")
NONE_MARK = "(none)"


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


def record(text: str, key: str, ids: Sequence[str], path: str = "session log") -> Recorded:
    """`text` with `ids` on the `- Key: ...` line of its `## Memory References` section.

    The first line with that key (case-insensitive) gets the ids that are not on it yet,
    after its last wrapped line (`(none)` alone is replaced); without one, a new line
    goes after the section's last non-blank line; without a section, one is appended.
    Every session references the ids anywhere in its section, so for `referenced` an id
    named anywhere there is already recorded. `path` names the log in errors.
    """
    bom = text.startswith(BOM)
    lines = split_lines(text[1:] if bom else text)
    check_conflict_markers(lines, path)
    newline = TextFile(path, lines).newline
    span = references_span(lines)
    if span is None:
        wanted = tuple(dict.fromkeys(ids))
        new = apply_edits(lines, [_new_section(lines, key, wanted, newline)], newline)
        return Recorded(_joined(new, bom), wanted, ())
    start, end = span
    items = _items(lines, start + 1, end)
    keyed = [item for item in items if item_key(lines[item[0]]) == key]
    if key == "referenced":
        present = set(id_tokens("".join(lines[start + 1 : end])))
    else:
        present = {
            token for first, last in keyed for token in id_tokens("".join(lines[first:last]))
        }
    added = tuple(dict.fromkeys(i for i in ids if i not in present))
    already = tuple(dict.fromkeys(i for i in ids if i in present))
    if not added:
        return Recorded(text, (), already)
    if keyed:
        edit = _extended(lines, keyed[0], added)
    else:
        at = _after_last(lines, start, end)
        edit = Edit(at, at, (_line(key, added, newline),))
    return Recorded(_joined(apply_edits(lines, [edit], newline), bom), added, already)


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


def _extended(lines: Sequence[str], item: tuple[int, int], ids: tuple[str, ...]) -> Edit:
    """The item's last line with the ids added after it."""
    first, last = item
    joined = ", ".join(ids)
    line = lines[last - 1]
    head, colon, rest = body(line).partition(":")
    if last - first == 1 and rest.strip().lower() == NONE_MARK:
        return Edit(first, last, (f"{head}{colon} {joined}{ending(line)}",))
    text = body(line).rstrip()
    separator = " " if text.endswith((":", ",")) else ", "
    return Edit(last - 1, last, (f"{text}{separator}{joined}{ending(line)}",))


def _after_last(lines: Sequence[str], start: int, end: int) -> int:
    """Where a new line of the section goes: after its last non-blank line."""
    for index in range(end - 1, start, -1):
        if not blank(lines[index]):
            return index + 1
    return start + 1


def _line(key: str, ids: tuple[str, ...], newline: str) -> str:
    return f"- {label(key)}: {', '.join(ids)}{newline}"


def _new_section(lines: Sequence[str], key: str, ids: tuple[str, ...], newline: str) -> Edit:
    """A `## Memory References` section at the end of a log that has none."""
    opening = (newline,) if lines and not blank(lines[-1]) else ()
    added = (*opening, REFERENCES_HEADING + newline, _line(key, ids, newline))
    return Edit(len(lines), len(lines), added)


def _joined(lines: Sequence[str], bom: bool) -> str:
    return (BOM if bom else "") + "".join(lines)
