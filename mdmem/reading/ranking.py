"""Lexical lookup (SPEC §11), over facts and session log lines: the hits of
`mdmem.reading.scoring`'s scores (BM25 over the facts searched, times the tier's weight),
in an order that never changes between runs (by score, highest first, then by id, then
by place).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mdmem.format.scope import in_scope
from mdmem.reading.entries import Entry
from mdmem.reading.scoring import (
    LINE_EXACT,
    Corpus,
    Query,
    explain,
    is_history,
    line_points,
    scored,
    text_length,
    text_words,
)
from mdmem.safety.secrets import redact

SESSION_WEIGHT = 1  # a line of a session log: history, scored apart from the facts


@dataclass(frozen=True)
class Hit:
    entry: Entry
    score: int
    codes: tuple[int, ...] = ()  # how it matched each query word (`scoring.match_codes`)


@dataclass(frozen=True)
class Ranking:
    """Live hits, and superseded ones apart (each names its successor, when it has one)."""

    hits: tuple[Hit, ...]
    superseded: tuple[Hit, ...]
    total: int  # live hits before the limit
    corpus: Corpus | None = None  # the facts searched, as BM25 counts them

    def explained(self, query: Query, hit: Hit) -> str:
        """How the hit scored (`lookup --explain`)."""
        assert self.corpus is not None
        length = text_length(hit.entry.text)
        history = is_history(hit.entry.path, hit.entry.checkbox)
        return explain(query.words, hit.codes, length, self.corpus, hit.entry.tier, history)


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
    every = list(entries)
    scores, corpus = scored(every, query)
    live: list[Hit] = []
    gone: list[Hit] = []
    for entry, (score, codes) in zip(every, scores, strict=True):
        if not score or (tier is not None and entry.tier != tier):
            continue
        if not in_scope(entry.get("scope"), path):
            continue
        (gone if entry.superseded else live).append(Hit(entry, score, codes))
    live.sort(key=order)
    gone.sort(key=order)
    return Ranking(tuple(live[:limit]), tuple(gone[:limit]), len(live), corpus)


def order(hit: Hit) -> tuple[bool, int, str, str, int]:
    """What holds now before history (`scoring.is_history`), then the highest score first,
    then by id, then by place (a copy a merge left)."""
    entry = hit.entry
    history = is_history(entry.path, entry.checkbox)
    return (history, -hit.score, entry.id, entry.path, entry.line)


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
    numbers = {
        lowered.count("\n", 0, position)
        for needle in query.needles
        for position in _positions(lowered, needle)
    }
    lines = text.split("\n")  # the lowercase text has the same lines, maybe not lengths
    found = []
    for number in sorted(numbers):
        line = lines[number].rstrip("\r")
        score = line_points(query, text_words(line)) * SESSION_WEIGHT
        if score:
            found.append(LineHit(path, number + 1, session, line.strip(), score))
    return found


def best_line_hits(
    logs: Iterable[tuple[str, bytes]], folder: str, query: Query, limit: int | None
) -> list[LineHit]:
    """The best-scoring lines of the logs, each `(file name, bytes)` in `folder` (as
    shown), in `sorted_line_hits` order, at most `limit` of them: the same in any order
    of the logs.

    Under a limit, a log's lines are scored only while they could still take a place: no
    line scores more than `LINE_EXACT` per query word whose needles it holds, so a log's
    lines score no more than that count over its whole text. Logs are taken by that
    bound, highest first, until the bound is below the last line kept.
    """
    held = []
    per_word = query.word_needles
    for name, data in logs:
        text = data.decode("utf-8", "replace")
        lowered = text.lower()
        words = 0
        for own in per_word:  # plain loops: a generator per log and word cost a third more
            for needle in own:
                if needle in lowered:
                    words += 1
                    break
        if words:
            held.append((LINE_EXACT * SESSION_WEIGHT * words, name, text))
    if limit is None:
        return sorted_line_hits(
            hit for _, name, text in held for hit in _hits(folder, name, text, query)
        )
    held.sort(key=lambda log: -log[0])
    kept: list[LineHit] = []
    for bound, name, text in held:
        if len(kept) >= limit and bound < kept[-1].score:
            break
        kept = sorted_line_hits([*kept, *_hits(folder, name, text, query)])[:limit]
    return kept


def _hits(folder: str, name: str, text: str, query: Query) -> list[LineHit]:
    return log_hits(folder + name, name[:-3], text, query)


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
    forgotten: frozenset[str] = frozenset()  # successors named here that were forgotten since

    def render(self, explain: bool = False) -> list[str]:
        """`path:line  id  tier  text` per hit, grep's way; a superseded fact names its
        successor; log lines name their session. `explain`: each hit followed by how it
        scored, indented."""
        out = []
        for hit in self.ranking.hits:
            out.append(_line(hit.entry, hit.entry.tier))
            if explain:
                out.append(f"    score {hit.score}: {self.ranking.explained(self.query, hit)}")
        if self.ranking.superseded:
            out += ["", "Superseded (do not follow; the successor holds):"]
            for hit in self.ranking.superseded:
                successor = hit.entry.get("superseded-by") or "(invalidated)"
                gone = " (forgotten)" if successor in self.forgotten else ""
                out.append(_line(hit.entry, f"superseded → {successor}{gone}"))
        if self.lines:
            out += ["", "Session logs:"]
            out += [f"{hit.path}:{hit.line}  {hit.session}  session  {hit.text}"
                    for hit in self.lines]  # fmt: skip
        return out

    def as_dict(self, explain: bool = False) -> dict[str, Any]:
        hits = [_hit_dict(hit) for hit in self.ranking.hits]
        if explain:
            for shown, hit in zip(hits, self.ranking.hits, strict=True):
                shown["explain"] = self.ranking.explained(self.query, hit)
        return {
            "query": self.query.text,
            "words": shown_words(self.query.text, self.query.words),
            "hits": hits,
            "total": self.ranking.total,
            "superseded": [
                {
                    **_hit_dict(hit),
                    "superseded_by": hit.entry.get("superseded-by"),
                    "successor_forgotten": hit.entry.get("superseded-by") in self.forgotten,
                }
                for hit in self.ranking.superseded
            ],
            "sessions": [dataclasses.asdict(hit) for hit in self.lines],
        }


def _line(entry: Entry, tier: str) -> str:
    return f"{entry.path}:{entry.line}  {entry.id}  {tier}  {entry.text}"


def shown_words(text: str, words: Iterable[str]) -> list[str]:
    """The query's words as an answer shows them: a word of secret material (one the
    masked query no longer holds, lowercased as it is) as `[REDACTED]`, never itself."""
    masked = redact(text).casefold()
    return [word if word in masked else "[REDACTED]" for word in words]


def _hit_dict(hit: Hit) -> dict[str, Any]:
    entry = hit.entry
    return {"path": entry.path, "line": entry.line, "id": entry.id, "tier": entry.tier,
            "score": hit.score, "text": entry.text}  # fmt: skip
