"""Checks of what a review would change or is due to do: archived facts still in use,
stale footers, an overdue review, a bloated continuity, invariants not labelled core, done
threads whose narrative outgrew the policy's `closed_narrative_max_lines` (a hint).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from mdmem.errors import ParseError
from mdmem.format.document import Fact
from mdmem.format.memory import Memory
from mdmem.format.sections import INVARIANTS_SECTION, same_name
from mdmem.format.sessionlog import SessionName, parse_session_name
from mdmem.linting.facts import placed
from mdmem.linting.findings import Finding, finding
from mdmem.reviewing.decide import Decision
from mdmem.reviewing.stamps import last_review_through, read_stamps


def plan_findings(
    memory: Memory, decisions: Iterable[Decision], *, stale: bool = True
) -> list[Finding]:
    """Archived facts the ledger brought back, and (when `stale`) footers a review would
    rewrite."""
    by_id = {decision.fact_id: decision for decision in decisions}
    found = []
    for document, fact in placed(memory, None):
        decision = by_id.get(fact.id)
        if decision is None:
            continue
        archived = all(document is not live for live in memory.live)
        if archived and decision.move == "in":
            last = decision.change("last_used") or fact.get("last_used") or "never"
            message = f"archived fact {fact.id} is still in use by the ledger (last used {last})"
            found.append(finding("W021", document.path, fact.line, message))
        elif stale and decision.move is None:
            footer = fact.footer
            updated = footer.updated(dict(decision.changes))
            if updated is not footer and updated.render() != footer.render():
                changed = ", ".join(_changes(footer.as_dict(), updated.as_dict()))
                message = f"footer of {fact.id} is stale: {changed}"
                found.append(finding("W001", document.path, fact.footer_index + 1, message))
    return found


def _changes(before: dict[str, str], after: dict[str, str]) -> Iterator[str]:
    for key in dict.fromkeys([*before, *after]):
        old, new = before.get(key), after.get(key)
        if old != new:
            yield f"{key} {old if old is not None else '(none)'} → {new or '(removed)'}"


# --- Size and cadence ----------------------------------------------------------------------


def shape_findings(memory: Memory) -> list[Finding]:
    """Review overdue, continuity bloated, invariants not labelled core."""
    continuity, policy = memory.continuity, memory.policy
    path = continuity.path
    found = []
    since, line = sessions_since_review(memory)
    if since > policy.review_every:
        message = f"review overdue: {since} session logs since the last review"
        found.append(
            finding("W007", path, line, f"{message} (review_every: {policy.review_every})")
        )
    decaying = sum(1 for fact in continuity.facts if _decays(fact))
    if decaying > policy.continuity_max_facts:
        message = f"continuity bloated: {decaying} decaying facts"
        message += f" (continuity_max_facts: {policy.continuity_max_facts})"
        hint = "merge or supersede overlapping facts, or lower the windows in decay-policy.md"
        found.append(finding("W008", path, 1, message, hint))
    if len(continuity.lines) > policy.continuity_max_lines:
        message = f"continuity bloated: {len(continuity.lines)} lines"
        message += f" (continuity_max_lines: {policy.continuity_max_lines})"
        hint = "shorten long facts, or move prose out of continuity.md"
        found.append(finding("W008", path, 1, message, hint))
    for fact in continuity.facts:
        tier = fact.get("tier")
        if (
            same_name(fact.section, INVARIANTS_SECTION)
            and tier != "core"
            and not fact.is_superseded
        ):
            labelled = f"tier {tier}" if tier else "with no tier"
            message = f"architectural invariant {fact.id} is labelled {labelled}, not core"
            found.append(finding("W009", path, fact.footer_index + 1, message))
    return found


def closed_narrative_findings(memory: Memory) -> list[Finding]:
    """A done thread (`- [x]`, in continuity or a thread file) whose text holds more
    non-empty lines than `closed_narrative_max_lines`: its narrative belongs in its log."""
    most = memory.policy.closed_narrative_max_lines
    found = []
    for document in memory.live:
        for fact in document.facts:
            if not fact.is_done_thread:
                continue
            lines = sum(1 for line in document.fact_text(fact) if line.strip())
            if lines > most:
                message = (
                    f"done thread {fact.id} holds {lines} lines of narrative "
                    f"(closed_narrative_max_lines: {most})"
                )
                found.append(finding("W023", document.path, fact.line, message))
    return found


def _decays(fact: Fact) -> bool:
    if fact.is_core:
        return False
    return not fact.is_open_thread and not fact.is_superseded


def footers_may_lag(memory: Memory) -> bool:
    """Whether footers may lag the ledger now: some logs came after the last review, but
    not more than `review_every` (REVIEW.md: review every `review_every` sessions). Before
    any new log, a footer a review would change was edited by hand; past the cadence,
    the review is due and its changes are worth listing."""
    since, _ = sessions_since_review(memory)
    return 0 < since <= memory.policy.review_every


def unrecorded_findings(memory: Memory) -> list[Finding]:
    """Live facts with no `created` date that no session log names: the review cannot
    tell their age, and counts them unused since the first log."""
    undated = [
        (document, fact)
        for document in memory.live
        for fact in document.facts
        if fact.get("created") is None
    ]
    if not undated:
        return []
    named: set[str] = set()
    for session in memory.sessions:
        named |= session.references
    return [
        finding(
            "W019",
            document.path,
            fact.footer_index + 1,
            f"fact {fact.id} has no created date and no session log names it: the review "
            "would count it unused since the first log",
            f"record `- Created: {fact.id}` in the current session log and give the footer "
            "its born fields (created, uses: 1, tier: working, origin)",
        )
        for document, fact in undated
        if fact.id not in named
    ]


def sessions_since_review(memory: Memory) -> tuple[int, int]:
    """(session logs after the last review's through-session, the line of its stamp)."""
    stamp = read_stamps(memory.continuity).get("last_review")
    line = stamp[0] + 1 if stamp is not None else 1
    through = last_review_through(memory.continuity, memory.reviews)
    last: SessionName | None = None
    if through is not None:
        try:
            last = parse_session_name(through + ".md", memory.continuity.path)
        except ParseError:
            last = None
    if last is None:
        return len(memory.sessions), line
    return sum(1 for session in memory.sessions if session.name > last), line
