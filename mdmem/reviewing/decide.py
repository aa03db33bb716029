"""The tier rules: one decision per fact, recomputed from the ledger, the first rule that matches.

Every rule is an integer comparison of ledger counts against the policy, so any machine
on any day decides the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from mdmem.format.document import Document, Fact
from mdmem.format.footer import Footer
from mdmem.format.memory import Memory
from mdmem.format.policy import Policy
from mdmem.format.sections import INVARIANTS_SECTION, same_name
from mdmem.format.sessionlog import session_stem
from mdmem.reviewing.archive import GONE_TIERS, reason_for
from mdmem.reviewing.ledger import Ledger
from mdmem.reviewing.maturity import maturity
from mdmem.reviewing.repair import Copy, kept_copy

REACTIVATED_SECTION = "Reactivated"

Changes = dict[str, str | None]  # footer fields to set (a value) or drop (None), in order


@dataclass(frozen=True, slots=True)
class Decision:
    """What the review decided for one fact."""

    fact_id: str
    tier_before: str | None
    tier: str  # the tier it counts as; "open" for an open thread, which never decays
    changes: tuple[tuple[str, str | None], ...]  # footer fields to set (or drop, None)
    move: str | None  # "out" of continuity, "in" from the archive, or None
    reason: str | None  # why it moved out: faded, superseded, completed
    refreshed: bool  # uses or last_used changed
    sessions_since_last_used: int  # sslu, as the tier rules compared it (SPEC §5)

    def change(self, key: str) -> str | None:
        for changed, value in self.changes:
            if changed == key:
                return value
        return None

    def footer(self, fact: Fact) -> Footer:
        """The fact's footer with the changes made: the same object when nothing changes."""
        return fact.footer.updated(dict(self.changes))


def decide_copies(
    memory: Memory, groups: Mapping[str, list[Copy]], ledger: Ledger, links: dict[str, Changes]
) -> tuple[dict[str, Decision], dict[str, tuple[Copy, list[Copy]]]]:
    """One decision per id; where a merge left copies, the one kept and those dropped.

    The tier is decided on the first copy; `mdmem.reviewing.repair.kept_copy` names the copy
    that stays, and the decision is remade on it when it is another one.
    """
    continuity = memory.continuity
    live = memory.live  # continuity and the thread files

    def decide(copy: Copy, change: Changes) -> Decision:
        document, fact = copy
        alive = any(document is held for held in live)
        return _decide(fact, alive, ledger, memory.policy, change, continuity)

    decisions: dict[str, Decision] = {}
    duplicates: dict[str, tuple[Copy, list[Copy]]] = {}
    for fact_id, copies in groups.items():
        change = links.get(fact_id, {})
        kept = copies[0]
        decision = decide(kept, change)
        if len(copies) > 1:
            kept = kept_copy(copies, live, decision.tier in GONE_TIERS)
            if kept is not copies[0]:
                decision = decide(kept, change)
            duplicates[fact_id] = (kept, [copy for copy in copies if copy is not kept])
        decisions[fact_id] = decision
    return decisions, duplicates


def link_changes(facts: list[Copy], ledger: Ledger) -> dict[str, Changes]:
    """`supersedes` as the ledger implies it, in one step (so a second review adds nothing).

    A successor without the link gets the first fact it still supersedes; a link to a
    fact since restored moves to another one it still supersedes, or is dropped.
    """
    still: dict[str, list[str]] = {}
    for old, state in sorted(ledger.supersession.items()):
        if state.superseded and state.by is not None:
            still.setdefault(state.by, []).append(old)
    changes: dict[str, Changes] = {}
    for _, fact in facts:
        current = fact.get("supersedes")
        linked = ledger.supersession.get(current) if current else None
        if current is None or (linked is not None and not linked.superseded):
            wanted = still[fact.id][0] if fact.id in still else None
            if wanted != current:
                changes.setdefault(fact.id, {})["supersedes"] = wanted
    return changes


def return_section(continuity: Document, fact: Fact) -> str:
    """The section an archived fact goes back to: its own, as continuity spells it now, or
    `## Reactivated`."""
    found = continuity.section(fact.get("section") or "")
    return REACTIVATED_SECTION if found is None else found.title


def _decide(
    fact: Fact, live: bool, ledger: Ledger, policy: Policy, links: Changes, continuity: Document
) -> Decision:
    """Recompute one fact from the ledger and apply the tier rules, first match wins.

    An archived fact the rules bring back is decided again where it returns to, so that
    it lands with the tier it will keep (a restored invariant is core, an open thread open).
    """
    decision = _decide_at(fact, live, fact.section, ledger, policy, links)
    if decision.move != "in":
        return decision
    home = return_section(continuity, fact)
    back = _decide_at(fact, True, home, ledger, policy, links)
    changes = {**dict(back.changes), "section": None}
    return dataclasses.replace(back, changes=tuple(changes.items()), move="in", reason=None)


