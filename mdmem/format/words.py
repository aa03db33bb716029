"""A text's words as mdmem compares them: normalised content words and polarity (SPEC §8, §9).

Case, punctuation, filler words, plurals, tenses and word order make no difference:
"Generated files under build/ must never be committed" and "Never commit generated files
under build/" say the same thing, in the same words once normalised. Pure and
deterministic: fixed tables, no locale, no dictionary, no floating point.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

# Words that only say a rule is negative (§8); `n't` becomes `not` before they are read.
NEGATORS = frozenset(
    {"not", "no", "never", "cannot", "nor", "avoid", "avoids", "avoided", "avoiding"}
)
# Words that only say a rule is positive (§8): left out of the content, as filler is.
AFFIRMERS = frozenset({"always", "must", "should", "use", "uses", "used", "using", "ensure"})
# Filler: articles, pronouns, auxiliaries, the prepositions passive voice and rewording
# move around, and words that only add insistence.
_STOP = """a an the this that these those some any all each every such
    i me my we us our you your it its they them their there
    am is are was were be been being has have had having do does did doing done get gets got
    will would shall can could may might
    of to for in on at by with from into onto via as per
    and or but so then also too
    please just really simply actually basically generally very quite sure remember note
    important"""
STOP_WORDS = frozenset(_STOP.split())
# Past forms no suffix rule reaches, mapped to the word the rules do reach.
IRREGULAR = {
    "ran": "run", "wrote": "write", "written": "write", "built": "build", "rebuilt": "rebuild",
    "made": "make", "kept": "keep", "broke": "break", "broken": "break", "chose": "choose",
    "chosen": "choose", "took": "take", "taken": "take", "gave": "give", "given": "give",
    "hid": "hide", "hidden": "hide", "threw": "throw", "thrown": "throw", "sent": "send",
    "lost": "lose", "found": "find", "held": "hold", "caught": "catch", "brought": "bring",
    "thought": "think", "told": "tell", "said": "say", "paid": "pay", "began": "begin",
    "begun": "begin", "went": "go", "gone": "go", "forgot": "forget", "forgotten": "forget",
    "overrode": "override", "overridden": "override", "children": "child", "ate": "eat",
}  # fmt: skip

_CONTRACTION = re.compile(r"\b(?:ca|wo|sha)n't\b|n't\b")  # can't, won't, shan't, don't, ...
_CLITIC = re.compile(r"(?<=[^\W_])'[^\W_]*")  # the rest of it's, team's, we're
_FILLER_PHRASE = re.compile(r"\b(?:make sure|be sure|keep in mind|in order to|note that)\b")
# Where a clause ends: punctuation, a dash, or `and`/`but` (a clause after them is read as a
# contrast only when it opens with a negator, as "..., never a float" and "... and never a
# float" say the same).
_CLAUSE = re.compile(r"[,;:()\[\]!?\u2013\u2014]|\.(?:\s|$)|\s-+\s|\s(?:and|but)\s")
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")  # a hyphenated word is read whole first
_NESTED_ITEM = re.compile(r"^\s+(?:[-*+]|\d{1,9}[.)])\s")
_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")
_SKIPPED = STOP_WORDS | AFFIRMERS
_UNCOUNTED = _SKIPPED | NEGATORS
EXCLUDED = "!"  # marks a word of a contrast clause ("use ruff, not black": !black)


@dataclass(frozen=True)
class Claim:
    """What a text says, as mdmem compares texts: its normalised content words, those of a
    contrast clause marked with `EXCLUDED`, and whether it is negative (§8)."""

    words: frozenset[str]
    negative: bool


@functools.lru_cache(maxsize=1 << 16)  # a memory's vocabulary, stemmed once
def stem(word: str) -> str:
    """A lowercase word without its plural or tense: tests, tested, testing -> test;
    commits, committed -> commit; generate, generated -> generat; retries, retried -> retry."""
    word = IRREGULAR.get(word, word)
    if len(word) > 4 and word.endswith(("ies", "ied")):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 4 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 3 and word.endswith("ed") and not word.endswith("eed"):
        word = word[:-2]
    if len(word) > 2 and word.endswith("e") and not word.endswith("ee"):
        word = word[:-1]
    if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "aeiouylsz":
        word = word[:-1]  # committ -> commit, runn -> run
    return word


def claim(text: str) -> Claim:
    """The claim of a text: every clause's content words, stemmed; a clause after the first
    that opens with a negator ("..., not black", "... and never black") while the text so far
    is positive is a contrast, its words marked excluded (after a prohibition it is another
    prohibition: "Don't commit secrets, never push to main")."""
    text = _FILLER_PHRASE.sub(" ", _prepared(text))
    kept = [word for word in _WORD.findall(text) if word not in _SKIPPED]
    if NEGATORS.isdisjoint(kept):  # most texts: no negator, so no contrast either
        return Claim(frozenset(_stems(kept, "")), False)
    words: set[str] = set()
    negative = False
    for index, clause in enumerate(_CLAUSE.split(text)):
        kept = [word for word in _WORD.findall(clause) if word not in _SKIPPED]
        contrast = index > 0 and bool(kept) and kept[0] in NEGATORS and not negative
        if contrast:
            kept = kept[1:]
        negative = negative or not NEGATORS.isdisjoint(kept)
        content = [word for word in kept if word not in NEGATORS]
        words.update(_stems(content, EXCLUDED if contrast else ""))
    return Claim(frozenset(words), negative)


def is_prohibition(text: str) -> bool:
    """Whether a text is itself a prohibition: it opens with a negator, filler and the words
    that only say a rule is a rule aside ("Never commit .env files", "Don't mock it", "You
    must never push"). A text that only holds one ("Tests with no assertions", "Flaky
    tests, never retried") names a practice instead."""
    for word in _WORD.findall(_prepared(_MARKER.sub("", text, count=1))):
        if word not in _SKIPPED:
            return word in NEGATORS
    return False


def _stems(words: list[str], mark: str) -> list[str]:
    """The stems of content words, each with `mark`, in order. A hyphenated word's parts
    count one by one: unit-tests is unit tests, and the no of --no-verify says nothing of
    polarity."""
    stems: list[str] = []
    for word in words:
        parts = (
            [part for part in word.split("-") if part not in STOP_WORDS] if "-" in word else [word]
        )
        stems += [mark + stem(part) for part in parts]
    return stems


def normalised_tokens(text: str) -> frozenset[str]:
    """The content words of a text, stemmed and unmarked, without filler or polarity words:
    what a search for the text looks for."""
    return frozenset(word.lstrip(EXCLUDED) for word in claim(text).words)


def word_counts(text: str) -> dict[str, int]:
    """How often each of `normalised_tokens(text)` occurs in the text (a hyphenated word's
    parts counted one by one), for a reader's rank: the same words, counted."""
    prepared = _FILLER_PHRASE.sub(" ", _prepared(text))
    content = [word for word in _WORD.findall(prepared) if word not in _UNCOUNTED]
    return dict(Counter(_stems(content, "")))


def item_claim(lines: Sequence[str]) -> Claim:
    """The claim of a list item's own text: its lines up to its first nested item (nested
    notes qualify a rule, they are not it); the bullet and checkbox are punctuation."""
    own: list[str] = []
    for line in lines:
        if own and _NESTED_ITEM.match(line):
            break
        own.append(line if own else _MARKER.sub("", line, count=1))
    return claim("\n".join(own))


def _prepared(text: str) -> str:
    """Lowercase, curly apostrophes straightened, `n't` read as `not`, clitics dropped."""
    text = text.lower()
    if "'" not in text and "\u2019" not in text:
        return text
    text = text.replace("\u2019", "'")
    return _CLITIC.sub("", _CONTRACTION.sub(" not", text))


_FORMS: dict[str, tuple[str, ...]] = {}
for _form, _word in IRREGULAR.items():
    _FORMS[stem(_word)] = (*_FORMS.get(stem(_word), ()), _form)


def needles(found: Claim) -> tuple[frozenset[str], ...]:
    """For each word of a claim, strings one of which the lowercased text of any other
    claim holding that word holds: a cheap count that spares computing claims that
    cannot come near it (see `shared_words`).

    A stem is its word with endings cut off, so it opens that word; `-ies`/`-ied` become
    `-y`, so the stem less its `y` does; an irregular form is its own."""
    found_needles = []
    for word in sorted(found.words):
        base = word.lstrip(EXCLUDED)
        opening = base[:-1] if base.endswith("y") and len(base) > 1 else base
        found_needles.append(frozenset({opening, *_FORMS.get(base, ())}))
    return tuple(found_needles)


def shared_words(text: str, wanted: tuple[frozenset[str], ...]) -> int:
    """At least as many words as the claim of `text` shares with the claim whose
    `needles` are `wanted` (never fewer, often more)."""
    lowered = text.lower()
    return sum(any(needle in lowered for needle in word) for word in wanted)
