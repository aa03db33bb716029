"""The review: a pure function from a loaded memory to the exact bytes it would write.

No file access, no git and no clock in here: the newest session log is "now", and
every decision is an integer comparison, so any machine on any day plans the same.
"""

from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass, field
from pathlib import Path

from mdmem.errors import ParseError
from mdmem.format.memory import Memory
from mdmem.reviewing.cadence import ThreadPlan, plan_threads
from mdmem.reviewing.decide import Decision, decide_copies, link_changes
from mdmem.reviewing.ledger import Ledger, build_ledger
from mdmem.reviewing.render import FileWrite, render_documents, reviews_write, stamped
from mdmem.reviewing.repair import Copy, copy_key, group_copies, merge_threads
from mdmem.reviewing.rows import in_order
from mdmem.reviewing.stamps import last_review_through
from mdmem.reviewing.summary import ReviewSummary, summarize
from mdmem.safety.blocklist import blocked_facts


@dataclass(frozen=True)
class ReviewPlan:
    root: Path
    writes: tuple[FileWrite, ...]
    summary: ReviewSummary | None  # None when there is no session log yet
    decisions: tuple[Decision, ...] = field(default=(), repr=False)
    ledger: Ledger | None = field(default=None, repr=False, compare=False)  # what it read

    @property
    def changed(self) -> bool:
        return bool(self.writes)

    def diff(self) -> str:
        """The plan as a unified diff, paths named as in the repository."""
        label = self.root.name
        chunks: list[str] = []
        for write in self.writes:
            before = (write.before or "").splitlines(keepends=True)
            after = (write.after or "").splitlines(keepends=True)
            source = f"a/{label}/{write.path}" if write.before is not None else "/dev/null"
            target = f"b/{label}/{write.path}" if write.after is not None else "/dev/null"
            chunks.extend(difflib.unified_diff(before, after, source, target, n=3))
        return "".join(line if line.endswith("\n") else line + "\n" for line in chunks)


@dataclass(frozen=True)
class Decided:
    """What a review decides before it renders a file: one decision per id, and where a
    merge left an id twice, the copy kept and those dropped."""

    memory: Memory  # its archives in name order
    ledger: Ledger
    groups: dict[str, list[Copy]]  # id -> its copies, in document order
    decisions: dict[str, Decision]
    duplicates: dict[str, tuple[Copy, list[Copy]]]


def decide_review(memory: Memory) -> Decided:
    """The decisions of a review of `memory` (which has session logs), before any file
    is rendered."""
    _refuse_blocked(memory)
    # Archive files in name (so quarter) order, whoever built the tuple: where several
    # facts return to one section, they come back in that order on every machine.
    archives = tuple(sorted(memory.archives, key=lambda document: document.path))
    if archives != memory.archives:
        memory = dataclasses.replace(memory, archives=archives)
    facts = [(doc, fact) for doc in (*memory.live, *memory.archives) for fact in doc.facts]
    named = [entry.fact_id for entry in memory.blocked]
    if memory.vision is not None:
        named += [fact.id for fact in memory.vision.facts]
    ledger = build_ledger(memory.sessions, (fact.id for _, fact in facts), named)
    groups = group_copies(facts)
    decisions, duplicates = decide_copies(memory, groups, ledger, link_changes(facts, ledger))
    return Decided(memory, ledger, groups, decisions, duplicates)


def review_decisions(memory: Memory) -> tuple[Decision, ...]:
    """`plan_review(memory).decisions`, without rendering the files: what lint asks."""
    return tuple(decide_review(memory).decisions.values()) if memory.sessions else ()


def plan_review(memory: Memory) -> ReviewPlan:
    """Decide everything a review of `memory` changes, as whole-file texts."""
    if not memory.sessions:
        return ReviewPlan(memory.root, (), None)
    decided = decide_review(memory)
    memory, ledger, decisions = decided.memory, decided.ledger, decided.decisions
    duplicates = decided.duplicates
    continuity = memory.continuity
    through, date = ledger.newest, ledger.newest_date
    first = {fact_id: copies[0] for fact_id, copies in decided.groups.items()}
    tiers = {fact_id: decision.tier for fact_id, decision in decisions.items()}
    threads = plan_threads(memory, ledger, first, tiers)
    if duplicates:
        extra = merge_threads(duplicates, decisions, date)
        threads = ThreadPlan((*threads.opened, *extra), threads.stamps)
    dropped = {copy_key(c): c[1].id for _, copies in duplicates.values() for c in copies}
    writes, archive_name = render_documents(memory, decisions, threads, through, date, dropped)
    last = last_review_through(continuity, memory.reviews)
    if not writes and last == through and in_order(memory.reviews):
        summary = summarize(ledger, decisions.values())
        return ReviewPlan(memory.root, (), summary, tuple(decisions.values()), ledger)
    opened = tuple(thread.fact_id for thread in threads.opened)
    summary = summarize(ledger, decisions.values(), opened, archive_name, tuple(sorted(duplicates)))
    writes = stamped(memory, writes, threads, through, date)
    writes.append(reviews_write(memory, summary.row()))
    writes.sort(key=lambda write: write.path)
    return ReviewPlan(memory.root, tuple(writes), summary, tuple(decisions.values()), ledger)


def _refuse_blocked(memory: Memory) -> None:
    """Text forgotten on purpose (SPEC §9) stops the review, naming the blocked entry."""
    documents = (*memory.live, *memory.archives)
    for document, fact, entry in blocked_facts(documents, memory.blocked):
        raise ParseError(
            f"fact {fact.id} is near the blocked entry {entry.fact_id} ({entry.path}:"
            f"{entry.line}): it was forgotten on purpose; delete it, or edit blocked.md",
            document.path,
            fact.line,
        )
