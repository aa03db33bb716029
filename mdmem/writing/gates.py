"""The human gates' edge (SPEC §8, §9): supersede, restore, core, open and check off a thread.

Each command locks the memory, reads the current session log (`session.read_current`,
when it records an event) and the few documents `gathered.gather` needs, refuses before
it writes anything, and writes every file it changes in one all-or-nothing `write_files`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.errors import MdmemError
from mdmem.format.document import Fact
from mdmem.format.memory import CONTINUITY, OPEN_THREADS
from mdmem.format.sections import INVARIANTS_SECTION, OPEN_THREADS_SECTION, same_name
from mdmem.format.threads import thread_file_text, thread_relative
from mdmem.safety.harm import refuse_harm
from mdmem.store.lock import locked
from mdmem.store.writer import write_files
from mdmem.writing import conflicts, known
from mdmem.writing.facts import (
    AGENT_CORE,
    born_footer,
    check_line,
    check_scope_and_tags,
    checked_off,
    item_lines,
    reparsed,
    thread_lines,
    with_footers,
    with_item,
)
from mdmem.writing.gathered import Gathered, Place, check_shape, gather
from mdmem.writing.ids import derive_id
from mdmem.writing.known import ARCHIVED_BACK, NOTHING
from mdmem.writing.logs import SessionLog, current_or_none, many_sessions
from mdmem.writing.references import record, record_event
from mdmem.writing.session import read_current, read_log

Changes = Mapping[str, str | None]


@dataclass(frozen=True)
class Superseded:
    """What `supersede` did: OLD retired, NEW (None: invalidated) linked or created."""

    log: SessionLog
    old: str
    new: str | None
    created: str | None  # the section of the successor this command added
    linked: bool  # NEW's footer names OLD (False: it already named another fact it replaced)

    def as_dict(self) -> dict[str, Any]:
        fields = {"old": self.old, "new": self.new, "created": self.created is not None}
        return {**fields, "linked": self.linked, "session": self.log.stem, "log": self.log.display}


def supersede_usage(
    by: str | None, text: str | None, section: str | None, invalidate: bool, extra: bool = False
) -> str | None:
    """What is wrong with how a supersession was asked for (None: nothing): exactly one of
    a successor's id, a successor's text or invalidation; a section only for a text."""
    if [by is not None, text is not None, invalidate].count(True) != 1:
        return "give one of --by NEW-ID, --by-text TEXT, --invalidate"
    if section is not None and text is None:
        return "--section goes with --by-text"
    if extra and text is None:
        return "--scope and --tags go with --by-text"
    return None


def supersede(
    root: Path,
    old: str,
    by: str | None = None,
    text: str | None = None,
    section: str | None = None,
    named: str | None = None,
    source: str = "--session",
    *,
    core: bool = False,
    scope: str | None = None,
    tags: tuple[str, ...] | None = None,
    agent: bool = False,
) -> Superseded:
    """Mark OLD superseded by the live fact `by`, by a new fact of `text` (added in
    `section`, OLD's own by default, with OLD's `scope` and `tags` unless `scope` or `tags`
    are given), or, with neither, invalidated: a core OLD only with `core` (a person asked
    for it), and never for an `agent` (a tool's call)."""
    check_shape([old] if by is None else [old, by])
    check_scope_and_tags(scope, tags or ())
    if text is not None:
        check_line(text, "by_text" if agent else "--by-text")
    with locked(root):
        session = read_current(root, named, source)
        memory = gather(root, [old] if by is None else [old, by], everything=text is not None)
        place = memory.found(old)
        if agent and place.fact.is_core:
            raise MdmemError(AGENT_CORE.format(fact=old, where=place.display))
        if by is None and text is None:
            place.refuse_core(core, "invalidate")
        retired = memory.superseded(session.events)
        if old in retired:
            raise MdmemError(f"{old!r} is already {known.superseded_how(retired[old])}; {NOTHING}")
        edits: dict[str, list[tuple[Fact, Changes]]] = {}
        new, linked, home = by, text is not None, section or place.home
        if by is not None:
            linked = _link_successor(memory, place, by, retired, edits)
        elif text is not None:
            new = _successor_id(memory, place, text, home)
        old_marks = {"tier": "superseded", "superseded-by": new}
        edits.setdefault(place.relative, []).append((place.fact, old_marks))
        files = _edited(memory, edits)
        log_text = session.text
        if text is not None and new is not None:
            extra = {"supersedes": old, **_kept_fields(place.fact, scope, tags)}
            footer = born_footer(new, home, session.date, session.log.stem, extra)
            document = memory.continuity
            if CONTINUITY in files:  # OLD's footer changed there
                document = reparsed(document, files[CONTINUITY])
            files[CONTINUITY] = with_item(document, home, item_lines(text, footer))
            log_text = record(log_text, "created", [new], session.log.display).text
        files[session.log.relative] = record_event(
            log_text, "superseded", old, new, session.log.display
        ).text
        write_files(root, files)
    return Superseded(session.log, old, new, home if text is not None else None, linked)


def _kept_fields(old: Fact, scope: str | None, tags: tuple[str, ...] | None) -> dict[str, str]:
    """The successor's `scope` and `tags`: those given, else OLD's (what it applied to
    still holds unless a person says otherwise)."""
    kept = {"scope": old.get("scope"), "tags": old.get("tags")}
    if scope is not None:
        kept["scope"] = ",".join(part.strip() for part in scope.split(","))
    if tags is not None:
        kept["tags"] = ",".join(dict.fromkeys(tags)) or None
    return {key: value for key, value in kept.items() if value}


def _link_successor(
    memory: Gathered,
    old: Place,
    by: str,
    retired: Mapping[str, str | None],
    edits: dict[str, list[tuple[Fact, Changes]]],
) -> bool:
    """Refuse a successor that is not a live fact; link it (`supersedes: OLD`) unless its
    footer already names another fact it replaced. Whether it was linked."""
    if by == old.fact.id:
        raise MdmemError(f"{by!r} cannot supersede itself; {NOTHING}")
    successor = memory.found(by)
    if by in retired:
        how = known.superseded_how(retired[by])
        raise MdmemError(
            f"the successor {by!r} is {how}: it cannot replace {old.fact.id!r}; {NOTHING}"
        )
    if not successor.live:
        raise MdmemError(
            f"the successor {by!r} is archived ({successor.display}): cite it (`mdmem ref "
            f"{by}`) and review, so that it is live again, then supersede; {NOTHING}"
        )
    if successor.fact.get("supersedes") not in (None, ""):
        return False
    edits.setdefault(successor.relative, []).append((successor.fact, {"supersedes": old.fact.id}))
    return True


def _successor_id(memory: Gathered, old: Place, text: str, section: str) -> str:
    """The id of the new fact that replaces OLD, once its text passed `mdmem add`'s checks:
    no secret material, not near a blocked entry, not a superseded fact's text, not what a
    live fact other than OLD already says."""
    refuse_harm(text, NOTHING)
    entries = tuple(memory.blocked.values())
    for meeting in conflicts.meetings(text, section, memory.documents, entries):
        if meeting.fact_id == old.fact.id:
            continue  # the text that replaces OLD may well read like it
        if meeting.kind == conflicts.BLOCKED:
            raise MdmemError(f"the text is near {_blocked_entry(meeting)}; {NOTHING}")
        if meeting.kind == conflicts.SUPERSEDED:
            how = known.superseded_how(meeting.successor)
            raise MdmemError(f"the text is that of {meeting.fact_id!r}, {how}; {NOTHING}")
        if meeting.kind == conflicts.DUPLICATE:
            raise MdmemError(
                f"{meeting.fact_id!r} already says this: `mdmem supersede {old.fact.id} --by "
                f"{meeting.fact_id}`; {NOTHING}"
            )
    return derive_id(text, memory.taken())


def _edited(memory: Gathered, edits: Mapping[str, list[tuple[Fact, Changes]]]) -> dict[str, str]:
    """The new text of every document with footer changes."""
    files = {}
    for relative, changes in edits.items():
        place = memory.place(changes[0][0].id)
        assert place is not None and place.relative == relative
        files[relative] = with_footers(place.document, changes)
    return files


@dataclass(frozen=True)
class Restored:
    """What `restore` did: OLD's supersession undone, and where OLD is now."""

    log: SessionLog
    old: str
    place: Place  # an archived fact stays in the archive until the next review
    tier: str | None  # the tier its footer now gives (None: left as it was)
    unlinked: tuple[str, ...]  # successors whose `supersedes` no longer names it


def restore(root: Path, old: str, named: str | None = None, source: str = "--session") -> Restored:
    """Undo OLD's supersession (SPEC §8): a `Restored:` line, its `superseded-by` dropped,
    its tier `active` again (`core` under Architectural Invariants; the next review
    recomputes it), and `supersedes: OLD` dropped from its successors."""
    check_shape([old])
    with locked(root):
        session = read_current(root, named, source)
        memory = gather(root, [old])
        place = memory.found(old, superseded_near=True)
        if old not in memory.superseded(session.events):
            back = ARCHIVED_BACK.format(id=old)
            back = "" if place.live else f" (archived, {place.display}: {back})"
            raise MdmemError(
                f"{old!r} is not superseded{back}: there is nothing to restore; {NOTHING}"
            )
        marks: dict[str, str | None] = {"superseded-by": None}
        tier = None
        if place.fact.get("tier") == "superseded":
            tier = marks["tier"] = "core" if same_name(place.home, INVARIANTS_SECTION) else "active"
        edits: dict[str, list[tuple[Fact, Changes]]] = {place.relative: [(place.fact, marks)]}
        unlinked = _unlink_successors(memory, old, edits)
        files = _edited(memory, edits)
        files[session.log.relative] = record_event(
            session.text, "restored", old, None, session.log.display
        ).text
        write_files(root, files)
    return Restored(session.log, old, place, tier, unlinked)


def _unlink_successors(
    memory: Gathered, old: str, edits: dict[str, list[tuple[Fact, Changes]]]
) -> tuple[str, ...]:
    """Drop OLD from the `supersedes` of every fact read that names it."""
    unlinked = []
    cut = len(memory.root.name) + 1
    for document in memory.documents:
        for fact in document.facts:
            named = [i.strip() for i in (fact.get("supersedes") or "").split(",")]
            if old in named:
                rest = ", ".join(i for i in named if i and i != old) or None
                edits.setdefault(document.path[cut:], []).append((fact, {"supersedes": rest}))
                unlinked.append(fact.id)
    return tuple(unlinked)


@dataclass(frozen=True)
class Marked:
    """What `core` or `done` did to one fact (`changed` False: it was so already); `log`:
    the session log `done` recorded `Closed: ID` in (None: no session was open)."""

    place: Place
    changed: bool
    log: SessionLog | None = None


def make_core(root: Path, fact_id: str) -> Marked:
    """Set `tier: core` on a fact that is neither superseded nor blocked: a human's gate,
    which no review overwrites."""
    check_shape([fact_id])
    with locked(root):
        memory = gather(root, [fact_id])
        place = memory.found(fact_id)
        retired = memory.superseded()
        if fact_id in retired:
            how = known.superseded_how(retired[fact_id])
            raise MdmemError(f"{fact_id!r} is {how}: a false fact cannot be core; {NOTHING}")
        if place.fact.get("tier") == "core":
            return Marked(place, False)
        write_files(root, _edited(memory, {place.relative: [(place.fact, {"tier": "core"})]}))
    return Marked(place, True)


def close_thread(
    root: Path, fact_id: str, named: str | None = None, source: str = "--session"
) -> Marked:
    """Check off an open thread, in continuity or in its own thread file: its `[ ]` becomes
    `[x]`, nothing else; and `Closed: ID` in the current session's log, a use of the
    thread like any citation (DECAY.md). With no session open, the check alone (a person
    closing a thread between sessions); with several and none named, refused as every
    write that records is."""
    check_shape([fact_id])
    with locked(root):
        log, found = current_or_none(root, named, source)
        if log is None and found:
            raise MdmemError(many_sessions(found))
        session = None if log is None else read_log(log)
        memory = gather(root, [fact_id])
        place = memory.found(fact_id)
        if place.fact.is_done_thread:
            raise MdmemError(f"{fact_id!r} is checked off already ({place.display}); {NOTHING}")
        if not place.live or not place.fact.is_open_thread:
            raise MdmemError(
                f"{fact_id!r} is not an open thread ({place.display}): only a `- [ ]` item "
                f"of {CONTINUITY} or a thread file is checked off; {NOTHING}"
            )
        files = {place.relative: checked_off(place.document, place.fact)}
        if session is not None:
            closed = record(session.text, "closed", [fact_id], session.log.display)
            files[session.log.relative] = closed.text
        write_files(root, files)
    return Marked(place, True, None if session is None else session.log)


@dataclass(frozen=True)
class Opened:
    """What `thread` did: the thread it opened, or the open one that says the same."""

    log: SessionLog | None
    thread_id: str
    created: bool
    file: str | None = None  # the thread file written, in the protocol's v4.39 layout

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.thread_id, "created": self.created, "file": self.file}


