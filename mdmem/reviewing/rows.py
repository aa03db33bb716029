"""`reviews.md`: one appended table row per review, the snapshot that trends and cadences read."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mdmem.errors import ParseError
from mdmem.format.sessionlog import SessionName, parse_session_name
from mdmem.format.textfile import TextFile, body, ending

TIER_COLUMNS = ("core", "active", "working", "archive-candidate", "archived", "superseded")
COLUMNS = ("ledger date", "through", "sessions", *TIER_COLUMNS, "open threads", "out", "in")
_ROW = re.compile(r"^\|\s*(\d{4}-\d{2}-\d{2})\s*\|\s*([^|\s]+)\s*\|")


@dataclass(frozen=True)
class ReviewRow:
    ledger_date: str
    through: str
    sessions: int
    tiers: tuple[int, ...]  # in TIER_COLUMNS order
    open_threads: int
    moved_out: int
    moved_in: int

    def render(self) -> str:
        cells = [self.ledger_date, self.through, str(self.sessions), *map(str, self.tiers)]
        cells += [str(self.open_threads), str(self.moved_out), str(self.moved_in)]
        return "| " + " | ".join(cells) + " |"


def header(newline: str) -> str:
    return (
        newline.join(
            [
                "# Reviews",
                "",
                "One row per `mdmem review`, appended by the review: the ledger date, the newest",
                "session it read, the number of sessions, facts per tier, and the facts moved.",
                "",
                "| " + " | ".join(COLUMNS) + " |",
                "|" + "---|" * len(COLUMNS),
            ]
        )
        + newline
    )


def throughs(file: TextFile | None) -> list[str]:
    """The through-session of every row, in ledger order (as the review writes them)."""
    if file is None:
        return []
    found = []
    for line in in_ledger_order(file.lines):
        match = _ROW.match(body(line))
        if match:
            found.append(match[2])
    return found


def read_rows(file: TextFile | None) -> list[ReviewRow]:
    """Every row as a value, in ledger order, exact duplicates once (as `in_ledger_order`).

    A row whose cells are not the review's columns raises a ParseError naming its line.
    """
    if file is None:
        return []
    keyed: dict[str, tuple[tuple[str, str, str, str], ReviewRow]] = {}
    for number, line in enumerate(file.lines, 1):
        text = body(line).strip()
        if _ROW.match(text) and text not in keyed:
            keyed[text] = (_ledger_key(text), _parse_row(text, file.path, number))
    return [row for _, row in sorted(keyed.values(), key=lambda pair: pair[0])]


def _parse_row(text: str, path: str, line: int) -> ReviewRow:
    cells = [cell.strip() for cell in text.strip("|").split("|")]
    numbers = cells[2:]
    if len(cells) != len(COLUMNS) or not all(cell.isascii() and cell.isdigit() for cell in numbers):
        raise ParseError(
            f"a review row has {len(COLUMNS)} cells, whole numbers after the first two "
            f"({' | '.join(COLUMNS)})",
            path,
            line,
        )
    counts = [int(cell) for cell in numbers]
    tiers = len(TIER_COLUMNS)
    return ReviewRow(
        ledger_date=cells[0],
        through=cells[1],
        sessions=counts[0],
        tiers=tuple(counts[1 : 1 + tiers]),
        open_threads=counts[1 + tiers],
        moved_out=counts[2 + tiers],
        moved_in=counts[3 + tiers],
    )


def appended(file: TextFile | None, row: ReviewRow, newline: str) -> str:
    if file is None:
        return header(newline) + row.render() + newline
    lines = list(file.lines)
    if lines and not ending(lines[-1]):
        lines[-1] += newline
    return file.with_lines(in_ledger_order([*lines, row.render() + newline])).text()


def in_order(file: TextFile | None) -> bool:
    """Whether the rows are already as the review writes them (see `in_ledger_order`)."""
    return file is None or in_ledger_order(file.lines) == list(file.lines)


def in_ledger_order(lines: tuple[str, ...] | list[str]) -> list[str]:
    """Rows sorted by their through-session in ledger order, exact duplicate rows dropped.

    A union merge of reviews.md leaves the rows of both branches, in either order and
    perhaps twice. Sorting is stable, so two rows for reviews of different branches
    through the same session both stay, in the order they were; every other line stays
    where it is, and rows fill the places rows held.
    """
    slots = [index for index, line in enumerate(lines) if _ROW.match(body(line))]
    rows = sorted((lines[index] for index in slots), key=lambda line: _ledger_key(body(line)))
    unique = list(dict.fromkeys(body(row) for row in rows))
    out = list(lines)
    for slot, row in zip(slots, unique, strict=False):
        out[slot] = row + ending(lines[slot])
    surplus = set(slots[len(unique) :])
    return [line for index, line in enumerate(out) if index not in surplus]


def _ledger_key(row: str) -> tuple[str, str, str, str]:
    match = _ROW.match(row)
    assert match is not None
    name = session_name(match[2])
    if name is None:
        return (match[1], "", "", match[2])
    return (name.date, name.time, name.slug, name.stem)


def session_name(stem: str | None) -> SessionName | None:
    """The session a through-stem names (in a row, a stamp, a thread id), or None if none."""
    if stem is None:
        return None
    try:
        return parse_session_name(stem + ".md", stem)
    except ParseError:
        return None
