"""What the ledger says about each fact: uses, recency, feedback and supersession, in integers."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from mdmem.format.sessionlog import Session, SessionName


@dataclass(frozen=True)
class Supersession:
    """The latest Superseded/Restored event for a fact, in ledger order."""

    superseded: bool
    by: str | None
    session: str


@dataclass(frozen=True)
class Ledger:
    """An index over the sorted session logs, built once per review."""

    stems: tuple[str, ...]
    dates: tuple[str, ...]
    names: tuple[SessionName, ...]
    references: dict[str, list[int]]  # id -> indexes of the sessions naming it, ascending
    helpful: dict[str, int]
    harmful: dict[str, int]
    supersession: dict[str, Supersession]
    created_in: dict[str, str]  # id -> stem of the earliest session whose Created line names it
    positions: dict[str, int]  # stem -> index
    followable: frozenset[str] = frozenset()  # ids a supersession link may name

    @property
    def count(self) -> int:
        return len(self.stems)

    @property
    def newest(self) -> str:
        return self.stems[-1]

    @property
    def newest_date(self) -> str:
        return self.dates[-1]

    def index_of(self, stem: str) -> int | None:
        return self.positions.get(stem)

    def after_index(self, index: int) -> int:
        """How many sessions come after the one at `index`."""
        return len(self.stems) - 1 - index

    def after_date(self, date: str) -> int:
        """How many sessions are dated after `date`."""
        return len(self.dates) - bisect_right(self.dates, date)

    def after_name(self, name: SessionName) -> int:
        """How many sessions sort after a session name (present in the ledger or not)."""
        return len(self.names) - bisect_right(self.names, name)


def build_ledger(
    sessions: tuple[Session, ...], known_ids: Iterable[str], also_named: Iterable[str] = ()
) -> Ledger:
    """The ledger over `sessions` (sorted) for the facts `known_ids`. A `Superseded: OLD →
    NEW` line is followed only when NEW names a fact, or an id of `also_named` (the vision's,
    the forgotten ones): a link it cannot follow never retires a live fact (lint names it)."""
    known = frozenset(known_ids)
    followable = known | frozenset(also_named)
    references: dict[str, list[int]] = {}
    helpful: dict[str, int] = {}
    harmful: dict[str, int] = {}
    supersession: dict[str, Supersession] = {}
    created_in: dict[str, str] = {}
    names = tuple(session.name for session in sessions)
    stems = tuple(name.stem for name in names)
    for index, session in enumerate(sessions):
        for token in session.references & known:
            if token in references:
                references[token].append(index)
            else:
                references[token] = [index]
        if not session.events:
            continue  # most logs only reference
        name = session.name
        voted: dict[str, set[str]] = {"helpful": set(), "harmful": set()}
        for event in session.events:
            if event.kind in voted:
                voted[event.kind].update(event.ids)
            elif event.kind == "created":
                for fact_id in event.ids:
                    created_in.setdefault(fact_id, name.stem)
            elif event.kind == "superseded":
                if event.new_id is None or event.new_id in followable:
                    supersession[event.ids[0]] = Supersession(True, event.new_id, name.stem)
            elif event.kind == "restored":
                for fact_id in event.ids:
                    supersession[fact_id] = Supersession(False, None, name.stem)
        for fact_id in voted["helpful"]:
            helpful[fact_id] = helpful.get(fact_id, 0) + 1
        for fact_id in voted["harmful"]:
            harmful[fact_id] = harmful.get(fact_id, 0) + 1
    return Ledger(
        stems=stems,
        dates=tuple(name.date for name in names),
        names=names,
        references=references,
        helpful=helpful,
        harmful=harmful,
        supersession=supersession,
        created_in=created_in,
        positions={stem: index for index, stem in enumerate(stems)},
        followable=followable,
    )
