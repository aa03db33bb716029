"""The blocklist's nearness test: text that comes near a forgotten fact (`blocked.md`).

Both texts are read as claims (`mdmem.format.words`: normalised content words and
polarity), so case, punctuation, filler, plurals, tenses, word order and passive voice do
not hide a blocked rule. In integers, text T is near entry E when they have the same
polarity and
- T holds every word of E, and E has at least `CONTAINED_MIN` words (E with a clause or a
  qualifier added), or
- E holds every word of T, and T keeps `100 * |T| >= SHORTENED_PERCENT * |E|` of them (E
  with a stray word dropped), or
- their words nearly coincide: `100 * |T∩E| >= NEAR_PERCENT * |T∪E|` (token Jaccard).
A rule of opposite polarity, or one that swaps a word of the entry for another (another
subject, object, tool or number), is not near.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.words import EXCLUDED, Claim, item_claim

CONTAINED_MIN = 3
SHORTENED_PERCENT = 80
NEAR_PERCENT = 90
# Text near an entry of n words misses at most this share of them (see `blocklist`).
_MISSED_PERCENT = 100 - min(SHORTENED_PERCENT, NEAR_PERCENT)


def near(text: Claim, entry: Claim) -> bool:
    """Whether `text` is `entry` coming back (see the module's docstring); empty claims
    are never near anything."""
    if text.negative != entry.negative or not text.words or not entry.words:
        return False
    if entry.words <= text.words:
        return len(entry.words) >= CONTAINED_MIN or text.words == entry.words
    if text.words <= entry.words:
        return 100 * len(text.words) >= SHORTENED_PERCENT * len(entry.words)
    return 100 * len(text.words & entry.words) >= NEAR_PERCENT * len(text.words | entry.words)


def brings_back(text: Claim, superseded: Claim) -> bool:
    """Whether `text` is a superseded fact's text coming back: near it, or its text with a
    clause dropped (every word of `text` is the old text's, at least `CONTAINED_MIN` words
    and half of them), since what was false stays false without its details."""
    if near(text, superseded):
        return True
    words, old = text.words, superseded.words
    return (
        text.negative == superseded.negative
        and len(words) >= CONTAINED_MIN
        and words <= old
        and 2 * len(words) >= len(old)
    )


def contrasted(text: Claim, other: Claim) -> bool:
    """Whether one of two positive claims asserts what the other's contrast excludes, about
    the same thing: "Money is stored as a float" against "Money is stored in integer cents,
    never a float". The asserting claim holds a word the other marks excluded, and its
    other words are all words the other asserts."""
    if text.negative or other.negative:
        return False
    return _asserts_excluded(text, other) or _asserts_excluded(other, text)


def _excluded(found: Claim) -> set[str]:
    """The words a claim's contrast clause excludes, unmarked."""
    return {word[1:] for word in found.words if word.startswith(EXCLUDED)}


# Of the asserting claim's other words, the share the excluding claim must hold too (a
# detail such as an example's number may be the asserting claim's own), and at least two.
SAME_SUBJECT_PERCENT = 75


def _asserts_excluded(asserting: Claim, excluding: Claim) -> bool:
    excluded = _excluded(excluding)
    asserted = {word for word in asserting.words if not word.startswith(EXCLUDED)}
    clashing = excluded & asserted
    if not clashing:
        return False
    rest = asserted - clashing
    shared = len(rest & excluding.words)
    if rest <= excluding.words:
        return True
    return shared >= 2 and 100 * shared >= SAME_SUBJECT_PERCENT * len(rest)


def restates_contrast(text: Claim, other: Claim) -> bool:
    """Whether a prohibition says what a positive claim's contrast already excludes, about
    the same thing: "Never call the payment API directly" against "Use the client and never
    call the payment API directly"."""
    if not text.negative or other.negative:
        return False
    excluded = _excluded(other)
    return bool(excluded & text.words) and text.words <= excluded | other.words


def least_shared(words: int) -> int:
    """The fewest words a claim shares with a text of `words` words that it is near: all of
    them, or `CONTAINED_MIN` of them when it holds a whole entry of that many (see `near`);
    a bound that lets a caller skip claims without computing them."""
    return max(1, min(CONTAINED_MIN, words))


@dataclass(frozen=True)
class Blocklist:
    """The entries of `blocked.md` with their claims, and an index from a few words of each
    entry to its place: text near an entry holds at least one of them (see `blocklist`)."""

    entries: tuple[tuple[BlockedEntry, Claim], ...]
    keys: Mapping[str, tuple[int, ...]]


def blocklist(entries: Iterable[BlockedEntry]) -> Blocklist:
    """The blocklist of `entries`, in file order. Text near an entry misses at most
    `_MISSED_PERCENT * n // 100` of its n words, so it holds one of any one more of them:
    each entry is indexed under that many of its words (the longest, then by name)."""
    claimed = tuple((entry, item_claim(entry.text)) for entry in entries)
    keys: dict[str, list[int]] = {}
    for place, (_, entry_claim) in enumerate(claimed):
        count = _MISSED_PERCENT * len(entry_claim.words) // 100 + 1
        for word in sorted(entry_claim.words, key=lambda word: (-len(word), word))[:count]:
            keys.setdefault(word, []).append(place)
    return Blocklist(claimed, {word: tuple(places) for word, places in keys.items()})


def blocked_facts(
    documents: Iterable[Document], entries: tuple[BlockedEntry, ...]
) -> Iterator[tuple[Document, Fact, BlockedEntry]]:
    """Every fact whose words come near a forgotten one, with the first such entry."""
    if not entries:
        return
    blocked = blocklist(entries)
    for document in documents:
        for fact in document.facts:
            entry = blocking(item_claim(document.fact_text(fact)), blocked)
            if entry is not None:
                yield document, fact, entry


def blocking(text: Claim, blocked: Blocklist) -> BlockedEntry | None:
    """The first entry (in file order) that `text` comes near, else None."""
    keys = blocked.keys
    places = {place for word in text.words if word in keys for place in keys[word]}
    for place in sorted(places):
        entry, entry_claim = blocked.entries[place]
        if near(text, entry_claim):
            return entry
    return None
