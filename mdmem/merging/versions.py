"""A version of a memory file as the merge reads it: a sequence of tokens.

A whole fact is one token named by its id, a Project State stamp one token named
by its key, and every other line a token of its own. The three versions' token
sequences are what `diff3` merges; each token keeps the lines it spans and the
`##` section it is in.
"""

from __future__ import annotations

from dataclasses import dataclass

from mdmem.format.document import Document, Fact, heading, parse_document
from mdmem.format.textfile import body
from mdmem.merging.diff3 import OURS, normal, text_file
from mdmem.reviewing.stamps import read_stamps

STAMP_KEYS = ("last_review", "last_invariant_check")

Token = tuple[str, str]  # ("line", text) | ("fact", id) | ("stamp", key)
Span = tuple[int, int]  # (start, end): lines of a version, or tokens of a version


@dataclass(frozen=True)
class Version:
    document: Document
    tokens: tuple[Token, ...]
    spans: tuple[Span, ...]  # the lines of each token
    facts: dict[str, Fact]
    stamps: dict[str, str]  # stamp key -> value
    sections: tuple[str, ...]  # the `##` section each token is in


@dataclass(frozen=True)
class Piece:
    """One token of the result, named by where it comes from."""

    side: str  # OURS or THEIRS
    index: int  # token index in that side


@dataclass(frozen=True)
class Sides:
    """The three versions of one merge."""

    base: Version
    ours: Version
    theirs: Version

    @property
    def newline(self) -> str:
        """Ours' line ending, given to every line the result takes from theirs."""
        return self.ours.document.file.newline

    def side(self, name: str) -> Version:
        return self.ours if name == OURS else self.theirs

    def token(self, piece: Piece) -> Token:
        return self.side(piece.side).tokens[piece.index]

    def lines(self, name: str, start: int, end: int) -> tuple[str, ...]:
        """Lines of one side as the result holds them: ours' bytes, theirs' with ours' ending."""
        lines = self.side(name).document.lines[start:end]
        return lines if name == OURS else normal(lines, self.newline)

    def token_lines(self, name: str, tokens: Span) -> tuple[str, ...]:
        """The lines of a stretch of one side's tokens."""
        spans = self.side(name).spans[slice(*tokens)]
        if not spans:
            return ()
        return self.lines(name, spans[0][0], spans[-1][1])


def read_version(text: str, label: str) -> Version:
    """Parse one version (raises ParseError when it does not parse) and cut it into tokens."""
    document = parse_document(text_file(label, text))
    stamps = {key: found for key, found in read_stamps(document).items() if key in STAMP_KEYS}
    tokens, spans = _tokens(document, {index: key for key, (index, _) in stamps.items()})
    titles = [""] * len(document.lines)
    for section in document.sections:
        start = max(section.start, 0)
        titles[start : section.end] = [section.title] * (section.end - start)
    return Version(
        document,
        tokens,
        spans,
        {fact.id: fact for fact in document.facts},
        {key: value for key, (_, value) in stamps.items()},
        tuple(titles[start] for start, _ in spans),
    )


def _tokens(
    document: Document, stamp_at: dict[int, str]
) -> tuple[tuple[Token, ...], tuple[Span, ...]]:
    lines = document.lines
    fact_at = {fact.start: fact for fact in document.facts}
    tokens: list[Token] = []
    spans: list[Span] = []
    index = 0
    while index < len(lines):
        if index in fact_at:
            fact = fact_at[index]
            tokens.append(("fact", fact.id))
            spans.append((fact.start, fact.end))
            index = fact.end
            continue
        if index in stamp_at:
            tokens.append(("stamp", stamp_at[index]))
        else:
            tokens.append(("line", body(lines[index])))
        spans.append((index, index + 1))
        index += 1
    return tuple(tokens), tuple(spans)


def kind(token: Token) -> str:
    """What a token is on the page: blank, heading, line, or item (a fact or a stamp)."""
    if token[0] != "line":
        return "item"
    return "blank" if blank(token) else "heading" if heading(token[1]) else "line"


def blank(token: Token) -> bool:
    return token[0] == "line" and not token[1].strip()
