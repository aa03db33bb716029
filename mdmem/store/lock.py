"""The memory folder's lock, so that commands sharing a memory take turns.

An OS lock (`flock`, through filelock) on one file per memory folder: the operating system
releases it when its holder exits, however it exits, so no lock is ever stale and none
is broken by guessing whether its holder still runs. The file stays after release, since
waiters must all lock the same file.

Inside a git repository the file is in the git folder, `<git folder>/mdmem/NAME.lock`,
NAME the memory folder's path from the top of the working tree (`memory.lock`), so that
a command leaves nothing in the working tree, and `git status` shows after a read-only
command what it showed before, whatever the repository ignores. Every path that reaches
the folder reaches the same file: a link is resolved; a bind mount of the repository
reaches the same git folder by the same relative path (a name made from the absolute
path would not: two writers once came in that way); the name is case-folded, so the
same name in another case on a case-insensitive disk is the same lock (two folders
whose names differ only in case, on a disk that tells them apart, merely take turns).
Outside a repository the file is `.mdmem.lock` in the memory folder. A repository whose
memory folder already holds `.mdmem.lock` (made by an older mdmem, or by a command that
reached the folder from outside the repository) has that file locked too, after the
git folder's, so such a command takes turns with this one.
"""

from __future__ import annotations

import contextlib
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from mdmem.errors import LockError, WriteError
from mdmem.store.journal import interrupted

LOCK = ".mdmem.lock"  # in the memory folder, outside a git repository
FOLDER = "mdmem"  # in the git folder: one `NAME.lock` per memory folder of the work tree

# How long `locked` waits for another process, in seconds. The CLI sets it from
# `--lock-timeout` / MDMEM_LOCK_TIMEOUT; library callers may pass `timeout=` instead.
TIMEOUT = 30.0

_held: set[Path] = set()


def lock_file(root: Path) -> Path:
    """The file whose lock stands for the memory folder `root` (see the module's note)."""
    # Imported here: the CLI loads this module for TIMEOUT before it knows the command.
    from mdmem.git.discover import repository_folders

    root = Path(root).resolve()
    found = repository_folders(root)
    if found is None:
        return root / LOCK
    top, git_dir = found
    # The per-worktree git folder, not the common one: a memory folder belongs to one
    # working tree, each linked worktree checks out a memory folder of its own (at the
    # same relative path), and every path to a folder of a worktree finds that worktree's
    # `.git` file, naming the same git folder. With the common folder, the memories of
    # two worktrees would share a lock for nothing; `git worktree prune` removes a
    # worktree's lock with its git folder.
    return git_dir / FOLDER / f"{_name(root.relative_to(top).as_posix())}.lock"


def _name(relative: str) -> str:
    """A file name for a memory folder's relative path: one case, one Unicode form, `%`,
    `/` and a leading `.` escaped as in a URL, so that no two paths share a name."""
    folded = unicodedata.normalize("NFC", relative).casefold()
    escaped = folded.replace("%", "%25").replace("/", "%2F")
    return f"%2E{escaped[1:]}" if escaped.startswith(".") else escaped


@contextlib.contextmanager
def locked(root: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the memory folder's lock, waiting up to `timeout` seconds (None: `TIMEOUT`).

    Re-entrant within one process, so a command may lock and then call library
    functions that lock too.
    """
    if not root.is_dir():
        raise WriteError(f"cannot lock {root}: not a folder")
    path = lock_file(root)
    if path in _held:
        yield
        return
    wait = TIMEOUT if timeout is None else timeout
    if wait < 0:
        raise ValueError(f"a lock timeout is a number of seconds, not {wait:g}")
    files = [path]
    beside = root.resolve() / LOCK
    if path != beside and beside.is_file():
        files.append(beside)  # always after the git folder's: no two commands wait in a ring
    deadline = time.monotonic() + wait
    with contextlib.ExitStack() as held:
        for file in files:
            held.enter_context(_acquired(file, wait, max(0.0, deadline - time.monotonic())))
        _held.add(path)
        try:
            yield
        finally:
            _held.discard(path)


@contextlib.contextmanager
def _acquired(path: Path, wait: float, left: float) -> Iterator[None]:
    """`path`'s lock, waiting up to `left` seconds of the command's `wait`."""
    import filelock  # its import costs more than a short command's own work

    try:
        path.parent.mkdir(exist_ok=True)  # the git folder's mdmem/ (a memory folder is there)
    except OSError as exc:
        raise WriteError(f"cannot lock {path}: {exc.strerror}") from None
    lock = filelock.FileLock(path)
    try:
        lock.acquire(timeout=left)
    except filelock.Timeout:
        raise LockError(
            f"another mdmem command holds this memory's lock (waited {wait:g} s); let it "
            "finish and run this command again, or wait longer with --lock-timeout SECONDS "
            "or MDMEM_LOCK_TIMEOUT",
            path,
        ) from None
    except OSError as exc:
        raise WriteError(f"cannot lock {path}: {exc.strerror}") from None
    try:
        yield
    finally:
        lock.release()


def finish_interrupted(root: Path, timeout: float | None = None) -> list[str]:
    """Run `writer.recover` under the lock when a write was cut short; costs a few checks
    otherwise.

    Every command calls this before it reads, so a crash leaves no visible trace past
    the next run of any command, read-only ones included. `mdmem init` journals in the
    project folder (it writes DECAY.md and .gitattributes beside memory/), so that
    folder is looked at too.
    """
    folders = [folder for folder in (root, root.parent) if interrupted(folder)]
    if not folders:
        return []
    # Start-up: a reading command imports no writer (hashlib, json), only after a crash.
    from mdmem.store.writer import recover

    finished: list[str] = []
    with locked(root, timeout):
        for folder in folders:
            finished += recover(folder)
    return finished
