"""A memory document (continuity or an archive file): `##` sections and the facts in them.

The parser reads markdown the way a person would: a fact is a top-level list item
that may wrap, hold blank lines, nested bullets or code, and ends with its footer.
It keeps line numbers so every error and every edit names an exact place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mdmem.errors import ParseError
from mdmem.format.footer import (
    USUAL_INNER_ID,
    Footer,
    looks_like_footer,
    parse_footer,
    read_usual_footer,
)
from mdmem.format.frozen import maker
from mdmem.format.textfile import (
    TextFile,
    body,
    check_conflict_markers,
    is_split,
)

INVARIANTS_SECTION = "Architectural Invariants"
OPEN_THREADS_SECTION = "Open Threads"
PROJECT_STATE_SECTION = "Project State"

_ITEM = re.compile(r"^[-*+](?:[ \t]|$)")
_CHECKBOX = re.compile(r"^[-*+][ \t]+\[([ xX])\](?:[ \t]|$)")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_BULLETS = frozenset("-*+")
_EMPTY_LINES = frozenset(("\n", "\r\n"))
_BLANK = r"[ \t]*\r?\n"
# An indented text line: after the indent, a non-blank character that opens neither a fence
# nor a comment (one character class, but for the few lines that start with ` ~ or <).
_TEXT = r"[ \t]+(?:[^\s`~<]|(?!```|~~~|<!--)[`~<])[^\n]*\n"
# The usual fact, for `_parse` to read in one step: a bullet line, indented text and blank
# lines, then its footer, indented or flush left right below a text line, with nothing after
# it that would extend the item. `_parse` also checks that only the footer holds '<!--', and
# that a footer flush left does not follow a blank line. For such an item the line-by-line
# reading (`_item_end`, `_read_item`) finds the same extent and no error but the footer's
# own; anything else is left to that reading. Its groups are the footer's indent, inside,
# id and trail.
_USUAL_FACT = re.compile(
    r"[-*+][ \t][^\n]*\n"  # the bullet line
    rf"(?:{_TEXT}|{_BLANK})*"  # indented text, blank lines
    rf"([ \t]*)<!--({USUAL_INNER_ID})-->([ \t]*)(?:\r?\n|\Z)"
    # What follows: a line that does not open a comment right below (a footer there would
    # join the item), the end, or after blank lines, a line that is not indented.
    rf"(?=[^\s<]|<(?!!--)|\Z|(?:{_BLANK})+(?:\S|\Z))"
)


@dataclass(frozen=True)
class Section:
    title: str
    start: int  # index of the heading line (0-based); -1 for the preamble
    end: int  # index after the last line of the section


@dataclass(frozen=True, slots=True)
class Fact:
    """One footered list item; `start`/`end` are 0-based line indexes, end exclusive."""

    section: str
    subsection: str
    start: int
    end: int
    footer: Footer
    checkbox: str | None  # None for a plain fact, " " open thread, "x" done
    id: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", self.footer.id)  # read often: kept, not recomputed

    @property
    def line(self) -> int:
        """1-based line of the item's first line."""
        return self.start + 1

    @property
    def footer_index(self) -> int:
        return self.end - 1

    @property
    def is_open_thread(self) -> bool:
        return self.checkbox == " "

    @property
    def is_done_thread(self) -> bool:
        return self.checkbox == "x"

    def get(self, key: str) -> str | None:
        return self.footer.get(key)


# A memory file makes one per fact: without the frozen `__init__`, given `footer.id`.
_made_fact = maker(Fact)


@dataclass(frozen=True)
class Item:
    """A top-level list item with no footer (prose, or a fact someone forgot to close)."""

    section: str
    start: int
    end: int


@dataclass(frozen=True)
class Document:
    file: TextFile
    sections: tuple[Section, ...]
    facts: tuple[Fact, ...]
    footerless: tuple[Item, ...]

    @property
    def path(self) -> str:
        return self.file.path

    @property
    def lines(self) -> tuple[str, ...]:
        return self.file.lines

    def section(self, title: str) -> Section | None:
        for section in self.sections:
            if section.title == title:
                return section
        return None

    def fact_text(self, fact: Fact) -> tuple[str, ...]:
        return self.file.lines[fact.start : fact.end - 1]


