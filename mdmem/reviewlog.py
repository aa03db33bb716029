"""`reviews.md`: one appended table row per review, the snapshot that trends and cadences read."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mdmem.textfile import TextFile, body

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
    """The through-session of every row, in file order."""
    if file is None:
        return []
    found = []
    for line in file.lines:
        match = _ROW.match(body(line))
        if match:
            found.append(match[2])
    return found


def appended(file: TextFile | None, row: ReviewRow, newline: str) -> str:
    if file is None:
        return header(newline) + row.render() + newline
    text = file.text()
    if text and not text.endswith("\n"):
        text += newline
    return text + row.render() + newline
