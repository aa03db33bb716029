"""Facts as the write path writes them: born footers (SPEC §3), items appended at the end
of their section, Open Threads opened and checked off, footer changes, and tombstones (a
fact moved to `blocked.md` as an entry and taken out of its file and of the archive's
index, SPEC §9). Pure: a document in, its new text out; every line it does not write
stays byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mdmem.errors import MdmemError
from mdmem.format.blocked import BLOCKED_SECTION
from mdmem.format.document import Document, Fact, parse_document
from mdmem.format.edit import Edit, append_point, apply_edits, blank, removal
from mdmem.format.footer import new_footer
from mdmem.format.sections import (
    INVARIANTS_SECTION,
    OPEN_THREADS_SECTION,
    PROJECT_STATE_SECTION,
    holds_no_facts,
    same_name,
    section_key,
)
from mdmem.format.textfile import TextFile, body, decode, split_lines
from mdmem.linting.nearest import Nearest
from mdmem.writing.known import NOTHING

FOOTER_INDENT = "  "  # under the item, as every footer mdmem writes

TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
NOT_IN_FOOTER = ("|", "<!--", "-->", "\n", "\r")
_OPEN_BOX = re.compile(r"^[-*+][ \t]+\[( )\]")


def born_footer(
    fact_id: str,
    section: str,
    date: str,
    origin: str,
    extra: Mapping[str, str] = {},
) -> dict[str, str]:
    """The footer a new fact is born with (SPEC §3): `working` (`core` under Architectural
    Invariants), one use, created and last used on its session's date, that session as
    its origin; then `extra` fields (supersedes, scope, type, tags) in that order."""
    tier = "core" if same_name(section, INVARIANTS_SECTION) else "working"
    fields = {"id": fact_id, "created": date, "last_used": date, "uses": "1", "tier": tier}
    return {**fields, "origin": origin, **extra}


MAX_TEXT = 2000  # characters of a fact's or a thread's text: see check_line
AGENT_INVARIANT = (
    "## {section} holds core facts, and a person makes a fact core: add it to another "
    "section, then open a thread 'Promote to core: ID?' for a person (who runs `mdmem core "
    "ID`); nothing written"
)
AGENT_CORE = (
    "{fact!r} is a core fact ({where}), and a person changes a core fact: open a thread "
    "saying what no longer holds, for a person (who runs mdmem supersede in a terminal); "
    "nothing written"
)
LINE_BREAKS = ("\n", "\r", "\u2028", "\u2029", "\x85")


def check_line(text: str, what: str) -> str:
    """Refuse a fact's or thread's text that is not one line of sane size: a line break
    (what follows would be written as lines of the file: a `## heading` there is a new
    section), a heading mark at its start, or more than MAX_TEXT characters. Real facts
    run to 1,500 characters; 2,000 leaves room, yet one fact stays a small part of the
    context's default budget (2,000 tokens) and a pasted file is kept out."""
    if any(mark in text for mark in LINE_BREAKS):
        raise MdmemError(
            f"{what} must be one line: it holds a line break (what follows it would land in "
            "the file as lines of their own); say it in one line, or add one fact per line"
        )
    if text.lstrip().startswith("#"):
        raise MdmemError(f"{what} must not open with '#': it would be written as a heading")
    if len(text) > MAX_TEXT:
        raise MdmemError(
            f"{what} is {len(text):,} characters; the limit is {MAX_TEXT:,} (a fact is one "
            "statement: keep the detail in the code or docs, and name them)"
        )
    return text


def item_lines(text: str, footer: Mapping[str, str], checkbox: str | None = None) -> list[str]:
    """A list item of `text` (its later lines indented under it) closed by `footer`."""
    first, *rest = [line.rstrip() for line in text.strip().splitlines()] or [""]
    if not first or "<!--" in text or "-->" in text:
        raise MdmemError(
            "a fact's text must hold words and no HTML comment (`<!--`, `-->`): the footer "
            "is the fact's one comment"
        )
    marker = "- " if checkbox is None else f"- [{checkbox}] "
    lines = [marker + first, *(f"  {line.strip()}" if line.strip() else "" for line in rest)]
    return [*lines, new_footer(FOOTER_INDENT, footer).render()]


