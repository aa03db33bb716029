"""`memory/vision.md`: the north star, whose statements are core facts (SPEC §10).

People write a vision statement as a list item with its footer, as in continuity, or
as a blockquote closed by its footer inside the quote:

    > Every agent session ends with a memory that is correct.
    > <!-- id: vision-correct-memory | created: 2026-06-01 | tier: core -->

A blockquote is read as the list item it stands for, line for line, so its id is a
known, live fact like any other, and every line number stays the file's own.
"""

from __future__ import annotations

import re

from mdmem.format.document import Document, parse_document
from mdmem.format.footer import looks_like_footer
from mdmem.format.textfile import TextFile, body, ending

# The section of a statement written above the vision's first `## ` heading, as the
# protocol's vision.md opens: its title, then the statement quoted with its footer.
VISION_SECTION = "Vision"
_QUOTE = re.compile(r"^[ \t]{0,3}>[ \t]?")


def parse_vision(file: TextFile) -> Document:
    """The vision document, blockquotes holding a footer read as list items."""
    lines = quotes_as_items(file.lines)
    read = file.with_lines(lines) if lines != file.lines else file
    return parse_document(read, preamble=VISION_SECTION)


def quotes_as_items(lines: tuple[str, ...]) -> tuple[str, ...]:
    """The lines with each blockquote closed by a footer written as a list item, line for
    line (a text with no such quote comes back as it is)."""
    if not any(_QUOTE.match(line) for line in lines):
        return lines
    read = list(lines)
    index = 0
    while index < len(read):
        end = index
        while end < len(read) and _QUOTE.match(read[end]):
            end += 1
        if end > index:
            read[index:end] = _as_item(read[index:end])
            index = end
        else:
            index += 1
    return tuple(read)


def _as_item(quoted: list[str]) -> list[str]:
    """A blockquote's lines as a list item (its first line the bullet, the rest indented),
    when its last line is a footer; else as they are."""
    unquoted = [_QUOTE.sub("", line, count=1) for line in quoted]
    if not looks_like_footer(body(unquoted[-1]).strip()):
        return quoted
    first = body(unquoted[0])
    item = [f"- {first}{ending(unquoted[0])}"]
    item += [f"  {line}" if body(line).strip() else ending(line) for line in unquoted[1:]]
    return item
