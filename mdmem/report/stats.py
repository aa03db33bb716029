"""`mdmem stats`: the memory's shape in counts, as a review run now would see it.

Every number comes from the review's own plan (its decisions, its ledger), so stats and
the next review never disagree: tiers and maturity are the ones the review would write,
the margin to archival is `archive_window` minus the sessions since last use the tier
rules compared. Pure: a loaded memory and its plan in, a value out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mdmem.format.document import Fact
from mdmem.format.memory import Memory
from mdmem.linting.upkeep import sessions_since_review
from mdmem.reviewing.archive import GONE_TIERS
from mdmem.reviewing.cadence import INVERT_PREFIX, last_invariant_check
from mdmem.reviewing.decide import Decision
from mdmem.reviewing.ledger import Ledger
from mdmem.reviewing.plan import ReviewPlan
from mdmem.reviewing.rows import TIER_COLUMNS
from mdmem.safety.secrets import redact

MATURITIES = ("candidate", "established", "proven", "deprecated", "no feedback")
DECAYING = ("working", "active", "archive-candidate")
SHOWN = 10  # facts per list (largest sections, closest to archival, most used)


@dataclass(frozen=True)
class SectionSize:
    title: str
    facts: int
    lines: int


@dataclass(frozen=True)
class Margin:
    """A live fact's distance to archival: `archive_window - sessions_since_last_used`.

    Zero: one more session without a use and the next review archives it; negative: the
    next review archives it now.
    """

    fact_id: str
    tier: str
    sessions_since_last_used: int
    margin: int


@dataclass(frozen=True)
class Cadence:
    """Sessions since a periodic step, against the policy's period."""

    name: str  # review, invariants
    since: int
    every: int
    due: bool


@dataclass(frozen=True)
class Inversion:
    fact_id: str
    helpful: int
    harmful: int
    pending: bool  # the next review opens the thread; False: the thread is open already


@dataclass(frozen=True)
class Stats:
    through: str | None  # the newest session log, None before the first
    sessions: int
    tiers: tuple[tuple[str, int], ...]  # TIER_COLUMNS order, plus "open" threads
    maturity: tuple[tuple[str, int], ...]  # live facts, MATURITIES order
    sections: tuple[SectionSize, ...]  # the largest first
    closest_to_archival: tuple[Margin, ...]
    cadences: tuple[Cadence, ...]
    most_used: tuple[tuple[str, int], ...]  # (id, sessions naming it) in the last active_window
    active_window: int
    inversions: tuple[Inversion, ...]
    deprecated: tuple[str, ...]  # live facts whose maturity is deprecated

    def as_dict(self) -> dict[str, object]:
        return {
            "through": self.through,
            "sessions": self.sessions,
            "tiers": dict(self.tiers),
            "maturity": dict(self.maturity),
            "largest_sections": [vars(size) for size in self.sections],
            "closest_to_archival": [vars(margin) for margin in self.closest_to_archival],
            "cadences": {
                c.name: {"since": c.since, "every": c.every, "due": c.due} for c in self.cadences
            },
            "sessions_since_review": self.cadences[0].since,
            "most_used": [{"id": i, "sessions": n} for i, n in self.most_used],
            "active_window": self.active_window,
            "inversions": [vars(inversion) for inversion in self.inversions],
            "deprecated": list(self.deprecated),
        }


def stats_of(memory: Memory, plan: ReviewPlan) -> Stats:
    """The stats of `memory`, from `plan = plan_review(memory)`."""
    ledger = plan.ledger
    decisions = {decision.fact_id: decision for decision in plan.decisions}
    live = {d.fact_id: d for d in plan.decisions if d.tier not in GONE_TIERS}
    tiers = Counter(decision.tier for decision in plan.decisions)
    maturity = Counter(d.change("maturity") or "no feedback" for d in live.values())
    return Stats(
        through=ledger.newest if ledger else None,
        sessions=len(memory.sessions),
        tiers=tuple((tier, tiers[tier]) for tier in (*TIER_COLUMNS, "open")),
        maturity=tuple((label, maturity[label]) for label in MATURITIES),
        sections=_largest_sections(memory),
        closest_to_archival=_closest(memory, decisions),
        cadences=_cadences(memory, ledger),
        most_used=_most_used(memory, ledger, live),
        active_window=memory.policy.active_window,
        inversions=_inversions(memory, plan, decisions),
        deprecated=tuple(
            sorted(i for i, d in live.items() if d.change("maturity") == "deprecated")
        ),
    )


def _largest_sections(memory: Memory) -> tuple[SectionSize, ...]:
    continuity = memory.continuity
    facts = Counter(fact.section for fact in continuity.facts)
    sizes = [
        SectionSize(redact(section.title), facts[section.title], section.end - section.start)
        for section in continuity.sections
        if section.start >= 0 and section.title and facts[section.title]
    ]
    sizes.sort(key=lambda size: (-size.facts, -size.lines, size.title))
    return tuple(sizes[:SHOWN])


