"""The blocklist's nearness test: text that comes near a forgotten fact (`blocked.md`).

Text whose word tokens have a Jaccard similarity of at least 0.85 with an entry (in
integers: `100 * |A∩B| >= 85 * |A∪B|`) is that entry coming back, however it is reworded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.textfile import body

NEAR_PERCENT = 85

_WORD = re.compile(r"[^\W_]+")
_MARKER = re.compile(r"^\s*[-*+]\s+(?:\[[ xX]\]\s+)?")


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


def blocked_facts(
    documents: Iterable[Document], entries: tuple[BlockedEntry, ...]
) -> Iterator[tuple[Document, Fact, BlockedEntry]]:
    """Every fact whose words come near a forgotten one, with the first such entry."""
    if not entries:
        return
    blocked = [(entry, item_tokens(entry.text)) for entry in entries]
    for document in documents:
        for fact in document.facts:
            entry = blocking(item_tokens(document.fact_text(fact)), blocked)
            if entry is not None:
                yield document, fact, entry


def blocking(
    tokens: frozenset[str], blocked: list[tuple[BlockedEntry, frozenset[str]]]
) -> BlockedEntry | None:
    """The first entry (in file order) that `tokens` comes near, else None; `blocked` holds
    each entry with its tokens."""
    size = len(tokens)
    for entry, entry_tokens in blocked:
        # Jaccard >= 0.85 needs the smaller set to hold at least 85% of the larger.
        small, large = sorted((size, len(entry_tokens)))
        if 100 * small < NEAR_PERCENT * large:
            continue
        if near(tokens, entry_tokens):
            return entry
    return None
