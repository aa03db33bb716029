"""A memory document (continuity or an archive file): `##` sections and the facts in them.

The parser reads markdown the way a person would: a fact is a top-level list item
that may wrap, hold blank lines, nested bullets or code, and ends with its footer.
It keeps line numbers so every error and every edit names an exact place.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from mdmem.errors import ParseError
from mdmem.format.fences import closes, opening
from mdmem.format.footer import Footer, looks_like_footer, parse_footer
from mdmem.format.items import (
    BULLETS,
    checkbox_of,
    footer_line,
    group_start,
    is_note,
    item_end,
    opens_item,
    refuse_hiding,
)
from mdmem.format.leftout import leave_out
from mdmem.format.sections import (
    INVARIANTS_SECTION,
    OPEN_THREADS_SECTION,
    PROJECT_STATE_SECTION,
    same_name,
    section_key,
)
from mdmem.format.textfile import TextFile, body, check_conflict_markers

_HEADING = re.compile(r"^(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
# Sections whose items are facts by their very name: an item there without a footer is a
# legacy fact, even when no other item of the section has a footer yet.
FACT_SECTIONS = frozenset(
    section_key(name) for name in (INVARIANTS_SECTION, OPEN_THREADS_SECTION, "Key Decisions")
)


@dataclass(frozen=True)
class Section:
    title: str
    start: int  # index of the heading line (0-based); -1 for the preamble
    end: int  # index after the last line of the section


@dataclass(frozen=True, slots=True)
class Fact:
    """One footered list item; `start`/`end` are 0-based line indexes, end exclusive. The
    footer closes the item's text; `notes` comment lines may follow it (a second HTML
    comment a person or agent left about the fact), which belong to the fact."""

    section: str
    subsection: str
    start: int
    end: int
    footer: Footer
    checkbox: str | None  # None for a plain fact, " " open thread, "x" done
    id: str = field(compare=False)  # the footer's, kept: a review reads it at every step
    notes: int = 0  # comment lines after the footer

    @property
    def line(self) -> int:
        """1-based line of the item's first line."""
        return self.start + 1

    @property
    def footer_index(self) -> int:
        return self.end - 1 - self.notes

    @property
    def is_open_thread(self) -> bool:
        return self.checkbox == " "

    @property
    def is_done_thread(self) -> bool:
        return self.checkbox == "x"

    @property
    def is_core(self) -> bool:
        """`tier: core`, or under Architectural Invariants (treated as core, SPEC §5)."""
        return self.footer.get("tier") == "core" or same_name(self.section, INVARIANTS_SECTION)

    @property
    def is_superseded(self) -> bool:
        """`tier: superseded` or a `superseded-by` link (SPEC §5, rule 1)."""
        return (
            self.footer.get("tier") == "superseded" or self.footer.get("superseded-by") is not None
        )

    def get(self, key: str) -> str | None:
        return self.footer.get(key)


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
        """The section `title` names, however the file spells it (`sections.section_key`);
        an empty name finds none (the text above the first heading is no section)."""
        if not section_key(title):
            return None
        for section in self.sections:
            if same_name(section.title, title):
                return section
        return None

    def spelled(self, title: str) -> str:
        """`title` as this file spells that section's heading, or as given when it has none."""
        found = self.section(title)
        return title if found is None else found.title

    def fact_text(self, fact: Fact) -> tuple[str, ...]:
        """The item's lines above its footer."""
        return self.file.lines[fact.start : fact.footer_index]

    def fact_words(self, fact: Fact) -> tuple[str, ...]:
        """What a reader reads of the fact: its text, and any lines of the item written
        below its footer but its comment notes (an addendum is more of the fact)."""
        after = self.fact_notes(fact)
        return self.fact_text(fact) + tuple(line for line in after if not is_note(body(line)))

    def fact_notes(self, fact: Fact) -> tuple[str, ...]:
        """The comment lines after the item's footer, kept with the fact byte for byte."""
        return self.file.lines[fact.footer_index + 1 : fact.end]

    def legacy_facts(self) -> tuple[Item, ...]:
        """The footerless items of fact sections: facts written before footers (SPEC §3).

        A fact section is one that holds a footered fact, or one named for facts
        (`FACT_SECTIONS`); `## Project State` bullets and the preamble are never facts.
        """
        with_facts = {fact.section for fact in self.facts}
        return tuple(
            item
            for item in self.footerless
            if item.section
            and not same_name(item.section, PROJECT_STATE_SECTION)
            and (item.section in with_facts or section_key(item.section) in FACT_SECTIONS)
        )


def heading(line_body: str) -> tuple[int, str] | None:
    """(level, title) for an ATX heading line, else None."""
    match = _HEADING.match(line_body) if line_body.startswith("#") else None
    if match is None:
        return None
    title = match[2] or ""
    # A closing run of #s needs a space or tab before it (CommonMark): `## C#` keeps its #.
    unclosed = title.rstrip("#")
    if not unclosed or unclosed[-1] in " \t":
        title = unclosed
    return len(match[1]), title.strip()


