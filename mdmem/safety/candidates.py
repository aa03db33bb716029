"""Where the secret patterns could match in a text: the secret scan's pre-filter.

It pays for itself: against a pre-filter of literal words found with `str.find`, it
saves a fifth of lint's and of the review's instructions on a large memory
(benchmarks/README.md, "Mechanisms").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Where the patterns could match. A pattern tried at every offset of a large memory costs
# far more than a substring search (every token pattern opens with a lookbehind, so the
# regex engine cannot skip ahead to a first character), so each runs only on the lines
# holding a word that every match of it contains: all but the PEM pattern stay within a
# line, and a line holds the same matches whether it or the whole text is searched. The
# words are found in an ASCII copy of the text, in a few passes that each run at the speed
# of a substring search.

# In a case-insensitive pattern, ſ matches `s` and the Kelvin sign `k`; no other non-ASCII
# character matches a letter of the words below.
_CASE_TRAPS = (("\u017f", "s"), ("\u212a", "k"))


def _ascii_view(text: str) -> bytes:
    """`text` as ASCII bytes, one per character, so that every offset carries over.

    Other characters become `?`, except those a case-insensitive pattern matches as an
    ASCII letter, which become that letter. (Lower-casing the text itself would cost several
    times as much once it holds one non-ASCII character, and would turn İ into two
    characters, moving every later offset.)
    """
    for trap, letter in _CASE_TRAPS:
        if trap in text:
            text = text.replace(trap, letter)
    return text.encode("ascii", "replace")


# The view is marked in one pass: letters in lower case, so that a case-insensitive word has
# one spelling, and `k`, `w`, `x`, `I` and `_` (rare in prose) as \x01. One regex then finds
# every word holding one of them: the regex engine skips from mark to mark in a tight loop,
# and reads the word around each. `I` is marked only in capitals (AKIA, AIza), so no
# case-insensitive word may hold an `i`. A \x01 of the text is no mark.
_MARKS = bytes(
    1 if byte in b"kKwWxI_" else 2 if byte == 1 else lowered
    for byte, lowered in enumerate(bytes(range(256)).lower())
)
# What both assignment patterns require after the name: an optional closing quote, blanks
# and an operator. Every name ends in `password`, `passwd`, `secret`, `token` or `key`, so a
# line where no such word is followed by an operator holds no assignment.
_OPERATOR = rb"[\"'`]?[ \t]*[:=]"
_AFTER_SECRET = re.compile(_OPERATOR)
# After the mark, a branch reads unmarked characters only (the rest in lookarounds), so that
# no mark is passed over inside a match. A branch opening with a character costs one
# comparison at a mark it does not fit. The empty group names what was found.
_MARKED_WORDS = re.compile(
    rb"\x01(?:ey(?=" + _OPERATOR + rb")(?P<key>)"  # key=
    rb"|ey(?<=pr\x01vate \x01ey)(?P<private_key>)"  # PRIVATE KEY, in some case
    rb"|en(?<=to\x01en)(?=" + _OPERATOR + rb")(?P<token>)"  # token=
    rb"|ord(?<=pass\x01ord)(?=" + _OPERATOR + rb")(?P<password>)"  # password=
    rb"|d(?<=pass\x01d)(?=" + _OPERATOR + rb")(?P<passwd>)"  # passwd=
    rb"|-(?<=s\x01-)(?P<sk>)"  # sk-
    rb"|live(?<=[rs]\x01\x01live)(?=\x01)(?P<live>)"  # sk_live_, rk_live_
    rb"|a(?<=a[s\x01]\x01a)(?P<aws>)"  # AKIA, ASIA
    rb"|za(?<=a\x01za)(?P<google>)"  # AIza
    # xox; not the mark of a `gh?_` token whose body opens with `o` and a marked letter
    # (`ghp_ok...`), which would take that mark from the github branch below.
    rb"|o(?<!gh[pousr]\x01o)(?=\x01)(?P<slack>)"
    rb"|pat(?<=github\x01pat)(?=\x01)(?P<github_pat>)"  # github_pat_
    rb"|(?<=gh[pousr]\x01)(?P<github>))"  # ghp_ and the like: tried at every mark, so last
)
_MARKED_CATEGORIES = {
    "sk": ("openai-key", "anthropic-key"),  # sk-ant- starts with sk-
    "live": ("stripe-key",),
    "aws": ("aws-access-key",),
    "google": ("google-api-key",),
    "slack": ("slack-token",),
    "github_pat": ("github-token",),
    "github": ("github-token",),
}


@dataclass(frozen=True, slots=True)
class Candidates:
    """Offsets from which each pattern could match, and more: a scanner reads their lines."""

    tokens: dict[str, list[int]]  # by category, offsets of its literals
    private_key: bool  # `PRIVATE KEY` is in the text, so a PEM header may be
    connections: list[int]  # offsets of `://`
    assignments: list[int]  # offsets of a name's last word that an operator follows


def _find_all(text: bytes, word: bytes) -> list[int]:
    """Every offset of `word` in `text`, in order."""
    offsets = []
    position = text.find(word)
    while position >= 0:
        offsets.append(position)
        position = text.find(word, position + 1)
    return offsets


def find_candidates(text: str) -> Candidates:
    """Where each pattern could match in `text`."""
    view = _ascii_view(text)
    marked = view.translate(_MARKS)
    tokens: dict[str, list[int]] = {}
    private_key = False
    assignments = []
    for match in _MARKED_WORDS.finditer(marked):
        kind, start = match.lastgroup, match.start()
        if kind in ("key", "token", "password", "passwd"):
            assignments.append(start)
        elif kind == "private_key":  # a header holds it in capitals
            private_key = private_key or view.startswith(b"PRIVATE KEY", start - 8)
        elif kind is not None:  # every branch names itself
            for category in _MARKED_CATEGORIES[kind]:
                tokens.setdefault(category, []).append(start)
    # The other words hold no marked character: each takes a search of its own.
    for start in _find_all(marked, b"secret"):
        if _AFTER_SECRET.match(marked, start + 6):
            assignments.append(start)
    if gitlab := _find_all(view, b"glpat-"):
        tokens["gitlab-token"] = gitlab
    if jwt := _find_all(view, b"eyJ"):
        tokens["jwt"] = jwt
    return Candidates(tokens, private_key, _find_all(view, b"://"), assignments)
