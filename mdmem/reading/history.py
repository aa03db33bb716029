"""A fact's history for `mdmem show`: where it lives, where it came from, who used it,
what replaced it, and the tier the ledger gave it at any earlier point (`--as-of`).

The past tier is the review's own decision (`mdmem.reviewing.decide`) over the ledger
cut at that point: valid time from the fact's footer, record time from the session
logs. What the ledger cannot tell is read from the footer, as the review reads it; a
footer value written after the point (a later `last_used`, a supersession a later log
recorded) is left out, so that the past is not coloured by what came after.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.errors import MdmemError
from mdmem.format.document import Document, Fact
from mdmem.format.footer import DATE_RE, valid_date
from mdmem.format.memory import OPEN_THREADS, Memory
from mdmem.format.policy import Policy
from mdmem.format.sessionlog import Session, SessionName, session_stem, slugged
from mdmem.reading.entries import Entry
from mdmem.reviewing.archive import GONE_TIERS
from mdmem.reviewing.decide import decide_copies, link_changes
from mdmem.reviewing.ledger import build_ledger
from mdmem.reviewing.maturity import maturity


@dataclass(frozen=True)
class Reference:
    session: str  # the log's stem
    path: str
    line: int


@dataclass(frozen=True)
class Shown:
    """What `mdmem show` prints about one fact."""

    fact_id: str
    copies: tuple[Entry, ...]  # where it lives: continuity first, then the archive by name
    origin: str | None
    references: tuple[Reference, ...]  # newest first
    predecessors: tuple[str, ...]  # the facts it replaced, nearest first
    successors: tuple[str, ...]  # what replaced it, nearest first
    helpful: int
    harmful: int
    as_of: AsOf | None = None
    forgotten: frozenset[str] = frozenset()  # of the ids named here, those forgotten since

    @property
    def maturity(self) -> str:
        return maturity(self.helpful, self.harmful)


@dataclass(frozen=True)
class AsOf:
    """The tier the ledger gave the fact through `session`; None: it did not exist yet."""

    asked: str
    session: str
    tier: str | None


def cut_index(names: Sequence[SessionName], asked: str) -> int:
    """How many sessions the ledger holds at the point `asked` names: a session log (its
    stem, file name or path) or a date (every log of that day included)."""
    if DATE_RE.match(asked):
        if not valid_date(asked):
            raise MdmemError(f"--as-of {asked}: no such date; give one like 2026-03-01")
        return bisect_right([name.date for name in names], asked)
    stem = session_stem(asked)
    stems = [name.stem for name in names]
    named = [stem] if stem in stems else slugged(stem, stems)
    if len(named) == 1:  # a log's time without its slug names it too
        return stems.index(named[0]) + 1
    if named:
        logs = ", ".join(named)
        raise MdmemError(f"--as-of {asked!r} names {len(named)} session logs: {logs}; give one")
    raise MdmemError(f"--as-of {asked!r} is neither a date (YYYY-MM-DD) nor a session log here")


def chains(
    fact_id: str,
    footer_links: Iterable[tuple[str, str, str]],
    ledger_links: Mapping[str, str | None],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the facts `fact_id` replaced, nearest first; what replaced it, nearest first), from
    the footers' links (`footer_links`: id, superseded-by, supersedes; "" for none) and
    the ledger's own events (`ledger_links`: old id -> new id, None once restored or
    invalidated), which win."""
    successor: dict[str, str] = {}
    for linked_id, by, old in footer_links:
        if by:
            successor.setdefault(linked_id, by)
        if old:
            successor.setdefault(old, linked_id)
    for old, new in ledger_links.items():
        if new is None:
            successor.pop(old, None)
        else:
            successor[old] = new
    forward: list[str] = []
    current = fact_id
    while current in successor and successor[current] not in [*forward, fact_id]:
        current = successor[current]
        forward.append(current)
    backward: list[str] = []
    frontier = [fact_id]
    while frontier:
        found = sorted(old for old, new in successor.items() if new in frontier)
        frontier = [old for old in found if old not in backward and old != fact_id]
        backward += frontier
    return tuple(backward), tuple(forward)


