"""`memory/blocked.md`: forgotten facts that must never come back, and the nearness test.

Each entry is a footered item under `## Blocked`, closed by
`<!-- id: ID | blocked: DATE | reason: TEXT -->`. Text whose word tokens have a
Jaccard similarity of at least 0.85 with an entry (in integers:
`100 * |A∩B| >= 85 * |A∪B|`) is that entry coming back, however it is reworded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from mdmem.errors import ParseError
from mdmem.format.document import Document, Fact, parse_document
from mdmem.format.footer import valid_date
from mdmem.format.textfile import TextFile, body

BLOCKED = "blocked.md"
BLOCKED_SECTION = "Blocked"
NEAR_PERCENT = 85

_WORD = re.compile(r"[^\W_]+")
_MARKER = re.compile(r"^\s*[-*+]\s+(?:\[[ xX]\]\s+)?")


@dataclass(frozen=True)
class BlockedEntry:
    fact_id: str
    blocked: str  # the date it was forgotten
    reason: str
    tokens: frozenset[str]
    path: str
    line: int  # 1-based line of the item


def word_tokens(text: str) -> frozenset[str]:
    """The lowercase words of a text (markdown punctuation and list markers dropped)."""
    return frozenset(_WORD.findall(text.lower()))


def item_tokens(lines: Iterable[str]) -> frozenset[str]:
    """The words of a list item's text lines, without its bullet and checkbox."""
    parts = [
        _MARKER.sub("", body(line), count=1) if i == 0 else body(line)
        for i, line in enumerate(lines)
    ]
    return word_tokens("\n".join(parts))


def near(first: frozenset[str], second: frozenset[str]) -> bool:
    """Token Jaccard >= 0.85, in integers; empty texts are never near anything."""
    if not first or not second:
        return False
    return 100 * len(first & second) >= NEAR_PERCENT * len(first | second)


def parse_blocked(file: TextFile) -> tuple[BlockedEntry, ...]:
    """The entries of `blocked.md`; an entry without its date or reason is an error."""
    document = parse_document(file)
    return tuple(
        _entry(document, fact) for fact in document.facts if fact.section == BLOCKED_SECTION
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
    return BlockedEntry(
        fact.id, date, reason, item_tokens(document.fact_text(fact)), document.path, fact.line
    )


def blocked_facts(
    documents: Iterable[Document], entries: tuple[BlockedEntry, ...]
) -> Iterator[tuple[Document, Fact, BlockedEntry]]:
    """Every fact whose words come near a forgotten one, with the first such entry."""
    if not entries:
        return
    for document in documents:
        for fact in document.facts:
            entry = blocking(item_tokens(document.fact_text(fact)), entries)
            if entry is not None:
                yield document, fact, entry


def blocking(tokens: frozenset[str], entries: tuple[BlockedEntry, ...]) -> BlockedEntry | None:
    """The first entry (in file order) that `tokens` comes near, else None."""
    size = len(tokens)
    for entry in entries:
        # Jaccard >= 0.85 needs the smaller set to hold at least 85% of the larger.
        small, large = sorted((size, len(entry.tokens)))
        if 100 * small < NEAR_PERCENT * large:
            continue
        if near(tokens, entry.tokens):
            return entry
    return None
