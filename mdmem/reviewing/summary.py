"""What a review did, in counts and ids: for the commit message, the CLI, and reviews.md."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mdmem.reviewing.archive import REASONS
from mdmem.reviewing.decide import Decision
from mdmem.reviewing.ledger import Ledger
from mdmem.reviewing.rows import TIER_COLUMNS, ReviewRow


@dataclass(frozen=True)
class ReviewSummary:
    """The counts after a review and what it changed; the changes default to none."""

    through: str
    ledger_date: str
    sessions: int
    tiers: tuple[tuple[str, int], ...]
    open_threads: int
    moved_out: tuple[tuple[str, str], ...] = ()  # (id, reason)
    moved_in: tuple[str, ...] = ()
    tier_changes: tuple[tuple[str, str, str], ...] = ()  # (id, before, after)
    refreshed: tuple[str, ...] = ()  # ids whose uses or last_used changed
    backfilled: tuple[str, ...] = ()  # ids whose origin the review filled in
    opened: tuple[str, ...] = ()  # ids of the Open Threads the review raised
    archive_file: str | None = None
    merged_duplicates: tuple[str, ...] = ()  # ids a merge left in two places, now in one

    def archived(self, reason: str) -> list[str]:
        """Ids moved out for one reason (faded, superseded, completed), in id order."""
        return [fact_id for fact_id, why in self.moved_out if why == reason]

    def listed(self) -> list[tuple[str, Sequence[str]]]:
        """(what happened, ids) for each kind of change that has ids, in a fixed order."""
        kinds: list[tuple[str, Sequence[str]]] = [
            *((f"archived ({reason})", self.archived(reason)) for reason in REASONS),
            ("reactivated", self.moved_in),
            ("opened", self.opened),
            ("one copy kept after a merge", self.merged_duplicates),
        ]
        return [(label, ids) for label, ids in kinds if ids]

    def as_dict(self) -> dict[str, object]:
        """The summary as JSON data, the pairs and triples named."""
        return {
            **dataclasses.asdict(self),
            "tiers": dict(self.tiers),
            "moved_out": [{"id": i, "reason": r} for i, r in self.moved_out],
            "tier_changes": [{"id": i, "from": a, "to": b} for i, a, b in self.tier_changes],
        }

    def row(self) -> ReviewRow:
        """The review's row of reviews.md."""
        return ReviewRow(
            ledger_date=self.ledger_date,
            through=self.through,
            sessions=self.sessions,
            tiers=tuple(n for _, n in self.tiers),
            open_threads=self.open_threads,
            moved_out=len(self.moved_out),
            moved_in=len(self.moved_in),
        )


def id_list(ids: Sequence[str], most: int) -> str:
    """`a, b, c`; past `most` ids, the first ones and how many more (a review can move
    thousands: the archive's INDEX.md lists them all)."""
    if len(ids) <= most:
        return ", ".join(ids)
    return f"{', '.join(ids[:most])} and {len(ids) - most} more"


_BY_ID = operator.attrgetter("fact_id")


def summarize(
    ledger: Ledger,
    decisions: Iterable[Decision],
    opened: tuple[str, ...] = (),
    archive_file: str | None = None,
    merged_duplicates: tuple[str, ...] = (),
) -> ReviewSummary:
    """The summary of a review that made `decisions` and raised the threads `opened`."""
    counts = dict.fromkeys(TIER_COLUMNS, 0)
    open_threads = len(opened)
    moved_out: list[tuple[str, str]] = []
    moved_in: list[str] = []
    tier_changes: list[tuple[str, str, str]] = []
    refreshed: list[str] = []
    backfilled: list[str] = []
    for decision in sorted(decisions, key=_BY_ID):
        changes = dict(decision.changes)
        fact_id, tier = decision.fact_id, changes.get("tier")
        if decision.tier == "open":
            open_threads += 1
        else:
            counts[decision.tier] += 1
        if decision.move == "out":
            moved_out.append((fact_id, decision.reason or ""))
        elif decision.move == "in":
            moved_in.append(fact_id)
        if tier is not None and tier != decision.tier_before:
            tier_changes.append((fact_id, decision.tier_before or "-", tier))
        if decision.refreshed:
            refreshed.append(fact_id)
        if changes.get("origin") is not None:
            backfilled.append(fact_id)
    return ReviewSummary(
        through=ledger.newest,
        ledger_date=ledger.newest_date,
        sessions=ledger.count,
        tiers=tuple(counts.items()),
        open_threads=open_threads,
        moved_out=tuple(moved_out),
        moved_in=tuple(moved_in),
        tier_changes=tuple(tier_changes),
        refreshed=tuple(refreshed),
        backfilled=tuple(backfilled),
        opened=opened,
        archive_file=archive_file,
        merged_duplicates=merged_duplicates,
    )
