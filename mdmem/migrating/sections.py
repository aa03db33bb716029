"""Where a migrated rule goes: the section of `continuity.md` its source's headings (or a
playbook's category) point to, and whether it is an anti-pattern (pure).

The innermost heading that names a kind of section decides, then the next one out; a
heading names a kind by any of its words:

| the heading says | section | type |
|---|---|---|
| don't, do not, never, avoid, anti-pattern, pitfalls, mistakes | Pitfalls | anti-pattern |
| the same, for a rule that is itself a prohibition | (its other words) | rule |
| don't, do not, never + forget, skip, miss, overlook, neglect | (its other words) | rule |
| commands, build, scripts, setup, install, run, workflow, tooling, development | Commands | rule |
| architecture, design, decisions, stack, structure, overview | Key Decisions | rule |
| gotchas, caveats, quirks, known issues, troubleshooting, warnings | Gotchas | rule |
| anything else, or no heading | Conventions | rule |

A rule's own words move it in one case only: a rule that is itself a prohibition
(`format.words.is_prohibition`: it opens with a negator, "Never commit .env files") is
never an anti-pattern, since shown as a pitfall it would read as "do not: never commit";
under a prohibition heading ("Don'ts") it is a rule placed by the heading's other words,
else by the next heading out, else in Conventions. Under "Don'ts", a bullet that names the
bad practice ("default exports") is an anti-pattern, shown as "Do not: default exports";
"Never commit .env files" under "Git" is a rule of Conventions.
A prohibition word whose next word is a reminder's ("Don't forget", "Never skip") makes
a reminder, not a prohibition: "Run migrations before every deploy" under "Don't forget"
is a rule, placed by the heading's other words ("Never skip the build": Commands), else
by the next heading out.
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
