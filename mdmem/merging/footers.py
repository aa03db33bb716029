"""How two versions of one fact's footer merge, field by field (for the merge driver).

Fields the review owns are taken by a fixed rule, since the next review recomputes
them from the whole ledger: the larger `uses`/`helpful`/`harmful`, the newer
`last_used`, the earlier `origin`, `maturity` recomputed from the merged counts.
`tier` and the supersession links merge three ways; where both sides changed them
differently, the higher tier (superseded > core > active > working >
archive-candidate > archived) and the larger linked id. Any other field (the
creator's) merges three ways, and a clash is a real conflict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mdmem.errors import ParseError
from mdmem.format.footer import Footer
from mdmem.format.sessionlog import parse_session_name, session_stem
from mdmem.merging.diff3 import CONFLICT, OURS, taken_side
from mdmem.reviewing.maturity import maturity
from mdmem.reviewing.stamps import stamp_through

COUNT_FIELDS = ("uses", "helpful", "harmful")
LINK_FIELDS = ("supersedes", "superseded-by")  # set by agents, and by the review from the ledger
TIER_RANK = ("archived", "archive-candidate", "working", "active", "core", "superseded")

Pick = Callable[[list[str]], str]  # one value of the one or two sides' values


def _largest_count(values: list[str]) -> str:
    return max(values, key=int)


def _highest_tier(values: list[str]) -> str:
    return max(values, key=TIER_RANK.index)


def _earliest_session(values: list[str]) -> str:
    return min(values, key=through_order)


# Review-owned fields taken by a fixed rule from whichever sides hold them.
PICKED: dict[str, Pick] = {
    **dict.fromkeys(COUNT_FIELDS, _largest_count),
    "last_used": max,
    "origin": _earliest_session,
}
# Fields merged three ways, with a fixed pick where both sides changed them differently.
# Links: both branches' ledgers linked it differently; the review re-derives links from
# the whole ledger, so any fixed pick will do.
ON_CLASH: dict[str, Pick] = {"tier": _highest_tier, **dict.fromkeys(LINK_FIELDS, max)}


def merge_footer(base: Footer | None, ours: Footer, theirs: Footer) -> dict[str, str | None] | None:
    """Every field's merged value (None: dropped); None when a creator's field clashes."""
    keys = ordered_keys(ours.as_dict(), theirs.as_dict(), () if base is None else base.as_dict())
    merged: dict[str, str | None] = {}
    for key in keys:
        if key == "maturity":
            continue  # recomputed below, from the merged counts
        mine, other = ours.get(key), theirs.get(key)
        present = [v for v in (mine, other) if v is not None]
        if key in PICKED:
            merged[key] = PICKED[key](present) if present else None
            continue
        side = taken_side(None if base is None else base.get(key), mine, other)
        if side != CONFLICT:
            merged[key] = mine if side == OURS else other
        elif key in ON_CLASH:
            merged[key] = ON_CLASH[key](present)
        else:
            return None  # a creator's field both sides rewrote: a real conflict
    if "maturity" in keys:
        merged["maturity"] = _maturity(merged, ours, theirs)
    return {key: merged.get(key) for key in keys}


def _maturity(merged: dict[str, str | None], ours: Footer, theirs: Footer) -> str | None:
    feedback = [merged.get(key) for key in ("helpful", "harmful")]
    if any(value is not None for value in feedback):
        helpful, harmful = (int(value or 0) for value in feedback)
        return maturity(helpful, harmful)
    return ours.get("maturity") or theirs.get("maturity")


def through_order(value: str) -> tuple[str, str, str, str]:
    """Ledger order of a session stem (or of a stamp naming one), for picking the newer."""
    stem = session_stem(stamp_through(value) or value)
    try:
        name = parse_session_name(stem + ".md", stem)
    except ParseError:
        return ("", "", "", value)
    return (name.date, name.time, name.slug, name.stem)


def ordered_keys(*maps: Iterable[str]) -> list[str]:
    """Every key once, in the order first seen."""
    return list(dict.fromkeys(key for mapping in maps for key in mapping))
