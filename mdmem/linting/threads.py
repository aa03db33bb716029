"""Checks of the protocol's newer layout (v4.39 and later): `[[id]]` and `→ proposal: ID`
links that name no fact (W022), and done threads whose narrative outgrew the policy's
`closed_narrative_max_lines` (W023, a hint).
"""

from __future__ import annotations

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document
from mdmem.format.memory import Memory
from mdmem.format.threads import fact_links
from mdmem.linting.facts import placed
from mdmem.linting.findings import Finding, finding
from mdmem.linting.nearest import Nearest


def dangling_link_findings(
    memory: Memory, vision: Document | None, entries: tuple[BlockedEntry, ...]
) -> list[Finding]:
    """A link in a fact's text (continuity, thread files, archive, vision) that names no
    fact, with the nearest known id as a suggestion."""
    every = placed(memory, vision)
    ids = {fact.id for _, fact in every}
    forgotten = {entry.fact_id for entry in entries}
    nearest = Nearest(ids)
    found = []
    for document, fact in every:
        for line, kind, target in fact_links(document, fact):
            if target in ids:
                continue
            suggestion = nearest(target)
            shown = f"[[{target}]]" if kind == "link" else f"proposal: {target}"
            why = "a forgotten fact" if target in forgotten else "no fact"
            message = f"{fact.id}: {shown} names {why}" + (
                f"; nearest known id: {suggestion}" if suggestion else ""
            )
            found.append(finding("W022", document.path, line, message))
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
