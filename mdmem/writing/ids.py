"""Ids for new facts, derived from their text: kebab-case, unique, the same for the same text.

`derive_id` is pure: the first few significant words of the text (stop-words and
markdown left out, accents folded to ASCII), capped in length, then `-2`, `-3`, ... until
the id is not taken. A text with no usable word gets `fact-` and a digest of the text.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Collection, Container

from mdmem.format.footer import ID_RE

WORDS = 5  # significant words an id keeps
MOST_CHARACTERS = 40  # before any `-N` suffix
FALLBACK = "fact"  # the first word of an id whose text starts with no letter

# English function words: they make an id longer, never clearer. Polarity words (no, not,
# never, don't, always, must) carry a rule's meaning and stay.
_STOP_WORDS = """
    a about above after again all also am an and any are as at be because been before being
    both but by can could did do does doing each few for from had has have having he her here
    hers him his how i if in into is it its itself just me more most my of off on once or
    other our ours out over own same she should so some such than that the their theirs them
    then there these they this those through to too under until up us very was we were what
    when where which while who whom why will with would you your yours
"""
STOP_WORDS = frozenset(_STOP_WORDS.split())

_LINK_TARGET = re.compile(r"\]\([^)]*\)")  # `[label](target)`: the label is the text
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
_APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")  # don't -> dont: one word, as it is read
_NOT_WORD = re.compile(r"[^a-z0-9.]+|(?<!\d)\.|\.(?!\d)")  # a point only inside a number


def words(text: str) -> list[str]:
    """The text's words in order: lowercase ASCII letters and digits, accents folded;
    link targets, URLs and characters without an ASCII form left out. A number with a
    point (3.11, 0.45) is one word, kept as written (an id may hold a point inside a
    word): cut at the point, an id would end in what reads as the `-2` of a taken id."""
    text = _URL.sub(" ", _LINK_TARGET.sub("] ", text))
    text = _APOSTROPHE.sub("", text)
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return [word for word in _NOT_WORD.split(folded.lower()) if word]


def base_id(text: str) -> str:
    """The id a text asks for before any other id is considered."""
    found = words(text)
    chosen = [word for word in found if word not in STOP_WORDS] or found
    if chosen and not chosen[0][0].isalpha():
        chosen = [FALLBACK, *chosen]
    if len(chosen) < 2:
        digest = hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:8]
        chosen = [*chosen, digest] if chosen else [FALLBACK, digest]
    kept: list[str] = []
    for word in chosen[:WORDS]:
        if kept and len("-".join([*kept, word])) > MOST_CHARACTERS:
            break
        kept.append(word)
    if len(kept) < 2:  # a first word too long to leave room for a second: both cut
        second = chosen[1][:8].rstrip(".") or chosen[1][0]
        kept = [chosen[0][: MOST_CHARACTERS - 1 - len(second)], second]
    return "-".join(kept)


def derive_id(text: str, taken: Container[str]) -> str:
    """A new id for a fact with this text: `base_id(text)`, or the first of `-2`, `-3`, ...
    that is not in `taken`. The same text and the same taken ids give the same id."""
    base = base_id(text)
    assert ID_RE.match(base), base  # kebab-case of two words or more, by construction
    return free_id(base, taken)


def free_id(base: str, taken: Container[str], given: Collection[str] = ()) -> str:
    """`base`, or the first of `base-2`, `base-3`, ... that is neither in `taken` nor among
    the ids just `given`."""
    candidate, number = base, 1
    while candidate in taken or candidate in given:
        number += 1
        candidate = f"{base}-{number}"
    return candidate
