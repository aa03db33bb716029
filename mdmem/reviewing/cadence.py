"""Cadences: the Open Threads a review raises (re-verify invariants, promote to core, invert,
drift).

The review only proposes; people approve by editing the thread or the fact.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mdmem.format.document import Document, Fact
from mdmem.format.footer import new_footer
from mdmem.format.memory import Memory
from mdmem.format.serves import serves_targets
from mdmem.format.sessionlog import SessionName
from mdmem.reviewing.archive import GONE_TIERS
from mdmem.reviewing.ledger import Ledger
from mdmem.reviewing.rows import session_name, throughs
from mdmem.reviewing.stamps import read_stamps, stamp_through, stamp_value

VERIFY_PREFIX = "verify-invariants-"
PROMOTE_PREFIX = "promote-to-core-"
INVERT_PREFIX = "invert-to-anti-pattern-"
DRIFT_PREFIX = "drift-"


@dataclass(frozen=True)
class Thread:
    fact_id: str
    lines: tuple[str, ...]  # without line endings


@dataclass(frozen=True)
class ThreadPlan:
    opened: tuple[Thread, ...]
    stamps: tuple[tuple[str, str], ...]  # Project State stamps the threads imply


def new_thread(fact_id: str, text: str, date: str) -> Thread:
    footer = new_footer(
        "  ",
        {"id": fact_id, "created": date, "last_used": date, "uses": "0", "tier": "working"},
    )
    return Thread(fact_id, (f"- [ ] {text}", footer.render()))


def plan_threads(
    memory: Memory,
    ledger: Ledger,
    first: Mapping[str, tuple[Document, Fact]],
    tiers: Mapping[str, str],
) -> ThreadPlan:
    """The threads the cadences raise once this review is done, and the stamps they imply.

    `first`: each id's first copy (a merge can leave an id twice); `tiers`: each id's tier
    as the review leaves it.
    """
    facts = [fact for _, fact in first.values()]
    verify, stamps = _verify_invariants(memory, ledger, facts, tiers)
    # Rules that are live once this review is done: those it reactivates count, those it
    # archives do not, so a second review has nothing to add (review twice == once).
    live = [f for f in facts if not f.checkbox and tiers[f.id] not in GONE_TIERS]
    opened = [
        *verify,
        *_promotions(memory, ledger, live, tiers),
        *_inversions(ledger, live, tiers),
        *_drifts(memory, first, tiers, ledger.newest_date),
    ]
    return ThreadPlan(tuple(opened), tuple(stamps))


def _verify_invariants(
    memory: Memory, ledger: Ledger, facts: list[Fact], tiers: Mapping[str, str]
) -> tuple[list[Thread], list[tuple[str, str]]]:
    """Re-verify invariants: due every `verify_invariants_every` sessions after the last check.

    Core facts are counted after the review (a restored invariant is core again), and a
    done check counts wherever it is: swept to the archive, it is still the last check.
    """
    through = ledger.newest
    core = sorted(fact_id for fact_id, tier in tiers.items() if tier == "core")
    checks = [f for f in facts if f.id.startswith(VERIFY_PREFIX)]
    last_check, stamps = _last_check(memory.continuity, checks)
    since = ledger.count if last_check is None else ledger.after_name(last_check)
    open_check = any(f.is_open_thread for f in checks)
    thread_id = VERIFY_PREFIX + through
    due = bool(core) and since >= memory.policy.verify_invariants_every
    if not due or open_check or thread_id in tiers:
        return [], stamps
    text = (
        f"Re-verify invariants: confirm {', '.join(core)} still hold, or supersede them "
        f"(due through {through})"
    )
    return [new_thread(thread_id, text, ledger.newest_date)], stamps


def last_invariant_check(continuity: Document, facts: Iterable[Fact]) -> SessionName | None:
    """The session through which invariants were last checked (stamped or a done thread)."""
    return _last_check(continuity, [f for f in facts if f.id.startswith(VERIFY_PREFIX)])[0]


def _last_check(
    continuity: Document, checks: list[Fact]
) -> tuple[SessionName | None, list[tuple[str, str]]]:
    """The newest invariant check, stamped or done; the stamp to set when a done one is newer."""
    done = [session_name(f.id[len(VERIFY_PREFIX) :]) for f in checks if f.is_done_thread]
    stamp = read_stamps(continuity).get("last_invariant_check")
    stamped = session_name(stamp_through(stamp[1] if stamp else None))
    newest_done = max((n for n in done if n is not None), default=None)
    stamps: list[tuple[str, str]] = []
    if newest_done is not None and (stamped is None or newest_done > stamped):
        stamps.append(("last_invariant_check", stamp_value(newest_done.date, newest_done.stem)))
    last = max((n for n in (stamped, newest_done) if n is not None), default=None)
    return last, stamps


def _promotions(
    memory: Memory, ledger: Ledger, live: list[Fact], tiers: Mapping[str, str]
) -> list[Thread]:
    """Promote to core: only when switched on, never on its own."""
    policy = memory.policy
    if not policy.auto_core:
        return []
    through = ledger.newest
    reviews = throughs(memory.reviews)
    if not reviews or reviews[-1] != through:
        reviews.append(through)
    recent = reviews[-policy.core_min_reviews :]
    if len(recent) < policy.core_min_reviews:
        return []
    opened: list[Thread] = []
    for fact in live:
        refs = ledger.references.get(fact.id, [])
        if tiers[fact.id] != "active" or len(refs) < policy.core_min_uses:
            continue
        thread_id = PROMOTE_PREFIX + fact.id
        active = all(_active_at(ledger, refs, stem, policy.active_window) for stem in recent)
        if active and thread_id not in tiers:
            text = f"Promote to core: {fact.id}? ({len(refs)} uses, active for the last "
            text += f"{len(recent)} reviews)"
            opened.append(new_thread(thread_id, text, ledger.newest_date))
    return opened


def inverts(helpful: int, harmful: int) -> bool:
    """Whether feedback proposes inverting a rule into an anti-pattern (DECAY.md, Feedback):
    at least 3 harmful votes, and more than twice the helpful ones."""
    return harmful >= 3 and harmful > 2 * helpful


def _inversions(ledger: Ledger, live: list[Fact], tiers: Mapping[str, str]) -> list[Thread]:
    """Invert to anti-pattern: a rule that sessions keep reporting as harmful."""
    opened: list[Thread] = []
    for fact in live:
        if tiers[fact.id] == "core" or fact.get("type") == "anti-pattern":
            continue
        helpful = ledger.helpful.get(fact.id, 0)
        harmful = ledger.harmful.get(fact.id, 0)
        thread_id = INVERT_PREFIX + fact.id
        if inverts(helpful, harmful) and thread_id not in tiers:
            text = f"Invert to anti-pattern: {fact.id}? (helpful {helpful}, harmful {harmful})"
            opened.append(new_thread(thread_id, text, ledger.newest_date))
    return opened


def _drifts(
    memory: Memory,
    first: Mapping[str, tuple[Document, Fact]],
    tiers: Mapping[str, str],
    date: str,
) -> list[Thread]:
    """Drift (SPEC §10): a live fact that serves a target which is gone or never was.

    A done item (`- [x]`) is left out: it served its target, and a link of what was
    realised stays true when the target is later superseded (a vision replaced by the next).
    """
    vision = {fact.id: fact for fact in memory.vision.facts} if memory.vision else {}
    opened: list[Thread] = []
    taken = set(tiers)  # and the drift threads raised so far: a target served twice is one
    for document, fact in first.values():
        if tiers[fact.id] in GONE_TIERS or fact.is_done_thread:
            continue
        for _, target in serves_targets(document, fact):
            state = _target_state(target, tiers, vision)
            thread_id = f"{DRIFT_PREFIX}{fact.id}-{target}"
            if state is not None and thread_id not in taken:
                taken.add(thread_id)
                text = f"Drift: {fact.id} doesn't serve {target} (it {state})"
                opened.append(new_thread(thread_id, text, date))
    return opened


def _target_state(target: str, tiers: Mapping[str, str], vision: dict[str, Fact]) -> str | None:
    """Why a `serves` target is not live after this review, or None when it is."""
    if target in vision:
        return "is superseded" if vision[target].is_superseded else None
    if target not in tiers:
        return "names no fact"
    return f"is {tiers[target]}" if tiers[target] in GONE_TIERS else None


def _active_at(ledger: Ledger, refs: list[int], stem: str, active_window: int) -> bool:
    """Was the fact active at the review through `stem`? Derived from the ledger alone."""
    position = ledger.index_of(stem)
    if position is None:
        return False
    seen = bisect_right(refs, position)
    if seen < 2:
        return False
    return position - refs[seen - 1] <= active_window
