"""A fact's score for a query (SPEC §11): what lookup ranks by and what context fills its
budget by, over the facts the command searches (its corpus).

A query and a fact are compared as the blocklist compares texts (`mdmem.format.words`):
normalised content words, so case, plurals, tenses and word order do not hide a fact.
The score is Okapi BM25 (k1 1.2, b 0.75) over those words: a query word found in few
facts weighs more than one found in many (its idf), and a match in a short fact more
than one in a long fact (the length is the fact's text in words, against the corpus's
average). Per query word a fact matches:

- exactly (the word is one of the fact's words, those of its text and its id): the word's
  idf times BM25's saturation of how often the fact has it, for the fact's length;
- in part (a word of 4 characters or more starts one of the fact's words, `auth` in
  `authentication`): a third of that;
- as a tag (one of the words of its `tags` field): the idf times k1 + 1, more than a
  match in the text can give, added to the above.

A word's idf counts the facts it matches in any of these ways, and the corpus (how many
facts, their average length) is the facts that hold now (`holds_now`): history and
superseded facts rank after them and do not make a word of theirs common, as in
context's rank. The sum is multiplied by
the weight of the fact's tier (`TIER_WEIGHTS`): core and active highest, a still-live
archive-candidate a little below, history well below: archived facts (every fact of an
archive file, whatever its label) and done threads.

The score is an integer, the same on every machine: the idf, the one transcendental
function, is rounded to 1/10,000 before the rest (IEEE arithmetic in a fixed order) is
rounded once. Ties are broken by id by the callers. A rank is a view for a reader, never
a decision: the review's rules are integers (SPEC §1). Stems are for comparing only: what
is shown is the file's own text.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from mdmem.format.memory import ARCHIVE
from mdmem.format.words import IRREGULAR, normalised_tokens, stem, word_counts
from mdmem.reading.entries import Entry

K1 = 1.2
B = 0.75
IDF_SCALE = 10_000  # the idf is kept in 1/10,000s: the same integer on every machine
PART_SHARE = 3  # a match that starts a longer word counts a third of an exact one
PART_LEAST = 4  # a shorter query word matches whole words only
EXACT, PART, TAG = 1, 2, 4  # a word's match, as bits: in the text exactly, in part, a tag
COUNTED = 8  # ... plus COUNTED times how often the word is in the text (exact matches)
TIER_WEIGHTS = {
    "core": 8,
    "active": 8,
    "working": 7,
    "archive-candidate": 6,  # still live: a little below
    "archived": 1,  # history: what holds now comes first
    "superseded": 1,
}
HISTORY = "archived"  # a fact in the archive, whatever its label, and a done thread (`- [x]`)
LINE_EXACT, LINE_PART = 3, 1  # a session log line's points per word (history, not a fact)


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


@functools.lru_cache(maxsize=1 << 14)
def text_counts(text: str) -> dict[str, int]:
    return word_counts(text)


def text_length(text: str) -> int:
    """A fact's length for BM25: the words of its text as written (cheap, and the same
    whether the fact is read from its file or from lookup's index)."""
    return len(text.split())


@dataclass(frozen=True)
class Corpus:
    """What BM25 needs of the facts searched: how many, their summed length, and per
    query word (in `Query.words` order) how many facts it matches."""

    facts: int
    length: int
    matched: tuple[int, ...]

    def idf(self, word: int) -> int:
        """The word's idf, in 1/10,000s."""
        return self.idfs[word]

    @functools.cached_property
    def idfs(self) -> tuple[int, ...]:
        """Each query word's idf, computed once for the thousands of facts scored."""
        return tuple(
            round(IDF_SCALE * math.log(1 + (self.facts - found + 0.5) / (found + 0.5)))
            for found in self.matched
        )

    def norm(self, length: int) -> float:
        """BM25's length normalisation for a fact of `length` words."""
        average = self.length / self.facts if self.facts and self.length else 1.0
        return 1 - B + B * length / average


def corpus_of(facts: Sequence[tuple[int, Sequence[int], bool]], words: int) -> Corpus:
    """The corpus of these facts, each (its length, its match codes or `()` for none,
    whether it holds now): those that hold now count, every one when none does."""
    kept = [fact for fact in facts if fact[2]] or facts
    matched = [0] * words
    for _, codes, _ in kept:
        for word, code in enumerate(codes):
            matched[word] += bool(code)
    return Corpus(len(kept), sum(length for length, _, _ in kept), tuple(matched))


def match_codes(query: Query, counts: dict[str, int], tags: frozenset[str]) -> tuple[int, ...]:
    """Per query word: how the fact matches it (`EXACT` plus `COUNTED` times how often, or
    `PART`; plus `TAG`), 0 not at all. `counts`: the fact's words, counted."""
    joined = " " + " ".join(counts)
    codes = []
    for word in query.words:
        found = counts.get(word, 0)
        part = not found and len(word) >= PART_LEAST and " " + word in joined
        code = EXACT + COUNTED * found if found else PART if part else 0
        codes.append(code | (TAG if word in tags else 0))
    return tuple(codes)


