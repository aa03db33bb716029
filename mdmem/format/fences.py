"""Fenced code blocks, read one way by every reader of memory markdown.

CommonMark's rules, as far as a memory needs them: a fence opens on a line of three or
more backticks or tildes (after any indentation); a backtick fence's info string holds no
backtick, so a line such as ```` ```x``` then text ```` is an inline code span, not a
fence; a fence closes on a line of its own character, at least as long, with nothing
after it; a fence never closed runs to the end of the text.
"""

from __future__ import annotations

import re

_MARKER = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)")


def opening(line_body: str) -> str | None:
    """The fence marker a line opens a fenced block with, or None."""
    match = _MARKER.match(line_body)
    if match is None:
        return None
    marker, info = match.groups()
    if marker[0] == "`" and "`" in info:
        return None  # an inline code span written with backticks
    return marker


def closes(line_body: str, marker: str) -> bool:
    """Whether a line closes the fenced block `marker` opened."""
    match = _MARKER.match(line_body)
    return (
        match is not None
        and match[1][0] == marker[0]
        and len(match[1]) >= len(marker)
        and not match[2].strip()
    )


class Fences:
    """Follows the fenced blocks of a text fed line by line (each line without its ending)."""

    def __init__(self) -> None:
        self.open: str | None = None

    def step(self, line_body: str) -> bool:
        """Feed a line; True when the line belongs to a fenced block (markers included)."""
        if self.open is not None:
            if closes(line_body, self.open):
                self.open = None
            return True
        if "```" not in line_body and "~~~" not in line_body:
            return False  # the usual line, without a regular expression
        self.open = opening(line_body)
        return self.open is not None


Blocks = list[tuple[int, int]]  # (first, last) line-start offsets of each fenced block


def fenced_blocks(text: str) -> Blocks:
    """Where the fenced blocks of a whole text are, as the offsets of their first and last
    lines' starts. Only a line holding a marker can open or close a block, so those lines
    alone are looked at; a block never closed runs to the end of the text."""
    starts: set[int] = set()
    for marker in ("```", "~~~"):
        position = text.find(marker)
        while position >= 0:
            starts.add(text.rfind("\n", 0, position) + 1)
            line_end = text.find("\n", position)
            position = -1 if line_end < 0 else text.find(marker, line_end)
    fences = Fences()
    blocks: Blocks = []
    opened = 0
    for line_start in sorted(starts):
        line_end = text.find("\n", line_start)
        was_open = fences.open is not None
        fences.step(text[line_start : len(text) if line_end < 0 else line_end].rstrip("\r"))
        if not was_open and fences.open is not None:
            opened = line_start
        elif was_open and fences.open is None:
            blocks.append((opened, line_start))
    if fences.open is not None:
        blocks.append((opened, len(text)))
    return blocks
