"""`mdmem trend`: whether the memory is getting healthier, from the rows of `reviews.md`.

The rule, in integers (SPEC §1):

- A row's live facts are `core + active + working + archive-candidate`; its balance is
  `(active - archive-candidate) / live`, the share of live facts in use minus the share
  going stale (0 when nothing is live).
- The trend compares the first and the last of the last `WINDOW` rows (5 reviews, in
  ledger order): a rise of at least `THRESHOLD` percentage points (5) is IMPROVING, a fall
  of at least as much is DECLINING, anything between is STABLE. Cross-multiplied, so no
  division decides: `100 * (b2 * l1 - b1 * l2) >= 5 * l1 * l2`.
- Fewer than two rows: no verdict, and it says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mdmem.reviewing.rows import TIER_COLUMNS, ReviewRow

WINDOW = 5
THRESHOLD = 5  # percentage points of balance
_LIVE = ("core", "active", "working", "archive-candidate")


@dataclass(frozen=True)
class Point:
    """One review's row, as the trend reads it."""

    through: str
    ledger_date: str
    live: int
    active: int
    archive_candidate: int

    @property
    def balance(self) -> tuple[int, int]:
        """(numerator, denominator) of `(active - archive-candidate) / live`."""
        return self.active - self.archive_candidate, max(self.live, 1)

    @property
    def balance_percent(self) -> int:
        """The balance in whole percent, rounded toward zero: for people, not for the rule."""
        numerator, denominator = self.balance
        whole = 100 * abs(numerator) // denominator
        return whole if numerator >= 0 else -whole


@dataclass(frozen=True)
class Trend:
    verdict: str | None  # None with fewer than two reviews
    reviews: int  # rows in reviews.md
    window: tuple[Point, ...]  # the rows compared, oldest first

    def as_dict(self) -> dict[str, object]:
        return {
            "verdict": self.verdict,
            "reviews": self.reviews,
            "window": WINDOW,
            "threshold_points": THRESHOLD,
            "points": [
                {**vars(point), "balance_percent": point.balance_percent} for point in self.window
            ],
        }

    def render(self) -> str:
        if self.verdict is None:
            return (
                f"{self.reviews} review{'' if self.reviews == 1 else 's'} in reviews.md: a trend "
                "needs at least two."
            )
        first, last = self.window[0], self.window[-1]
        lines = [
            f"{self.verdict}: balance {first.balance_percent}% → {last.balance_percent}% over "
            f"the last {len(self.window)} of {self.reviews} reviews "
            f"(active minus archive-candidate, as a share of live facts; ±{THRESHOLD} points "
            "is stable)."
        ]
        lines += [
            f"  {p.through}: live {p.live}, active {p.active}, archive-candidate "
            f"{p.archive_candidate}, balance {p.balance_percent}%"
            for p in self.window
        ]
        return "\n".join(lines)


def point(row: ReviewRow) -> Point:
    counts = dict(zip(TIER_COLUMNS, row.tiers, strict=True))
    return Point(
        through=row.through,
        ledger_date=row.ledger_date,
        live=sum(counts[tier] for tier in _LIVE),
        active=counts["active"],
        archive_candidate=counts["archive-candidate"],
    )


def trend_of(rows: Sequence[ReviewRow]) -> Trend:
    """The verdict over `rows` (reviews.md's, in ledger order)."""
    window = tuple(point(row) for row in rows[-WINDOW:])
    if len(window) < 2:
        return Trend(None, len(rows), window)
    (b1, l1), (b2, l2) = window[0].balance, window[-1].balance
    change = 100 * (b2 * l1 - b1 * l2)
    if change >= THRESHOLD * l1 * l2:
        return Trend("IMPROVING", len(rows), window)
    if change <= -THRESHOLD * l1 * l2:
        return Trend("DECLINING", len(rows), window)
    return Trend("STABLE", len(rows), window)
