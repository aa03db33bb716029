"""Tombstones: a fact moved to `blocked.md` as an entry (SPEC §9), taken out of the file
it was in (and of the archive's index), or a text blocked that was never a fact. Pure:
documents in, new texts out; every line not named stays byte for byte.
"""

from __future__ import annotations

from mdmem.errors import MdmemError
from mdmem.format.blocked import BLOCKED_SECTION
from mdmem.format.document import Document, Fact, parse_document
from mdmem.format.edit import apply_edits, removal
from mdmem.format.footer import new_footer
from mdmem.format.textfile import TextFile, body, split_lines
from mdmem.writing.facts import FOOTER_INDENT, with_item

BLOCKED_HEADER = """\
# Blocked

Facts forgotten on purpose (`mdmem forget ID --reason TEXT`), each with the day and the
reason. Text near an entry is refused by `mdmem add`, `mdmem review` and `mdmem lint`,
reworded or not. Only editing this file by hand lifts a block.

## Blocked
"""
KEPT_FIELDS = ("created", "origin")  # provenance a tombstone keeps from the fact's footer


def check_reason(reason: str) -> str:
    """The reason, stripped; refused when empty or when it would break its footer."""
    stripped = reason.strip()
    if not stripped or "\n" in stripped or "\r" in stripped:
        raise MdmemError("--reason must be one line of text: why the fact must not come back")
    if "|" in stripped or "<!--" in stripped or "-->" in stripped:
        raise MdmemError("--reason must not hold '|', '<!--' or '-->': it is written in a footer")
    return stripped


def tombstone_lines(document: Document, fact: Fact, date: str, reason: str) -> list[str]:
    """The fact as a `blocked.md` entry: its text, the footer `id | blocked | reason` (with
    the fact's created and origin), then its notes; line endings left to the new file."""
    fields = {"id": fact.id, "blocked": date, "reason": reason}
    fields.update({key: value for key in KEPT_FIELDS if (value := fact.get(key)) is not None})
    text = [body(line) for line in document.fact_text(fact)]
    notes = [body(line) for line in document.fact_notes(fact)]
    return [*text, new_footer(FOOTER_INDENT, fields).render(), *notes]


def with_tombstone(blocked: TextFile | None, label: str, lines: list[str]) -> str:
    """`blocked.md`'s text with the entry appended under `## Blocked` (the file made with
    its header when it does not exist yet)."""
    file = TextFile(label, split_lines(BLOCKED_HEADER)) if blocked is None else blocked
    return with_item(parse_document(file), BLOCKED_SECTION, lines)


def without_fact(document: Document, fact: Fact) -> str:
    """`document`'s text with the fact (text, footer, notes) taken out."""
    lines = apply_edits(document.lines, [removal(document.lines, fact.start, fact.end)], "\n")
    return document.file.with_lines(lines).text()


def index_without(index: TextFile, fact_id: str) -> str | None:
    """`archive/INDEX.md`'s text without the fact's line; None when it has none."""
    lines = [line for line in index.lines if not line.startswith(f"- {fact_id} ")]
    return None if len(lines) == len(index.lines) else index.with_lines(lines).text()
