"""A document's facts as lookup searches them: each fact's normalised words on one line of
one string, and what ranking needs besides (place, tier, scope, superseded), as plain
values a cache keeps while the file does not change.

A query word is then found with `str.find` over the whole string, and only the facts that
score are read again (`entry_at`) to be shown: a lookup over an archive of ten thousand
facts normalises none of them. The scores are `ranking.rank`'s, checked fact by fact.

A document a review rewrote is indexed again by parts (`reindex`): it is cut where
`parse_document` carries nothing over but the section, and a part whose text (with its
headings) the previous index had keeps that part's facts, only moved; only the parts
that changed are parsed.
"""

from __future__ import annotations

import heapq
import zlib
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mdmem.errors import ParseError
from mdmem.format.footer import TIERS, looks_like_footer, parse_footer
from mdmem.format.scope import in_scope
from mdmem.format.textfile import TextFile, body
from mdmem.reading.entries import Entry, entries_of, one_line
from mdmem.reading.ranking import Hit, Ranking
from mdmem.reading.scoring import (
    COUNTED,
    EXACT,
    PART,
    PART_LEAST,
    TAG,
    Query,
    corpus_of,
    holds_now,
    is_history,
    score,
    text_length,
    words_of,
)

if TYPE_CHECKING:  # a lookup through a kept index parses nothing
    from mdmem.format.document import Document

SIZE = 6
# A hit's sort key: (-score, id, path, line, document number, fact number, codes).
Key = tuple[int, str, str, int, int, int, tuple[int, ...]]
_CHECKBOXES = (None, " ", "x")


@dataclass(frozen=True)
class Index:
    """One document's facts, fact i: (line, footer line, section number, tier number or
    -1, superseded 0/1, checkbox 0 none / 1 open / 2 done) at `places[SIZE * i:]`, its id
    `ids[i]`, its words on line i of `words` (each as often as the fact has it), its tags'
    on line i of `tags`; `scopes` and `links` by fact number, for the few facts that have
    them."""

    path: str
    sections: list[str]
    places: list[int]  # SIZE integers per fact
    ids: list[str]
    words: str
    tags: str
    scopes: dict[str, str]
    links: dict[str, list[str]]  # fact number -> [superseded-by, supersedes], "" for none
    lengths: list[int]  # each fact's length, as BM25 counts it (`scoring.text_length`)

    def payload(self) -> dict[str, Any]:
        return {
            "ids": self.ids,
            "lengths": self.lengths,
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
        [int(length) for length in payload["lengths"]],
    )


def index_of(document: Document) -> Index:
    sections: dict[str, int] = {}
    places: list[int] = []
    ids: list[str] = []
    words: list[str] = []
    tags: list[str] = []
    scopes: dict[str, str] = {}
    links: dict[str, list[str]] = {}
    lengths: list[int] = []
    for number, entry in enumerate(entries_of(document)):
        lengths.append(text_length(entry.text))
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
        words.append(" ".join(sorted(word for word, n in fact_words.items() for _ in range(n))))
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
        lengths,
    )


def match_codes(index: Index, query: Query) -> dict[int, list[int]]:
    """Fact number -> how it matches each query word (`scoring.match_codes`), for the
    facts that match one."""
    found: dict[int, list[int]] = {}
    tagged = bool(index.tags.strip("\n"))
    size = len(query.words)
    for position, word in enumerate(query.words):
        for number, exact in _occurrences(index.words, word, exact_only=False).items():
            code = EXACT + COUNTED * exact if exact else PART
            found.setdefault(number, [0] * size)[position] |= code
        if tagged:
            for number in _occurrences(index.tags, word, exact_only=True):
                found.setdefault(number, [0] * size)[position] |= TAG
    return found


def tier(index: Index, number: int) -> str:
    code = index.places[SIZE * number + 3]
    return TIERS[code] if code >= 0 else "working"


def _holds_now(index: Index, number: int) -> bool:
    checkbox, superseded = index.places[SIZE * number + 5], index.places[SIZE * number + 4]
    return holds_now(index.path, _CHECKBOXES[checkbox], tier(index, number), bool(superseded))


def count(index: Index) -> int:
    return len(index.places) // SIZE


