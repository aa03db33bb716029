"""The merge driver: two versions of `continuity.md` merged fact by fact, keyed by id.

`merge_continuity` is pure (three texts in, the merged text and its conflicts
out). Each version is read as a sequence of tokens: a whole fact is one token
named by its id, a Project State stamp one token named by its key, and every
other line a token of its own. The token sequences are merged three ways
(`diff3`), which places every fact; the content of each fact is then merged on
its own:

- added on either side: kept, in its section, ours before theirs;
- deleted on one side and unchanged on the other: deleted (the review moved it
  to the archive); deleted on one side and changed on the other, even only by
  that side's review: kept, so the next review, which reads every copy and the
  whole ledger, decides where it lives and drops the other copy (`repair`).
  Judging on the merge's partial view instead would let the result depend on
  which branch reviewed first: an Open Thread one branch superseded and the
  other restored would come back retiered, not as it was;
- review-owned footer fields: the larger `uses`/`helpful`/`harmful`, the newer
  `last_used`, the earlier `origin`, `maturity` recomputed; `tier` three ways,
  and where both changed it the higher of superseded > core > active > working
  > archive-candidate > archived; supersession links three ways, and where both
  set them differently the larger id (the next review re-derives all of these
  from the ledger anyway);
- text, or a creator's field, rewritten differently on both sides: a real
  conflict, left between `<<<<<<< ours` / `=======` / `>>>>>>> theirs` around
  that fact alone.

Prose lines merge line by line; where both sides rewrote the same lines, they
are left between markers too. A version that does not parse falls back to the
plain line merge. `merge_files` is the I/O edge git calls.

Archive files merge the same way with `union`: what both sides wrote is kept,
never marked. Git's own union merge is not safe there: two branches that
archived one fact with different footers (one superseded it, the other saw it
fade) leave one text with two footers, which no review can read.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from mdmem.errors import ParseError
from mdmem.format.document import Document, Fact, heading, parse_document
from mdmem.format.textfile import body, decode, ending
from mdmem.merging.diff3 import (
    CONFLICT,
    OURS,
    STABLE,
    THEIRS,
    both_sides,
    join_lines,
    markers,
    merge_chunks,
    merge_text,
    normal,
    taken_side,
    text_file,
)
from mdmem.merging.footers import merge_footer, ordered_keys, through_order
from mdmem.reviewing.stamps import read_stamps
from mdmem.store.writer import replace_file

STAMP_KEYS = ("last_review", "last_invariant_check")

Token = tuple[str, str]  # ("line", text) | ("fact", id) | ("stamp", key)
_Unit = tuple[str, tuple[str, ...], str | None]  # (kind, lines, id of a conflicting fact)


@dataclass(frozen=True)
class Merged:
    text: str
    conflicts: tuple[str, ...]  # fact ids, and `line N` for prose both sides rewrote
    fallback: str | None = None  # why the fact merge gave way to the line merge

    @property
    def clean(self) -> bool:
        return not self.conflicts


@dataclass(frozen=True)
class _Version:
    document: Document
    tokens: tuple[Token, ...]
    spans: tuple[tuple[int, int], ...]  # the lines of each token
    facts: dict[str, Fact]
    stamps: dict[str, str]  # stamp key -> value
    sections: tuple[str, ...]  # the `##` section each token is in


@dataclass(frozen=True)
class _Piece:
    side: str  # OURS or THEIRS
    index: int  # token index in that side


@dataclass(frozen=True)
class _Clash:
    ours: tuple[int, int]  # token ranges both sides rewrote differently
    theirs: tuple[int, int]


@dataclass(frozen=True)
class _Outcome:
    lines: tuple[str, ...] | None  # None: the item is dropped
    conflict: bool = False
    copies: int = 1  # 2 when a union merge keeps both sides' versions of a fact


def merge_continuity(
    base: str, ours: str, theirs: str, path: str = "continuity.md", *, union: bool = False
) -> Merged:
    """Merge ours and theirs against base; falls back to lines when a version does not parse.

    `union` (archive files): where both sides changed the same stretch differently,
    keep both, ours first, as git's union merge does, but fact by fact: a fact both
    sides archived is kept once with its footers merged, and a fact whose two versions
    clash is kept twice, for the review to resolve (`mdmem.reviewing.repair`). Nothing conflicts.
    """
    try:
        versions = [_version(text, f"{path} ({side})") for text, side in _sides(base, ours, theirs)]
    except ParseError as exc:
        return _fallback(merge_lines(base, ours, theirs, union=union), str(exc), union)
    merge = _Merge(versions[0], versions[1], versions[2], union)
    merged = merge.run()
    if merged.clean:
        try:
            _check(merged.text, merge.kept(), path)
        except ParseError as exc:
            lines = merge_lines(base, ours, theirs, union=union)
            return _fallback(lines, f"the fact merge gave {exc}", union)
    return merged


def merge_lines(base: str, ours: str, theirs: str, *, union: bool = False) -> Merged:
    """A plain three-way line merge, as `git merge-file` makes (see `diff3.merge_text`)."""
    text, conflicts = merge_text(base, ours, theirs, union=union)
    return Merged(text, conflicts)


def _sides(base: str, ours: str, theirs: str) -> list[tuple[str, str]]:
    return [(base, "base"), (ours, "ours"), (theirs, "theirs")]


def _fallback(merged: Merged, reason: str, union: bool = False) -> Merged:
    """The line merge, reported: a conflict unless a union merge kept both sides."""
    if union:
        return Merged(merged.text, merged.conflicts, reason)
    conflicts = merged.conflicts or ("the merged text needs a person: " + reason,)
    return Merged(merged.text, conflicts, reason)


def _version(text: str, label: str) -> _Version:
    file = text_file(label, text)
    document = parse_document(file)
    stamps = read_stamps(document)
    stamp_at = {index: key for key, (index, _) in stamps.items() if key in STAMP_KEYS}
    fact_at = {fact.start: fact for fact in document.facts}
    tokens: list[Token] = []
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(file.lines):
        if index in fact_at:
            fact = fact_at[index]
            tokens.append(("fact", fact.id))
            spans.append((fact.start, fact.end))
            index = fact.end
            continue
        if index in stamp_at:
            tokens.append(("stamp", stamp_at[index]))
        else:
            tokens.append(("line", body(file.lines[index])))
        spans.append((index, index + 1))
        index += 1
    titles = [""] * len(file.lines)
    for section in document.sections:
        titles[max(section.start, 0) : section.end] = [section.title] * (
            section.end - max(section.start, 0)
        )
    return _Version(
        document,
        tuple(tokens),
        tuple(spans),
        {fact.id: fact for fact in document.facts},
        {key: value for key, (_, value) in stamps.items() if key in STAMP_KEYS},
        tuple(titles[start] for start, _ in spans),
    )


class _Merge:
    """One merge: the token skeleton first, then each fact and stamp on its own."""

    def __init__(self, base: _Version, ours: _Version, theirs: _Version, union: bool) -> None:
        self.base, self.ours, self.theirs = base, ours, theirs
        self.union = union
        self.newline = ours.document.file.newline
        self.outcomes: dict[Token, _Outcome] = {}

    def kept(self) -> list[str]:
        """Every fact id the result holds, once per copy."""
        return [
            token[1]
            for token, outcome in self.outcomes.items()
            if token[0] == "fact" and outcome.lines is not None
            for _ in range(outcome.copies)
        ]

    def side(self, name: str) -> _Version:
        return self.ours if name == OURS else self.theirs

    def run(self) -> Merged:
        for fact_id in ordered_keys(self.ours.facts, self.theirs.facts, self.base.facts):
            self.outcomes[("fact", fact_id)] = self.fact(fact_id)
        for key in ordered_keys(self.ours.stamps, self.theirs.stamps, self.base.stamps):
            self.outcomes[("stamp", key)] = self.stamp(key)
        pieces = self.place(self.skeleton())
        return self.render(pieces)

    # -- where things go -------------------------------------------------------------

    def skeleton(self) -> list[_Piece | _Clash]:
        pieces: list[_Piece | _Clash] = []
        tokens = (self.base.tokens, self.ours.tokens, self.theirs.tokens)
        for chunk in merge_chunks(*tokens):
            if chunk.kind in (STABLE, OURS):
                pieces.extend(_Piece(OURS, i) for i in range(*chunk.ours))
            elif chunk.kind == THEIRS:
                pieces.extend(_Piece(THEIRS, i) for i in range(*chunk.theirs))
            else:
                assert chunk.kind == CONFLICT
                resolved = self.resolve(chunk.base, chunk.ours, chunk.theirs)
                if resolved is not None:
                    pieces.extend(resolved)
                elif self.union:
                    pieces.extend(_Piece(OURS, i) for i in range(*chunk.ours))
                    pieces.extend(_Piece(THEIRS, i) for i in range(*chunk.theirs))
                else:
                    pieces.append(_Clash(chunk.ours, chunk.theirs))
        return pieces

    def resolve(
        self, base: tuple[int, int], ours: tuple[int, int], theirs: tuple[int, int]
    ) -> list[_Piece] | None:
        """Both sides changed this stretch: fine when their prose agrees (facts are keyed).

        The side whose prose wins gives the layout; the other side's keyed items are
        added to it (see `anchor`), with a blank line before each in a loose list.
        """
        parts = {
            "base": self.base.tokens[slice(*base)],
            OURS: self.ours.tokens[slice(*ours)],
            THEIRS: self.theirs.tokens[slice(*theirs)],
        }
        layout = CONFLICT
        for blanks in (True, False):
            prose = [_prose(tokens, blanks) for tokens in parts.values()]
            layout = taken_side(*prose)
            if layout != CONFLICT:
                break
        if layout == CONFLICT:
            return None
        other = THEIRS if layout == OURS else OURS
        spans = {OURS: ours, THEIRS: theirs}
        placed = [_Piece(layout, i) for i in range(*spans[layout])]
        present = {token for token in parts[layout] if token[0] != "line"}
        tokens = self.side(other).tokens
        low, high = spans[other]
        for i in range(low, high):
            if tokens[i][0] == "line" or tokens[i] in present or self.dropped(tokens[i]):
                continue
            # A blank line between it and another item: the list is loose, so one goes before it.
            near = [
                j
                for j, k in ((i - 1, i - 2), (i + 1, i + 2))
                if 0 <= k < len(tokens) and _blank(tokens[j]) and tokens[k][0] != "line"
            ]
            at = self.anchor(tokens[i], placed, other)
            placed[at:at] = [_Piece(other, j) for j in near[:1]] + [_Piece(other, i)]
            present.add(tokens[i])
        return placed

    def anchor(self, token: Token, placed: list[_Piece], other: str) -> int:
        """Where an added item goes among `placed`, always within its own section.

        After the nearest kept fact that precedes it in base (for a fact base has),
        else on its own side, or before the nearest that follows; with neither, at
        the end of its section's stretch (so ours' additions come before theirs').
        """
        versions = {OURS: self.ours, THEIRS: self.theirs}
        source = versions[other]
        section = source.sections[source.tokens.index(token)]
        titles = [versions[p.side].sections[p.index] for p in placed]
        where = {
            self.token(p): n
            for n, p in enumerate(placed)
            if self.token(p)[0] == "fact"
            and titles[n] == section
            and not self.dropped(self.token(p))
        }
        for order in (self.base.tokens, source.tokens):
            if token not in order:
                continue
            k = order.index(token)
            before = [where[t] + 1 for t in reversed(order[:k]) if t in where]
            after = [where[t] for t in order[k + 1 :] if t in where]
            if before or after:
                return before[0] if before else after[0]
        stretch = [
            n for n, p in enumerate(placed) if titles[n] == section and not _blank(self.token(p))
        ]
        if stretch:
            end = stretch[-1] + 1
            if _kind(self.token(placed[end - 1])) == "heading" and end < len(placed):
                end += _blank(self.token(placed[end]))  # under the heading, past its blank line
            return end
        at = len(placed)
        while at and _blank(self.token(placed[at - 1])):
            at -= 1
        return at

    def dropped(self, token: Token) -> bool:
        return token in self.outcomes and self.outcomes[token].lines is None

    def token(self, piece: _Piece) -> Token:
        return self.side(piece.side).tokens[piece.index]

    def place(self, pieces: list[_Piece | _Clash]) -> list[_Piece | _Clash]:
        """Drop what is deleted or placed twice; put back a kept fact the skeleton lost."""
        out: list[_Piece | _Clash] = []
        placed: set[Token] = set()
        for piece in pieces:
            if isinstance(piece, _Clash):
                placed.update(self.ours.tokens[slice(*piece.ours)])
                placed.update(self.theirs.tokens[slice(*piece.theirs)])
                out.append(piece)
                continue
            token = self.token(piece)
            if token[0] != "line":
                if token in placed or self.outcomes[token].lines is None:
                    continue
                placed.add(token)
            out.append(piece)
        for token, outcome in self.outcomes.items():
            if outcome.lines is not None and token not in placed:
                self.put_back(out, token)
                placed.add(token)
        return out

    def put_back(self, out: list[_Piece | _Clash], token: Token) -> None:
        """Into its own section, by its neighbours there (see `anchor`)."""
        name = OURS if token in self.ours.tokens else THEIRS
        pieces = [(n, piece) for n, piece in enumerate(out) if isinstance(piece, _Piece)]
        at = self.anchor(token, [piece for _, piece in pieces], name)
        position = pieces[at][0] if at < len(pieces) else len(out)
        out.insert(position, _Piece(name, self.side(name).tokens.index(token)))

    # -- what each fact and stamp becomes ----------------------------------------------

    def fact(self, fact_id: str) -> _Outcome:
        base, ours, theirs = (v.facts.get(fact_id) for v in (self.base, self.ours, self.theirs))
        if ours is None and theirs is None:
            return _Outcome(None)
        if ours is None or theirs is None:
            name, fact = (THEIRS, theirs) if ours is None else (OURS, ours)
            assert fact is not None
            if base is not None and not self.changed(base, name, fact):
                return _Outcome(None)  # deleted on the other side, untouched here
            return _Outcome(self.lines(name, fact.start, fact.end))
        texts = [None if base is None else self.text(self.base, base)]
        texts += [self.text(self.ours, ours), self.text(self.theirs, theirs)]
        source = taken_side(*texts)
        fields = merge_footer(None if base is None else base.footer, ours.footer, theirs.footer)
        if source == CONFLICT or fields is None:
            mine = self.lines(OURS, ours.start, ours.end)
            other = self.lines(THEIRS, theirs.start, theirs.end)
            kept = tuple(both_sides(mine, other, self.newline, self.union))
            return _Outcome(kept, conflict=not self.union, copies=2 if self.union else 1)
        if source == OURS:
            text = self.lines(OURS, ours.start, ours.footer_index)
        else:
            text = self.lines(THEIRS, theirs.start, theirs.footer_index)
        line = self.ours.document.lines[ours.footer_index]
        changes = {k: v for k, v in fields.items() if v != ours.footer.get(k)}
        footer = ours.footer.updated(changes).render() + ending(line)
        return _Outcome((*text, footer))

    def stamp(self, key: str) -> _Outcome:
        base, ours, theirs = (v.stamps.get(key) for v in (self.base, self.ours, self.theirs))
        if ours is None and theirs is None:
            return _Outcome(None)
        if ours is None or theirs is None:
            if base is not None and base == (ours or theirs):
                return _Outcome(None)
            return _Outcome(self.stamp_line(OURS if theirs is None else THEIRS, key))
        side = taken_side(base, ours, theirs)
        if side == CONFLICT:
            side = OURS if max(ours, theirs, key=through_order) == ours else THEIRS
        return _Outcome(self.stamp_line(side, key))

    def stamp_line(self, name: str, key: str) -> tuple[str, ...]:
        version = self.side(name)
        start, end = version.spans[version.tokens.index(("stamp", key))]
        return self.lines(name, start, end)

    def changed(self, base: Fact, name: str, fact: Fact) -> bool:
        """Its text or any footer value differs from base (spacing aside)."""
        if self.text(self.base, base) != self.text(self.side(name), fact):
            return True
        return base.footer.as_dict() != fact.footer.as_dict()

    def text(self, version: _Version, fact: Fact) -> tuple[str, ...]:
        return tuple(body(line) for line in version.document.fact_text(fact))

    def lines(self, name: str, start: int, end: int) -> tuple[str, ...]:
        lines = self.side(name).document.lines[start:end]
        return lines if name == OURS else normal(lines, self.newline)

    # -- the text ----------------------------------------------------------------------

    def render(self, pieces: list[_Piece | _Clash]) -> Merged:
        units = [self.unit(piece) for piece in pieces]
        out: list[str] = []
        conflicts: list[str] = []
        for kind, lines, name in self.tidy(units):
            if kind == "clash":
                conflicts.append(f"line {len(out) + 1}")
            elif name is not None:
                conflicts.append(name)
            out.extend(lines)
        file = self.ours.document.file
        return Merged(join_lines(out, self.newline, file.bom), tuple(conflicts))

    def unit(self, piece: _Piece | _Clash) -> _Unit:
        """A piece as (kind, lines, conflicting fact id): blank, heading, line, item, clash."""
        if isinstance(piece, _Clash):
            mine, other = self.raw(OURS, piece.ours), self.raw(THEIRS, piece.theirs)
            return "clash", tuple(markers(mine, other, self.newline)), None
        token = self.token(piece)
        if token[0] == "line":
            start, end = self.side(piece.side).spans[piece.index]
            return _kind(token), self.lines(piece.side, start, end), None
        outcome = self.outcomes[token]
        assert outcome.lines is not None
        return "item", outcome.lines, token[1] if outcome.conflict else None

    def tidy(self, units: list[_Unit]) -> list[_Unit]:
        """Seams the merge made: no double blank lines, a blank line before a heading.

        Each rule applies only when ours never breaks it, so a file's own style stands.
        """
        kinds = [_kind(token) for token in self.ours.tokens]
        pairs = set(pairwise(kinds))
        out: list[_Unit] = []
        for unit in units:
            previous = out[-1][0] if out else None
            if unit[0] == "blank" and previous == "blank" and ("blank", "blank") not in pairs:
                continue
            if unit[0] == "heading" and previous == "item" and ("item", "heading") not in pairs:
                out.append(("blank", (self.newline,), None))
            out.append(unit)
        return out

    def raw(self, name: str, tokens: tuple[int, int]) -> tuple[str, ...]:
        spans = self.side(name).spans[slice(*tokens)]
        if not spans:
            return ()
        return self.lines(name, spans[0][0], spans[-1][1])


def _kind(token: Token) -> str:
    if token[0] != "line":
        return "item"
    return "blank" if _blank(token) else "heading" if heading(token[1]) else "line"


def _blank(token: Token) -> bool:
    return token[0] == "line" and not token[1].strip()


def _prose(tokens: tuple[Token, ...], blanks: bool) -> list[str]:
    return [t[1] for t in tokens if t[0] == "line" and (blanks or t[1].strip())]


def _check(text: str, kept: list[str], path: str) -> None:
    """A clean result must parse and hold exactly the facts the merge kept."""
    document = parse_document(text_file(f"{path} (merged)", text), unique_ids=False)
    found = sorted(fact.id for fact in document.facts)
    if found != sorted(kept):
        raise ParseError(f"facts {sorted(set(found) ^ set(kept))} lost or doubled", path)


def merge_files(
    base: Path, ours: Path, theirs: Path, path: str | None = None, *, union: bool = False
) -> Merged:
    """What git runs: merge the three files and write the result over `ours`, atomically."""
    display = path or "continuity.md"
    texts: list[str] = []
    readable = True
    for file in (base, ours, theirs):
        data = file.read_bytes()
        try:
            texts.append(decode(data, display).text())
        except ParseError:
            readable = False
            texts.append(data.decode("utf-8", "surrogateescape"))
    base_text, ours_text, theirs_text = texts
    if readable:
        merged = merge_continuity(base_text, ours_text, theirs_text, display, union=union)
    else:
        reason = f"{display} is not valid UTF-8"
        lines = merge_lines(base_text, ours_text, theirs_text, union=union)
        merged = _fallback(lines, reason, union)
    replace_file(ours, merged.text.encode("utf-8", "surrogateescape"))
    return merged
