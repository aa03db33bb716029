"""The memory folder's lock, so that commands sharing a memory take turns.

An OS lock (`flock`, through filelock) on a lock file: the operating system releases it
when its holder exits, however it exits, so no lock is ever stale and none is broken by
guessing whether its holder still runs. The file stays after release, since waiters must
all lock the same file, so it lives where git never shows it: in the repository's git
folder (`.git/mdmem/`), or beside the memory (`memory/.mdmem.lock`, which init's
.gitignore lists) outside a repository.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from pathlib import Path

from mdmem.errors import LockError, WriteError
from mdmem.git.plumbing import git_folder

LOCK = ".mdmem.lock"

# How long `locked` waits for another process, in seconds. The CLI sets it from
# `--lock-timeout` / MDMEM_LOCK_TIMEOUT; library callers may pass `timeout=` instead.
TIMEOUT = 30.0

_held: set[Path] = set()


def lock_path(root: Path) -> Path:
    """The lock file of the memory folder `root`: one per folder, the same for every process."""
    root = root.resolve()
    folder = git_folder(root)
    if folder is None:
        return root / LOCK
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:16]
    return folder / "mdmem" / f"lock-{digest}"


@contextlib.contextmanager
def locked(root: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the memory folder's lock, waiting up to `timeout` seconds (None: `TIMEOUT`).

    Re-entrant within one process, so a command may lock and then call library
    functions that lock too.
    """
    path = lock_path(root)
    if path in _held:
        yield
        return
    wait = TIMEOUT if timeout is None else timeout
    import filelock  # a twentieth of a second to import: only for commands that lock

    lock = filelock.FileLock(path)
    try:
        path.parent.mkdir(exist_ok=True)
        lock.acquire(timeout=wait)
    except filelock.Timeout:
        raise LockError(
            f"another mdmem command holds this memory's lock (waited {wait:g} s); let it "
            "finish and run this command again, or wait longer with --lock-timeout SECONDS "
            "or MDMEM_LOCK_TIMEOUT",
            path,
        ) from None
    except OSError as exc:
        raise WriteError(f"cannot lock {path}: {exc.strerror}") from None
    _held.add(path)
    try:
        yield
    finally:
        _held.discard(path)
        lock.release()
