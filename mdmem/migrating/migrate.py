"""Carrying out `mdmem migrate`: find and read the source files, then, under the memory's
lock, decide (`plan_migration`) and write every file in one all-or-nothing write. The
source files are only read. No commit: the user reads the new facts, then commits."""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath

from mdmem.errors import MdmemError, WriteError
from mdmem.format.memory import BLOCKED, Memory
from mdmem.format.sessionlog import parse_session_name
from mdmem.format.textfile import checked_text
from mdmem.migrating.cass import read_blocked_log, read_playbook
from mdmem.migrating.markdown import read_markdown
from mdmem.migrating.metadata import Header, read_header
from mdmem.migrating.plan import SLUG, MigrationPlan, plan_migration
from mdmem.migrating.sources import (
    BLOCKED_LOG,
    FOLDER_FILES,
    KNOWN,
    MARKDOWN,
    PLAYBOOK,
    Kind,
    Source,
    kind_of,
)
from mdmem.store.files import read_bytes
from mdmem.store.load import load, read_optional
from mdmem.store.lock import locked
from mdmem.store.writer import recover, write_files
from mdmem.writing.backfill import utc_stamp
from mdmem.writing.logs import free_stem

# Folders a folder's walk never enters: version control, dependencies, caches.
PASSED_OVER = frozenset(
    {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"}
    | {".pytest_cache", ".ruff_cache"}
)


def migrate(
    root: Path,
    sources: Sequence[Path],
    *,
    dry_run: bool = False,
    stamp: str | None = None,
    cwd: Path | None = None,
) -> MigrationPlan:
    """Import the rules of `sources` (files, or folders whose files of a known kind are
    taken) into the memory at `root`, in one new session log named for `stamp`
    (`YYYY-MM-DD-HHMMSS`, UTC; by default, now). Relative sources are read from `cwd`
    (by default, the current folder). With `dry_run`, or when nothing is new, nothing is
    written. Any bad source refuses the whole migration, naming its file and line."""
    root = Path(root).resolve()
    here = Path.cwd() if cwd is None else cwd
    read = tuple(
        _read(path, display, kind, root.parent)
        for path, display, kind in gather(sources, here, root)
    )
    with locked(root):
        recover(root)
        memory = load(root)
        when = stamp or _stamp(memory)
        plan = plan_migration(memory, read, when, read_optional(root, BLOCKED))
        if dry_run or not plan.writes:
            return plan
        log = root / str(plan.log)
        if log.exists() or log.is_symlink():
            raise WriteError(f"{plan.root_label}/{plan.log} exists already; run migrate again")
        write_files(root, plan.writes)
    return plan


def _stamp(memory: Memory) -> str:
    """Now, UTC, or the first second after the newest log when that is later by less than
    a minute (a second migration in the same second); a log further ahead is refused."""
    newest = memory.sessions[-1].name if memory.sessions else None

    def taken(stem: str) -> bool:
        return newest is not None and parse_session_name(f"{stem}.md", stem) <= newest

    now = datetime.datetime.now(datetime.timezone.utc)
    try:
        return free_stem(now, SLUG, taken).removesuffix(f"-{SLUG}")
    except MdmemError:
        return utc_stamp()


def gather(sources: Sequence[Path], cwd: Path, root: Path) -> list[tuple[Path, str, Kind]]:
    """(path, as shown, kind) of every file to read, in the order given (a folder's files
    sorted), each once."""
    found: dict[Path, tuple[Path, str, Kind]] = {}
    for given in sources:
        joined = cwd / given  # the folder resolved, not the file: a link is refused
        path = joined.parent.resolve() / joined.name
        display = _shown(path, root.parent)
        if path.is_dir() and not path.is_symlink():
            files = list(_walk(path, root))
            if not files:
                raise MdmemError(f"{display}: holds no file of a kind migrate reads ({KNOWN})")
            for file, kind in files:
                found.setdefault(file, (file, _shown(file, root.parent), kind))
        elif path.is_file() or path.is_symlink():
            known = kind_of(path)
            if known is None:
                raise MdmemError(f"{display}: not a kind of file migrate reads; it reads {KNOWN}")
            found.setdefault(path, (path, display, known))
        else:
            raise MdmemError(f"{display}: no such file or folder")
    return list(found.values())


def _walk(folder: Path, root: Path) -> Iterator[tuple[Path, Kind]]:
    for top, folders, files in os.walk(folder):
        folders[:] = sorted(
            name for name in folders if name not in PASSED_OVER and Path(top, name) != root
        )
        for name in sorted(files):
            path = Path(top, name)
            kind = kind_of(path)
            if kind is not None and not path.is_symlink():
                yield path, kind


def _shown(path: Path, project: Path) -> str:
    """A path as the user reads it, and as the committed log may name it, never naming the
    machine: below the project's top when it is there, else below `~` when it is in the
    home folder, else its name alone."""
    if path.is_relative_to(project):
        return path.relative_to(project).as_posix()
    home = _home()
    if home is not None and path.is_relative_to(home):
        return PurePosixPath("~", path.relative_to(home).as_posix()).as_posix()
    return f"{path.name or path.anchor} (outside the project)"


def _home() -> Path | None:
    try:
        return Path.home().resolve()
    except RuntimeError:  # no home folder known: nothing is shown below it
        return None


def _read(path: Path, display: str, kind: Kind, project: Path) -> Source:
    """The rules (or tombstones) of a file, by the reader its kind names."""
    text = checked_text(read_bytes(path, display), display).replace("\r\n", "\n")
    if kind.reader == PLAYBOOK:
        return Source(display, kind.label, rules=read_playbook(text, display))
    if kind.reader == BLOCKED_LOG:
        return Source(display, kind.label, tombstones=read_blocked_log(text, display))
    if kind.reader == MARKDOWN:
        # A CLAUDE.md, AGENTS.md or GEMINI.md below the project's top scopes its rules to
        # its folder's files (`packages/api/**`).
        folder = path.parent.relative_to(project) if path.is_relative_to(project) else None
        nested = folder is not None and folder.parts and path.name.lower() in FOLDER_FILES
        header = Header(0, f"{folder.as_posix()}/**" if folder is not None and nested else None)
    else:
        header = read_header(text, kind.reader, display)
    body = text.split("\n")[header.body :]
    rules = read_markdown(body, header.body + 1, display, header.scope, header.core_reason)
    return Source(display, kind.label, rules=rules)
