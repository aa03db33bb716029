"""A three-way merge of two sequences against their common base (the diff3 algorithm).

Works on any sequence of hashable items: lines for the plain text merge, and the
tokens the continuity merge builds (a line, or a whole fact keyed by its id).
`difflib.SequenceMatcher` finds what each side kept of the base; where both kept
the same base stretch the three agree, and every stretch between two such
agreements was changed by ours, by theirs, by both alike, or by both differently
(a conflict).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

STABLE = "stable"  # the three agree
OURS = "ours"  # only ours changed it (or both changed it alike): take ours
THEIRS = "theirs"  # only theirs changed it: take theirs
CONFLICT = "conflict"  # both changed it, differently


@dataclass(frozen=True)
class Chunk:
    """One stretch of the merge; each range is (start, end) in its own sequence."""

    kind: str
    base: tuple[int, int]
    ours: tuple[int, int]
    theirs: tuple[int, int]


def _matches(base: Sequence[T], other: Sequence[T]) -> list[tuple[int, int, int]]:
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    return [(m.a, m.b, m.size) for m in matcher.get_matching_blocks() if m.size]


def _sync_points(
    base: Sequence[T], ours: Sequence[T], theirs: Sequence[T]
) -> list[tuple[int, int, int, int]]:
    """Base stretches both sides kept: (base start, length, ours start, theirs start)."""
    found: list[tuple[int, int, int, int]] = []
    ours_matches, theirs_matches = _matches(base, ours), _matches(base, theirs)
    i = j = 0
    while i < len(ours_matches) and j < len(theirs_matches):
        o_base, o_side, o_size = ours_matches[i]
        t_base, t_side, t_size = theirs_matches[j]
        start, end = max(o_base, t_base), min(o_base + o_size, t_base + t_size)
        if start < end:
            found.append((start, end - start, o_side + start - o_base, t_side + start - t_base))
        if o_base + o_size < t_base + t_size:
            i += 1
        else:
            j += 1
    found.append((len(base), 0, len(ours), len(theirs)))
    return found


def merge_chunks(base: Sequence[T], ours: Sequence[T], theirs: Sequence[T]) -> list[Chunk]:
    """The merge as chunks in order; the caller renders them."""
    chunks: list[Chunk] = []
    at_base = at_ours = at_theirs = 0
    for base_start, size, ours_start, theirs_start in _sync_points(base, ours, theirs):
        b = (at_base, base_start)
        o = (at_ours, ours_start)
        t = (at_theirs, theirs_start)
        if o[0] < o[1] or t[0] < t[1] or b[0] < b[1]:
            chunks.append(Chunk(_kind(base, ours, theirs, b, o, t), b, o, t))
        if size:
            chunks.append(
                Chunk(
                    STABLE,
                    (base_start, base_start + size),
                    (ours_start, ours_start + size),
                    (theirs_start, theirs_start + size),
                )
            )
        at_base, at_ours, at_theirs = base_start + size, ours_start + size, theirs_start + size
    return chunks


def _kind(
    base: Sequence[T],
    ours: Sequence[T],
    theirs: Sequence[T],
    b: tuple[int, int],
    o: tuple[int, int],
    t: tuple[int, int],
) -> str:
    base_part, ours_part, theirs_part = base[b[0] : b[1]], ours[o[0] : o[1]], theirs[t[0] : t[1]]
    if list(ours_part) == list(theirs_part) or list(theirs_part) == list(base_part):
        return OURS
    if list(ours_part) == list(base_part):
        return THEIRS
    return CONFLICT
