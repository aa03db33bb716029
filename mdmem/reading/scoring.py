"""The integer score of a text for a query (SPEC §11): what lookup ranks by and what
context orders its rules by.

A query and a fact are compared as the blocklist compares texts (`mdmem.format.words`):
normalised content words, so case, plurals, tenses and word order do not hide a fact.
Per query word: 3 points when the fact has that word, else 1 when the word is part of
one of the fact's words (`auth` in `authentication`), plus 5 when it is one of the
fact's tags; the sum is multiplied by the weight of the fact's tier (`TIER_WEIGHTS`).
The fact's words are those of its text and of its id. Stems are for comparing only:
what is shown is the file's own text.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from mdmem.format.words import IRREGULAR, normalised_tokens, stem
from mdmem.reading.entries import Entry

EXACT = 3
PART = 1
TAG = 5
TIER_WEIGHTS = {
    "core": 5,
    "active": 4,
    "working": 3,
    "archive-candidate": 2,
    "archived": 1,
    "superseded": 1,
}
SESSION_WEIGHT = 1  # a line of a session log: history, below every fact


@dataclass(frozen=True)
class Query:
    """A query's normalised words, and the lowercase strings one of which any text that
    scores on a word must hold (`needles`): the word itself, and for a word that ends in
    `y` (`retries`, `retried` -> `retry`) the word without it, and the irregular forms."""

    text: str
    words: tuple[str, ...]
    needles: tuple[str, ...]
    word_needles: tuple[tuple[str, ...], ...]  # each word's own needles, in `words` order


def make_query(text: str) -> Query:
    words = tuple(sorted(normalised_tokens(text)))
    per_word = tuple(_needles_of(word) for word in words)
    needles = {needle for own in per_word for needle in own}
    # A needle that holds another adds nothing: the shorter one is found wherever it is.
    kept = sorted(n for n in needles if not any(o != n and o in n for o in needles))
    return Query(text, words, tuple(kept), per_word)


def _needles_of(word: str) -> tuple[str, ...]:
    own = {word[:-1] if word.endswith("y") and len(word) > 1 else word}
    own.update(form for form, base in IRREGULAR.items() if word in stem(base))
    return tuple(sorted(own))


def may_match(lowered: str, query: Query) -> bool:
    """Whether a lowercase text can score at all: false only when it cannot."""
    return any(needle in lowered for needle in query.needles)


@functools.lru_cache(maxsize=1 << 14)
def text_words(text: str) -> frozenset[str]:
    return normalised_tokens(text)


def word_points(query: Query, words: frozenset[str], tags: frozenset[str] = frozenset()) -> int:
    """The points of a text's words (and tags) for the query, before the tier weight."""
    points = 0
    joined = " ".join(words)
    for word in query.words:
        if word in words:
            points += EXACT
        elif word in joined:
            points += PART
        if word in tags:
            points += TAG
    return points


def words_of(entry: Entry) -> tuple[frozenset[str], frozenset[str]]:
    """(the normalised words of a fact's text and id, those of its tags)."""
    tags = entry.get("tags") or ""
    tag_words = text_words(tags.replace(",", " ")) if tags else frozenset()
    return text_words(f"{entry.text} {entry.id}"), tag_words


def fact_score(entry: Entry, query: Query) -> int:
    """The fact's score for the query: 0 when no word matches."""
    tags = entry.get("tags") or ""
    if not may_match(f"{entry.text} {entry.id} {tags}".lower(), query):
        return 0
    words, tag_words = words_of(entry)
    return word_points(query, words, tag_words) * TIER_WEIGHTS.get(entry.tier, 1)