def word_scores(codes: Sequence[int], length: int, corpus: Corpus) -> list[float]:
    """Each query word's share of the score, before the tier weight."""
    norm = corpus.norm(length)
    shares = []
    for number, code in enumerate(codes):
        idf = corpus.idf(number) if code else 0  # a tag alone: no share of the text
        if not code & (EXACT | PART):
            shares.append(idf * (K1 + 1) if code & TAG else 0.0)
            continue
        if code & EXACT:
            found = code // COUNTED
            share = idf * found * (K1 + 1) / (found + K1 * norm)
        else:
            share = idf * (K1 + 1) / (1 + K1 * norm) / PART_SHARE
        shares.append(share + (idf * (K1 + 1) if code & TAG else 0.0))
    return shares


def is_history(path: str, checkbox: str | None) -> bool:
    """Whether a fact is history: in an archive file (whatever its label says), or a done
    thread."""
    return checkbox == "x" or f"/{ARCHIVE}/" in path


def holds_now(path: str, checkbox: str | None, tier: str, superseded: bool) -> bool:
    """Whether a fact holds now, so counts in the corpus: neither history nor superseded
    nor archived."""
    return (
        not superseded and tier not in ("archived", "superseded") and not is_history(path, checkbox)
    )


def weight(tier: str, history: bool = False) -> int:
    """The weight of a fact's tier (history's: `HISTORY`'s, unless its own is lower)."""
    own = TIER_WEIGHTS.get(tier, 1)
    return min(own, TIER_WEIGHTS[HISTORY]) if history else own


def score(
    codes: Sequence[int], length: int, corpus: Corpus, tier: str, history: bool = False
) -> int:
    """The fact's score: 0 when no word matches."""
    if not any(codes):
        return 0
    return max(1, round(sum(word_scores(codes, length, corpus)))) * weight(tier, history)


def words_of(entry: Entry) -> tuple[dict[str, int], frozenset[str]]:
    """(the normalised words of a fact's text and id, counted; those of its tags)."""
    tags = entry.get("tags") or ""
    tag_words = text_words(tags.replace(",", " ")) if tags else frozenset()
    return text_counts(f"{entry.text} {entry.id}"), tag_words


def entry_codes(entry: Entry, query: Query) -> tuple[int, ...]:
    """How the fact matches each query word (all 0 when it cannot)."""
    tags = entry.get("tags") or ""
    if not may_match(f"{entry.text} {entry.id} {tags}".lower(), query):
        return (0,) * len(query.words)
    return match_codes(query, *words_of(entry))


def scored(
    entries: Sequence[Entry], query: Query
) -> tuple[list[tuple[int, tuple[int, ...]]], Corpus]:
    """Each fact's score for the query and how it matched each word, over the corpus of
    these facts."""
    codes = [entry_codes(entry, query) for entry in entries]
    lengths = [text_length(entry.text) for entry in entries]
    now = [holds_now(entry.path, entry.checkbox, entry.tier, entry.superseded) for entry in entries]
    corpus = corpus_of(list(zip(lengths, codes, now, strict=True)), len(query.words))
    found = [
        (score(own, length, corpus, entry.tier, is_history(entry.path, entry.checkbox)), own)
        for own, length, entry in zip(codes, lengths, entries, strict=True)
    ]
    return found, corpus


def line_points(query: Query, words: frozenset[str]) -> int:
    """A session log line's points: 3 per query word it has, 1 per word that starts one of
    its words (as in a fact: `PART_LEAST` characters or more)."""
    joined = " " + " ".join(words)
    points = 0
    for word in query.words:
        if word in words:
            points += LINE_EXACT
        elif len(word) >= PART_LEAST and " " + word in joined:
            points += LINE_PART
    return points


def explain(
    words: Sequence[str],
    codes: Sequence[int],
    length: int,
    corpus: Corpus,
    tier: str,
    history: bool = False,
) -> str:
    """How a fact scored, on one line: each query word's match and share, the length's
    factor, the tier's weight."""
    parts = []
    for number, share in enumerate(word_scores(codes, length, corpus)):
        code = codes[number]
        if not code:
            continue
        how = "+".join(name for bit, name in ((EXACT, "word"), (PART, "part"), (TAG, "tag"))
                       if code & bit)  # fmt: skip
        how += f" x{code // COUNTED}" if code // COUNTED > 1 else ""
        parts.append(
            f"{words[number]}: {how}, in {corpus.matched[number]}/{corpus.facts} facts that "
            f"hold now (idf {corpus.idf(number) / IDF_SCALE:.2f}) {share:.0f}"
        )
    return (
        f"{' + '.join(parts)}; length {length} words (norm {corpus.norm(length):.2f}); "
        f"tier {tier}{' (history)' if history else ''} x{weight(tier, history)} = "
        f"{score(codes, length, corpus, tier, history)}"
    )