def _occurrences(text: str, word: str, *, exact_only: bool) -> dict[int, int]:
    """Line number -> how often `word` is a whole word there (0: only the start of one, for
    a word long enough, `scoring.PART_LEAST`). The line is counted on from the previous
    occurrence: the text is scanned once."""
    found: dict[int, int] = {}
    size, end = len(word), len(text)
    parts = not exact_only and size >= PART_LEAST
    line = last = 0
    position = text.find(word)
    while position >= 0:
        starts = not position or text[position - 1] in " \n"
        exact = starts and (position + size == end or text[position + size] in " \n")
        if exact or (parts and starts):
            line += text.count("\n", last, position)
            last = position
            found[line] = found.get(line, 0) + exact
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
    matched = [match_codes(index, query) for index in indexes]
    corpus = corpus_of(
        [(index.lengths[n], found.get(n, ()), not history and _holds_now(index, n))
         for index, found in zip(indexes, matched, strict=True)
         for history in [is_history(index.path, None)] for n in range(count(index))],
        len(query.words),
    )  # fmt: skip
    live: list[Key] = []
    gone: list[Key] = []
    old: list[tuple[int, int, list[int], str]] = []  # history: scored only if shown

    def key(order: int, number: int, codes: list[int], label: str, history: bool) -> Key:
        index = indexes[order]
        points = score(codes, index.lengths[number], corpus, label, history)
        place = index.places[SIZE * number]
        return (-points, index.ids[number], index.path, place, order, number, tuple(codes))

    for order, (index, found) in enumerate(zip(indexes, matched, strict=True)):
        for number, codes in found.items():
            at = SIZE * number
            label = tier(index, number)
            if tier_label is not None and label != tier_label:
                continue
            if index.scopes and not in_scope(index.scopes.get(str(number)), path):
                continue
            history = is_history(index.path, _CHECKBOXES[index.places[at + 5]])
            if index.places[at + 4]:
                gone.append(key(order, number, codes, label, history))
            elif history:
                old.append((order, number, codes, label))
            else:
                live.append(key(order, number, codes, label, history))
    # What holds now first, then history (`ranking.order`), scored only when there is room
    # (3,312 of the 3,533 hits of the 10,000-log benchmark query are history, 117 not).
    shown = _best(live, limit)
    if limit is None or len(shown) < limit:
        history_keys = [key(*item, True) for item in old]
        shown += _best(history_keys, None if limit is None else limit - len(shown))

    def hits(items: list[Key]) -> tuple[Hit, ...]:
        return tuple(
            Hit(entry_at(indexes[order], lines_of(indexes[order]), number), -points, codes)
            for points, _, _, _, order, number, codes in items
        )

    return Ranking(hits(shown), hits(_best(gone, limit)), len(live) + len(old), corpus)


def _best(keys: list[Key], limit: int | None) -> list[Key]:
    """The `limit` smallest keys, in order: only those shown are read back."""
    return sorted(keys) if limit is None else heapq.nsmallest(limit, keys)


def link_pairs(indexes: Sequence[Index]) -> list[tuple[str, str, str]]:
    """(id, superseded-by, supersedes) of every fact with a link, "" for none."""
    return [
        (index.ids[int(number)], by, old)
        for index in indexes
        for number, (by, old) in sorted(index.links.items(), key=lambda item: int(item[0]))
    ]


# --- a rewritten document, indexed again by its parts ----------------------------------

PART_ODDS = 16  # one line in so many may open a part, besides the headings
Part = list[Any]  # [digest of its text, first line, first fact, facts], as JSON keeps it
Piece = tuple[Index, int, int, int]  # (an index, first fact, facts, lines moved by)


