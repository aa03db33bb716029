"""`mdmem export`'s text: the core facts and invariants as a marked block in a vendor's file.

For agents that never run mdmem: the facts `mdmem context` shows as core (continuity's
core facts and invariants, the vision's statements; never a superseded, blocked, done or
deprecated one), core anti-patterns apart as pitfalls (each a prohibition, as context
shows it), each line ending with its fact's id, between `<!-- mdmem:begin export -->`
and `<!-- mdmem:end export -->`. Everything outside the block stays byte for byte; the
same memory gives the same bytes. A new Cursor rule file starts with the frontmatter
that applies it to every request. Pure.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mdmem.format.blocks import with_block
from mdmem.format.textfile import TextFile, split_lines

if TYPE_CHECKING:  # the command line reads FORMATS at start-up; context is loaded to export
    from mdmem.reading.context import Context, Item

BLOCK = "export"
CURSOR_FRONTMATTER = (
    "---\n"
    "description: Core facts and invariants from this project's memory, exported by mdmem\n"
    "alwaysApply: true\n"
    "---\n"
)


@dataclass(frozen=True)
class Target:
    path: str  # relative to the project's folder
    preamble: str  # what a new file starts with, before the block


TARGETS = {
    "agents-md": Target("AGENTS.md", ""),
    "claude-md": Target("CLAUDE.md", ""),
    "cursor": Target(".cursor/rules/mdmem.mdc", CURSOR_FRONTMATTER),
    "copilot": Target(".github/copilot-instructions.md", ""),
}
FORMATS = tuple(TARGETS)


def core_items(context: Context) -> tuple[Item, ...]:
    """The core items of a context, in its order: its core section, then core pitfalls."""
    return tuple(item for item in context.items if item.entry.core)


def render_block(items: Sequence[Item], fmt: str, memory: str) -> str:
    """The block's body: a heading, where it comes from, one line per fact with its id."""
    from mdmem.reading.context import CORE, PITFALLS, TITLES

    lines = [
        "## Core facts and invariants (project memory)",
        "",
        f"Exported from `{memory}/` by `mdmem export --format {fmt}`: change the memory, then "
        "run that command again, rather than editing between these markers. Each line ends "
        "with its fact's id (`mdmem show ID` tells its story).",
        "",
    ]
    rules = [_line(item) for item in items if item.section == CORE]
    pitfalls = [_line(item) for item in items if item.section == PITFALLS]
    lines += rules or ["- (no core facts yet: `mdmem core ID` makes a fact core)"]
    if pitfalls:
        lines += ["", f"### {TITLES[PITFALLS]}", "", *pitfalls]
    return "\n".join(lines) + "\n"


def _line(item: Item) -> str:
    from mdmem.reading.context import shown_text

    scope = item.entry.get("scope")
    where = f" (applies to {scope.strip()})" if scope and scope.strip() else ""
    return f"- {shown_text(item, whole=True)}{where} [{item.entry.id}]"


def exported_text(file: TextFile | None, target: Target, body: str) -> str:
    """The file's text with the block holding `body`; a missing file starts with the
    target's preamble."""
    if file is None:
        file = TextFile(target.path, split_lines(target.preamble))
    return with_block(file, BLOCK, body)


def unified_diff(before: str | None, after: str, path: str) -> str:
    """What an export would change, as a unified diff (`/dev/null` for a new file)."""
    source = "/dev/null" if before is None else f"a/{path}"
    old, new = split_lines(before or ""), split_lines(after)
    lines = difflib.unified_diff(old, new, source, f"b/{path}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
