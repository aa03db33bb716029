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

from collections.abc import Iterable

from mdmem.errors import ParseError
from mdmem.format.footer import Footer
from mdmem.format.sessionlog import parse_session_name
from mdmem.reviewing.ledger import maturity
from mdmem.reviewing.stamps import stamp_through

COUNT_FIELDS = ("uses", "helpful", "harmful")
LINK_FIELDS = ("supersedes", "superseded-by")  # set by agents, and by the review from the ledger
TIER_RANK = ("archived", "archive-candidate", "working", "active", "core", "superseded")
CLASH = object()  # a three-way value both sides changed differently


def three_way(base: object, ours: object, theirs: object) -> object:
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    return CLASH


def merge_footer(base: Footer | None, ours: Footer, theirs: Footer) -> dict[str, str | None] | None:
    """Every field's merged value (None: dropped); None when a creator's field clashes."""
    keys = ordered_keys(ours.as_dict(), theirs.as_dict(), () if base is None else base.as_dict())
    merged: dict[str, str | None] = {}
    for key in keys:
        was = None if base is None else base.get(key)
        mine, other = ours.get(key), theirs.get(key)
        present = [v for v in (mine, other) if v is not None]
        if key in COUNT_FIELDS:
            merged[key] = max(present, key=int) if present else None
        elif key == "last_used":
            merged[key] = max(present) if present else None
        elif key == "origin":
            merged[key] = min(present, key=through_order) if present else None
        elif key == "tier":
            value = three_way(was, mine, other)
            merged[key] = max(present, key=TIER_RANK.index) if value is CLASH else value  # type: ignore[assignment]
        elif key in LINK_FIELDS:
            # Both branches' ledgers linked it differently: the review re-derives links
            # from the whole ledger, so any fixed pick will do.
            value = three_way(was, mine, other)
            merged[key] = max(present) if value is CLASH else value  # type: ignore[assignment]
        elif key != "maturity":
            value = three_way(was, mine, other)
            if value is CLASH:
                return None
            merged[key] = value  # type: ignore[assignment]
    if "maturity" in keys:
        feedback = [merged.get(key) for key in ("helpful", "harmful")]
        if any(value is not None for value in feedback):
            helpful, harmful = (int(value or 0) for value in feedback)
            merged["maturity"] = maturity(helpful, harmful)
        else:
            merged["maturity"] = ours.get("maturity") or theirs.get("maturity")
    return {key: merged.get(key) for key in keys}


def through_order(value: str) -> tuple[str, str, str, str]:
    """Ledger order of a session stem (or of a stamp naming one), for picking the newer."""
    stem = stamp_through(value) or value
    try:
        name = parse_session_name(stem + ".md", stem)
    except ParseError:
        return ("", "", "", value)
    return (name.date, name.time, name.slug, name.stem)


def ordered_keys(*maps: Iterable[str]) -> list[str]:
    """Every key once, in the order first seen."""
    return list(dict.fromkeys(key for mapping in maps for key in mapping))
