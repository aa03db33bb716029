"""The facts a write command reads, and where each one is: never a session log but the
current one. Continuity and the thread files (`open-threads/`) always; `blocked.md`
always (a small file); for an id those lack, vision, then the archive files `INDEX.md`
names, then every archive file if need be. A command that must know every id (to derive
a new one, to compare a new text with every fact) reads the whole archive. `ref` checks
its ids here, and the gates find theirs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mdmem.errors import MdmemError
from mdmem.format.blocked import BlockedEntry, parse_blocked
from mdmem.format.document import Document, Fact, parse_document
from mdmem.format.footer import ID_RE
from mdmem.format.memory import ARCHIVE, BLOCKED, CONTINUITY, INDEX, VISION
from mdmem.format.sessionlog import Event
from mdmem.format.threads import is_thread_path
from mdmem.format.vision import parse_vision
from mdmem.store.files import archive_paths, read, thread_documents
from mdmem.store.load import read_optional
from mdmem.writing import known
from mdmem.writing.known import NOTHING

ID_RULE = "lowercase words joined by hyphens, two or more: post-only-mutations"


@dataclass(frozen=True)
class Place:
    """One fact and the file that holds it (`relative` to the memory folder)."""

    relative: str
    document: Document
    fact: Fact

    @property
    def display(self) -> str:
        """`path:line` of the fact's first line, as the user sees the path."""
        return f"{self.document.path}:{self.fact.line}"

    @property
    def live(self) -> bool:
        return self.relative == CONTINUITY or is_thread_path(self.relative)

    def refuse_core(self, confirmed: bool, doing: str) -> None:
        """Refuse to remove a core fact unless `confirmed` (SPEC §1: a person sets core, so
        a person takes it away); `doing`: the command's verb, for the message."""
        if self.fact.is_core and not confirmed:
            raise MdmemError(
                f"{self.fact.id!r} is a core fact ({self.display}), set by a person: {doing} it "
                f"only when a person asked for it, and say so with --core; {NOTHING}"
            )

    @property
    def home(self) -> str:
        """The continuity section the fact belongs to (an archived fact's `section`)."""
        return self.fact.section if self.live else self.fact.get("section") or self.fact.section


@dataclass(frozen=True)
class Gathered:
    """What a gate command read: continuity first, then the archive files it needed."""

    root: Path
    documents: tuple[Document, ...]  # continuity, the thread files, the archive files read
    blocked: dict[str, BlockedEntry]
    vision: Document | None

    @property
    def continuity(self) -> Document:
        return self.documents[0]

    @property
    def read(self) -> tuple[Document, ...]:
        """Every document read: continuity, the thread files, the archive files, vision."""
        return self.documents if self.vision is None else (*self.documents, self.vision)

    def place(self, fact_id: str) -> Place | None:
        """Where the fact is: its first copy, continuity before the archive."""
        found = known.find(self.documents, fact_id)
        return None if found is None else Place(found[0].path[len(self.root.name) + 1 :], *found)

    def superseded(self, events: Sequence[Event] = ()) -> dict[str, str | None]:
        """id -> successor (None: invalidated) by the footers read, then the current log's
        own `Superseded:`/`Restored:` lines."""
        return known.after_events(known.supersessions(self.read), events)

    def taken(self) -> set[str]:
        """Every id a new fact must not take (after `gather(..., everything=True)`)."""
        return known.ids_in(self.read) | set(self.blocked)

    def found(self, fact_id: str, *, superseded_near: bool = False) -> Place:
        """The fact's place; refused (blocked, a vision target, unknown) when it has none,
        naming the nearest live ids (and superseded ones, for a command that takes them)."""
        place = self.place(fact_id)
        if place is not None:
            return place
        if fact_id in self.blocked:
            raise MdmemError(f"{known.blocked_refusal(self.blocked[fact_id])}; {NOTHING}")
        if self.vision is not None and fact_id in known.ids_in([self.vision]):
            raise MdmemError(f"{fact_id!r} is a vision target: change {VISION} by hand; {NOTHING}")
        live, retired = known.ids_in(self.read), set(self.superseded())
        offered = retired & live if superseded_near else set()
        refusal = known.unknown_refusal(fact_id, live - retired, offered)
        raise MdmemError(f"{refusal}; {NOTHING}")

    def refuse_citations(self, ids: Sequence[str], events: Sequence[Event]) -> None:
        """Refuse, naming every problem at once, ids a session may not cite: blocked,
        superseded (the current log's own lines applied), or held by no fact read."""
        held, superseded = known.ids_in(self.read), self.superseded(events)
        problems = []
        for fact_id in dict.fromkeys(ids):
            if fact_id in self.blocked:
                problems.append(known.blocked_refusal(self.blocked[fact_id]))
            elif fact_id in superseded:
                problems.append(known.superseded_refusal(fact_id, superseded[fact_id]))
            elif fact_id not in held:
                problems.append(known.unknown_refusal(fact_id, held - set(superseded)))
        if len(problems) == 1:
            raise MdmemError(f"{problems[0]}; {NOTHING}")
        if problems:
            raise MdmemError("\n  ".join([f"{NOTHING}:", *problems]))


def check_shape(ids: Iterable[str]) -> None:
    for token in ids:
        if not ID_RE.match(token):
            apart = "; a comma is no part of an id" if "," in token else ""
            raise MdmemError(f"{token!r} is not an id ({ID_RULE}){apart}")


def gather(root: Path, ids: Sequence[str], *, everything: bool = False) -> Gathered:
    """The documents that hold `ids` (all of continuity and the archive with `everything`),
    `blocked.md`'s entries, and vision when an id is missing from continuity (or with
    `everything`). Cheapest first: continuity, vision, the archive files INDEX.md names,
    and every archive file last, each only while an id (not a blocked one) is missing."""
    continuity = parse_document(
        read(root / CONTINUITY, f"{root.name}/{CONTINUITY}"), unique_ids=False
    )
    file = read_optional(root, BLOCKED)
    blocked = {} if file is None else {entry.fact_id: entry for entry in parse_blocked(file)}
    documents = [continuity, *thread_documents(root)]
    missing = set(ids) - known.ids_in(documents) - set(blocked)
    vision: Document | None = None
    if everything or missing:
        file = read_optional(root, VISION)
        vision = None if file is None else parse_vision(file)
        missing -= known.ids_in([] if vision is None else [vision])
    if everything:
        documents += archive_documents(root, archive_paths(root))
    elif missing:
        named, paths = indexed_files(root, missing), archive_paths(root)
        documents += archive_documents(root, [p for p in paths if p.name in named])
        if missing - known.ids_in(documents):  # an index a review has not refreshed yet
            documents += archive_documents(root, [p for p in paths if p.name not in named])
    return Gathered(root, tuple(documents), blocked, vision)


def indexed_files(root: Path, ids: set[str]) -> set[str]:
    """The archive files INDEX.md names for these ids (`- ID — summary — reason — FILE`)."""
    index = read_optional(root, f"{ARCHIVE}/{INDEX}")
    files = set()
    for line in () if index is None else index.lines:
        fact_id = line[2:].partition(" ")[0] if line.startswith("- ") else ""
        if fact_id in ids:
            files.add(line.rstrip().rpartition(" — ")[2])
    return files


def archive_documents(root: Path, paths: list[Path]) -> list[Document]:
    label = f"{root.name}/{ARCHIVE}"
    return [parse_document(read(p, f"{label}/{p.name}"), unique_ids=False) for p in paths]
