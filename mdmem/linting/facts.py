"""Checks of the facts across documents: footers, ids, blocked entries, links; every fact
with its document (`placed`), which the other memory checks share; and the ids a session
may cite (`known_ids`)."""

from __future__ import annotations

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.footer import KNOWN_KEYS
from mdmem.format.memory import Memory
from mdmem.format.serves import serves_targets
from mdmem.format.sessionlog import session_stem
from mdmem.format.threads import fact_links
from mdmem.linting.findings import Finding, finding
from mdmem.linting.nearest import Nearest
from mdmem.safety.blocklist import blocked_facts

TYPES = ("rule", "anti-pattern")
_NEAREST_KEY = Nearest(KNOWN_KEYS)
# Keys the protocol writes that mdmem keeps as they are without reading them: no typo.
PROTOCOL_KEYS = frozenset({"note"})


def documents(memory: Memory, vision: Document | None) -> list[Document]:
    """Continuity, the thread files, the archives, then the vision if any."""
    return [*memory.live, *memory.archives, *([vision] if vision is not None else [])]


def placed(memory: Memory, vision: Document | None) -> list[tuple[Document, Fact]]:
    """Every fact with its document (`documents`' order)."""
    return [(document, fact) for document in documents(memory, vision) for fact in document.facts]


def known_ids(
    memory: Memory, vision: Document | None, entries: tuple[BlockedEntry, ...]
) -> frozenset[str]:
    """Every id a session may name: facts anywhere, and forgotten ones (old logs cite them)."""
    ids = {fact.id for _, fact in placed(memory, vision)}
    return frozenset(ids | {entry.fact_id for entry in entries})


def structure_findings(memory: Memory, vision: Document | None) -> list[Finding]:
    """Legacy facts without a footer (one warning per section), and ids that appear more
    than once."""
    found: list[Finding] = []
    for document in documents(memory, vision):
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


# --- Links: supersession, drift, links in a fact's text -------------------------------------


def link_findings(
    memory: Memory, vision: Document | None, entries: tuple[BlockedEntry, ...]
) -> list[Finding]:
    """Supersession links and links in a fact's text (`[[id]]`, `→ proposal: ID`, with the
    nearest known id as a suggestion) that name no fact, and `serves` links to nothing live."""
    every_placed = placed(memory, vision)
    every = {fact.id: (document, fact) for document, fact in every_placed}
    forgotten = {entry.fact_id for entry in entries}
    archives = {document.path for document in memory.archives}
    nearest = Nearest(every)
    found = []
    for document, fact in every_placed:
        footer_line = fact.footer_index + 1
        for key in ("supersedes", "superseded-by"):
            target = fact.get(key)
            # A link to a forgotten fact stays: the ledger's Superseded: line keeps it.
            if target and target not in every and target not in forgotten:
                message = f"{fact.id}: {key} {target} names no fact"
                found.append(finding("W005", document.path, footer_line, message))
        if not fact.is_superseded:
            found += _second_successor(document, fact, every)
        for line, kind, target in fact_links(document, fact):
            if target not in every:
                suggestion = nearest(target)
                shown = f"[[{target}]]" if kind == "link" else f"proposal: {target}"
                why = "a forgotten fact" if target in forgotten else "no fact"
                message = f"{fact.id}: {shown} names {why}" + (
                    f"; nearest known id: {suggestion}" if suggestion else ""
                )
                found.append(finding("W022", document.path, line, message))
        if document.path in archives or fact.is_done_thread:
            continue  # a done item's link is what it realised: no drift (as the review)
        for line, target in serves_targets(document, fact):
            state = _target_state(target, every, archives, forgotten)
            if state is not None:
                message = f"drift: {fact.id} serves {target}, which {state}"
                found.append(finding("W006", document.path, line, message))
    return found


def _second_successor(
    document: Document, fact: Fact, every: dict[str, tuple[Document, Fact]]
) -> list[Finding]:
    """W029: each fact `fact` says it replaces whose `superseded-by` names another."""
    found = []
    for old in (name.strip() for name in (fact.get("supersedes") or "").split(",")):
        successor = every[old][1].get("superseded-by") if old in every else None
        if successor and successor != fact.id:
            message = f"{fact.id} supersedes {old}, which {successor} supersedes: two successors"
            found.append(finding("W029", document.path, fact.footer_index + 1, message))
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


# --- Footers: keys, type, origin ------------------------------------------------------------


def footer_findings(memory: Memory) -> list[Finding]:
    """W010 a key that is a typo of a known one, W011 an unknown `type`, W012 an `origin`
    that names no session log, for every fact in continuity and the archive."""
    stems = {session.stem for session in memory.sessions}
    found: list[Finding] = []
    for document in (*memory.live, *memory.archives):
        for fact in document.facts:
            found += _fact_findings(document, fact, stems)
    return found


def _fact_findings(document: Document, fact: Fact, stems: set[str]) -> list[Finding]:
    line = fact.footer_index + 1
    found = []
    for key in fact.footer.values:
        if key in KNOWN_KEYS or key in PROTOCOL_KEYS or len(key) <= 2:
            continue
        if (known := _NEAREST_KEY(key)) is not None:
            found.append(
                finding(
                    "W010",
                    document.path,
                    line,
                    f"footer key {key!r} of {fact.id} is not one mdmem reads; "
                    f"did you mean {known!r}?",
                    f"rename it to {known}: the review keeps unknown keys as they are, and "
                    f"would write {known} beside it",
                )
            )
    kind = fact.get("type")
    if kind is not None and kind not in TYPES:
        message = f"type {kind!r} of {fact.id} is neither {' nor '.join(TYPES)}"
        found.append(finding("W011", document.path, line, message))
    origin = fact.get("origin")
    if origin and stems and session_stem(origin) not in stems:
        message = f"origin {origin!r} of {fact.id} names no session log"
        found.append(finding("W012", document.path, line, message))
    return found
