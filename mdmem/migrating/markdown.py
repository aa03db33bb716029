"""Rules read from a markdown file as a person reads it, and the section each goes to
(pure; docs/MIGRATE.md, "What markdown becomes").

A rule is a top-level list item with everything that belongs to it. Nested bullets stay
in their parent's rule, indented as they were: a sub-bullet qualifies its parent and
means little alone. Lines are the file's own.

The innermost heading that names a kind of section places a rule (`placed`; a playbook's
category too). A rule that is itself a prohibition ("Never commit .env files") is never
an anti-pattern: shown as a pitfall it would read "do not: never commit". A prohibition
word before a reminder's ("Don't forget", "Never skip") names a reminder, not a
prohibition.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from mdmem.format import blocks
from mdmem.format.document import heading
from mdmem.format.fences import closes, opening
from mdmem.format.sections import OPEN_THREADS_SECTION
from mdmem.format.words import is_prohibition
from mdmem.migrating.sources import Rule
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
    for title in reversed(headings):
        found = _naming_words(title)
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


_ITEM = re.compile(r"^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$")
_TASK = re.compile(r"^\[([ xX])\](?:[ \t]+|$)")
_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")  # a setext heading's second line
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")  # a thematic break
_WIDEST_GAP = 4  # spaces after a marker before its text is code (CommonMark)
_NOT_LAZY = (">", "|", "<", "#")


def read_markdown(
    lines: Sequence[str],
    first: int,
    source: str,
    scope: str | None = None,
    core_reason: str | None = None,
) -> tuple[Rule, ...]:
    """The rules of a markdown text; `lines` (without endings) start at line `first`."""
    blank = Rule(source, 0, (), "", scope=scope, core_reason=core_reason)
    rules: list[Rule] = []
    headings: list[tuple[int, str]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        skipped = _skipped(lines, index)
        if skipped is not None:
            index = skipped
            continue
        found = _heading(lines, index)
        if found is not None:
            level, title, index = found
            headings = [*(h for h in headings if h[0] < level), (level, title)]
            continue
        item = _ITEM.match(line)
        if item is None or _BREAK.match(line):
            index += 1
            continue
        column = _content_column(item)
        end = _item_end(lines, index, column)
        titles = [title for _, title in headings]
        rule = _rule(lines[index:end], item, column, titles, replace(blank, line=first + index))
        if rule is not None:
            rules.append(rule)
        index = end
    return tuple(rules)


def _skipped(lines: Sequence[str], index: int) -> int | None:
    """The index after a fenced code block, one of mdmem's own blocks (the `usage` block
    init writes, the `export` block: the memory's words, not the file's) or an HTML
    comment that opens at `index`."""
    line = lines[index]
    if _indent(line) > 3:
        return None
    block = blocks.marker(line)
    if block is not None and block[0] == "begin":
        ending, after = ("end", block[1]), range(index + 1, len(lines))
        return next((i for i in after if blocks.marker(lines[i]) == ending), index) + 1
    marker = opening(line)
    if marker is not None:
        end = index + 1
        while end < len(lines) and not closes(lines[end], marker):
            end += 1
        return min(end + 1, len(lines))
    if line.lstrip(" ").startswith("<!--"):
        at = line.index("<!--") + 4
        end = index
        while end < len(lines) and "-->" not in (lines[end][at:] if end == index else lines[end]):
            end += 1
        return min(end + 1, len(lines))
    return None


def _heading(lines: Sequence[str], index: int) -> tuple[int, str, int] | None:
    """(level, title, index after it) of an ATX or setext heading at `index`."""
    line = lines[index]
    if _indent(line) > 3 or not line.strip():
        return None
    found = heading(line.lstrip(" ")) if line.lstrip(" ").startswith("#") else None
    if found is not None:
        return found[0], found[1], index + 1
    below = lines[index + 1] if index + 1 < len(lines) else ""
    underline = _UNDERLINE.match(below)
    if underline is None or _ITEM.match(line) or _BREAK.match(line) or not _lazy(line):
        return None
    return (1 if underline[1][0] == "=" else 2), line.strip(), index + 2


def _content_column(item: re.Match[str]) -> int:
    """The column where an item's text starts: continuation lines indent to it."""
    marker_end = len((item[1] + item[2]).expandtabs(4))
    gap = len((item[1] + item[2] + item[3]).expandtabs(4)) - marker_end
    return marker_end + 1 if not item[4] or gap > _WIDEST_GAP else marker_end + gap


def _item_end(lines: Sequence[str], start: int, column: int) -> int:
    """Index after the item's last line: indented lines, blank lines an indented line
    follows, fenced blocks opened inside it, and lazy continuation lines of its text."""
    last, index, fence = start, start + 1, None
    while index < len(lines):
        line = lines[index]
        if fence is not None:
            last = index
            fence = None if closes(line, fence) else fence
        elif not line.strip():
            pass
        elif _indent(line) >= column:
            fence, last = opening(line), index
        elif index == last + 1 and _lazy(line):
            last = index
        else:
            break
        index += 1
    return last + 1


def _lazy(line: str) -> bool:
    """Whether a flush line continues the paragraph above it (no block of its own starts)."""
    stripped = line.strip()
    return not (
        _ITEM.match(line)
        or _BREAK.match(line)
        or _UNDERLINE.match(line)
        or opening(line) is not None
        or stripped.startswith(_NOT_LAZY)
    )


def _rule(
    item_lines: Sequence[str], item: re.Match[str], column: int, headings: list[str], base: Rule
) -> Rule | None:
    """`base` with the item's text and place; None for a done task or an empty item."""
    first = item[4]
    task = _TASK.match(first)
    if task is not None and task[1] != " ":
        return None
    if task is not None:
        first = first[task.end() :]
    text = [first.strip(), *(_dedent(later, column).rstrip() for later in item_lines[1:])]
    while text and not text[0]:
        text.pop(0)
    if not text:
        return None
    text[0] = text[0].strip()
    if task is not None:
        return replace(base, lines=tuple(text), section=OPEN_THREADS_SECTION, thread=True)
    section, anti_pattern = placed(headings, is_prohibition(text[0]))
    return replace(base, lines=tuple(text), section=section, anti_pattern=anti_pattern)


def _indent(line: str) -> int:
    stripped = line.lstrip(" \t")
    return len(line[: len(line) - len(stripped)].expandtabs(4))


def _dedent(line: str, column: int) -> str:
    """The line with its indentation less the item's content column (tabs as 4 spaces)."""
    stripped = line.lstrip(" \t")
    indent = _indent(line)
    return " " * max(indent - column, 0) + stripped if stripped else ""
