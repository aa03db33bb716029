"""Which ids a session may cite: live or archived facts, not superseded ones, not blocked ones.

Pure: it takes the parsed documents a command read (continuity always; vision and the
archive only when an id was not found before them) and answers with the refusals, each
a sentence that says what to do instead, ending as every refusal of the write path ends
(`NOTHING`). Kept apart from what a new text meets (`conflicts`), whose word rules `ref`
never loads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.sessionlog import Event
from mdmem.linting.nearest import Nearest

NOTHING = "nothing written"  # how every refusal of the write path ends
NEAREST_SHOWN = 3  # known ids a refusal of an unknown one suggests
INVALIDATED = None  # a superseded fact with no successor
# How an archived fact comes back: a use, not a second copy (`{id}`: its id).
BROUGHT_BACK = (  # an archived fact said again (`mdmem add`)
    "it is archived (faded, not false): cited Reactivated, the next review brings it back "
    "to ## {section}"
)
ARCHIVED_BACK = (
    "faded, not false: a session that cites it (`mdmem ref --reactivated {id}`) brings it "
    "back at the next review"
)


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
