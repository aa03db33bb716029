"""Checks of what a footer says that the review reads without refusing: keys with a typo,
a `type` that is neither kind, an `origin` that names no session log."""

from __future__ import annotations

from mdmem.format.document import Document, Fact
from mdmem.format.footer import KNOWN_KEYS
from mdmem.format.memory import Memory
from mdmem.format.sessionlog import session_stem
from mdmem.linting.findings import Finding, finding
from mdmem.linting.nearest import Nearest

TYPES = ("rule", "anti-pattern")
_NEAREST_KEY = Nearest(KNOWN_KEYS)
# Keys the protocol writes that mdmem keeps as they are without reading them: no typo.
PROTOCOL_KEYS = frozenset({"note"})


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
