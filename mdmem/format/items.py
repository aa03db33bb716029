"""Markdown list items as a memory's readers see them: where an item ends, which of its
lines is its footer, its checkbox, and the comments its text may hold.

Line-level and pure, shared by the document parser and the scanners that read any memory
text (poisoning), so that every reader agrees on what a fact's text is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mdmem.errors import ParseError
from mdmem.format.fences import closes, opening
from mdmem.format.footer import looks_like_footer
from mdmem.format.sections import OPEN_THREADS_SECTION, same_name
from mdmem.format.textfile import body

_SECTION = re.compile(r"^##[ \t]+(.*?)[ \t]*$")  # a `##` heading, as the parser reads it
_CHECKBOX = re.compile(r"^[-*+][ \t]+\[([ xX])\](?:[ \t]|$)")
BULLETS = ("-", "*", "+")
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")


def opens_item(line: str) -> bool:
    """Whether a line that starts with a bullet opens a list item: a blank or the line's
    end follows the bullet."""
    return line[1:2] in (" ", "\t", "\n", "") or line[1:] == "\r\n"


def checkbox_of(line: str) -> str | None:
    """The mark of a `- [ ]` / `- [x]` item's first line, else None."""
    if "[" not in line:
        return None
    checkbox = _CHECKBOX.match(body(line))
    return None if checkbox is None else checkbox[1].lower()


def item_end(lines: tuple[str, ...], start: int) -> int:
    """Index after the item's last line.

    Indented lines (and fenced blocks opened inside the item) belong to it; blank lines
    belong to it only when an indented line follows them. A footer written flush left
    right under the item's last line is still its footer.
    """
    fence: str | None = None
    last = start
    index, count = start + 1, len(lines)
    while index < count:
        line = lines[index]
        if fence is not None:
            if closes(line, fence):
                fence = None
            last = index
        elif not line.strip():
            pass  # blank: the item's only if an indented line follows
        elif line.startswith((" ", "\t")):
            if "```" in line or "~~~" in line:
                fence = opening(line)
            last = index
        else:
            if index == last + 1 and "<!--" in line and looks_like_footer(body(line)):
                last = index
            break
        index += 1
    return last + 1


def refuse_hiding(lines: tuple[str, ...], start: int, end: int, footer_at: int, path: str) -> None:
    """Refuse a comment in a fact's text that would hide the text after it from a reader:
    one left open on its line. A comment closed on its own line is text a person reads
    past (a pragma such as `<!-- lint:allow-secret-material -->`), and `<!--` in a code
    span is shown as written."""
    if "<!--" not in "".join(lines[start:end]):
        return  # the usual item: one search over its text
    for index in range(start, end):
        line = lines[index]
        if index == footer_at or "<!--" not in line:
            continue
        shown = _CODE_SPAN.sub("", line)  # `<!--` in a code span is shown as it is written
        if shown.rfind("-->") < shown.rfind("<!--"):
            raise ParseError(
                "fact text opens a comment ('<!--') it does not close on the same line, "
                "which would hide text from a reader; close it or reword it",
                path,
                index + 1,
            )


def footer_line(lines: tuple[str, ...], start: int, end: int, path: str) -> int | None:
    """Index of the item's footer, or None when the item has none.

    The footer is the one line of the item, outside its code fences, that holds only a
    footer comment: most often its last, or the last before notes, but a person reads an
    item whose footer is followed by more of its lines (an addendum written later) the
    same way. Two footers in one item are ambiguous (which closes the fact?): refused.
    """
    if "<!--" not in "".join(lines[start:end]):
        return None
    footers: list[int] = []
    fenced: list[int] = []  # footer lines inside the open fence: code, unless it never closes
    fence: str | None = None
    for index in range(start, end):
        text = body(lines[index])
        if fence is not None:
            if closes(text, fence):
                fence, fenced = None, []
            elif "<!--" in text and looks_like_footer(text):
                fenced.append(index)
        elif "<!--" in text and looks_like_footer(text):
            footers.append(index)
        elif "```" in text or "~~~" in text:
            fence = opening(text)
    footers += fenced  # a fence left open in the item was no fence to its writer
    if len(footers) > 1:
        raise ParseError(
            f"a second footer in one item (the first at line {footers[0] + 1}); "
            "give each fact its own bullet",
            path,
            footers[1] + 1,
        )
    return footers[0] if footers else None


def group_start(lines: tuple[str, ...], run: Sequence[int], section: str) -> int:
    """Where the fact closed by a footer begins, given `run`, the first lines of the list
    items right above one another that end with the one holding the footer (the others
    have none): one footer closes a list (SPEC §3). Under Open Threads, where a task item
    (`- [ ]`, `- [x]`) is a thread of its own, the group starts at the run's last task
    item and the items above it are left footerless, as a person reads them: a thread
    that lost its footer is not the text of the one below, nor is a plain bullet above a
    thread. Elsewhere a list of steps closed by one footer is one fact."""
    if same_name(section, OPEN_THREADS_SECTION):
        for start in reversed(run):
            if checkbox_of(lines[start]) is not None:
                return start
    return run[0]


def fact_text_spans(lines: tuple[str, ...]) -> list[range]:
    """The 0-based line ranges of every fact's text: an item's lines above its footer, with
    the footerless items right above it that it closes (a group, `group_start`). Items are
    read as `parse_document` reads them, but nothing is refused: for scanners of any
    memory text."""
    spans: list[range] = []
    fence: str | None = None
    section = ""  # the `##` heading above
    run: list[int] = []  # first lines of the footerless items right above
    index, count = 0, len(lines)
    while index < count:
        line = lines[index]
        if fence is not None:
            fence = None if closes(line, fence) else fence
            index += 1
        elif line.startswith(BULLETS) and opens_item(line):
            end = item_end(lines, index)
            footer_at = footer_line_or_none(lines, index, end)
            run.append(index)
            if footer_at is not None:
                spans.append(range(group_start(lines, run, section), footer_at))
                run = []
            index = end
        else:
            text = body(line)
            if "```" in text or "~~~" in text:
                fence = opening(text)
            elif heading := _SECTION.match(text):
                section = heading[1]
            run = []
            index += 1
    return spans


def footer_line_or_none(lines: tuple[str, ...], start: int, end: int) -> int | None:
    """`_footer_line`, an item with two footers read as having none (for scanners)."""
    try:
        return footer_line(lines, start, end, "")
    except ParseError:
        return None


def is_note(line_body: str) -> bool:
    """A line that is one whole HTML comment and no footer."""
    note = line_body.strip()
    return (
        note.startswith("<!--")
        and note.endswith("-->")
        and note.count("<!--") == 1
        and note.count("-->") == 1
        and not looks_like_footer(note)
    )
