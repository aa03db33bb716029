"""`memory/blocked.md`: forgotten facts that must never come back, as values.

Each entry is a footered item under `## Blocked`, closed by
`<!-- id: ID | blocked: DATE | reason: TEXT -->`. Whether other text comes near an
entry is the blocklist's question (`mdmem.safety.blocklist`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mdmem.errors import ParseError
from mdmem.format.document import Document, Fact, parse_document
from mdmem.format.footer import valid_date
from mdmem.format.sections import same_name
from mdmem.format.textfile import TextFile

BLOCKED_SECTION = "Blocked"


@dataclass(frozen=True)
class BlockedEntry:
    fact_id: str
    blocked: str  # the date it was forgotten
    reason: str
    text: tuple[str, ...]  # the item's lines, footer left out
    path: str
    line: int  # 1-based line of the item


def parse_blocked(file: TextFile) -> tuple[BlockedEntry, ...]:
    """The entries of `blocked.md`; an entry without its date or reason is an error."""
    document = parse_document(file)
    return tuple(
        _entry(document, fact)
        for fact in document.facts
        if same_name(fact.section, BLOCKED_SECTION)
    )


def _entry(document: Document, fact: Fact) -> BlockedEntry:
    date = fact.get("blocked")
    reason = fact.get("reason")
    line = fact.footer_index + 1
    if date is None or not valid_date(date):
        raise ParseError(
            f"blocked entry {fact.id!r} needs 'blocked: YYYY-MM-DD'", document.path, line
        )
    if not reason:
        raise ParseError(f"blocked entry {fact.id!r} needs 'reason: TEXT'", document.path, line)
    return BlockedEntry(fact.id, date, reason, document.fact_text(fact), document.path, fact.line)
