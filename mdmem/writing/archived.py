"""The archive read cheaply, for commands that must not parse it whole: it grows by every
review, and a command an agent runs many times a session reads it at each call.

Pure, over one archive file's bytes: whether a footer there carries an id, and the
superseded facts cut out (each item from its first line to its footer) and parsed as a
small document of their own, so that a new fact can be compared with their text.
"""

from __future__ import annotations

import re

from mdmem.errors import ParseError
from mdmem.format.document import Document, parse_document
from mdmem.format.textfile import decode
from mdmem.format.words import shared_words

MARK = b"superseded"  # in `tier: superseded` and `superseded-by:`, as in the footer
_BULLETS = (b"-", b"*", b"+")
_OPENING = b"## Superseded\n\n"


def holds_id(data: bytes, fact_id: str) -> bool:
    """Whether a footer-shaped comment in `data` opens with `id: fact_id`. A footer quoted
    in prose counts too: an id seen anywhere is never given to a new fact."""
    pattern = rb"<!--[ \t]*id[ \t]*:[ \t]*" + re.escape(fact_id.encode()) + rb"[ \t]*(?:\||-->)"
    return re.search(pattern, data) is not None


def superseded_facts(
    data: bytes, path: str, wanted: tuple[frozenset[str], ...], least: int
) -> Document | None:
    """The facts of an archive file whose footer holds `superseded` and whose text may
    share `least` words with the claim whose `needles` (`format.words`) are `wanted`, as
    one document (line numbers are its own, not the file's); None when there are none. A
    cut that does not parse has the whole file parsed instead, so that its error names
    the right line."""
    items = []
    position = data.find(MARK)
    while position != -1:
        start = data.rfind(b"\n", 0, position) + 1
        end = data.find(b"\n", position)
        end = len(data) if end == -1 else end + 1
        first = _item_start(data, start) if data[start:end].lstrip().startswith(b"<!--") else None
        text = data[first:start].decode("utf-8", "replace") if first is not None else ""
        if first is not None and shared_words(text, wanted) >= least:
            item = data[first:end]
            items.append(item if item.endswith(b"\n") else item + b"\n")
        position = data.find(MARK, end)
    if not items:
        return None
    try:
        return parse_document(decode(_OPENING + b"".join(items), path), unique_ids=False)
    except ParseError:
        return parse_document(decode(data, path), unique_ids=False)


def _item_start(data: bytes, footer: int) -> int | None:
    """Where the list item a footer line (starting at `footer`) closes begins: the nearest
    line above that opens an item at the margin; None when a heading or another comment
    comes first."""
    index = footer
    while index > 0:
        begin = data.rfind(b"\n", 0, index - 1) + 1
        line = data[begin:index]
        if line[:1] in _BULLETS and line[1:2] in (b" ", b"\t"):
            return begin
        if line.startswith(b"#") or line.lstrip().startswith(b"<!--"):
            return None
        index = begin
    return None