def tier_as_of(
    continuity: Document,
    policy: Policy,
    copies: Sequence[tuple[Document, Fact]],
    sessions: tuple[Session, ...],
    later_supersession: bool,
    archived: Sequence[tuple[str, str | None]] = (),
) -> str | None:
    """The tier the review gives the fact over `sessions` (the ledger cut at a point), or
    None when the fact did not exist yet. `later_supersession`: a log after the point
    records its supersession (or restoration), so its footer's links came later.
    `archived`: its stays in the archive (`mdmem.reviewing.archive.stays`): within one,
    a fact no log has cited since it moved out is archived, whatever the cut ledger
    counts (the sessions before the ledger's first log, which a review counted then, are
    not in it)."""
    document, fact = copies[0]
    if not sessions:
        return None
    last = sessions[-1].name
    values = fact.footer.values
    origin = values.get("origin")
    if origin is not None and session_stem(origin) > last.stem:
        return None
    if (values.get("created") or "") > last.date:
        return None
    references = any(fact.id in session.references for session in sessions)
    changes: dict[str, str | None] = {}
    if not references and (values.get("last_used") or "") > last.date:
        changes.update({"last_used": None, "uses": None})
    if later_supersession and not _superseded_within(fact.id, sessions):
        changes["superseded-by"] = None
        if values.get("tier") == "superseded":
            changes["tier"] = None
    if changes:
        fact = dataclasses.replace(fact, footer=fact.footer.updated(changes))
    threads = (document,) if document.path.split("/")[-2:-1] == [OPEN_THREADS] else ()
    memory = Memory(Path(), continuity, (), sessions, policy, None, None, threads=threads)
    ledger = build_ledger(sessions, [fact.id])
    copy = (document, fact)
    decisions, _ = decide_copies(memory, {fact.id: [copy]}, ledger, link_changes([copy], ledger))
    tier = decisions[fact.id].tier
    point = last.stem
    for out, back in archived:
        within = out <= point and (back is None or point < back)
        if within and not any(fact.id in s.references for s in sessions if s.name.stem > out):
            return tier if tier in GONE_TIERS else "archived"
    return tier


def _superseded_within(fact_id: str, sessions: tuple[Session, ...]) -> bool:
    return any(
        event.kind in ("superseded", "restored") and fact_id == event.ids[0]
        for session in sessions
        for event in session.events
    )


def ledger_facts(
    fact_id: str, sessions: Iterable[Session]
) -> tuple[str | None, dict[str, str | None], int, int]:
    """(the session whose Created line first names the fact, its supersession links as the
    ledger leaves them, helpful votes, harmful votes), one vote per session."""
    created: str | None = None
    links: dict[str, str | None] = {}
    helpful = harmful = 0
    for session in sessions:
        kinds = set()
        for event in session.events:
            if event.kind == "created" and fact_id in event.ids and created is None:
                created = session.stem
            elif event.kind == "superseded" and fact_id in (event.ids[0], event.new_id):
                links[event.ids[0]] = event.new_id
            elif event.kind == "restored":
                links.update({old: None for old in event.ids if old == fact_id})
            elif event.kind in ("helpful", "harmful") and fact_id in event.ids:
                kinds.add(event.kind)
        helpful += "helpful" in kinds
        harmful += "harmful" in kinds
    return created, links, helpful, harmful


def render(shown: Shown) -> list[str]:
    """What `mdmem show` prints, one piece per line."""
    first = shown.copies[0]
    out = [f"{first.path}:{first.line}  {shown.fact_id}  {first.tier}  {first.text}"]
    out.append(f"  footer: {first.footer()}")
    for copy in shown.copies[1:]:
        out.append(f"  also at: {copy.path}:{copy.line} ({copy.tier})")
    out.append(f"  origin: {shown.origin or '(unknown)'}")
    after = [f"{i} (forgotten)" if i in shown.forgotten else i for i in shown.successors]
    out.append(f"  superseded by: {' → '.join(after) or '(none)'}")
    out.append(f"  supersedes: {', '.join(shown.predecessors) or '(none)'}")
    feedback = f"helpful {shown.helpful}, harmful {shown.harmful}"
    out.append(f"  feedback: {feedback} ({shown.maturity})")
    if shown.as_of is not None:
        point = shown.as_of
        then = point.tier if point.tier is not None else "did not exist yet"
        through = f" (through {point.session})" if point.session else " (before the first log)"
        out.append(f"  as of {point.asked}{through}: {then}")
    count = len(shown.references)
    logs = "1 session log" if count == 1 else f"{count} session logs"
    out.append(f"  referenced by {logs}, newest first:")
    out += [f"    {ref.path}:{ref.line}" for ref in shown.references]
    return out


COUNTS = ("uses", "helpful", "harmful")  # footer fields that hold a count


def footer_values(fields: Iterable[tuple[str, str]] | dict[str, str]) -> dict[str, str | int]:
    """A footer's fields as data: a count as a number, every other value as written."""
    pairs = fields.items() if isinstance(fields, dict) else fields
    return {k: int(v) if k in COUNTS and v.isdigit() else v for k, v in pairs}


def as_dict(shown: Shown) -> dict[str, Any]:
    return {
        "id": shown.fact_id,
        "copies": [
            {
                "path": c.path,
                "line": c.line,
                "footer_line": c.footer_line,
                "tier": c.tier,
                "section": c.section,
                "text": c.text,
                "footer": footer_values(c.fields),
            }
            for c in shown.copies
        ],
        "origin": shown.origin,
        "supersedes": list(shown.predecessors),
        "superseded_by": list(shown.successors),
        "forgotten": sorted(shown.forgotten),
        "helpful": shown.helpful,
        "harmful": shown.harmful,
        "maturity": shown.maturity,
        "as_of": None if shown.as_of is None else dataclasses.asdict(shown.as_of),
        "references": [dataclasses.asdict(ref) for ref in shown.references],
    }