def with_item(document: Document, section: str, lines: Sequence[str]) -> str:
    """`document`'s text with the item `lines` appended at the end of `section` (a new
    `## section` before `## Open Threads`, else at the end of the file, when there is
    none)."""
    newline = document.file.newline
    item = [line + newline for line in lines]
    found = document.section(section)
    threads = document.section(OPEN_THREADS_SECTION)
    if found is None and threads is not None and not same_name(section, OPEN_THREADS_SECTION):
        at = threads.start
        opening = [] if at == 0 or blank(document.lines[at - 1]) else [newline]
        edit = Edit(at, at, (*opening, f"## {section}{newline}", newline, *item, newline))
    elif found is None:
        end = len(document.lines)
        opening = [newline] if document.lines and not blank(document.lines[-1]) else []
        edit = Edit(end, end, (*opening, f"## {section}{newline}", newline, *item))
    else:
        point, loose = append_point(document, found, set())
        # A blank line keeps a footerless item above from joining the new fact's group.
        after_legacy = point > 0 and any(item.end == point for item in document.footerless)
        opening = [newline] if loose or point == found.start + 1 or after_legacy else []
        edit = Edit(point, point, (*opening, *item))
    return document.file.with_lines(apply_edits(document.lines, [edit], newline)).text()


def reparsed(document: Document, text: str) -> Document:
    """`text`, a new text of `document`'s file, parsed."""
    return parse_document(decode(text.encode("utf-8"), document.path), unique_ids=False)


def with_footers(
    document: Document, changes: Sequence[tuple[Fact, Mapping[str, str | None]]]
) -> str:
    """`document`'s text with each fact's footer changed (set a str, drop None), nothing
    else."""
    edits = []
    for fact, change in changes:
        line = document.lines[fact.footer_index]
        updated = fact.footer.updated(change).render() + line[len(body(line)) :]
        edits.append(Edit(fact.footer_index, fact.footer_index + 1, (updated,)))
    return document.file.with_lines(apply_edits(document.lines, edits, "\n")).text()


def thread_lines(text: str, thread_id: str, date: str, origin: str) -> list[str]:
    """An open thread (`- [ ] text`) with its born footer."""
    return item_lines(text, born_footer(thread_id, OPEN_THREADS_SECTION, date, origin), " ")


def same_section(document: Document, title: str) -> str:
    """The title of `document`'s section that `title` names (`sections.section_key`), as the
    file spells it, or of a section mdmem gives a meaning, held or not; else `title`."""
    known = [section.title for section in document.sections if section.title]
    for name in (*known, OPEN_THREADS_SECTION, PROJECT_STATE_SECTION, INVARIANTS_SECTION):
        if same_name(name, title):
            return name
    return title


def refuse_misspelt(document: Document, section: str) -> None:
    """A section continuity lacks is made, unless its name is a typo of one it has ("Key
    Decisons"), which would open a second home for that section that nobody meant."""
    titles = {section_key(found.title): found.title for found in document.sections if found.title}
    if section_key(section) in titles:
        return
    near = Nearest(titles).ranked(section_key(section), 1)
    if near and holds_no_facts(near[0]):
        raise MdmemError(
            f"continuity.md has no section {section!r}, and ## {titles[near[0]]} holds no facts "
            f"(open a thread with `mdmem thread TEXT`); {NOTHING}"
        )
    if near:
        raise MdmemError(
            f"continuity.md has no section {section!r}; did you mean {titles[near[0]]!r}? "
            f"To make a new section of that name, add --new-section; {NOTHING}"
        )


def check_scope_and_tags(scope: str | None, tags: Sequence[str]) -> None:
    """Refuse a tag or a scope the footer cannot carry."""
    bad = [tag for tag in tags if not TAG.match(tag)]
    if bad:
        raise MdmemError(f"tag {bad[0]!r} must be one word (letters, digits, - _ . +)")
    if scope is not None and (not scope.strip() or unsafe(scope)):
        raise MdmemError(f"scope {scope!r} must be path globs, like src/api/**")


def unsafe(value: str, *starts: str) -> bool:
    """Whether a value starts with one of `starts` or holds what ends a footer field."""
    return value.startswith(starts) or any(mark in value for mark in NOT_IN_FOOTER)


def checked_off(document: Document, fact: Fact) -> str:
    """`document`'s text with the open thread's `[ ]` made `[x]`: that one character."""
    line = document.lines[fact.start]
    box = _OPEN_BOX.match(line)
    if box is None:
        raise MdmemError(f"{fact.id!r} is not an open thread (`- [ ] ...`)")
    done = line[: box.start(1)] + "x" + line[box.end(1) :]
    lines = apply_edits(document.lines, [Edit(fact.start, fact.start + 1, (done,))], "\n")
    return document.file.with_lines(lines).text()


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
