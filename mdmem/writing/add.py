"""`mdmem add`'s edge: reads what a new fact may meet, decides (`writing.add_plan`), and
writes the fact and its log line in one all-or-nothing write under the memory's lock.

It reads no session log but the current one, and never parses the archive whole: it
grows by every review, and an agent adds many times a session. The archive's bytes are
searched for an id only when one is about to be given, and only its superseded facts
whose text may be near the new one are cut out (each item from its first line to its
footer) and parsed as a small document of their own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.errors import ParseError
from mdmem.format.document import Document, parse_document
from mdmem.format.memory import ARCHIVE, CONTINUITY, VISION
from mdmem.format.textfile import decode
from mdmem.format.vision import parse_vision
from mdmem.format.words import Claim, claim, needles, shared_words
from mdmem.safety.blocklist import least_shared
from mdmem.store.files import archive_paths, read_bytes
from mdmem.store.load import read_optional
from mdmem.store.lock import locked
from mdmem.store.writer import write_files
from mdmem.writing import known
from mdmem.writing.add_plan import Addition, Known, NewFact, check_request, plan_add
from mdmem.writing.gathered import gather
from mdmem.writing.logs import SessionLog
from mdmem.writing.session import read_current

MARK = b"superseded"  # in `tier: superseded` and `superseded-by:`, as in the footer
_BULLETS = (b"-", b"*", b"+")
_OPENING = b"## Superseded\n\n"


@dataclass(frozen=True)
class Added:
    """What `add_fact` did, in which log."""

    log: SessionLog
    addition: Addition

    def as_dict(self) -> dict[str, Any]:
        found = self.addition
        threads = [
            {"id": thread.fact_id, "contradicts": thread.contradicts, "line": thread.line}
            for thread in found.threads
        ]
        return {
            "outcome": found.outcome,
            "id": found.fact_id,
            "path": found.path,
            "line": found.line,
            "section": found.section,
            "tier": found.tier,
            "supersedes": None if found.superseded is None else found.superseded.fact_id,
            "threads": threads,
            "session": self.log.stem,
            "log": self.log.display,
            "log_lines": list(found.log_lines),
            "note": found.note,
            "extra_words": list(found.extra_words),
        }


def add_fact(
    root: Path, request: NewFact, named: str | None = None, source: str = "--session"
) -> Added:
    """Add `request` to continuity in the current session (the log `named`, see
    `current_session`) and record it there: `Created`, or, for a fact memory already
    holds, `Referenced`. Refusals (an MdmemError) write nothing."""
    check_request(request)
    with locked(root):
        session = read_current(root, named, source)
        addition = plan_add(request, _known(root, claim(request.text), request.text), session)
        files = {} if addition.continuity is None else {CONTINUITY: addition.continuity}
        if addition.log_changed:
            files[session.log.relative] = addition.log
        if files:
            write_files(root, files)
    return Added(session.log, addition)


def _known(root: Path, new: Claim, text: str) -> Known:
    """What the new fact (its claim `new`, its `text`) is compared with; of the archive,
    the superseded facts that may share enough of its words to be near it, and whole, a
    file that holds an item opening with the very same text (a faded fact said again)."""
    memory = gather(root, [])
    vision_file = read_optional(root, VISION)
    vision = None if vision_file is None else parse_vision(vision_file)
    label = f"{root.name}/{ARCHIVE}"
    archive = [
        (read_bytes(p, f"{label}/{p.name}"), f"{label}/{p.name}") for p in archive_paths(root)
    ]
    wanted, least = needles(new), least_shared(len(new.words))
    cut = [superseded_facts(data, shown, wanted, least) for data, shown in archive]
    cut += [_parsed(data, shown) for data, shown in archive if opens_an_item(data, text)]
    documents = [*memory.documents, *([] if vision is None else [vision])]
    ids = known.ids_in(documents) | set(memory.blocked)
    taken = _Taken(frozenset(ids), [data for data, _ in archive])
    retired = tuple(document for document in cut if document is not None)
    return Known(memory.continuity, vision, retired, memory.blocked, taken)


class _Taken:
    """Ids taken: those of the documents read, then any a footer of the archive holds
    (searched in its bytes, one id at a time)."""

    def __init__(self, ids: frozenset[str], archive: Sequence[bytes]) -> None:
        self.ids = ids
        self.archive = archive

    def __contains__(self, fact_id: object) -> bool:
        if not isinstance(fact_id, str):
            return False
        return fact_id in self.ids or any(holds_id(d, fact_id) for d in self.archive)


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


def opens_an_item(data: bytes, text: str) -> bool:
    """Whether a line of `data` is a list item whose text is `text`, case aside."""
    needle = text.strip().encode("utf-8").lower()  # ASCII letters lowered, as `data`'s are
    lowered = data.lower()
    position = lowered.find(needle) if needle else -1
    while position != -1:
        start = lowered.rfind(b"\n", 0, position) + 1
        end = position + len(needle)
        marker = lowered[start:position].rstrip()
        if marker in _BULLETS and position > start + 1 and lowered[end : end + 1] in b"\r\n":
            return True
        position = lowered.find(needle, position + 1)
    return False


def _parsed(data: bytes, shown: str) -> Document | None:
    """An archive file whole; None when it does not parse (lint names its error)."""
    try:
        return parse_document(decode(data, shown), unique_ids=False)
    except ParseError:
        return None


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
