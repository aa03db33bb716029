"""Lexical lookup ranked with integers (SPEC §11), over facts and session log lines.

A query and a fact are compared as the blocklist compares texts (`mdmem.format.words`):
normalised content words, so case, plurals, tenses and word order do not hide a fact.
Per query word: 3 points when the fact has that word, else 1 when the word is part of
one of the fact's words (`auth` in `authentication`), plus 5 when it is one of the
fact's tags; the sum is multiplied by the weight of the fact's tier (`TIER_WEIGHTS`).
The fact's words are those of its text and of its id. Hits sort by score, highest
first, then by id, then by place, so the order never changes between runs. Stems are
for comparing only: what is shown is the file's own text.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mdmem.format.words import IRREGULAR, normalised_tokens, stem
from mdmem.reading.entries import Entry
from mdmem.reading.scope import in_scope

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


def make_query(text: str) -> Query:
    words = tuple(sorted(normalised_tokens(text)))
    needles: set[str] = set()
    for word in words:
        needles.add(word[:-1] if word.endswith("y") and len(word) > 1 else word)
        needles.update(form for form, base in IRREGULAR.items() if word in stem(base))
    # A needle that holds another adds nothing: the shorter one is found wherever it is.
    kept = sorted(n for n in needles if not any(o != n and o in n for o in needles))
    return Query(text, words, tuple(kept))


def may_match(lowered: str, query: Query) -> bool:
    """Whether a lowercase text can score at all: false only when it cannot."""
    return any(needle in lowered for needle in query.needles)


@functools.lru_cache(maxsize=1 << 14)
def _words(text: str) -> frozenset[str]:
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
    tag_words = _words(tags.replace(",", " ")) if tags else frozenset()
    return _words(f"{entry.text} {entry.id}"), tag_words


def fact_score(entry: Entry, query: Query) -> int:
    """The fact's score for the query: 0 when no word matches."""
    tags = entry.get("tags") or ""
    if not may_match(f"{entry.text} {entry.id} {tags}".lower(), query):
        return 0
    words, tag_words = words_of(entry)
    return word_points(query, words, tag_words) * TIER_WEIGHTS.get(entry.tier, 1)


@dataclass(frozen=True)
class Hit:
    entry: Entry
    score: int


@dataclass(frozen=True)
class Ranking:
    """Live hits, and superseded ones apart (each names its successor, when it has one)."""

    hits: tuple[Hit, ...]
    superseded: tuple[Hit, ...]
    total: int  # live hits before the limit


def rank(
    entries: Iterable[Entry],
    query: Query,
    *,
    tier: str | None = None,
    path: str | None = None,
    limit: int | None = None,
) -> Ranking:
    """The facts that score for the query, best first; `tier` keeps one tier label, `path`
    leaves out facts whose `scope` does not match it, `limit` caps each list."""
    live: list[Hit] = []
    gone: list[Hit] = []
    for entry in entries:
        if tier is not None and entry.tier != tier:
            continue
        if not in_scope(entry.get("scope"), path):
            continue
        score = fact_score(entry, query)
        if score:
            (gone if entry.superseded else live).append(Hit(entry, score))
    live.sort(key=order)
    gone.sort(key=order)
    return Ranking(tuple(live[:limit]), tuple(gone[:limit]), len(live))


def order(hit: Hit) -> tuple[int, str, str, int]:
    """Highest score first, then by id, then by place (a copy a merge left)."""
    return (-hit.score, hit.entry.id, hit.entry.path, hit.entry.line)


@dataclass(frozen=True)
class LineHit:
    """A line of a session log that scores for the query."""

    path: str
    line: int
    session: str  # the log's stem
    text: str
    score: int


def log_hits(path: str, session: str, text: str, query: Query) -> list[LineHit]:
    """The lines of one session log that score for the query, in file order: only the
    lines that hold a needle are normalised."""
    lowered = text.lower()
    positions = sorted(
        position for needle in query.needles for position in _positions(lowered, needle)
    )
    if not positions:
        return []
    lines = text.split("\n")  # the lowercase text has the same lines, maybe not lengths
    hits = []
    numbers = {lowered.count("\n", 0, position) for position in positions}
    for number in sorted(numbers):
        line = lines[number].rstrip("\r")
        score = word_points(query, _words(line)) * SESSION_WEIGHT
        if score:
            hits.append(LineHit(path, number + 1, session, line.strip(), score))
    return hits


def _positions(text: str, needle: str) -> list[int]:
    found = []
    position = text.find(needle)
    while position >= 0:
        found.append(position)
        position = text.find(needle, position + len(needle))
    return found


def sorted_line_hits(hits: Iterable[LineHit]) -> list[LineHit]:
    """Highest score first, then the newest log first, then by line."""
    ordered = sorted(hits, key=lambda hit: hit.line)
    ordered.sort(key=lambda hit: hit.session, reverse=True)
    ordered.sort(key=lambda hit: -hit.score)
    return ordered


@dataclass(frozen=True)
class Found:
    """What `mdmem lookup` answers: ranked facts, superseded ones apart, and log lines."""

    query: Query
    ranking: Ranking
    lines: tuple[LineHit, ...]  # session log lines, with --sessions

    def render(self) -> list[str]:
        """`path:line  id  tier  text` per hit, grep's way; a superseded fact names its
        successor; log lines name their session."""
        out = [_line(hit.entry, hit.entry.tier) for hit in self.ranking.hits]
        if self.ranking.superseded:
            out += ["", "Superseded (do not follow; the successor holds):"]
            for hit in self.ranking.superseded:
                successor = hit.entry.get("superseded-by") or "(invalidated)"
                out.append(_line(hit.entry, f"superseded → {successor}"))
        if self.lines:
            out += ["", "Session logs:"]
            out += [f"{hit.path}:{hit.line}  {hit.session}  session  {hit.text}"
                    for hit in self.lines]  # fmt: skip
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query.text,
            "words": list(self.query.words),
            "hits": [_hit_dict(hit) for hit in self.ranking.hits],
            "total": self.ranking.total,
            "superseded": [
                {**_hit_dict(hit), "superseded_by": hit.entry.get("superseded-by")}
                for hit in self.ranking.superseded
            ],
            "sessions": [dataclasses.asdict(hit) for hit in self.lines],
        }


def _line(entry: Entry, tier: str) -> str:
    return f"{entry.path}:{entry.line}  {entry.id}  {tier}  {entry.text}"


def _hit_dict(hit: Hit) -> dict[str, Any]:
    entry = hit.entry
    return {"path": entry.path, "line": entry.line, "id": entry.id, "tier": entry.tier,
            "score": hit.score, "text": entry.text}  # fmt: skip