def parse_document(file: TextFile, *, unique_ids: bool = True, preamble: str = "") -> Document:
    """Split a memory file into sections and facts, refusing what is truly ambiguous.

    `unique_ids=False` lets a repeated id through, for lint to report as a finding.
    `preamble` names the section of the items above the first `## ` heading (the vision's
    statement under its title); without one such an item with a footer is refused.
    """
    lines = file.lines
    path = file.path
    try:
        check_conflict_markers(lines, path)
    except ParseError as error:  # which side is the memory? Neither can be read
        leave_out(error)
        return Document(file, (Section("", -1, len(lines)),), (), ())
    sections: list[Section] = []
    facts: list[Fact] = []
    footerless: list[Item] = []
    fence: str | None = None
    fence_line = 0  # 1-based line where the open fence began
    title, start, subsection = preamble, -1, ""
    index, count = 0, len(lines)
    while index < count:
        line = lines[index]
        if fence is not None:
            if closes(line, fence):
                fence = None
            index += 1
            continue
        if line.startswith(BULLETS) and opens_item(line):
            index = _take_item(file, index, (title, subsection), facts, footerless)
            continue
        text = body(line)
        if text.startswith("#") and (found := heading(text)) is not None:
            level, name = found
            if level <= 2:
                sections.append(Section(title, start, index))
                title, start, subsection = (name if level == 2 else preamble), index, ""
            elif level == 3:
                subsection = name
        elif ("```" in text or "~~~" in text) and (fence := opening(text)) is not None:
            fence_line = index + 1
        elif "<!--" in text and looks_like_footer(text):
            leave_out(
                ParseError(
                    "a footer that closes no list item; indent it under its fact", path, index + 1
                )
            )
        index += 1
    sections.append(Section(title, start, count))
    if fence is not None:  # read as CommonMark reads it: code to the end of the file
        leave_out(ParseError(f"code fence {fence!r} opened here is never closed", path, fence_line))
    if unique_ids:
        _check_unique(facts, path)
    return Document(
        file,
        tuple(s for s in sections if s.start >= 0 or s.end > 0),
        tuple(facts),
        tuple(footerless),
    )


def _take_item(
    file: TextFile,
    start: int,
    place: tuple[str, str],
    facts: list[Fact],
    footerless: list[Item],
) -> int:
    """Read the list item at `start` (under `place`, its section and subsection) into
    `facts` or `footerless`; the index after it."""
    end = item_end(file.lines, start)
    try:
        fact = _read_item(file, start, end, *place)
    except ParseError as error:
        leave_out(error)  # raises again unless a reading command collects
        return end
    if fact is None:
        footerless.append(Item(place[0], start, end))
    else:
        facts.append(_with_its_group(fact, footerless, file.lines))
    return end


def _with_its_group(fact: Fact, footerless: list[Item], lines: tuple[str, ...]) -> Fact:
    """The fact with the footerless items right above it (no blank line between, the same
    section) that its footer closes (`items.group_start`) taken into it: a list closed by
    one footer is one fact, as a person reads it. The items taken leave `footerless`."""
    above = [fact.start]  # the run's first lines, bottom up
    for item in reversed(footerless):
        if item.end != above[-1] or item.section != fact.section:
            break
        above.append(item.start)
    start = group_start(lines, above[::-1], fact.section)
    if start == fact.start:
        return fact
    del footerless[len(footerless) - above.index(start) :]
    return dataclasses.replace(fact, start=start, checkbox=checkbox_of(lines[start]))


def _read_item(file: TextFile, start: int, end: int, section: str, subsection: str) -> Fact | None:
    """The fact a list item holds, or None for an item without a footer."""
    lines = file.lines
    path = file.path
    footer_at = footer_line(lines, start, end, path)
    if footer_at is None:
        last = body(lines[end - 1])
        if "-->" not in last and last.lstrip().startswith("<!--"):
            raise ParseError("unclosed footer: the comment has no closing '-->'", path, end)
        _refuse_inline_footer(body(lines[start]), path, start + 1)
        return None
    footer = parse_footer(body(lines[footer_at]), path, footer_at + 1)
    refuse_hiding(lines, start, end, footer_at, path)
    if not section:
        raise ParseError(
            "a fact outside any '## ' section; move it under a section heading", path, start + 1
        )
    checkbox = checkbox_of(lines[start])
    return Fact(section, subsection, start, end, footer, checkbox, footer.id, end - 1 - footer_at)


def _refuse_inline_footer(first: str, path: str, line: int) -> None:
    """A footer written on the bullet's own line (`- Text <!-- id: x -->`) closes no item a
    reader can cite: refused, naming the two lines to write instead."""
    at = first.find("<!--")
    if at <= 0 or not looks_like_footer(first[at:]) or not first.rstrip().endswith("-->"):
        return
    text, comment = first[:at].rstrip(), first[at:].strip()
    indent = " " * (len(first) - len(first.lstrip()) + 2)
    raise ParseError(
        f"a footer on the bullet's own line: a footer is a line of its own; write {text!r} "
        f"and under it {indent + comment!r}",
        path,
        line,
    )


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