def _closest(memory: Memory, decisions: dict[str, Decision]) -> tuple[Margin, ...]:
    """Live facts that decay, by margin to archival, smallest first (then by id).

    A fact the next review archives as faded is listed with its negative margin.
    """
    window = memory.policy.archive_window
    margins = []
    for fact in memory.continuity.facts:
        decision = decisions.get(fact.id)
        if decision is None or not (decision.tier in DECAYING or decision.reason == "faded"):
            continue
        since = decision.sessions_since_last_used
        margins.append(Margin(fact.id, decision.tier, since, window - since))
    margins.sort(key=lambda margin: (margin.margin, margin.fact_id))
    return tuple(margins[:SHOWN])


def _cadences(memory: Memory, ledger: Ledger | None) -> tuple[Cadence, ...]:
    """The review (overdue past `review_every`, as lint says) and the invariants' re-check
    (due at `verify_invariants_every`, as the review raises it)."""
    policy = memory.policy
    since_review, _ = sessions_since_review(memory)
    facts = [*memory.continuity.facts, *(fact for doc in memory.archives for fact in doc.facts)]
    last = last_invariant_check(memory.continuity, facts)
    count = ledger.count if ledger else 0
    since_check = count if last is None or ledger is None else ledger.after_name(last)
    every = policy.verify_invariants_every
    return (
        Cadence("review", since_review, policy.review_every, since_review > policy.review_every),
        Cadence("invariants", since_check, every, since_check >= every),
    )


def _most_used(
    memory: Memory, ledger: Ledger | None, live: dict[str, Decision]
) -> tuple[tuple[str, int], ...]:
    """Live facts by the number of the last `active_window` sessions naming them."""
    if ledger is None:
        return ()
    first = max(ledger.count - memory.policy.active_window, 0)
    counts = []
    for fact_id in live:
        recent = sum(1 for index in ledger.references.get(fact_id, ()) if index >= first)
        if recent:
            counts.append((fact_id, recent))
    counts.sort(key=lambda pair: (-pair[1], pair[0]))
    return tuple(counts[:SHOWN])


def _inversions(
    memory: Memory, plan: ReviewPlan, decisions: dict[str, Decision]
) -> tuple[Inversion, ...]:
    """The "Invert to anti-pattern" proposals: threads open now and those the next review
    opens (the review decides them; stats only lists them)."""
    open_now = [f.id for f in memory.continuity.facts if _inversion_thread(f)]
    pending = [i for i in (plan.summary.opened if plan.summary else ()) if i not in open_now]
    found = []
    for thread_id, is_pending in [*((i, False) for i in open_now), *((i, True) for i in pending)]:
        if not thread_id.startswith(INVERT_PREFIX):
            continue
        fact_id = thread_id[len(INVERT_PREFIX) :]
        decision = decisions.get(fact_id)
        helpful = int((decision.change("helpful") if decision else None) or 0)
        harmful = int((decision.change("harmful") if decision else None) or 0)
        found.append(Inversion(fact_id, helpful, harmful, is_pending))
    return tuple(sorted(found, key=lambda inversion: inversion.fact_id))


def _inversion_thread(fact: Fact) -> bool:
    return fact.is_open_thread and fact.id.startswith(INVERT_PREFIX)


def render_stats(stats: Stats) -> str:
    """The stats for a terminal."""
    if stats.through is None:
        return "No session logs yet: nothing to count."
    lines = [
        f"{stats.sessions} session{'' if stats.sessions == 1 else 's'} through {stats.through}."
    ]
    lines.append("Tiers: " + ", ".join(f"{tier} {n}" for tier, n in stats.tiers))
    lines.append("Maturity (live facts): " + ", ".join(f"{m} {n}" for m, n in stats.maturity))
    for cadence in stats.cadences:
        state = "due" if cadence.due else "not due"
        lines.append(
            f"Cadence {cadence.name}: {cadence.since} "
            f"session{'' if cadence.since == 1 else 's'} since the last "
            f"(every {cadence.every}): {state}"
        )
    lines.append("Largest sections:")
    lines += [
        f"  {s.title}: {s.facts} fact{'' if s.facts == 1 else 's'}, "
        f"{s.lines} line{'' if s.lines == 1 else 's'}"
        for s in stats.sections
    ]
    lines.append("Closest to archival (archive_window - sessions since last use):")
    lines += [
        f"  {m.fact_id} ({m.tier}): margin {m.margin}, {m.sessions_since_last_used} since last use"
        for m in stats.closest_to_archival
    ]
    lines.append(f"Most used in the last {stats.active_window} sessions:")
    lines += [f"  {fact_id}: {count}" for fact_id, count in stats.most_used]
    if stats.inversions:
        lines.append("Proposed inversions to anti-pattern:")
        lines += [
            f"  {i.fact_id}: helpful {i.helpful}, harmful {i.harmful}"
            + (" (the next review opens the thread)" if i.pending else "")
            for i in stats.inversions
        ]
    if stats.deprecated:
        lines.append("Deprecated by feedback: " + ", ".join(stats.deprecated))
    return "\n".join(lines)
