"""A fact's maturity (SPEC §7): the label its helpful and harmful votes give it."""

from __future__ import annotations


def maturity(helpful: int, harmful: int) -> str:
    """The feedback label, from integer counts only."""
    events = helpful + harmful
    if events < 3:
        return "candidate"
    if 10 * harmful > 3 * events:
        return "deprecated"
    if helpful >= 10 and 10 * harmful < events:
        return "proven"
    return "established"
