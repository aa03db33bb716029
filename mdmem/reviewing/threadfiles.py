"""The review's edits of the thread files (the protocol's v4.39 layout, one Open Thread per
`open-threads/thread-<id>.md`): a footer refreshed in place, as in continuity; a done
thread the rules archive leaves its file for the archive block, and a file left with no
item and nothing but headings and blank lines is removed (the archive block holds it).
"""

from __future__ import annotations

from collections.abc import Mapping

from mdmem.format.document import Document, Fact
from mdmem.format.edit import Edit, apply_edits, removal
from mdmem.format.memory import Memory
from mdmem.format.textfile import body
from mdmem.reviewing.decide import Decision
from mdmem.reviewing.render import FileWrite, ThreadWrites, footer_edit


def thread_writes(
    memory: Memory, decisions: Mapping[str, Decision], dropped: Mapping[tuple[str, int], str]
) -> ThreadWrites:
    """Every thread file the review changes, and the facts leaving them.

    `dropped`: the extra copies of a merged id, (path, first line) -> id; they go.
    """
    writes: list[FileWrite] = []
    leaving: list[tuple[Document, Fact, Decision]] = []
    for document in memory.threads:
        edits: list[Edit] = []
        for fact in document.facts:
            decision = decisions[fact.id]
            duplicate = (document.path, fact.start) in dropped
            if duplicate or decision.move == "out":
                edits.append(removal(document.lines, fact.start, fact.end))
                if not duplicate:
                    leaving.append((document, fact, decision))
            elif (edit := footer_edit(document, fact, decision)) is not None:
                edits.append(edit)
        if edits:
            writes.append(_write(memory, document, edits))
    return ThreadWrites(tuple(writes), tuple(leaving))


def _write(memory: Memory, document: Document, edits: list[Edit]) -> FileWrite:
    """The file's new text, or its removal when no item and no prose is left in it."""
    relative = document.path[len(memory.root.name) + 1 :]
    after = apply_edits(document.lines, edits, document.file.newline)
    left = [body(line).strip() for line in after]
    if all(not line or line.startswith("#") for line in left):
        return FileWrite(relative, document.file.text(), None)
    return FileWrite(relative, document.file.text(), document.file.with_lines(after).text())