def _decide_at(
    fact: Fact, live: bool, section: str, ledger: Ledger, policy: Policy, links: Changes
) -> Decision:
    """The decision for `fact` as it would stand in `section` (`live`: in continuity).

    Each step adds the footer fields it recomputes to `changes`, in the order a footer
    lists new fields.
    """
    values = fact.footer.values  # read directly: this runs once per fact of the memory
    changes: Changes = dict(links)
    refs = ledger.references.get(fact.id)
    uses, since_used = _usage(values, refs, ledger, changes)
    since_created = _sessions_since_created(fact.id, values, ledger, changes, since_used)
    superseded = _superseded(fact.id, values, ledger, changes)
    _feedback(fact.id, ledger, changes)
    tier_before = values.get("tier")
    fixed = _fixed_tier(fact, live, section, tier_before, superseded)
    label: str | None
    if fixed is None:
        tier = label = _tier_by_use(uses, since_created, since_used, policy)
    else:
        tier, label = fixed
    if label is not None:
        changes["tier"] = label
    move, reason = _move(fact, live, tier, changes)
    refreshed = bool(refs) and (
        changes["uses"] != values.get("uses") or changes["last_used"] != values.get("last_used")
    )
    return Decision(
        fact.id, tier_before, tier, tuple(changes.items()), move, reason, refreshed, since_used
    )


def _usage(
    values: Mapping[str, str], refs: list[int] | None, ledger: Ledger, changes: Changes
) -> tuple[int, int]:
    """(uses, sessions since the last use): counted in the ledger when sessions name the
    fact, else as its footer last said."""
    if refs:
        changes["uses"] = str(len(refs))
        changes["last_used"] = ledger.dates[refs[-1]]
        return len(refs), ledger.after_index(refs[-1])
    uses = int(values.get("uses") or 0)
    anchor = values.get("last_used") or values.get("created")
    return uses, ledger.after_date(anchor) if anchor else ledger.count


def _sessions_since_created(
    fact_id: str, values: Mapping[str, str], ledger: Ledger, changes: Changes, since_used: int
) -> int:
    """Counted from the session that created the fact (its `origin`, filled in when only the
    ledger knows it), else from its `created` date, else from its last use."""
    origin = values.get("origin")
    if origin is None and fact_id in ledger.created_in:
        origin = ledger.created_in[fact_id]
        changes["origin"] = origin
    origin_index = ledger.index_of(session_stem(origin)) if origin else None
    if origin_index is not None:
        return ledger.after_index(origin_index)
    created = values.get("created")
    if created is not None:
        return ledger.after_date(created)
    return since_used


def _superseded(fact_id: str, values: Mapping[str, str], ledger: Ledger, changes: Changes) -> bool:
    """The ledger's latest Superseded/Restored event decides; without one, the footer does:
    `tier: superseded`, or a `superseded-by` link the review can follow (empty, or naming a
    fact); a link to no fact (a typo) never retires a live fact."""
    state = ledger.supersession.get(fact_id)
    if state is None:
        successor = values.get("superseded-by")
        followed = successor is not None and (not successor or successor in ledger.followable)
        return values.get("tier") == "superseded" or followed
    if not state.superseded:
        changes["superseded-by"] = None
    elif state.by is not None:
        changes["superseded-by"] = state.by
    return state.superseded


def _feedback(fact_id: str, ledger: Ledger, changes: Changes) -> None:
    """The helpful and harmful counts and the maturity label, once sessions voted."""
    helpful, harmful = ledger.helpful.get(fact_id, 0), ledger.harmful.get(fact_id, 0)
    if helpful or harmful:
        changes["helpful"] = str(helpful)
        changes["harmful"] = str(harmful)
        changes["maturity"] = maturity(helpful, harmful)


def _fixed_tier(
    fact: Fact, live: bool, section: str, tier_before: str | None, superseded: bool
) -> tuple[str, str | None] | None:
    """(tier, footer label) by the rules that count no sessions, or None when none applies.

    A None label leaves the footer's tier as it is.
    """
    if superseded:
        return "superseded", "superseded"
    if tier_before == "core":
        return "core", None
    if not live and fact.is_done_thread:
        return "archived", "archived"  # a completed thread stays done; only faded facts return
    if live and same_name(section, INVARIANTS_SECTION):
        return "core", None  # treated as core; lint reports a wrong label
    if live and fact.is_open_thread:
        return "open", None
    return None


def _tier_by_use(uses: int, since_created: int, since_used: int, policy: Policy) -> str:
    """New and barely used is working; then active, a candidate, archived as uses fade."""
    if since_created <= policy.working_window and uses <= 1:
        return "working"
    if since_used <= policy.active_window:
        return "active"
    if since_used <= policy.archive_window:
        return "archive-candidate"
    return "archived"


def _move(fact: Fact, live: bool, tier: str, changes: Changes) -> tuple[str | None, str | None]:
    """(move, reason): out of continuity into a gone tier, in from the archive out of one.

    The footer of a fact moved out records the section it leaves, to return to it.
    """
    if live and tier in GONE_TIERS:
        changes["section"] = fact.section
        return "out", reason_for(tier, fact.is_done_thread)
    if not live and tier not in GONE_TIERS:
        changes["section"] = None
        return "in", None
    return None, None
