"""Where a migrated rule goes: the section of `continuity.md` its source's headings (or a
playbook's category) point to, and whether it is an anti-pattern (pure).

The table is docs/MIGRATE.md's ("What markdown becomes"). A rule that is itself a
prohibition ("Never commit .env files") is never an anti-pattern: shown as a pitfall it
would read "do not: never commit". A prohibition word before a reminder's ("Don't forget",
"Never skip") names a reminder, not a prohibition.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from mdmem.writing.ids import words

CONVENTIONS = "Conventions"
COMMANDS = "Commands"
DECISIONS = "Key Decisions"
GOTCHAS = "Gotchas"
PITFALLS = "Pitfalls"

# A section and the heading words that name it, in the order they are tried.
_WORDS = (
    (
        PITFALLS,
        "dont donts not never avoid anti antipattern antipatterns pitfall pitfalls "
        "mistake mistakes forbidden prohibited banned",
    ),
    (
        COMMANDS,
        "command commands build building builds script scripts setup install "
        "installation installing run running workflow workflows tooling tools development",
    ),
    (DECISIONS, "architecture design decision decisions stack structure overview"),
    (GOTCHAS, "gotcha gotchas caveat caveats quirk quirks issues troubleshooting warning warnings"),
)
_NAMED_BY = tuple((section, frozenset(named.split())) for section, named in _WORDS)
# "Don't forget", "Never skip": a prohibition word before one of these names a reminder.
_PROHIBITION = frozenset({"dont", "not", "never"})
_REMINDER = frozenset({"forget", "skip", "miss", "overlook", "neglect"})


def placed(headings: Sequence[str], prohibition: bool = False) -> tuple[str, bool]:
    """(section, anti-pattern) for a rule under `headings`, outermost first; a rule that
    is itself a `prohibition` is never placed in Pitfalls."""
    for heading in reversed(headings):
        found = _naming_words(heading)
        for section, named_by in _NAMED_BY:
            if found & named_by and not (prohibition and section == PITFALLS):
                return section, section == PITFALLS
    return CONVENTIONS, False


def _naming_words(heading: str) -> set[str]:
    """The heading's words, less each prohibition word that opens a reminder."""
    found = words(heading)
    reminding = {
        index
        for index, (word, following) in enumerate(pairwise(found))
        if word in _PROHIBITION and following in _REMINDER
    }
    return {word for index, word in enumerate(found) if index not in reminding}
