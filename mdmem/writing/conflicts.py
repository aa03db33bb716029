"""What a new fact's text meets before it is written (SPEC §8, §9): a fact that already
says it, a superseded fact it would bring back, a blocked entry, a live fact it
contradicts, or secret material. Pure: the facts come in as parsed documents.

Texts are compared as `format.words` reads them (normalised content words and a
polarity), with the one nearness rule (`safety.blocklist`): the same rule keeps a
forgotten text out, finds a duplicate, a superseded text coming back and a contradiction,
whatever the rewording.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.sections import same_name
from mdmem.format.words import Claim, claim, item_claim, needles, shared_words
from mdmem.safety.blocklist import (
    SUPERSEDED_KEPT_PERCENT,
    blocking,
    blocklist,
    crosses,
    least_shared,
    near,
)
from mdmem.writing import known


@dataclass(frozen=True)
class Meeting:
    """What a new text meets: `kind` is one of the KINDS, `fact_id` the fact or entry."""

    kind: str
    fact_id: str
    successor: str | None = None  # for "superseded": the fact that replaced it
    core: bool = False  # for "contradiction": the live fact is core
    entry: BlockedEntry | None = None  # for "blocked"


DUPLICATE = "duplicate"
ARCHIVED = "archived"  # an archived fact that says the same: faded, not false
SUPERSEDED = "superseded"
BLOCKED = "blocked"
CONTRADICTION = "contradiction"
KINDS = (BLOCKED, SUPERSEDED, DUPLICATE, ARCHIVED, CONTRADICTION)


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


def said_again(documents: Iterable[Document], fact_id: str, text: str) -> bool:
    """Whether the fact's first line is `text` word for word, case and spacing aside."""
    found = known.find(documents, fact_id)
    first = "" if found is None else found[0].lines[found[1].start].lstrip()[1:]  # no bullet
    return bool(first) and " ".join(first.split()).lower() == " ".join(text.split()).lower()


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
    if fact.get("tier") == "archived":  # faded, not false: a session that cites it brings it back
        return Meeting(ARCHIVED, fact.id) if near(new, old) else None
    if near(new, old) or (new.negative and crosses(new, old)):
        return Meeting(DUPLICATE, fact.id)
    core = fact.is_core
    if (core or same_name(fact.section, section)) and _opposed(new, flipped, old):
        return Meeting(CONTRADICTION, fact.id, core=core)
    return None
