"""Where everything goes: the three token sequences merged (`diff3`), then each kept item placed.

A stretch only one side changed is taken from that side. Where both changed it,
their prose decides: when it agrees, the side whose prose wins gives the layout and
the other side's facts and stamps are added to it, each in its own section, by its
neighbours (`_anchor`); when the prose differs, the stretch is a clash, left between
markers (with `union`, both sides' stretches are kept instead). Last, what was
deleted or placed twice is dropped and a kept fact the skeleton lost is put back. Then
each placed piece becomes its lines, with the seams the merge made tidied (`render`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from mdmem.merging.diff3 import (
    CONFLICT,
    OURS,
    STABLE,
    THEIRS,
    join_lines,
    markers,
    merge_chunks,
    taken_side,
)
from mdmem.merging.outcomes import Outcomes, dropped
from mdmem.merging.versions import Piece, Sides, Span, Token, blank, kind


@dataclass(frozen=True)
class Clash:
    """Token stretches both sides rewrote differently."""

    ours: Span
    theirs: Span


def place(sides: Sides, outcomes: Outcomes, union: bool) -> list[Piece | Clash]:
    """The result as pieces in order, each kept fact and stamp once."""
    out: list[Piece | Clash] = []
    placed: set[Token] = set()
    for piece in _skeleton(sides, outcomes, union):
        if isinstance(piece, Clash):
            placed.update(sides.ours.tokens[slice(*piece.ours)])
            placed.update(sides.theirs.tokens[slice(*piece.theirs)])
            out.append(piece)
            continue
        token = sides.token(piece)
        if token[0] != "line":
            if token in placed or outcomes[token].lines is None:
                continue
            placed.add(token)
        out.append(piece)
    for token, outcome in outcomes.items():
        if outcome.lines is not None and token not in placed:
            _put_back(sides, outcomes, out, token)
            placed.add(token)
    return out


def _skeleton(sides: Sides, outcomes: Outcomes, union: bool) -> list[Piece | Clash]:
    pieces: list[Piece | Clash] = []
    for chunk in merge_chunks(sides.base.tokens, sides.ours.tokens, sides.theirs.tokens):
        if chunk.kind in (STABLE, OURS):
            pieces.extend(Piece(OURS, i) for i in range(*chunk.ours))
        elif chunk.kind == THEIRS:
            pieces.extend(Piece(THEIRS, i) for i in range(*chunk.theirs))
        else:
            assert chunk.kind == CONFLICT
            resolved = _resolve(sides, outcomes, chunk.base, chunk.ours, chunk.theirs)
            if resolved is not None:
                pieces.extend(resolved)
            elif union:
                pieces.extend(Piece(OURS, i) for i in range(*chunk.ours))
                pieces.extend(Piece(THEIRS, i) for i in range(*chunk.theirs))
            else:
                pieces.append(Clash(chunk.ours, chunk.theirs))
    return pieces


def _resolve(
    sides: Sides, outcomes: Outcomes, base: Span, ours: Span, theirs: Span
) -> list[Piece] | None:
    """Both sides changed this stretch: fine when their prose agrees (facts are keyed).

    The side whose prose wins gives the layout; the other side's keyed items are
    added to it (see `_anchor`), with a blank line before each in a loose list.
    """
    spans = {OURS: ours, THEIRS: theirs}
    stretch = {name: sides.side(name).tokens[slice(*span)] for name, span in spans.items()}
    layout = _layout([sides.base.tokens[slice(*base)], stretch[OURS], stretch[THEIRS]])
    if layout is None:
        return None
    other = THEIRS if layout == OURS else OURS
    placed = [Piece(layout, i) for i in range(*spans[layout])]
    present = {token for token in stretch[layout] if token[0] != "line"}
    tokens = sides.side(other).tokens
    for i in range(*spans[other]):
        if tokens[i][0] == "line" or tokens[i] in present or dropped(outcomes, tokens[i]):
            continue
        # A blank line between it and another item: the list is loose, so one goes before it.
        near = [
            j
            for j, k in ((i - 1, i - 2), (i + 1, i + 2))
            if 0 <= k < len(tokens) and blank(tokens[j]) and tokens[k][0] != "line"
        ]
        at = _anchor(sides, outcomes, tokens[i], placed, other)
        placed[at:at] = [Piece(other, j) for j in near[:1]] + [Piece(other, i)]
        present.add(tokens[i])
    return placed


def _layout(parts: list[tuple[Token, ...]]) -> str | None:
    """The side whose prose the stretch takes (blank lines counted, else not), if any."""
    for blanks in (True, False):
        side = taken_side(*(_prose(tokens, blanks) for tokens in parts))
        if side != CONFLICT:
            return side
    return None


def _prose(tokens: tuple[Token, ...], blanks: bool) -> list[str]:
    return [t[1] for t in tokens if t[0] == "line" and (blanks or t[1].strip())]


def _anchor(sides: Sides, outcomes: Outcomes, token: Token, placed: list[Piece], other: str) -> int:
    """Where an added item goes among `placed`, always within its own section.

    After the nearest kept fact that precedes it in base (for a fact base has),
    else on its own side, or before the nearest that follows; with neither, at
    the end of its section's stretch (so ours' additions come before theirs').
    """
    source = sides.side(other)
    section = source.sections[source.tokens.index(token)]
    titles = [sides.side(p.side).sections[p.index] for p in placed]
    where = {
        sides.token(p): n
        for n, p in enumerate(placed)
        if sides.token(p)[0] == "fact"
        and titles[n] == section
        and not dropped(outcomes, sides.token(p))
    }
    for order in (sides.base.tokens, source.tokens):
        if token not in order:
            continue
        k = order.index(token)
        before = [where[t] + 1 for t in reversed(order[:k]) if t in where]
        after = [where[t] for t in order[k + 1 :] if t in where]
        if before or after:
            return before[0] if before else after[0]
    stretch = [
        n for n, p in enumerate(placed) if titles[n] == section and not blank(sides.token(p))
    ]
    if stretch:
        end = stretch[-1] + 1
        if kind(sides.token(placed[end - 1])) == "heading" and end < len(placed):
            end += blank(sides.token(placed[end]))  # under the heading, past its blank line
        return end
    at = len(placed)
    while at and blank(sides.token(placed[at - 1])):
        at -= 1
    return at


def _put_back(sides: Sides, outcomes: Outcomes, out: list[Piece | Clash], token: Token) -> None:
    """Into its own section, by its neighbours there (see `_anchor`)."""
    name = OURS if token in sides.ours.tokens else THEIRS
    pieces = [(n, piece) for n, piece in enumerate(out) if isinstance(piece, Piece)]
    at = _anchor(sides, outcomes, token, [piece for _, piece in pieces], name)
    position = pieces[at][0] if at < len(pieces) else len(out)
    out.insert(position, Piece(name, sides.side(name).tokens.index(token)))


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
