"""`mdmem add`'s edge: reads what a new fact may meet, decides (`writing.add_plan`), and
writes the fact and its log line in one all-or-nothing write under the memory's lock.
It reads no session log but the current one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.format.memory import ARCHIVE, CONTINUITY
from mdmem.format.sessionlog import Event
from mdmem.format.textfile import decode
from mdmem.store.files import read_bytes
from mdmem.store.lock import locked
from mdmem.store.writer import write_files
from mdmem.writing.add_plan import Addition, Known, NewFact, Session, check_request, plan_add
from mdmem.writing.current import SessionLog, current_session
from mdmem.writing.gathered import gather
from mdmem.writing.session import log_events


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
        log = current_session(root, named, source)
        data = read_bytes(log.path, log.display)
        session = Session(log.stem, log.display, decode(data, log.display).text())
        memory = _known(root, log_events(data, log.display))
        addition = plan_add(request, memory, session)
        files = {} if addition.continuity is None else {CONTINUITY: addition.continuity}
        if addition.log_changed:
            files[log.relative] = addition.log
        if files:
            write_files(root, files)
    return Added(log, addition)


def _known(root: Path, events: tuple[Event, ...]) -> Known:
    """What the new fact is compared with: every fact and entry, the archive's too."""
    memory = gather(root, [], everything=True)
    folder = f"{root.name}/{ARCHIVE}/"
    archived = tuple(d for d in memory.documents if d.path.startswith(folder))
    blocked = tuple(memory.blocked.values())
    taken = frozenset(memory.taken())
    return Known(memory.continuity, memory.vision, archived, blocked, events, taken)
