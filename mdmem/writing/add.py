"""`mdmem add`'s edge: reads what a new fact may meet, decides (`writing.add_plan`), and
writes the fact and its log line in one all-or-nothing write under the memory's lock.

It reads no session log but the current one, and never parses the archive whole (it
grows by every review): the archive's bytes are searched for an id only when one is
about to be given, and only its superseded facts are cut out and parsed (`archived`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.format.blocked import parse_blocked
from mdmem.format.document import parse_document
from mdmem.format.memory import ARCHIVE, BLOCKED, CONTINUITY, VISION
from mdmem.format.sessionlog import Event
from mdmem.format.textfile import decode
from mdmem.format.vision import parse_vision
from mdmem.format.words import Claim, claim, needles
from mdmem.safety.blocklist import least_shared
from mdmem.store.files import archive_paths, read, read_bytes, thread_documents
from mdmem.store.load import read_optional
from mdmem.store.lock import locked
from mdmem.store.writer import write_files
from mdmem.writing import archived, known
from mdmem.writing.add_plan import Addition, Known, NewFact, Session, check_request, plan_add
from mdmem.writing.current import SessionLog, current_session
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
        memory = _known(root, log_events(data, log.display), claim(request.text))
        addition = plan_add(request, memory, session)
        files = {} if addition.continuity is None else {CONTINUITY: addition.continuity}
        if addition.log_changed:
            files[log.relative] = addition.log
        if files:
            write_files(root, files)
    return Added(log, addition)


def _known(root: Path, events: tuple[Event, ...], new: Claim) -> Known:
    """What the new fact (its claim `new`) is compared with; of the archive, only the
    superseded facts that may share enough of its words to be near it."""
    continuity = parse_document(
        read(root / CONTINUITY, f"{root.name}/{CONTINUITY}"), unique_ids=False
    )
    vision_file = read_optional(root, VISION)
    vision = None if vision_file is None else parse_vision(vision_file)
    blocked_file = read_optional(root, BLOCKED)
    blocked = () if blocked_file is None else parse_blocked(blocked_file)
    shown = [f"{root.name}/{ARCHIVE}/{path.name}" for path in archive_paths(root)]
    archive = [(read_bytes(root / ARCHIVE / name.rpartition("/")[2], name), name) for name in shown]
    wanted, least = needles(new), least_shared(len(new.words))
    cut = [archived.superseded_facts(data, shown, wanted, least) for data, shown in archive]
    documents = [continuity, *thread_documents(root), *([] if vision is None else [vision])]
    ids = known.ids_in(documents) | {entry.fact_id for entry in blocked}
    taken = _Taken(frozenset(ids), [data for data, _ in archive])
    retired = tuple(document for document in cut if document is not None)
    return Known(continuity, vision, retired, blocked, events, taken)


class _Taken:
    """Ids taken: those of the documents read, then any a footer of the archive holds
    (searched in its bytes, one id at a time)."""

    def __init__(self, ids: frozenset[str], archive: Sequence[bytes]) -> None:
        self.ids = ids
        self.archive = archive

    def __contains__(self, fact_id: object) -> bool:
        if not isinstance(fact_id, str):
            return False
        return fact_id in self.ids or any(archived.holds_id(d, fact_id) for d in self.archive)