def cuts(lines: tuple[str, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Where a document may be cut into parts that `parse_document` reads alone as it
    reads them in place, each with the heading lines (their numbers) that give its
    section: before a line flush left, not a footer, that is a heading or follows a
    blank line or a footer line. No item spans it (a line flush left ends an item),
    and no group of items (a blank line, a heading or a footer comes between). Besides
    headings, only before one line in about `PART_ODDS`, chosen by its text; nowhere
    when the text holds a code fence marker: a heading inside a fenced block is none."""
    from mdmem.format.document import heading  # see `reindex`

    whole = "".join(lines)
    if "```" in whole or "~~~" in whole:
        return [(0, ())]
    found: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    top: tuple[int, ...] = ()  # the `#`/`##` heading above, then the `###` one
    flush = [number for number, line in enumerate(lines) if line[:1] not in " \t\r\n"]
    for number in flush:  # a heading is flush left: `top` sees every one
        line = lines[number]
        level = heading(body(line)) if line[0] == "#" else None
        if level is not None and level[0] <= 3:
            top = (number,) if level[0] <= 2 else (*top[:1], number)
        if not number or not line.strip() or "<!--" in line:
            continue
        if level is None and zlib.crc32(line.encode()) % PART_ODDS:
            continue  # a cut by the line's own text: the same where lines came or went
        above = lines[number - 1]
        if level is not None or not above.strip() or looks_like_footer(body(above)):
            found.append((number, tuple(i for i in top if i < number)))
    return found


def reindex(file: TextFile, old: Index | None, parts: Sequence[Part]) -> tuple[Index, list[Part]]:
    """The document's index, and its parts: a part whose text `old` had (`parts` are its
    parts) keeps its facts from `old`, the others are parsed alone. Without `old`, or
    when a part does not parse alone, the whole document is parsed (which names the
    error)."""
    # Only for a document that changed: a lookup through its kept index imports neither
    # the parser (12 ms) nor hashlib (3 ms) under its 1.5x start-up target.
    import hashlib

    from mdmem.format.document import parse_document
    from mdmem.format.leftout import strictly

    lines = file.lines
    known = {part[0]: part for part in parts}
    bounds = cuts(lines)
    ends = [start for start, _ in bounds[1:]] + [len(lines)]
    texts = [[lines[i] for i in context] + list(lines[start:end])
             for (start, context), end in zip(bounds, ends, strict=True)]  # fmt: skip
    digests = [
        hashlib.blake2b(f"{len(context)}:{''.join(text)}".encode(), digest_size=16).hexdigest()
        for (_, context), text in zip(bounds, texts, strict=True)
    ]  # the same lines, with headings or without, are two parts
    pieces: list[Piece] = []
    for (start, context), text, digest in zip(bounds, texts, digests, strict=True):
        if old is None:
            break
        if digest in known:
            _, old_start, first, facts = known[digest]
            pieces.append((old, first, facts, start - old_start))
            continue
        try:
            with strictly():  # read alone, a part's line numbers are not the file's
                part = index_of(parse_document(TextFile(file.path, tuple(text)), unique_ids=False))
        except ParseError:
            break
        pieces.append((part, 0, count(part), start - len(context)))
    if len(pieces) == len(bounds):
        index = concat(file.path, pieces)
    else:
        index = index_of(parse_document(file, unique_ids=False))
        if old is not None:
            return index, []  # a part read alone failed where the whole did not: no parts
    found = [index.places[SIZE * number] - 1 for number in range(count(index))]
    firsts = [bisect_left(found, start) for start, _ in bounds] + [len(found)]
    return index, [
        [digest, start, first, after - first]
        for (start, _), digest, first, after in zip(
            bounds, digests, firsts, firsts[1:], strict=False
        )
    ]


def concat(path: str, pieces: Sequence[Piece]) -> Index:
    """The index of the pieces' facts in order, as `index_of` gives it for the document
    they make up."""
    sections: dict[str, int] = {}
    places: list[int] = []
    ids: list[str] = []
    words: list[str] = []
    tags: list[str] = []
    scopes: dict[str, str] = {}
    links: dict[str, list[str]] = {}
    lengths: list[int] = []
    split: dict[int, tuple[list[str], list[str], list[int]]] = {}
    for index, first, facts, delta in pieces:
        if id(index) not in split:
            keyed = sorted({int(key) for key in (*index.scopes, *index.links)})
            split[id(index)] = (index.words.split("\n"), index.tags.split("\n"), keyed)
        word_lines, tag_lines, keyed = split[id(index)]
        moved = len(ids) - first
        for number in keyed[bisect_left(keyed, first) : bisect_left(keyed, first + facts)]:
            if str(number) in index.scopes:
                scopes[str(number + moved)] = index.scopes[str(number)]
            if str(number) in index.links:
                links[str(number + moved)] = index.links[str(number)]
        block = index.places[SIZE * first : SIZE * (first + facts)]
        block[0::SIZE] = [line + delta for line in block[0::SIZE]]
        block[1::SIZE] = [line + delta for line in block[1::SIZE]]
        names, number_of = index.sections, sections.setdefault  # numbered as first met
        block[2::SIZE] = [number_of(names[section], len(sections)) for section in block[2::SIZE]]
        places += block
        ids += index.ids[first : first + facts]
        words += word_lines[first : first + facts]
        tags += tag_lines[first : first + facts]
        lengths += index.lengths[first : first + facts]
    joined = "\n".join
    return Index(
        path, list(sections), places, ids, joined(words), joined(tags), scopes, links, lengths
    )