def heading(line_body: str) -> tuple[int, str] | None:
    """(level, title) for an ATX heading line, else None."""
    if not line_body.startswith("#"):
        return None
    rest = line_body.lstrip("#")
    level = len(line_body) - len(rest)
    if "\n" in rest:  # never in a line's body; elsewhere, as `^#{1,6}...$` reads it:
        rest = rest[:-1]  # a newline at the very end is let through, any other is not
        if "\n" in rest:
            return None
    if level > 6 or rest[:1] not in ("", " ", "\t"):
        return None
    title = rest.strip(" \t")
    # A closing run of #s needs a space or tab before it (CommonMark): `## C#` keeps its #.
    unclosed = title.rstrip("#")
    if not unclosed or unclosed[-1] in " \t":
        title = unclosed
    return level, title.strip()


class Fences:
    """Tracks fenced code blocks for every reader of memory markdown (documents, logs, policy).

    A fence closes on a line of its own character, at least as long, with nothing after it.
    """

    def __init__(self) -> None:
        self.open: str | None = None

    def step(self, line_body: str) -> bool:
        """Feed a line; True when the line is part of a fence (markers included)."""
        if self.open is None and "```" not in line_body and "~~~" not in line_body:
            return False  # the common case, without a regular expression
        match = _FENCE.match(line_body)
        if self.open is not None:
            marker = match[1] if match else ""
            closes = marker[:1] == self.open[0] and len(marker) >= len(self.open)
            if closes and not line_body.strip()[len(marker) :].strip():
                self.open = None
            return True
        if match:
            self.open = match[1]
            return True
        return False


def parse_document(file: TextFile, *, unique_ids: bool = True) -> Document:
    """Split a memory file into sections and facts, refusing what is truly ambiguous.

    `unique_ids=False` lets a repeated id through, for lint to report as a finding.
    """
    return _parse(file, unique_ids, whole_text=True)


def _parse(file: TextFile, unique_ids: bool, whole_text: bool) -> Document:
    """`whole_text=False` reads line by line only: tests check that both readings agree."""
    lines = file.lines
    path = file.path
    whole = _whole_text(file) if whole_text else None
    check_conflict_markers(lines if whole is None else whole, path)
    sections: list[Section] = []
    facts: list[Fact] = []
    footerless: list[Item] = []
    fences = Fences()
    fence_line = 0  # 1-based line where the open fence began
    title, start, subsection = "", -1, ""
    index = 0
    count = len(lines)
    offset, offset_index = 0, 0  # where line `offset_index` starts in `whole`
    while index < count:
        line = lines[index]
        if whole is not None and line in _EMPTY_LINES:
            index += 1  # what the reading below does with it (in a fence too), sooner
            continue
        # Outside a fence a bullet line is neither a fence marker nor a heading.
        if whole is not None and fences.open is None and line[:1] in _BULLETS:
            if offset_index != index:
                offset += sum(map(len, lines[offset_index:index]))
                offset_index = index
            first = index
            # The usual facts from here on, one after the other, each in one step.
            while (usual := _USUAL_FACT.match(whole, offset)) is not None:
                stop = usual.end()
                if whole.count("<!--", offset, stop) != 1:
                    break  # a comment in the text or in the footer: read line by line
                indent, inner, fact_id, trail = usual.groups()
                if not indent:  # flush left: right below a text line, not a blank one
                    footer_start = usual.start(1)
                    above = whole.rfind("\n", offset, footer_start - 1) + 1 or offset
                    if whole[above:footer_start].isspace():
                        break
                end = index + whole.count("\n", offset, stop) + (whole[stop - 1] != "\n")
                footer = read_usual_footer(indent, inner, fact_id, trail)
                if footer is None:
                    footer = parse_footer(body(lines[end - 1]), path, end)
                    fact_id = footer.id
                if not title:
                    raise ParseError(
                        "a fact outside any '## ' section; move it under a section heading",
                        path,
                        index + 1,
                    )
                line = lines[index]
                checkbox = _checkbox(line) if "[" in line else None
                facts.append(_made_fact(title, subsection, index, end, footer, checkbox, fact_id))
                index, offset = end, stop
            if index != first:
                offset_index = index
                continue
        text = body(line)
        if fences.step(text):
            fence_line = 0 if fences.open is None else fence_line or index + 1
            index += 1
            continue
        found = heading(text)
        if found is not None:
            level, name = found
            if level <= 2:
                sections.append(Section(title, start, index))
                title, start, subsection = (name if level == 2 else ""), index, ""
            elif level == 3:
                subsection = name
            index += 1
            continue
        if text[:1] in _BULLETS and _ITEM.match(text):
            end = _item_end(lines, index)
            fact = _read_item(file, index, end, title, subsection)
            if fact is None:
                footerless.append(Item(title, index, end))
            else:
                if not title:
                    raise ParseError(
                        "a fact outside any '## ' section; move it under a section heading",
                        path,
                        index + 1,
                    )
                facts.append(fact)
            index = end
            continue
        if looks_like_footer(text):
            raise ParseError(
                "a footer that closes no list item; indent it under its fact", path, index + 1
            )
        index += 1
    sections.append(Section(title, start, count))
    if fences.open is not None:
        raise ParseError(
            f"code fence {fences.open!r} opened here is never closed", path, fence_line or count
        )
    if unique_ids:
        _check_unique(facts, path)
    return Document(
        file,
        tuple(s for s in sections if s.start >= 0 or s.end > 0),
        tuple(facts),
        tuple(footerless),
    )


