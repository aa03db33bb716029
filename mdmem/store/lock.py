"""The memory folder's lock, so that commands sharing a memory take turns.

An OS lock (`flock`, through filelock) on `memory/.mdmem.lock`: the operating system
releases it when its holder exits, however it exits, so no lock is ever stale and none
is broken by guessing whether its holder still runs. The file lives in the memory folder
itself, so that every path that reaches the folder (a link, a bind mount, another case
of the same name) reaches the same lock; it stays after release, since waiters must all
lock the same file, and init's .gitignore lists it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from mdmem.errors import LockError, WriteError

LOCK = ".mdmem.lock"

# How long `locked` waits for another process, in seconds. The CLI sets it from
# `--lock-timeout` / MDMEM_LOCK_TIMEOUT; library callers may pass `timeout=` instead.
TIMEOUT = 30.0

_held: set[Path] = set()


@contextlib.contextmanager
def locked(root: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the memory folder's lock, waiting up to `timeout` seconds (None: `TIMEOUT`).

    Re-entrant within one process, so a command may lock and then call library
    functions that lock too.
    """
    if not root.is_dir():
        raise WriteError(f"cannot lock {root}: not a folder")
    path = (root / LOCK).resolve()
    if path in _held:
        yield
        return
    wait = TIMEOUT if timeout is None else timeout
    if wait < 0:
        raise ValueError(f"a lock timeout is a number of seconds, not {wait:g}")
    import filelock  # its import costs more than a short command's own work

    lock = filelock.FileLock(path)
    try:
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
