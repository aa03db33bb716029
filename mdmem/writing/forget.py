"""`forget` and `blocked` (SPEC §9): a fact moved for good to `blocked.md`, and the
tombstones listed.

A forgotten fact leaves continuity (or the archive, and its line of `INDEX.md`) and
becomes an entry of `blocked.md` with its text, its notes, the day (the current
session's) and the reason, in one all-or-nothing write with the session log's
`Forgotten:` line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mdmem.errors import MdmemError
from mdmem.format.blocked import BlockedEntry, parse_blocked
from mdmem.format.memory import ARCHIVE, BLOCKED, INDEX
from mdmem.safety.harm import first_harm, refuse_harm
from mdmem.safety.secrets import redact
from mdmem.store.load import read_optional
from mdmem.store.lock import locked
from mdmem.store.writer import write_files
from mdmem.writing import conflicts
from mdmem.writing.facts import (
    check_reason,
    index_without,
    item_lines,
    tombstone_lines,
    with_tombstone,
    without_fact,
)
from mdmem.writing.gathered import Place, check_shape, gather
from mdmem.writing.ids import derive_id
from mdmem.writing.known import NOTHING
from mdmem.writing.logs import Current, SessionLog
from mdmem.writing.references import record_event
from mdmem.writing.session import read_current


@dataclass(frozen=True)
class Forgotten:
    """What `forget` did: the fact that left `place` is blocked since `date`."""

    log: SessionLog
    fact_id: str
    place: Place | None  # where it was; None for a text that was never in memory
    date: str
    reason: str
    blocked: str  # blocked.md, as the user sees the path
    replaced: tuple[str, ...] = ()  # the facts it had superseded: they stay superseded


def forget(
    root: Path,
    fact_id: str,
    reason: str,
    named: str | None = None,
    source: str = "--session",
    *,
    core: bool = False,
) -> Forgotten:
    """Move the fact to `blocked.md` for good (the file made when missing) and record
    `Forgotten: ID` in the current session log; a core fact only with `core` (a person
    asked for it)."""
    check_shape([fact_id])
    why = check_reason(reason)
    refuse_harm(why, NOTHING)
    with locked(root):
        session = read_current(root, named, source)
        memory = gather(root, [fact_id])
        if fact_id in memory.blocked:
            entry = memory.blocked[fact_id]
            raise MdmemError(
                f"{fact_id!r} is forgotten already ({entry.path}:{entry.line}, "
                f"{entry.blocked}: {entry.reason}); {NOTHING}"
            )
        place = memory.found(fact_id)
        place.refuse_core(core, "forget")
        _refuse_harmful_text(place)
        entry_lines = tombstone_lines(place.document, place.fact, session.date, why)
        files: dict[str, str | None] = {
            place.relative: without_fact(place.document, place.fact),
            **_blocking(root, session, fact_id, entry_lines),
        }
        index = read_optional(root, f"{ARCHIVE}/{INDEX}") if not place.live else None
        if index is not None and (text := index_without(index, fact_id)) is not None:
            files[f"{ARCHIVE}/{INDEX}"] = text
        write_files(root, files)
    replaced = tuple((place.fact.get("supersedes") or "").replace(",", " ").split())
    label = f"{root.name}/{BLOCKED}"
    return Forgotten(session.log, fact_id, place, session.date, why, label, replaced)


def forget_text(
    root: Path,
    text: str,
    reason: str,
    fact_id: str | None = None,
    named: str | None = None,
    source: str = "--session",
) -> Forgotten:
    """Block a rule that was never in memory (so that no one adds it first to forget it):
    an entry of `blocked.md` with `text`, its id (`fact_id`, else derived from the text),
    the session's date and the reason, and `Forgotten: ID` in the current session log.
    Refused: harmful text, an id memory holds, text a live fact or an entry says already
    (forget that fact by its id)."""
    why = check_reason(reason)
    refuse_harm(f"{text}\n{why}", NOTHING)
    if fact_id is not None:
        check_shape([fact_id])
    with locked(root):
        session = read_current(root, named, source)
        memory = gather(root, [], everything=True)
        if fact_id is not None and fact_id in memory.taken():
            raise MdmemError(
                f"{fact_id!r} names a fact already: `mdmem forget {fact_id}`; {NOTHING}"
            )
        entries = tuple(memory.blocked.values())
        for meeting in conflicts.meetings(text, "", memory.documents, entries):
            if meeting.kind in (conflicts.BLOCKED, conflicts.DUPLICATE):
                place = memory.place(meeting.fact_id)
                where = "" if place is None else f" ({place.display})"
                raise MdmemError(
                    f"the text is {meeting.fact_id!r}'s{where}: forget it by its id, "
                    f"`mdmem forget {meeting.fact_id} --reason WHY`; {NOTHING}"
                )
        fact_id = fact_id or derive_id(text, memory.taken())
        fields = {"id": fact_id, "blocked": session.date, "reason": why}
        write_files(root, _blocking(root, session, fact_id, item_lines(text, fields)))
    return Forgotten(session.log, fact_id, None, session.date, why, f"{root.name}/{BLOCKED}")


def _blocking(root: Path, session: Current, fact_id: str, lines: list[str]) -> dict[str, str]:
    """`blocked.md` with the entry `lines` appended, and the log with its `Forgotten:` line."""
    blocked = with_tombstone(read_optional(root, BLOCKED), f"{root.name}/{BLOCKED}", lines)
    log = record_event(session.text, "forgotten", fact_id, None, session.log.display).text
    return {BLOCKED: blocked, session.log.relative: log}


def _refuse_harmful_text(place: Place) -> None:
    """A tombstone keeps the text for good, in plain view: text with a secret, or text that
    poisons (which lint would then report in `blocked.md` for good), is deleted by hand."""
    lines = (*place.document.fact_text(place.fact), *place.document.fact_notes(place.fact))
    harm = first_harm("".join(lines))
    if harm is None:
        return
    then = " and rotate the secret" if harm.secret else ""
    raise MdmemError(
        f"{place.fact.id!r} holds {harm.detail} that a tombstone would keep for good: "
        f"delete it by hand ({place.display}){then}; {NOTHING}"
    )


@dataclass(frozen=True)
class Tombstone:
    """One entry of `blocked.md`, as `mdmem blocked` shows it."""

    fact_id: str
    blocked: str
    reason: str
    summary: str  # the text's first line, secrets masked
    where: str  # path:line


def tombstones(root: Path) -> tuple[Tombstone, ...]:
    """The entries of `blocked.md` in file order (none when it does not exist)."""
    file = read_optional(root, BLOCKED)
    entries: tuple[BlockedEntry, ...] = () if file is None else parse_blocked(file)
    return tuple(
        Tombstone(
            entry.fact_id,
            entry.blocked,
            redact(entry.reason),
            redact(_first_line(entry.text)),
            f"{entry.path}:{entry.line}",
        )
        for entry in entries
    )


def _first_line(lines: tuple[str, ...]) -> str:
    """An item's first line as written, without its marker (`- `, `- [ ] `)."""
    first = lines[0].strip() if lines else ""
    marker, _, rest = first.partition(" ")
    if rest.startswith(("[ ] ", "[x] ", "[X] ")):
        rest = rest[4:]
    return rest.strip() if marker in ("-", "*", "+") else first