def _whole_text(file: TextFile) -> str | None:
    """The file's lines joined, when they are what `split_lines` makes of that text (so a
    position in it falls in the line it does in `lines`); else None."""
    if file.joined is not None:
        return file.joined
    whole = "".join(file.lines)
    return whole if is_split(file.lines, whole) else None


def _checkbox(line: str) -> str | None:
    """The mark of a `- [ ]` / `- [x]` item's first line, else None."""
    if "[" not in line:
        return None
    checkbox = _CHECKBOX.match(body(line))
    return None if checkbox is None else checkbox[1].lower()


def _item_end(lines: tuple[str, ...], start: int) -> int:
    """Index after the item's last line.

    Indented and blank lines belong to the item; blank lines at its end do not.
    """
    fences = Fences()
    last = start
    index = start + 1
    count = len(lines)
    while index < count:
        text = body(lines[index])
        if fences.open is not None:
            fences.step(text)
            last = index
            index += 1
            continue
        if not text.strip():
            index += 1
            continue
        if text[0] in " \t":
            fences.step(text)
            last = index
            index += 1
            continue
        # A footer written flush left right under its item is still that item's footer.
        if index == last + 1 and looks_like_footer(text):
            last = index
        break
    return last + 1


def _read_item(file: TextFile, start: int, end: int, section: str, subsection: str) -> Fact | None:
    lines = file.lines
    path = file.path
    last = body(lines[end - 1])
    footer: Footer | None = None
    if last.strip().startswith("<!--") and looks_like_footer(last):
        footer = parse_footer(last, path, end)
    elif last.strip().startswith("<!--") and "-->" not in last:
        raise ParseError("unclosed footer: the comment has no closing '-->'", path, end)
    text_end = end - 1 if footer is not None else end
    if not any("<!--" in line for line in lines[start:text_end]):
        text_end = start  # nothing below can fail: skip the per-line checks
    for index in range(start, text_end):
        text = body(lines[index])
        if looks_like_footer(text):
            raise ParseError(
                "a footer must be the last line of its item; move the text after it above it",
                path,
                index + 1,
            )
        if footer is not None and "<!--" in text:
            raise ParseError(
                "fact text contains '<!--', which would hide text from a reader; reword it",
                path,
                index + 1,
            )
    if footer is None:
        return None
    return Fact(section, subsection, start, end, footer, _checkbox(lines[start]))


def _check_unique(facts: list[Fact], path: str) -> None:
    seen: dict[str, int] = {}
    for fact in facts:
        if fact.id in seen:
            raise ParseError(
                f"duplicate id {fact.id!r} (first at line {seen[fact.id]})",
                path,
                fact.footer_index + 1,
            )
        seen[fact.id] = fact.footer_index + 1
