"""`mdmem backfill`, decided: a footer for each legacy fact of continuity.md, and one log.

Legacy facts are the footerless items of fact sections (`Document.legacy_facts`), which
memories kept before footers hold. Each gets the footer a fact is born with (SPEC §3),
created by one new session log that lists them all under `- Created:`, so the ledger
stays the only source of usage. `plan_backfill` is pure (the log's time comes in as a
value, the plan is whole-file texts); `backfill` reads the clock and the memory under its
lock and writes the plan all or nothing. No commit: the user reviews, then commits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mdmem.errors import MdmemError, ParseError, SecretError, WriteError
from mdmem.format.document import Document, Item, parse_document
from mdmem.format.edit import Edit, apply_edits
from mdmem.format.footer import new_footer
from mdmem.format.items import is_note
from mdmem.format.memory import CONTINUITY, SESSIONS, Memory
from mdmem.format.sessionlog import REFERENCES_HEADING, SessionName, parse_session_name
from mdmem.format.textfile import TextFile, body, ending
from mdmem.safety.harm import first_harm
from mdmem.store.load import load
from mdmem.store.lock import locked
from mdmem.store.writer import recover, write_files
from mdmem.writing.facts import FOOTER_INDENT, born_footer
from mdmem.writing.ids import derive_id
from mdmem.writing.logs import log_stem
from mdmem.writing.references import record
from mdmem.writing.session import utc_now

SLUG = "backfill"
_MARKER = re.compile(r"^\s*[-*+][ \t]+(?:\[[ xX]\][ \t]+)?")
WRAP = 88  # a ledger line's width before it continues on an indented line


@dataclass(frozen=True)
class Backfilled:
    """One legacy fact and the footer it gets."""

    id: str
    section: str
    line: int  # 1-based line of the item's first line, before the backfill
    tier: str


@dataclass(frozen=True)
class BackfillPlan:
    root_label: str
    log: str  # the new session log, relative to the memory folder
    facts: tuple[Backfilled, ...]  # in file order; empty when there is nothing to do
    continuity: str  # continuity.md's new text
    log_text: str

    @property
    def writes(self) -> dict[str, str]:
        """relative path -> new text; nothing when there is nothing to backfill."""
        return {CONTINUITY: self.continuity, self.log: self.log_text} if self.facts else {}

    def as_dict(self) -> dict[str, object]:
        return {
            "log": f"{self.root_label}/{self.log}" if self.facts else None,
            "count": len(self.facts),
            "facts": [
                {"id": f.id, "section": f.section, "line": f.line, "tier": f.tier}
                for f in self.facts
            ],
        }


def utc_stamp() -> str:
    """Now, UTC, as a session log's name gives it: `YYYY-MM-DD-HHMMSS`."""
    return log_stem(utc_now(), None)


def backfill(root: Path, *, dry_run: bool = False, stamp: str | None = None) -> BackfillPlan:
    """Give every legacy fact of continuity.md a footer, created by one new session log.

    `stamp` (`YYYY-MM-DD-HHMMSS`, UTC) names the log; by default, now. With `dry_run`,
    or when there is nothing to do, nothing is written. An existing file is never
    overwritten.
    """
    root = Path(root).resolve()
    with locked(root):
        recover(root)
        plan = plan_backfill(load(root), stamp or utc_stamp())
        if dry_run or not plan.writes:
            return plan
        log = root / plan.log
        if log.exists() or log.is_symlink():
            raise WriteError(f"{plan.root_label}/{plan.log} exists already; run backfill again")
        write_files(root, plan.writes)
        return plan


def plan_backfill(memory: Memory, stamp: str) -> BackfillPlan:
    """The footers and the log a backfill at `stamp` (`YYYY-MM-DD-HHMMSS`, UTC) writes.

    Refuses, naming the place, when the new log would not be the newest of the ledger,
    or when an item cannot take a footer (a comment inside its text, secret material).
    """
    log = f"{SESSIONS}/{stamp}-{SLUG}.md"
    document = memory.continuity
    items = document.legacy_facts()
    if not items:
        return BackfillPlan(memory.label, log, (), document.file.text(), "")
    name = newest_log_name(memory, stamp, SLUG)
    _refuse_unsafe(document, items)
    taken = known_ids(memory)
    facts: list[Backfilled] = []
    edits: list[Edit] = []
    for item in items:
        fact_id = derive_id(item_text(document, item), taken)
        taken.add(fact_id)
        edit = _footer_edit(document, item, fact_id, name.date, name.stem)
        tier = born_footer(fact_id, item.section, name.date, name.stem)["tier"]
        facts.append(Backfilled(fact_id, item.section, item.start + 1, tier))
        edits.append(edit)
    lines = apply_edits(document.lines, edits, document.file.newline)
    after = document.file.with_lines(lines)
    _check(after, facts)
    return BackfillPlan(memory.label, log, tuple(facts), after.text(), log_text(facts))


