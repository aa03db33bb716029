"""mdmem's marked blocks in files it shares with people: AGENTS.md, CLAUDE.md, vendor rules.

A block is the lines between `<!-- mdmem:begin NAME -->` and `<!-- mdmem:end NAME -->`.
mdmem writes only inside its own block: `with_block` replaces the lines between the
markers, or appends the block at the end when the file has none, and leaves every
other byte as it was. Writing the same body twice gives the same text, so a command
that regenerates a block is idempotent. A block whose markers do not pair up is
refused, with the line, rather than guessed at. A marker inside fenced code is quoted,
not a marker.
"""

from __future__ import annotations

import re

from mdmem.errors import ParseError
from mdmem.format.fences import closes, opening
from mdmem.format.textfile import TextFile, body, split_lines

NAME = re.compile(r"^[a-z][a-z0-9-]*$")
_MARKER = re.compile(r"^\s*<!--\s*mdmem:(begin|end)\s+([a-z][a-z0-9-]*)\s*-->\s*$")


def begin(name: str) -> str:
    return f"<!-- mdmem:begin {name} -->"


def end(name: str) -> str:
    return f"<!-- mdmem:end {name} -->"


def marker(line: str) -> tuple[str, str] | None:
    """`("begin", NAME)` or `("end", NAME)` for a line that is one of mdmem's markers."""
    found = _MARKER.match(body(line))
    return None if found is None else (found.group(1), found.group(2))


def block_span(file: TextFile, name: str) -> tuple[int, int] | None:
    """The 0-based indexes of the block's begin and end lines, or None when it has none."""
    opened: int | None = None
    span: tuple[int, int] | None = None
    fence: str | None = None  # a marker quoted in fenced code is an example, not a marker
    for index, line in enumerate(file.lines):
        if fence is not None:
            fence = None if closes(body(line), fence) else fence
            continue
        fence = opening(body(line))
        found = marker(line)
        if found is None or found[1] != name:
            continue
        if found[0] == "begin":
            if opened is not None or span is not None:
                raise ParseError(_unpaired(name, "a second begin marker"), file.path, index + 1)
            opened = index
        else:
            if opened is None:
                early = _unpaired(name, "an end marker before its begin")
                raise ParseError(early, file.path, index + 1)
            span, opened = (opened, index), None
    if opened is not None:
        raise ParseError(_unpaired(name, "a begin marker without its end"), file.path, opened + 1)
    return span


def block_body(file: TextFile, name: str) -> str | None:
    """The text between the block's markers, or None when the file has no such block."""
    span = block_span(file, name)
    if span is None:
        return None
    return "".join(body(line) + "\n" for line in file.lines[span[0] + 1 : span[1]])


def with_block(file: TextFile, name: str, text: str) -> str:
    """The file's text with block `name` holding `text`, in the file's own line endings."""
    if not NAME.match(name):
        raise ValueError(f"not a block name: {name!r}")
    newline = file.newline if file.lines else "\n"
    inner = [body(line) + newline for line in split_lines(text)]
    block = [begin(name) + newline, *inner, end(name) + newline]
    span = block_span(file, name)
    if span is not None:
        lines = [*file.lines[: span[0]], *block, *file.lines[span[1] + 1 :]]
        return file.with_lines(lines).text()
    lines = list(file.lines)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += newline
    if lines and body(lines[-1]).strip():
        lines.append(newline)  # a blank line between the file's own text and the block
    return file.with_lines([*lines, *block]).text()


def _unpaired(name: str, what: str) -> str:
    return (
        f"mdmem's '{name}' block has {what}; pair {begin(name)} with {end(name)} "
        "(or delete both), then run the command again"
    )
