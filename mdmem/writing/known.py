"""What a write meets in what memory already holds (SPEC §8, §9), and the refusals, each a
sentence that says what to do instead. Pure: the facts come in as parsed documents.

Which ids a session may cite: live or archived facts, not superseded ones, not blocked
ones. What a new text meets: a fact that already says it, a superseded fact it would
bring back, a blocked entry, a live fact it contradicts. Texts are compared as
`format.words` reads them (normalised content words and a polarity), with the one
nearness rule (`safety.blocklist`): the same rule keeps a forgotten text out, finds a
duplicate, a superseded text coming back and a contradiction, whatever the rewording.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.sessionlog import Event
from mdmem.format.words import Claim, claim, item_claim, needles, shared_words
from mdmem.linting.nearest import Nearest
from mdmem.safety.blocklist import (
    SUPERSEDED_KEPT_PERCENT,
    blocking,
    blocklist,
    crosses,
    least_shared,
    near,
)

NEAREST_SHOWN = 3  # known ids a refusal of an unknown one suggests
INVALIDATED = None  # a superseded fact with no successor


def ids_in(documents: Iterable[Document]) -> set[str]:
    return {fact.id for document in documents for fact in document.facts}


def find(documents: Iterable[Document], fact_id: str) -> tuple[Document, Fact] | None:
    """The first fact with this id, and its document."""
    return next(((d, fact) for d in documents for fact in d.facts if fact.id == fact_id), None)


def supersessions(documents: Iterable[Document]) -> dict[str, str | None]:
    """id -> the id that replaced it (None: invalidated), for every fact these documents
    mark superseded: `tier: superseded` or `superseded-by` on it, or `supersedes` on its
    successor."""
    found: dict[str, str | None] = {}
    for document in documents:
        for fact in document.facts:
            successor = fact.get("superseded-by") or None
            if successor is not None or fact.get("tier") == "superseded":
                _mark(found, fact.id, successor)
            for old in (fact.get("supersedes") or "").split(","):
                if old.strip():
                    _mark(found, old.strip(), fact.id)
    return found


def _mark(found: dict[str, str | None], fact_id: str, successor: str | None) -> None:
    """A successor named once is kept: a footer without one does not erase it."""
    if found.get(fact_id) is None:
        found[fact_id] = successor


def after_events(
    superseded: Mapping[str, str | None], events: Sequence[Event]
) -> dict[str, str | None]:
    """The supersessions once a log's own `Superseded:` and `Restored:` lines apply, in
    order: the ledger is authoritative before the review has updated the footers."""
    state = dict(superseded)
    for event in events:
        if event.kind == "superseded":
            state[event.ids[0]] = event.new_id
        elif event.kind == "restored":
            for fact_id in event.ids:
                state.pop(fact_id, None)
    return state


def superseded_how(successor: str | None) -> str:
    """`superseded by 'NEW'`, or `superseded (invalidated)`."""
    return f"superseded by {successor!r}" if successor else "superseded (invalidated)"


def superseded_refusal(fact_id: str, successor: str | None) -> str:
    if successor is INVALIDATED:
        return f"{fact_id!r} is superseded (invalidated, no successor): it no longer holds"
    return f"{fact_id!r} is superseded by {successor!r}: cite {successor} instead"


def blocked_refusal(entry: BlockedEntry) -> str:
    return (
        f"{entry.fact_id!r} is blocked ({entry.path}:{entry.line}, forgotten {entry.blocked}: "
        f"{entry.reason}): it must not come back"
    )


def unknown_refusal(fact_id: str, known: Iterable[str], superseded: Iterable[str] = ()) -> str:
    """An unknown id refused, with the known ids nearest it; `superseded` ids are offered
    too, marked, where a command takes them (`restore`, say)."""
    retired = set(superseded)
    nearest = Nearest([*known, *retired]).ranked(fact_id, NEAREST_SHOWN)
    where = "no fact in continuity, the archive or vision has it"
    if not nearest:
        return f"unknown id {fact_id!r}: {where}, and no known id is near it"
    shown = [f"{near} (superseded)" if near in retired else near for near in nearest]
    return f"unknown id {fact_id!r}: {where}; nearest known: {', '.join(shown)}"


@dataclass(frozen=True)
class Meeting:
    """What a new text meets: `kind` is one of the KINDS, `fact_id` the fact or entry."""

    kind: str
    fact_id: str
    successor: str | None = None  # for "superseded": the fact that replaced it
    core: bool = False  # for "contradiction": the live fact is core
    entry: BlockedEntry | None = None  # for "blocked"


DUPLICATE = "duplicate"
SUPERSEDED = "superseded"
BLOCKED = "blocked"
CONTRADICTION = "contradiction"
KINDS = (BLOCKED, SUPERSEDED, DUPLICATE, CONTRADICTION)


def meetings(
    text: str,
    section: str,
    documents: Iterable[Document],
    entries: tuple[BlockedEntry, ...],
    claimed: Claim | None = None,
) -> tuple[Meeting, ...]:
    """Everything `text`, about to be added under `section`, meets, most serious first:
    a blocked entry; superseded facts it would bring back; a live fact that says the same
    (a duplicate); live facts of `section`, or core facts, that say the opposite.
    `claimed` is the text's claim when the caller reads it otherwise (an item's own text,
    its nested notes left out, as `item_claim` reads a fact)."""
    new = claim(text) if claimed is None else claimed
    wanted, least = needles(new), least_shared(len(new.words))
    found: list[Meeting] = []
    entry = blocking(new, blocklist(entries))
    if entry is not None:
        found.append(Meeting(BLOCKED, entry.fact_id, entry=entry))
    flipped = replace(new, negative=not new.negative)
    for document in documents:
        for fact in document.facts:
            lines = document.lines[fact.start : fact.footer_index]
            if fact.is_done_thread or shared_words("".join(lines), wanted) < least:
                continue  # too few words of the new text to be near it: no claim needed
            old = item_claim(lines)
            meeting = _meeting(fact, old, new, flipped, section)
            if meeting is not None:
                found.append(meeting)
    order = {kind: rank for rank, kind in enumerate(KINDS)}
    return tuple(sorted(found, key=lambda m: (order[m.kind], m.fact_id)))


def _opposed(new: Claim, flipped: Claim, old: Claim) -> bool:
    """Whether two claims say opposite things: near with the polarity of one turned, either
    way round (the shorter may be the new one: "API handlers never return JSON errors"
    against "All API handlers return JSON errors with a code field"), or, both positive,
    one crossing the other's contrast."""
    turned = replace(old, negative=not old.negative)
    if near(flipped, old) or near(turned, new):
        return True
    return not (new.negative or old.negative) and (crosses(new, old) or crosses(old, new))


def _meeting(fact: Fact, old: Claim, new: Claim, flipped: Claim, section: str) -> Meeting | None:
    if fact.is_superseded:
        if near(new, old, kept=SUPERSEDED_KEPT_PERCENT):
            return Meeting(SUPERSEDED, fact.id, successor=fact.get("superseded-by"))
        return None
    if fact.get("tier") == "archived":
        return None  # faded, not false: citing it brings it back, adding it again is new
    if near(new, old) or (new.negative and crosses(new, old)):
        return Meeting(DUPLICATE, fact.id)
    core = fact.is_core
    if (core or fact.section == section) and _opposed(new, flipped, old):
        return Meeting(CONTRADICTION, fact.id, core=core)
    return None
