"""`mdmem diff`'s I/O: the two sides read from git's objects (or the working tree), lint's
findings on each, then the pure comparison.

Only what differs is read twice: git names the paths that changed between the sides
(`git diff --raw`), the head side is read whole (the working tree from disk, a commit
from its blobs), and the base side is the head side with the changed files put back as
they were. Lint on each side is the checks of the parsed memory (`memory_findings`),
the text checks of the files that changed (the others find the same on both sides) and
the paths facts name; not the history of the logs, which is the same on both.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

from mdmem.changes.compare import compare
from mdmem.changes.model import Changes, Unreadable
from mdmem.changes.sides import Parsed, side
from mdmem.errors import MdmemError, ParseError
from mdmem.format.memory import SESSIONS, Memory
from mdmem.format.textfile import decode_text
from mdmem.git.discover import top_level
from mdmem.git.revisions import (
    PathChange,
    changed_paths,
    default_base,
    listed_files,
    read_blobs,
    resolve,
    tree_files,
)
from mdmem.linting.checks import memory_findings
from mdmem.linting.findings import NAMES_A_MISSING_FACT, Finding, finding
from mdmem.linting.gone import once_held
from mdmem.linting.paths import RepoFiles, gone_paths, path_findings
from mdmem.linting.texts import parse_finding, text_findings
from mdmem.store.files import read_bytes

WORKING_TREE = "working tree"


def diff(root: Path, base: str | None = None, head: str | None = None) -> Changes:
    """What changed in the memory folder `root` from `base` (default: where the branch left
    its upstream or the default branch) to `head` (default: the working tree)."""
    root = Path(root).resolve()
    top = top_level(root)
    if top is None:
        raise MdmemError(
            "mdmem diff compares two states git holds: not in a git repository", str(root)
        )
    folder = Path(os.path.relpath(root, top)).as_posix()
    folder = "" if folder == "." else folder
    base_commit = _commit(top, base) if base else (default_base(top) or _commit(top, "HEAD"))
    head_commit = _commit(top, head) if head else None
    changed = changed_paths(top, base_commit, head_commit)
    label = root.name
    if head_commit is None:
        every = listed_files(top)
        head_files = _from_disk(top, folder, every)
    else:
        every = frozenset(tree_files(top, head_commit))
        head_files = _from_blobs(top, folder, tree_files(top, head_commit, folder))
    base_files = _base_files(top, folder, head_files, changed, base_commit)
    parsed: Parsed = {}
    (base_side, base_unread), (head_side, head_unread) = (
        side("base", label, base_files, parsed),
        side("head", label, head_files, parsed),
    )
    sides = (base_side, head_side)
    moved = {c.path: (c.new_path if c.status == "R" else None) for c in changed if c.status in "DR"}
    renamed = {old: new for old, new in moved.items() if new is not None}
    base_repo, head_repo = (
        RepoFiles.of(tree_files(top, base_commit), folder),
        RepoFiles.of(every, folder),
    )
    moved |= _folders_gone(moved, head_repo)
    touched = _touched(folder, changed, head_files, base_files)
    unread = base_unread + head_unread
    found = (
        _lint(top, base_side, base_files, touched, (base_repo, renamed, base_commit)),
        _lint(top, head_side, head_files, touched, (head_repo, renamed, head_commit or "HEAD")),
    )
    findings = (_with(found[0], base_unread, unread), _with(found[1], head_unread, unread))
    names = (
        _name(base, base_commit),
        WORKING_TREE if head_commit is None else _name(head, head_commit),
    )
    logs = f"{folder}/{SESSIONS}/" if folder else f"{SESSIONS}/"
    rewritten = tuple(
        sorted(
            c.path[len(logs) : -len(".md")]
            for c in changed
            if c.status in "MT" and c.path.startswith(logs) and c.path.endswith(".md")
        )
    )
    return compare(*sides, names, findings, moved, unread, rewritten)


def _folders_gone(moved: Mapping[str, str | None], head: RepoFiles) -> dict[str, str | None]:
    """The folders of the paths the change deleted or renamed that head holds no file in
    (a fact may name the folder, `src/api/`), each renamed to the one folder its files all
    went to under the same names, when they did."""
    found: dict[str, str | None] = {}
    for path in moved:
        folder = path.rpartition("/")[0]
        while folder and folder not in found and folder not in head.folders:
            found[folder] = _went_to(folder, moved)
            folder = folder.rpartition("/")[0]
    return found


def _went_to(folder: str, moved: Mapping[str, str | None]) -> str | None:
    """Where every file of `folder` was renamed to, keeping its path below it; None when
    one was deleted or they went apart."""
    places = set()
    for old, new in moved.items():
        if old.startswith(f"{folder}/"):
            rest = old[len(folder) :]
            if new is None or not new.endswith(rest):
                return None
            places.add(new[: -len(rest)])
    return places.pop() if len(places) == 1 else None


def _commit(top: Path, revision: str) -> str:
    """The commit `revision` names; where HEAD names none yet, a refusal that says so."""
    try:
        return resolve(top, revision)
    except MdmemError:
        if revision != "HEAD":
            _commit(top, "HEAD")  # says so when HEAD names no commit either
            raise
    raise MdmemError(
        "nothing to compare yet: HEAD names no commit; commit the memory first, or name"
        " the two commits to compare (mdmem diff BASE HEAD)"
    )


def _name(given: str | None, commit: str) -> str:
    short = commit[:12]
    return f"{given} ({short})" if given and not commit.startswith(given) else short


def _inside(folder: str, path: str) -> str | None:
    """`path` relative to the memory folder, or None when it lies outside."""
    if not folder:
        return path
    return path[len(folder) + 1 :] if path.startswith(f"{folder}/") else None


def _from_disk(top: Path, folder: str, every: frozenset[str]) -> dict[str, bytes]:
    found = {}
    for path in sorted(every):
        relative = _inside(folder, path)
        if relative is not None and (top / path).is_file():  # no FIFO read: it could hang
            with contextlib.suppress(ParseError):  # a link, or gone since git listed it
                found[relative] = read_bytes(top / path, path)
    return found


def _from_blobs(top: Path, folder: str, blobs: Mapping[str, str]) -> dict[str, bytes]:
    contents = read_blobs(top, list(blobs.values()))
    return {
        relative: contents[blob]
        for path, blob in blobs.items()
        if (relative := _inside(folder, path)) is not None
    }


def _base_files(
    top: Path,
    folder: str,
    head: Mapping[str, bytes],
    changed: tuple[PathChange, ...],
    base_commit: str,
) -> dict[str, bytes]:
    """The base side's files: those the change did not touch as the head side holds them,
    the others from the base commit's blobs."""
    touched = {path for change in changed for path in (change.path, change.new_path)}
    base: dict[str, bytes] = {}
    wanted: dict[str, str] = {}
    for path, blob in tree_files(top, base_commit, folder).items():
        relative = _inside(folder, path)
        if relative is None:
            continue
        if path not in touched and relative in head:
            base[relative] = head[relative]
        else:
            wanted[relative] = blob
    contents = read_blobs(top, list(wanted.values()))
    base.update({relative: contents[blob] for relative, blob in wanted.items()})
    return dict(sorted(base.items()))


