"""The paths live facts name, checked against git's list of the repository's files (I/O):
for lint (W028), `mdmem context`'s mark and `mdmem diff`."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from mdmem.format.document import Document
from mdmem.git.discover import top_level
from mdmem.git.revisions import ever_held, listed_files, renames
from mdmem.linting.paths import GonePath, RepoFiles, gone_paths


def gone_in_working_tree(
    root: Path, documents: Iterable[Document], *, with_renames: bool = True
) -> list[GonePath]:
    """The paths the live facts of `documents` name that the working tree (git's list of
    its files) does not hold, with the renames git saw (history read only when a path is
    gone; `with_renames=False`: not asked, for a reader that only marks the fact). None
    outside a repository, or when it holds nothing but the memory `root` (then the paths
    its facts name are a repository's it is not in)."""
    top = top_level(root)
    if top is None:
        return []
    memory = Path(os.path.relpath(Path(root).resolve(), top)).as_posix()
    files = RepoFiles.of(listed_files(top), "" if memory == "." else memory)
    documents = tuple(documents)
    gone = gone_paths(documents, files, {}) if files.holds_code else []
    if not gone:
        return []
    return once_held(top, gone_paths(documents, files, renames(top)) if with_renames else gone)


def once_held(top: Path, gone: list[GonePath], until: str = "HEAD") -> list[GonePath]:
    """The gone paths that git's history up to `until` once held (a path never committed,
    a generated file or a route, is no code that is gone), and every scope glob: a scope
    that matches no file is a finding whether or not it ever did."""
    named = sorted({item.path for item in gone if not item.scope})
    held = ever_held(top, named, until)
    return [item for item in gone if item.scope or _among(item.path, held)]


def _among(path: str, held: frozenset[str]) -> bool:
    path = path.rstrip("/")
    if "/" not in path:
        return any(
            name == path or name.endswith(f"/{path}") or f"/{path}/" in f"/{name}" for name in held
        )
    return path in held or any(name.startswith(f"{path}/") for name in held)
