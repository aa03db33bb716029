"""All-or-nothing writes: temp files, a journal, atomic renames, and a lock per memory folder.

A set of files is written by (1) writing each new text to a temp file beside its
target and syncing it, (2) committing a journal that names the targets, (3)
renaming every temp file over its target, (4) removing the journal. A crash
before (2) leaves the old files and stray temp files, which the next run deletes;
a crash after (2) is rolled forward by the next run. Either way the tree is
exactly the old state or exactly the new one.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from mdmem.errors import LockError, WriteError

JOURNAL = ".mdmem-journal"
LOCK = ".mdmem.lock"
TEMP_SUFFIX = ".mdmem-tmp"

# Test seam: called with a label before every step that touches the disk.
fault_hook: Callable[[str], None] | None = None


def _step(label: str) -> None:
    if fault_hook is not None:
        fault_hook(label)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_files(root: Path, files: Mapping[str, str]) -> None:
    """Write every `relative path -> text` under root, all or nothing."""
    recover(root)
    if not files:
        return
    targets = {relative: _target(root, relative) for relative in sorted(files)}
    temps: list[Path] = []
    try:
        for relative, target in targets.items():
            _step(f"temp:{relative}")
            target.parent.mkdir(parents=True, exist_ok=True)
            temp = target.with_name(target.name + TEMP_SUFFIX)
            temps.append(temp)
            _write_synced(temp, files[relative].encode("utf-8"))
        _step("journal")
        journal_temp = root / (JOURNAL + TEMP_SUFFIX)
        temps.append(journal_temp)
        _write_synced(journal_temp, json.dumps(sorted(targets)).encode("utf-8"))
        os.replace(journal_temp, root / JOURNAL)
        _fsync_dir(root)
    except OSError as exc:
        for temp in temps:
            with contextlib.suppress(OSError):
                temp.unlink()
        raise WriteError(
            f"could not write {exc.filename or root}: {exc.strerror}; nothing changed"
        ) from None
    except BaseException:
        for temp in temps:
            with contextlib.suppress(OSError):
                temp.unlink()
        raise
    _roll_forward(root, sorted(targets))


def _target(root: Path, relative: str) -> Path:
    target = root / relative
    if ".." in Path(relative).parts or Path(relative).is_absolute():
        raise WriteError(f"refusing to write outside the memory folder: {relative}")
    return target


def _roll_forward(root: Path, relatives: list[str]) -> None:
    folders = set()
    for relative in relatives:
        target = root / relative
        temp = target.with_name(target.name + TEMP_SUFFIX)
        _step(f"replace:{relative}")
        if temp.exists():
            os.replace(temp, target)
            folders.add(target.parent)
    for folder in sorted(folders):
        _fsync_dir(folder)
    _step("cleanup")
    with contextlib.suppress(FileNotFoundError):
        (root / JOURNAL).unlink()
    _fsync_dir(root)


def recover(root: Path) -> list[str]:
    """Finish a write a crash interrupted after its journal, or drop one from before it."""
    journal = root / JOURNAL
    finished: list[str] = []
    if journal.exists():
        try:
            relatives = json.loads(journal.read_text("utf-8"))
        except (OSError, ValueError):
            relatives = None
        if isinstance(relatives, list) and all(isinstance(r, str) for r in relatives):
            for relative in relatives:
                _target(root, relative)
            _roll_forward(root, relatives)
            finished = relatives
        else:
            raise WriteError(f"{journal} is unreadable; restore it from git or delete it")
    for temp in sorted(root.rglob("*" + TEMP_SUFFIX)):
        with contextlib.suppress(OSError):
            temp.unlink()
    return finished


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_held: set[Path] = set()


@contextlib.contextmanager
def locked(root: Path, timeout: float = 30.0, poll: float = 0.05) -> Iterator[None]:
    """Hold the memory folder's lock; wait up to `timeout` seconds, clear a dead holder's lock.

    Re-entrant within one process, so a command may lock and then call library
    functions that lock too.
    """
    path = (root / LOCK).resolve()
    if path in _held:
        yield
        return
    host = socket.gethostname()
    deadline = time.monotonic() + timeout
    while True:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            holder = _holder(path)
            if holder is not None and holder[1] == host and not _alive(holder[0]):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                continue
            if time.monotonic() >= deadline:
                who = f"process {holder[0]} on {holder[1]}" if holder else "another process"
                raise LockError(
                    f"the memory is locked by {who}; wait for it to finish, or delete "
                    f"{path.name} if no mdmem is running",
                    path,
                ) from None
            time.sleep(poll)
            continue
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES):
                raise WriteError(f"cannot lock {path}: {exc.strerror}") from None
            raise
        with os.fdopen(fd, "w") as handle:
            handle.write(f"{os.getpid()} {host}\n")
        break
    _held.add(path)
    try:
        yield
    finally:
        _held.discard(path)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _holder(path: Path) -> tuple[int, str] | None:
    try:
        pid, host = path.read_text("utf-8").split()
        return int(pid), host
    except (OSError, ValueError):
        return None