def open_thread(
    root: Path, text: str, named: str | None = None, source: str = "--session"
) -> Opened:
    """Open `- [ ] TEXT` at the end of `## Open Threads`, or in a file of its own,
    `open-threads/thread-<id>.md`, when the memory keeps its threads so; born in the
    current session (id derived from the text) and recorded `Created`. Refused: secret
    material, text near a blocked entry. An open thread that says the same is named,
    nothing written."""
    check_line(text, "the text")
    refuse_harm(text, NOTHING)
    with locked(root):
        session = read_current(root, named, source)
        memory = gather(root, [], everything=True)
        entries = tuple(memory.blocked.values())
        for meeting in conflicts.meetings(text, OPEN_THREADS_SECTION, memory.documents, entries):
            place = memory.place(meeting.fact_id)
            if meeting.kind == conflicts.BLOCKED and meeting.entry is not None:
                raise MdmemError(f"the text is near {_blocked_entry(meeting)}; {NOTHING}")
            if meeting.kind == conflicts.DUPLICATE and place and place.fact.is_open_thread:
                return Opened(None, meeting.fact_id, False)
        thread_id = derive_id(text, memory.taken())
        lines = thread_lines(text, thread_id, session.date, session.log.stem)
        log_text = record(session.text, "created", [thread_id], session.log.display).text
        files = {session.log.relative: log_text}
        if layout := (root / OPEN_THREADS).is_dir():  # the memory keeps its threads so
            files[thread_relative(thread_id)] = thread_file_text(lines, "\n")
        else:
            files[CONTINUITY] = with_item(memory.continuity, OPEN_THREADS_SECTION, lines)
        write_files(root, files)
    written = thread_relative(thread_id) if layout else None
    return Opened(session.log, thread_id, True, written)


def _blocked_entry(meeting: conflicts.Meeting) -> str:
    entry = meeting.entry
    assert entry is not None
    return (
        f"the blocked entry {entry.fact_id!r} ({entry.path}:{entry.line}, forgotten "
        f"{entry.blocked}: {entry.reason})"
    )
