"""Lexical lookup (SPEC §11), over facts and session log lines: the hits of
`mdmem.reading.scoring`'s scores (BM25 over the facts searched, times the tier's weight),
in an order that never changes between runs (by score, highest first, then by id, then
by place).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator
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


@dataclass(frozen=True)
class _Candidate:
    """A log line that holds a needle, and the most it can score (`LINE_EXACT` for each query
    word one of whose needles it holds; a log line has no tags)."""

    bound: int
    path: str
    session: str
    number: int
    text: str

    def scored(self, query: Query) -> LineHit:
        score = line_points(query, text_words(self.text)) * SESSION_WEIGHT
        return LineHit(self.path, self.number, self.session, self.text.strip(), score)

    def cannot_beat(self, hit: LineHit) -> bool:
        """Whether this line, at its best, sorts after `hit` (`sorted_line_hits` order)."""
        if self.bound != hit.score:
            return self.bound < hit.score
        return (self.session, -self.number) < (hit.session, -hit.line)


def log_hits(path: str, session: str, text: str, query: Query) -> list[LineHit]:
    """The lines of one session log that score for the query, in file order: only the
    lines that hold a needle are normalised."""
    return list(_scoring(_candidates(path, session, text, query), query))


def best_line_hits(
    logs: Iterable[tuple[str, bytes]], folder: str, query: Query, limit: int | None
) -> list[LineHit]:
    """The best-scoring lines of the logs, each `(file name, bytes)` in `folder` (as
    shown), in `sorted_line_hits` order, at most `limit` of them: the same in any order
    of the logs.

    Under a limit, a log is looked at line by line only while its best line could still
    take a place: the most a line can score is `LINE_EXACT` per query word whose needles it
    holds, so a log's lines can score no more than that count over its whole text. Logs
    are taken by that bound, highest first, and their lines best bound first (then the
    newest, then by line), until no line left could take the place of the last one kept.
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

    def lines_of(logs: Iterable[tuple[int, str, str]]) -> list[_Candidate]:
        return [
            line
            for _, name, text in logs
            for line in _candidates(folder + name, name[:-3], text, query)
        ]

    if limit is None:
        return sorted_line_hits(_scoring(lines_of(held), query))
    held.sort(key=lambda log: -log[0])
    kept: list[LineHit] = []
    for bound, group in itertools.groupby(held, key=lambda log: log[0]):
        if len(kept) >= limit and bound < kept[-1].score:
            break
        lines = lines_of(group)
        lines.sort(key=lambda line: line.number)
        lines.sort(key=lambda line: line.session, reverse=True)
        lines.sort(key=lambda line: -line.bound)
        for line in lines:
            if len(kept) >= limit and line.cannot_beat(kept[-1]):
                break
            kept = sorted_line_hits([*kept, *_scoring([line], query)])[:limit]
    return kept


def _scoring(candidates: Iterable[_Candidate], query: Query) -> Iterator[LineHit]:
    """The candidates that score, scored."""
    for candidate in candidates:
        hit = candidate.scored(query)
        if hit.score:
            yield hit


def _candidates(path: str, session: str, text: str, query: Query) -> list[_Candidate]:
    """The log's lines that hold a needle, in file order, each with its bound."""
    lowered = text.lower()
    positions = sorted(
        position for needle in query.needles for position in _positions(lowered, needle)
    )
    if not positions:
        return []
    lines = text.split("\n")  # the lowercase text has the same lines, maybe not lengths
    lowered_lines = lowered.split("\n")
    found = []
    for number in sorted({lowered.count("\n", 0, position) for position in positions}):
        held = lowered_lines[number]
        bound = sum(any(needle in held for needle in own) for own in query.word_needles)
        line = lines[number].rstrip("\r")
        best = LINE_EXACT * SESSION_WEIGHT * bound
        found.append(_Candidate(best, path, session, number + 1, line))
    return found


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
    from mdmem.safety.secrets import redact  # loaded only for an answer shown as data

    masked = redact(text).casefold()
    return [word if word in masked else "[REDACTED]" for word in words]


def _hit_dict(hit: Hit) -> dict[str, Any]:
    entry = hit.entry
    return {"path": entry.path, "line": entry.line, "id": entry.id, "tier": entry.tier,
            "score": hit.score, "text": entry.text}  # fmt: skip
