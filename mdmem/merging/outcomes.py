"""What each fact and each stamp becomes, merged on its own from its three versions.

A footer merges field by field. Fields the review owns are taken by a fixed rule, since
the next review recomputes them from the whole ledger: the larger `uses`/`helpful`/
`harmful`, the newer `last_used`, the earlier `origin`, `maturity` recomputed from the
merged counts. `tier` and the supersession links merge three ways; where both sides
changed them differently, the higher tier (superseded > core > active > working >
archive-candidate > archived) and the larger linked id. Any other field (the creator's)
merges three ways, and a clash is a real conflict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mdmem.errors import ParseError
from mdmem.format.document import Fact
from mdmem.format.footer import Footer
from mdmem.format.sessionlog import parse_session_name, session_stem
from mdmem.format.textfile import body, ending
from mdmem.merging.diff3 import CONFLICT, OURS, THEIRS, both_sides, taken_side
from mdmem.merging.versions import Sides, Token, Version
from mdmem.reviewing.maturity import maturity
from mdmem.reviewing.stamps import stamp_through

TIER_RANK = ("archived", "archive-candidate", "working", "active", "core", "superseded")


@dataclass(frozen=True)
class Outcome:
    lines: tuple[str, ...] | None  # None: the item is dropped
    conflict: bool = False
    copies: int = 1  # 2 when a union merge keeps both sides' versions of a fact


Outcomes = dict[Token, Outcome]  # every fact and stamp of any version, in a stable order


def merge_items(sides: Sides, union: bool) -> Outcomes:
    """Each fact (ours' order, then theirs' additions, then base's) and each stamp."""
    outcomes: Outcomes = {}
    base, ours, theirs = sides.base, sides.ours, sides.theirs
    for fact_id in ordered_keys(ours.facts, theirs.facts, base.facts):
        outcomes[("fact", fact_id)] = _fact(sides, fact_id, union)
    for key in ordered_keys(ours.stamps, theirs.stamps, base.stamps):
        outcomes[("stamp", key)] = _stamp(sides, key)
    return outcomes


def dropped(outcomes: Outcomes, token: Token) -> bool:
    return token in outcomes and outcomes[token].lines is None


def kept_facts(outcomes: Outcomes) -> list[str]:
    """Every fact id the result holds, once per copy."""
    return [
        token[1]
        for token, outcome in outcomes.items()
        if token[0] == "fact" and outcome.lines is not None
        for _ in range(outcome.copies)
    ]


def _fact(sides: Sides, fact_id: str, union: bool) -> Outcome:
    base, ours, theirs = (v.facts.get(fact_id) for v in (sides.base, sides.ours, sides.theirs))
    if ours is None and theirs is None:
        return Outcome(None)
    if ours is None or theirs is None:
        name, fact = (THEIRS, theirs) if ours is None else (OURS, ours)
        assert fact is not None
        untouched = base is not None and _text(sides.base, base) == _text(sides.side(name), fact)
        if untouched and base is not None and base.footer.as_dict() == fact.footer.as_dict():
            return Outcome(None)  # deleted on the other side, untouched here (spacing aside)
        return Outcome(sides.lines(name, fact.start, fact.end))
    texts = [None if base is None else _text(sides.base, base)]
    texts += [_text(sides.ours, ours), _text(sides.theirs, theirs)]
    source = taken_side(*texts)
    fields = merge_footer(None if base is None else base.footer, ours.footer, theirs.footer)
    if source == CONFLICT or fields is None:
        mine = sides.lines(OURS, ours.start, ours.end)
        other = sides.lines(THEIRS, theirs.start, theirs.end)
        kept = tuple(both_sides(mine, other, sides.newline, union))
        return Outcome(kept, conflict=not union, copies=2 if union else 1)
    name, chosen = (OURS, ours) if source == OURS else (THEIRS, theirs)
    text = sides.lines(name, chosen.start, chosen.footer_index)
    notes = sides.lines(name, chosen.footer_index + 1, chosen.end)
    line = sides.ours.document.lines[ours.footer_index]
    changes = {k: v for k, v in fields.items() if v != ours.footer.get(k)}
    footer = ours.footer.updated(changes).render() + ending(line)
    return Outcome((*text, footer, *notes))


def _stamp(sides: Sides, key: str) -> Outcome:
    base, ours, theirs = (v.stamps.get(key) for v in (sides.base, sides.ours, sides.theirs))
    if ours is None and theirs is None:
        return Outcome(None)
    if ours is None or theirs is None:
        if base is not None and base == (ours or theirs):
            return Outcome(None)
        return Outcome(_stamp_line(sides, OURS if theirs is None else THEIRS, key))
    side = taken_side(base, ours, theirs)
    if side == CONFLICT:
        side = OURS if max(ours, theirs, key=through_order) == ours else THEIRS
    return Outcome(_stamp_line(sides, side, key))


def _stamp_line(sides: Sides, name: str, key: str) -> tuple[str, ...]:
    version = sides.side(name)
    start, end = version.spans[version.tokens.index(("stamp", key))]
    return sides.lines(name, start, end)


def _text(version: Version, fact: Fact) -> tuple[str, ...]:
    return tuple(body(line) for line in version.document.fact_text(fact))


def merge_footer(base: Footer | None, ours: Footer, theirs: Footer) -> dict[str, str | None] | None:
    """Every field's merged value (None: dropped); None when a creator's field clashes."""
    keys = ordered_keys(ours.as_dict(), theirs.as_dict(), () if base is None else base.as_dict())
    merged: dict[str, str | None] = {}
    for key in keys:
        if key == "maturity":
            continue  # recomputed below, from the merged counts
        mine, other = ours.get(key), theirs.get(key)
        present = [v for v in (mine, other) if v is not None]
        if key in _PICKED:
            merged[key] = _PICKED[key](present) if present else None
            continue
        side = taken_side(None if base is None else base.get(key), mine, other)
        if side != CONFLICT:
            merged[key] = mine if side == OURS else other
        elif key in _ON_CLASH:
            merged[key] = _ON_CLASH[key](present)
        else:
            return None  # a creator's field both sides rewrote: a real conflict
    if "maturity" in keys:
        feedback = [merged.get(key) for key in ("helpful", "harmful")]
        if any(value is not None for value in feedback):
            merged["maturity"] = maturity(*(int(value or 0) for value in feedback))
        else:
            merged["maturity"] = ours.get("maturity") or theirs.get("maturity")
    return {key: merged.get(key) for key in keys}


def through_order(value: str) -> tuple[str, str, str, str]:
    """Ledger order of a session stem (or of a stamp naming one), for picking the newer."""
    stem = session_stem(stamp_through(value) or value)
    try:
        name = parse_session_name(stem + ".md", stem)
    except ParseError:
        return ("", "", "", value)
    return (name.date, name.time, name.slug, name.stem)


# Review-owned fields taken by a fixed rule from whichever sides hold them.
_PICKED: dict[str, Callable[[list[str]], str]] = {
    **dict.fromkeys(("uses", "helpful", "harmful"), lambda values: max(values, key=int)),
    "last_used": max,
    "origin": lambda values: min(values, key=through_order),
}
# Fields merged three ways, with a fixed pick where both sides changed them differently.
# Links: both branches' ledgers linked it differently; the review re-derives links from
# the whole ledger, so any fixed pick will do.
_ON_CLASH: dict[str, Callable[[list[str]], str]] = {
    "tier": lambda values: max(values, key=TIER_RANK.index),
    **dict.fromkeys(("supersedes", "superseded-by"), max),
}


def ordered_keys(*maps: Iterable[str]) -> list[str]:
    """Every key once, in the order first seen."""
    return list(dict.fromkeys(key for mapping in maps for key in mapping))
