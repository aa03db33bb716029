"""Checks of the facts across documents: footers, ids, blocked entries, links; and every
fact with its document (`placed`), which the other memory checks share."""

from __future__ import annotations

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.memory import Memory
from mdmem.format.serves import serves_targets
from mdmem.linting.findings import Finding, finding
from mdmem.safety.blocklist import blocked_facts


def placed(memory: Memory, vision: Document | None) -> list[tuple[Document, Fact]]:
    """Every fact with its document: continuity, the thread files, the archives, then the
    vision if any."""
    documents = [*memory.live, *memory.archives, *([vision] if vision is not None else [])]
    return [(document, fact) for document in documents for fact in document.facts]


def structure_findings(memory: Memory, vision: Document | None) -> list[Finding]:
    """Legacy facts without a footer (one warning per section), and ids that appear more
    than once."""
    found: list[Finding] = []
    for document in (*memory.live, *memory.archives, *([vision] if vision else [])):
        found += legacy_findings(document, document is memory.continuity)
    archives = {document.path for document in memory.archives}
    live = {document.path for document in memory.live}
    first: dict[str, tuple[str, int]] = {}
    for document, fact in placed(memory, vision):
        line = fact.footer_index + 1
        if fact.id not in first:
            first[fact.id] = (document.path, line)
            continue
        where, at = first[fact.id]
        archived = document.path in archives
        also_live = where in live and archived
        if also_live:
            message = f"id {fact.id} is also live at {where}:{at}"
        else:
            message = f"duplicate id {fact.id} (first at {where}:{at})"
        # Parallel reviews leave these after a merge; the next review keeps one copy.
        code = "W020" if archived and (also_live or where in archives) else "E003"
        found.append(finding(code, document.path, line, message))
    return found


def legacy_findings(document: Document, backfilled: bool) -> list[Finding]:
    """One warning per section that holds legacy facts (items without a footer), counting
    them, at the first. `backfilled`: `mdmem backfill` gives this document's footers."""
    sections: dict[str, list[int]] = {}
    for item in document.legacy_facts():
        sections.setdefault(item.section, []).append(item.start + 1)
    hint = (
        "run `mdmem backfill` to give them footers"
        if backfilled
        else "give each a footer (<!-- id: some-kebab-id | created: DATE -->) on its own "
        "indented line, or move them to a prose section"
    )
    found = []
    for section, lines in sections.items():
        items = "1 item" if len(lines) == 1 else f"{len(lines)} items"
        message = f"{items} without a footer in ## {section} (first at line {lines[0]})"
        found.append(finding("W013", document.path, lines[0], message, hint))
    return found


def has_duplicate_ids(memory: Memory) -> bool:
    ids = [fact.id for _, fact in placed(memory, None)]
    return len(ids) != len(set(ids))


def blocked_findings(memory: Memory, entries: tuple[BlockedEntry, ...]) -> list[Finding]:
    """Live or archived facts whose words come near a forgotten one."""
    return [
        finding(
            "E008",
            document.path,
            fact.line,
            f"fact {fact.id} is near the blocked entry {entry.fact_id} "
            f"({entry.path}:{entry.line}, blocked {entry.blocked})",
        )
        for document, fact, entry in blocked_facts((*memory.live, *memory.archives), entries)
    ]


# --- Links: supersession and drift ---------------------------------------------------------


def link_findings(
    memory: Memory, vision: Document | None, entries: tuple[BlockedEntry, ...]
) -> list[Finding]:
    """Supersession links that name no fact, and `serves` links to nothing live."""
    every_placed = placed(memory, vision)
    every = {fact.id: (document, fact) for document, fact in every_placed}
    forgotten = {entry.fact_id for entry in entries}
    archives = {document.path for document in memory.archives}
    found = []
    for document, fact in every_placed:
        footer_line = fact.footer_index + 1
        for key in ("supersedes", "superseded-by"):
            target = fact.get(key)
            # A link to a forgotten fact stays: the ledger's Superseded: line keeps it.
            if target and target not in every and target not in forgotten:
                message = f"{fact.id}: {key} {target} names no fact"
                found.append(finding("W005", document.path, footer_line, message))
        if document.path in archives or fact.is_done_thread:
            continue  # a done item's link is what it realised: no drift (as the review)
        for line, target in serves_targets(document, fact):
            state = _target_state(target, every, archives, forgotten)
            if state is not None:
                message = f"drift: {fact.id} serves {target}, which {state}"
                found.append(finding("W006", document.path, line, message))
    return found


def _target_state(
    target: str,
    every: dict[str, tuple[Document, Fact]],
    archives: set[str],
    forgotten: set[str],
) -> str | None:
    """Why a `serves` target is not live, or None when it is."""
    if target not in every:
        return "was forgotten" if target in forgotten else "names no fact"
    document, fact = every[target]
    if fact.is_superseded:
        return "is superseded"
    if document.path in archives:
        return "is archived"
    return None