def _touched(
    folder: str,
    changed: tuple[PathChange, ...],
    head: Mapping[str, bytes],
    base: Mapping[str, bytes],
) -> frozenset[str]:
    """The memory's files whose bytes differ between the sides (untracked ones included)."""
    paths = {
        p for c in changed for p in (_inside(folder, c.path), _inside(folder, c.new_path)) if p
    }
    paths |= set(head) ^ set(base)
    return frozenset(path for path in paths if head.get(path) != base.get(path))


def _lint(
    top: Path,
    memory: Memory,
    files: Mapping[str, bytes],
    touched: frozenset[str],
    paths: tuple[RepoFiles, Mapping[str, str], str],
) -> list[Finding]:
    """Lint's findings on one side, as far as they can differ between the two; `paths`:
    what its commit holds, the paths renamed, and the commit, for W028 (the paths its live
    facts name that its commit does not hold)."""
    found = memory_findings(memory, memory.vision, memory.blocked)
    for relative in sorted(touched & files.keys()):
        display = f"{memory.root.name}/{relative}"
        try:
            text = decode_text(files[relative], display)
        except ParseError as error:
            found.append(parse_finding(error, display))
            continue
        found += text_findings(display, text, facts=not relative.startswith(f"{SESSIONS}/"))
    repo, renamed, until = paths
    gone = gone_paths(memory.live, repo, renamed) if repo.holds_code else None
    return found + path_findings(once_held(top, gone, until)) if gone else found


def _with(
    found: list[Finding], side: tuple[Unreadable, ...], both: tuple[Unreadable, ...]
) -> list[Finding]:
    """A side's findings with an E001 for each item it cannot read (`side`); while either
    side holds one (`both`), without the findings that a fact is missing, on both sides:
    its id may be the one they miss (as `mdmem lint` reads it)."""
    if both:
        found = [item for item in found if item.code not in NAMES_A_MISSING_FACT]
    return found + [finding("E001", item.path, item.line, item.why) for item in side]
