"""The nearness rule: whether one text says what another says (`blocked.md`'s entries, a
duplicate, a superseded fact coming back, a contradiction), in integers.

Both texts are read as claims (`mdmem.format.words`: normalised content words, those of a
contrast clause marked excluded, and polarity), so case, punctuation, filler, plurals,
tenses, word order and passive voice hide nothing. Text T is `near` a claim E when they
have the same polarity and
- T holds every word of E, and E has at least `CONTAINED_MIN` words (E with a clause or a
  qualifier added), or
- E holds every word of T, at least `CONTAINED_MIN` of them (or all of E), and T keeps
  `100 * |T| >= kept * |E|` of them: `KEPT_PERCENT` (E with a stray word dropped) for the
  blocklist and duplicates, `SUPERSEDED_KEPT_PERCENT` for a superseded fact, since what
  was false stays false without its details, or
- their words nearly coincide: `100 * |T∩E| >= NEAR_PERCENT * |T∪E|` (token Jaccard).
A rule of opposite polarity, or one that swaps a word of E for another (another subject,
object, tool or number), is not near. A contrast ("use ruff, not black") is the one other
way two texts meet: a text `crosses` another when it names what the other's contrast
excludes, about the same thing (below).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.words import EXCLUDED, Claim, item_claim

CONTAINED_MIN = 3
KEPT_PERCENT = 80
SUPERSEDED_KEPT_PERCENT = 50
NEAR_PERCENT = 90
# Of the words a crossing text names besides the excluded one, the share the other text
# must hold too (a detail such as an example's number may be its own), at least two.
SAME_SUBJECT_PERCENT = 75


def near(text: Claim, other: Claim, *, kept: int = KEPT_PERCENT) -> bool:
    """Whether `text` says what `other` says (see the module's docstring); empty claims
    are never near anything."""
    if text.negative != other.negative or not text.words or not other.words:
        return False
    if other.words <= text.words:
        return len(other.words) >= CONTAINED_MIN or text.words == other.words
    if text.words <= other.words:
        least = min(CONTAINED_MIN, len(other.words))
        return len(text.words) >= least and 100 * len(text.words) >= kept * len(other.words)
    return coincide(text, other)


def coincide(text: Claim, other: Claim) -> bool:
    """Whether two claims of the same polarity nearly coincide (token Jaccard at least
    `NEAR_PERCENT`): the rule's third clause alone."""
    shared, either = text.words & other.words, text.words | other.words
    return text.negative == other.negative and 100 * len(shared) >= NEAR_PERCENT * len(either)


def crosses(text: Claim, other: Claim) -> bool:
    """Whether `text` names a word `other`'s contrast excludes, about the same thing: its
    other words are all `other`'s, or all but a detail (`SAME_SUBJECT_PERCENT`). A
    positive text that crosses a positive one contradicts it ("Money is stored as a float"
    against "Money is stored in integer cents, never a float"); a prohibition that crosses
    one says it again ("Never store money as a float")."""
    excluded = {word[1:] for word in other.words if word.startswith(EXCLUDED)}
    named = {word for word in text.words if not word.startswith(EXCLUDED)}
    clashing = excluded & named
    if not clashing:
        return False
    rest = named - clashing
    shared = len(rest & ({word.lstrip(EXCLUDED) for word in other.words}))
    return shared == len(rest) or (shared >= 2 and 100 * shared >= SAME_SUBJECT_PERCENT * len(rest))


def least_shared(words: int) -> int:
    """The fewest words a claim shares with a text of `words` words that it is near: all of
    them, or `CONTAINED_MIN` of them when it holds a whole entry of that many (see `near`);
    a bound that lets a caller skip claims without computing them."""
    return max(1, min(CONTAINED_MIN, words))


def blocklist(entries: Iterable[BlockedEntry]) -> tuple[tuple[BlockedEntry, Claim], ...]:
    """The entries of `blocked.md` with their claims, in file order."""
    return tuple((entry, item_claim(entry.text)) for entry in entries)


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


def blocking(text: Claim, blocked: Iterable[tuple[BlockedEntry, Claim]]) -> BlockedEntry | None:
    """The first entry (in file order) that `text` comes near, else None."""
    return next((entry for entry, entry_claim in blocked if near(text, entry_claim)), None)