def newest_log_name(memory: Memory, stamp: str, slug: str) -> SessionName:
    """The name of a log at `stamp` (`YYYY-MM-DD-HHMMSS`, UTC) that creates facts: refused,
    naming the newest log, unless it is the newest of the ledger (its date is the facts'
    `created`, and the review's clock must not run back)."""
    name = parse_session_name(f"{stamp}-{slug}.md", memory.display(f"{SESSIONS}/"))
    newest = memory.sessions[-1] if memory.sessions else None
    if newest is not None and newest.name >= name:
        raise MdmemError(
            f"this log is named for a time at or after now ({stamp} UTC), and a {slug} "
            "log must be the newest of the ledger: check the clock, or the log's name",
            newest.path,
        )
    return name


def item_text(document: Document, item: Item) -> str:
    """The item's words: its lines without the bullet, a checkbox or trailing notes."""
    lines = [body(line) for line in document.lines[item.start : _text_end(document, item)]]
    lines[0] = _MARKER.sub("", lines[0], count=1)
    return " ".join(line.strip() for line in lines if line.strip())  # as written: ids hash it


def _text_end(document: Document, item: Item) -> int:
    """Index after the item's text: whole-line comments at its end are notes, which follow
    the footer, as they follow any fact's footer."""
    end = item.end
    while end - 1 > item.start and is_note(body(document.lines[end - 1])):
        end -= 1
    return end


def _footer_edit(document: Document, item: Item, fact_id: str, date: str, origin: str) -> Edit:
    fields = born_footer(fact_id, item.section, date, origin)
    footer = new_footer(FOOTER_INDENT, fields).render()
    at = _text_end(document, item)
    lines = document.lines
    # A last line without an ending stays without one: the footer becomes that last line.
    last = at == len(lines) and not ending(lines[-1])
    return Edit(at, at, (footer if last else footer + document.file.newline,))


def _refuse_unsafe(document: Document, items: tuple[Item, ...]) -> None:
    """An item whose text holds `<!--` would hide text once it is a fact; one with secret
    material would put part of it in an id, and so in a log that is never edited."""
    for item in items:
        for index in range(item.start, _text_end(document, item)):
            if "<!--" in document.lines[index]:
                raise ParseError(
                    "this item's text holds '<!--', which would hide text once it is a fact; "
                    "reword it, then run backfill again",
                    document.path,
                    index + 1,
                )
    for item in items:
        harm = first_harm("".join(document.lines[item.start : item.end]))
        if harm is not None:
            error, then = (
                (SecretError, "remove it from memory, rotate it, run again")
                if harm.secret
                else (ParseError, "delete or reword it (see `mdmem lint`), run again")
            )
            what = f"{harm.detail} in an item backfill would make a fact; {then}"
            raise error(what, document.path, item.start + harm.line)


def known_ids(memory: Memory) -> set[str]:
    """Every id a new one must differ from: facts live, archived, forgotten and in the
    vision, and every id-shaped token of the ledger (which would count as a use)."""
    documents = (memory.continuity, *memory.archives, *([memory.vision] if memory.vision else []))
    known = {fact.id for document in documents for fact in document.facts}
    known.update(entry.fact_id for entry in memory.blocked)
    for session in memory.sessions:
        known.update(session.references)
    return known


def _check(file: TextFile, facts: list[Backfilled]) -> None:
    """The new text reads back with each new id a fact and no legacy fact left."""
    after = parse_document(file)
    ids = {fact.id for fact in after.facts}
    left = after.legacy_facts()
    if left or any(fact.id not in ids for fact in facts):
        line = left[0].start + 1 if left else None
        raise MdmemError(
            "backfill would leave an item without a footer; nothing written", file.path, line
        )


def log_text(facts: list[Backfilled]) -> str:
    """The session log that creates the backfilled facts."""
    count = "1 item" if len(facts) == 1 else f"{len(facts)} items"
    lines = [
        "# Session: footers for legacy facts",
        "",
        f"`mdmem backfill` gave a footer to {count} of `continuity.md` that had none",
        "(facts written before footers). This log creates them, so that from here on",
        "the ledger counts their use.",
        "",
        REFERENCES_HEADING,
    ]
    ids = [fact.id for fact in facts]
    return record("\n".join(lines) + "\n", "created", ids, width=WRAP).text
