"""`mdmem export`: the memory's core facts written as a marked block into a vendor's
instructions file (`TARGETS`), for agents that never run mdmem.

The facts are the ones `mdmem context` shows as core (`reading.sources.context` picks them;
nothing here chooses again). Everything outside the block stays byte for byte, and the same
memory gives the same bytes. A fact holding secret material or a poisoning marker refuses
the export: the file is read by agents that never run mdmem's checks.
"""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from mdmem.errors import MdmemError, ParseError, SecretError
from mdmem.format.blocks import with_block
from mdmem.format.textfile import TextFile, split_lines
from mdmem.reading.context import CORE, PITFALLS, TITLES, Item, shown_text
from mdmem.reading.sources import context
from mdmem.safety.harm import first_harm
from mdmem.store.files import read
from mdmem.store.folders import exists, make_folders, project_of
from mdmem.store.lock import locked
from mdmem.store.writer import replace_file

BLOCK = "export"
EVERYTHING = 10**12  # a budget nothing exceeds: the core is never cut, and the rest unused
# Each format's file, relative to the project's folder, and what a new one starts with
# (a Cursor rule, the frontmatter that applies it to every request).
TARGETS = {
    "agents-md": ("AGENTS.md", ""),
    "claude-md": ("CLAUDE.md", ""),
    "cursor": (
        ".cursor/rules/mdmem.mdc",
        "---\n"
        "description: Core facts and invariants from this project's memory, exported by mdmem\n"
        "alwaysApply: true\n"
        "---\n",
    ),
    "copilot": (".github/copilot-instructions.md", ""),
}
FORMATS = tuple(TARGETS)


@dataclass(frozen=True)
class Exported:
    path: Path
    display: str  # relative to the project's folder
    format: str
    ids: tuple[str, ...]  # the facts exported, in the block's order
    created: bool  # the file did not exist
    changed: bool  # the file's text changes (or would, on a dry run)
    dry_run: bool
    diff: str  # what changes, as a unified diff

    def as_dict(self) -> dict[str, Any]:
        found = asdict(self)  # `ids` a tuple, which JSON writes as a list
        del found["display"]
        return {**found, "path": str(self.path)}


def export(root: Path, fmt: str, *, dry_run: bool = False) -> Exported:
    """Write (or, on a dry run, only show) the core facts in format `fmt`'s file."""
    if fmt not in TARGETS:
        raise MdmemError(f"no such format {fmt!r}: the formats are {', '.join(FORMATS)}")
    root = Path(root).resolve()
    relative, preamble = TARGETS[fmt]
    items = tuple(item for item in context(root, None, budget=EVERYTHING).items if item.entry.core)
    for item in items:
        harm = first_harm(item.entry.text)
        if harm is not None:
            error = SecretError if harm.secret else ParseError
            what = f"{item.entry.id} holds {harm.detail}; run `mdmem lint`; nothing exported"
            raise error(what, item.entry.path, item.entry.line)
    project = project_of(root)
    path = project / relative
    with locked(root):
        file = read(path, relative) if exists(path) else None
        before = None if file is None else file.text()
        new = TextFile(relative, split_lines(preamble)) if file is None else file
        after = with_block(new, BLOCK, render_block(items, fmt, root.name))
        changed = after != before
        if changed and not dry_run:
            make_folders(project, path.parent)
            replace_file(path, after.encode("utf-8"))
    ids = tuple(item.entry.id for item in items)
    diff = _unified_diff(before, after, relative) if changed else ""
    return Exported(path, relative, fmt, ids, file is None, changed, dry_run, diff)


def render_block(items: tuple[Item, ...], fmt: str, memory: str) -> str:
    """The block's body: a heading, where it comes from, one line per fact with its id."""
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
    scope = item.entry.get("scope")
    where = f" (applies to {scope.strip()})" if scope and scope.strip() else ""
    return f"- {shown_text(item, whole=True)}{where} [{item.entry.id}]"


def _unified_diff(before: str | None, after: str, path: str) -> str:
    """What an export would change, as a unified diff (`/dev/null` for a new file)."""
    source = "/dev/null" if before is None else f"a/{path}"
    old, new = split_lines(before or ""), split_lines(after)
    lines = difflib.unified_diff(old, new, source, f"b/{path}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
