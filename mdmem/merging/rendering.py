"""The merged text: each placed piece as its lines, with the seams the merge made tidied."""

from __future__ import annotations

from itertools import pairwise

from mdmem.merging.diff3 import OURS, THEIRS, join_lines, markers
from mdmem.merging.outcomes import Outcomes
from mdmem.merging.placing import Clash
from mdmem.merging.versions import Piece, Sides, kind

_Unit = tuple[str, tuple[str, ...], str | None]  # (kind, lines, id of a conflicting fact)


def render(
    sides: Sides, outcomes: Outcomes, pieces: list[Piece | Clash]
) -> tuple[str, tuple[str, ...]]:
    """The text and its conflicts: the ids of marked facts, `line N` for marked prose."""
    units = [_unit(sides, outcomes, piece) for piece in pieces]
    out: list[str] = []
    conflicts: list[str] = []
    for unit_kind, lines, name in _tidy(sides, units):
        if unit_kind == "clash":
            conflicts.append(f"line {len(out) + 1}")
        elif name is not None:
            conflicts.append(name)
        out.extend(lines)
    return join_lines(out, sides.newline, sides.ours.document.file.bom), tuple(conflicts)


def _unit(sides: Sides, outcomes: Outcomes, piece: Piece | Clash) -> _Unit:
    """A piece as (kind, lines, conflicting fact id): blank, heading, line, item, clash."""
    if isinstance(piece, Clash):
        mine = sides.token_lines(OURS, piece.ours)
        other = sides.token_lines(THEIRS, piece.theirs)
        return "clash", tuple(markers(mine, other, sides.newline)), None
    token = sides.token(piece)
    if token[0] == "line":
        start, end = sides.side(piece.side).spans[piece.index]
        return kind(token), sides.lines(piece.side, start, end), None
    outcome = outcomes[token]
    assert outcome.lines is not None
    return "item", outcome.lines, token[1] if outcome.conflict else None


def _tidy(sides: Sides, units: list[_Unit]) -> list[_Unit]:
    """Seams the merge made: no double blank lines, a blank line before a heading.

    Each rule applies only when ours never breaks it, so a file's own style stands.
    """
    pairs = set(pairwise(kind(token) for token in sides.ours.tokens))
    out: list[_Unit] = []
    for unit in units:
        previous = out[-1][0] if out else None
        if unit[0] == "blank" and previous == "blank" and ("blank", "blank") not in pairs:
            continue
        if unit[0] == "heading" and previous == "item" and ("item", "heading") not in pairs:
            out.append(("blank", (sides.newline,), None))
        out.append(unit)
    return out
