"""A document's facts as lookup searches them: each fact's normalised words on one line of
one string, and what ranking needs besides (place, tier, scope, superseded), as plain
values a cache keeps while the file does not change.

A query word is then found with `str.find` over the whole string, and only the facts
that score are read from the file again (`entry_at`) to be shown: a lookup over an
archive of ten thousand facts normalises none of them. The scores are `fact_score`'s
(`mdmem.reading.ranking`), which a test checks fact by fact.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from mdmem.format.document import Document
from mdmem.format.footer import TIERS, parse_footer
from mdmem.format.textfile import body
from mdmem.reading.entries import Entry, entries_of, one_line
from mdmem.reading.ranking import (
    EXACT,
    PART,
    TAG,
    TIER_WEIGHTS,
    Hit,
    Query,
    Ranking,
    words_of,
)
from mdmem.reading.scope import in_scope

SIZE = 6
_CHECKBOXES = (None, " ", "x")


@dataclass(frozen=True)
class Index:
    """One document's facts, fact i: (line, footer line, section number, tier number or
    -1, superseded 0/1, checkbox 0 none / 1 open / 2 done) at `places[SIZE * i:]`, its id
    `ids[i]`, its words on line i of `words`, its tags' on line i of `tags`; `scopes` and
    `links` by fact number, for the few facts that have them."""

    path: str
    sections: list[str]
    places: list[int]  # SIZE integers per fact
    ids: list[str]
    words: str
    tags: str
    scopes: dict[str, str]
    links: dict[str, list[str]]  # fact number -> [superseded-by, supersedes], "" for none

    def payload(self) -> dict[str, Any]:
        return {
            "ids": self.ids,
            "sections": self.sections,
            "places": self.places,
            "words": self.words,
            "tags": self.tags,
            "scopes": self.scopes,
            "links": self.links,
        }


def from_payload(path: str, payload: dict[str, Any]) -> Index:
    return Index(
        path,
        list(payload["sections"]),
        list(payload["places"]),
        list(payload["ids"]),
        str(payload["words"]),
        str(payload["tags"]),
        dict(payload["scopes"]),
        dict(payload["links"]),
    )


def index_of(document: Document) -> Index:
    sections: dict[str, int] = {}
    places: list[int] = []
    ids: list[str] = []
    words: list[str] = []
    tags: list[str] = []
    scopes: dict[str, str] = {}
    links: dict[str, list[str]] = {}
    for number, entry in enumerate(entries_of(document)):
        tier = entry.get("tier")
        places += [
            entry.line,
            entry.footer_line,
            sections.setdefault(entry.section, len(sections)),
            TIERS.index(tier) if tier in TIERS else -1,
            int(entry.superseded),
            _CHECKBOXES.index(entry.checkbox),
        ]
        ids.append(entry.id)
        fact_words, tag_words = words_of(entry)
        words.append(" ".join(sorted(fact_words)))
        tags.append(" ".join(sorted(tag_words)))
        if entry.get("scope"):
            scopes[str(number)] = entry.get("scope") or ""
        by, old = entry.get("superseded-by") or "", entry.get("supersedes") or ""
        if by or old:
            links[str(number)] = [by, old]
    return Index(
        document.path,
        list(sections),
        places,
        ids,
        "\n".join(words),
        "\n".join(tags),
        scopes,
        links,
    )


def points(index: Index, query: Query) -> dict[int, int]:
    """Fact number -> its points for the query, before the tier weight (only facts with
    points)."""
    starts = _line_starts(index.words)
    tag_starts = _line_starts(index.tags) if index.tags.strip("\n") else []
    found: dict[int, int] = {}
    for word in query.words:
        best = _occurrences(index.words, starts, word, exact_only=False)
        for number, exact in best.items():
            found[number] = found.get(number, 0) + (EXACT if exact else PART)
        if tag_starts:
            for number in _occurrences(index.tags, tag_starts, word, exact_only=True):
                found[number] = found.get(number, 0) + TAG
    return found


def tier(index: Index, number: int) -> str:
    code = index.places[SIZE * number + 3]
    return TIERS[code] if code >= 0 else "working"


def weight(index: Index, number: int) -> int:
    return TIER_WEIGHTS.get(tier(index, number), 1)


def superseded(index: Index, number: int) -> bool:
    return bool(index.places[SIZE * number + 4])


def count(index: Index) -> int:
    return len(index.places) // SIZE


def _line_starts(text: str) -> list[int]:
    """The offset of each line's first character (and one past the end)."""
    lengths = accumulate(map(len, text.split("\n")), initial=0)
    return [total + number for number, total in enumerate(lengths)]


def _occurrences(text: str, starts: list[int], word: str, *, exact_only: bool) -> dict[int, bool]:
    """Line number -> whether `word` is a whole word there (else only part of one)."""
    found: dict[int, bool] = {}
    size = len(word)
    position = text.find(word)
    while position >= 0:
        before = text[position - 1] if position else " "
        after = text[position + size] if position + size < len(text) else " "
        exact = before in " \n" and after in " \n"
        if exact or not exact_only:
            number = bisect_right(starts, position) - 1
            found[number] = found.get(number, False) or exact
        position = text.find(word, position + 1)
    return found


def entry_at(index: Index, lines: tuple[str, ...], number: int) -> Entry:
    """The fact numbered `number` of the document, read from its lines again."""
    line, footer_line, section, _, _, checkbox = index.places[SIZE * number : SIZE * (number + 1)]
    footer = parse_footer(body(lines[footer_line - 1]), index.path, footer_line)
    text = one_line(lines[line - 1 : footer_line - 1])
    fields = tuple(footer.values.items())
    section_title = index.sections[section]
    return Entry(index.path, line, footer_line, section_title, _CHECKBOXES[checkbox], text, fields)


def rank_indexes(
    indexes: Sequence[Index],
    lines_of: Callable[[Index], tuple[str, ...]],
    query: Query,
    *,
    tier_label: str | None = None,
    path: str | None = None,
    limit: int | None = None,
) -> Ranking:
    """`mdmem.reading.ranking.rank` over indexed documents: the same hits in the same
    order; only the facts shown are read again, from `lines_of(index)`."""
    live: list[tuple[int, str, str, int, Index, int]] = []
    gone: list[tuple[int, str, str, int, Index, int]] = []
    for index in indexes:
        for number, found in points(index, query).items():
            if tier_label is not None and tier(index, number) != tier_label:
                continue
            if not in_scope(index.scopes.get(str(number)), path):
                continue
            line = index.places[SIZE * number]
            key = (-found * weight(index, number), index.ids[number], index.path, line)
            (gone if superseded(index, number) else live).append((*key, index, number))
    live.sort(key=lambda item: item[:4])
    gone.sort(key=lambda item: item[:4])

    def hits(items: list[tuple[int, str, str, int, Index, int]]) -> tuple[Hit, ...]:
        return tuple(
            Hit(entry_at(index, lines_of(index), number), -score)
            for score, _, _, _, index, number in items[:limit]
        )

    return Ranking(hits(live), hits(gone), len(live))


def link_pairs(indexes: Sequence[Index]) -> list[tuple[str, str, str]]:
    """(id, superseded-by, supersedes) of every fact with a link, "" for none."""
    return [
        (index.ids[int(number)], by, old)
        for index in indexes
        for number, (by, old) in sorted(index.links.items(), key=lambda item: int(item[0]))
    ]
