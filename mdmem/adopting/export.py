"""`mdmem export`: write the memory's core facts into a vendor's instructions file.

The facts are the ones `mdmem context` shows as core (`mdmem.reading.sources.context`
picks them; nothing here chooses again), rendered by `mdmem.adopting.exported` into the
file's `export` block in the folder that holds the memory: AGENTS.md, CLAUDE.md,
`.cursor/rules/mdmem.mdc` or `.github/copilot-instructions.md`. A fact holding secret
material or a poisoning marker is refused, naming its line, and nothing is written: the
file is read by agents that never run mdmem's checks. The file is replaced in one atomic
write, under the memory's lock, and only when its text changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mdmem.adopting import exported
from mdmem.errors import MdmemError, ParseError, SecretError
from mdmem.safety.harm import first_harm
from mdmem.store.files import read
from mdmem.store.folders import exists, make_folders, project_of
from mdmem.store.lock import locked
from mdmem.store.writer import replace_file

if TYPE_CHECKING:
    from mdmem.reading.context import Item

EVERYTHING = 10**12  # a budget nothing exceeds: the core is never cut, and the rest unused


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
        return {
            "path": str(self.path),
            "format": self.format,
            "ids": list(self.ids),
            "created": self.created,
            "changed": self.changed,
            "dry_run": self.dry_run,
            "diff": self.diff,
        }


def export(root: Path, fmt: str, *, dry_run: bool = False) -> Exported:
    """Write (or, on a dry run, only show) the core facts in format `fmt`'s file."""
    from mdmem.reading.sources import context

    if fmt not in exported.TARGETS:
        raise MdmemError(f"no such format {fmt!r}: the formats are {', '.join(exported.FORMATS)}")
    root = Path(root).resolve()
    target = exported.TARGETS[fmt]
    items = exported.core_items(context(root, None, budget=EVERYTHING))
    _refuse_unsafe(items)
    body = exported.render_block(items, fmt, root.name)
    project = project_of(root)
    path = project / target.path
    with locked(root):
        file = read(path, target.path) if exists(path) else None
        before = None if file is None else file.text()
        after = exported.exported_text(file, target, body)
        changed = after != before
        if changed and not dry_run:
            make_folders(project, path.parent)
            replace_file(path, after.encode("utf-8"))
    ids = tuple(item.entry.id for item in items)
    diff = exported.unified_diff(before, after, target.path) if changed else ""
    return Exported(path, target.path, fmt, ids, file is None, changed, dry_run, diff)


def _refuse_unsafe(items: tuple[Item, ...]) -> None:
    for item in items:
        entry = item.entry
        harm = first_harm(entry.text)
        if harm is not None:
            error = SecretError if harm.secret else ParseError
            what = f"{entry.id} holds {harm.detail}; run `mdmem lint`; nothing exported"
            raise error(what, entry.path, entry.line)
