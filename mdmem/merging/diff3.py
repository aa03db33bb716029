"""A three-way merge of two sequences against their common base (the diff3 algorithm).

`merge_text` applies it to the lines of three texts, as `git merge-file` does.

Works on any sequence of hashable items: lines for the plain text merge, and the
tokens the continuity merge builds (a line, or a whole fact keyed by its id).
`difflib.SequenceMatcher` finds what each side kept of the base; where both kept
the same base stretch the three agree, and every stretch between two such
agreements was changed by ours, by theirs, by both alike, or by both differently
(a conflict).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TypeVar

from mdmem.format.textfile import BOM, TextFile, body, ending, split_lines, with_ending

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


def _sync_points(
    base: Sequence[T], ours: Sequence[T], theirs: Sequence[T]
) -> list[tuple[int, int, int, int]]:
    """Base stretches both sides kept: (base start, length, ours start, theirs start)."""
    found: list[tuple[int, int, int, int]] = []
    ours_matches, theirs_matches = (  # the last block, of size 0, only marks the end
        SequenceMatcher(None, base, side, autojunk=False).get_matching_blocks()[:-1]
        for side in (ours, theirs)
    )
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
            parts = list(base[slice(*b)]), list(ours[slice(*o)]), list(theirs[slice(*t)])
            chunks.append(Chunk(taken_side(*parts), b, o, t))
        if size:
            spans = [(start, start + size) for start in (base_start, ours_start, theirs_start)]
            chunks.append(Chunk(STABLE, *spans))
        at_base, at_ours, at_theirs = base_start + size, ours_start + size, theirs_start + size
    return chunks


def taken_side(base: object, ours: object, theirs: object) -> str:
    """The three-way rule, for a stretch or a single value: OURS where theirs kept base
    or both made the same change, THEIRS where only theirs changed it, else CONFLICT."""
    if ours == theirs or theirs == base:
        return OURS
    if ours == base:
        return THEIRS
    return CONFLICT


# -- text: lines with their endings, conflict markers ------------------------------------

MARKER_OURS = "<<<<<<< ours"
MARKER_SPLIT = "======="
MARKER_THEIRS = ">>>>>>> theirs"


def merge_text(
    base: str, ours: str, theirs: str, *, union: bool = False
) -> tuple[str, tuple[str, ...]]:
    """A three-way line merge of texts (what `git merge-file` does): the text and its conflicts.

    Lines compare without their endings; ours keeps its bytes, lines taken from
    theirs get ours' line ending. A conflict is left between `<<<<<<< ours` /
    `=======` / `>>>>>>> theirs` and named `line N`; with `union` both sides are
    kept, ours first, with no markers (git's union merge).
    """
    files = [
        text_file(side, text) for side, text in (("base", base), ("ours", ours), ("theirs", theirs))
    ]
    keys = [[body(line) for line in file.lines] for file in files]
    newline = files[1].newline
    out: list[str] = []
    conflicts: list[str] = []
    for chunk in merge_chunks(*keys):
        if chunk.kind in (STABLE, OURS):
            out.extend(files[1].lines[slice(*chunk.ours)])
        elif chunk.kind == THEIRS:
            out.extend(normal(files[2].lines[slice(*chunk.theirs)], newline))
        else:
            mine = files[1].lines[slice(*chunk.ours)]
            other = normal(files[2].lines[slice(*chunk.theirs)], newline)
            if not union:
                conflicts.append(f"line {len(out) + 1}")
            out.extend(both_sides(mine, other, newline, union))
    return join_lines(out, newline, files[1].bom), tuple(conflicts)


def text_file(path: str, text: str) -> TextFile:
    """A text as the merge reads it: its lines, without the byte-order mark `bom` records."""
    return TextFile(path, split_lines(text.removeprefix(BOM)), text.startswith(BOM))


def normal(lines: Iterable[str], newline: str) -> tuple[str, ...]:
    return tuple(with_ending(line, newline) if ending(line) else line for line in lines)


def both_sides(mine: Iterable[str], other: Iterable[str], newline: str, union: bool) -> list[str]:
    """Two sides' rewrites of one stretch: kept one after the other with `union`, else
    between conflict markers."""
    if union:
        return ended([*mine, *other], newline)
    return markers(mine, other, newline)


def markers(mine: Iterable[str], other: Iterable[str], newline: str) -> list[str]:
    out = [MARKER_OURS + newline, *ended(mine, newline), MARKER_SPLIT + newline]
    return [*out, *ended(other, newline), MARKER_THEIRS + newline]


def ended(lines: Iterable[str], newline: str) -> list[str]:
    return [line if ending(line) else line + newline for line in lines]


def join_lines(lines: list[str], newline: str, bom: bool) -> str:
    """Join lines; a line that lost its place at the end of a file gets an ending back."""
    return (BOM if bom else "") + "".join([*ended(lines[:-1], newline), *lines[-1:]])
