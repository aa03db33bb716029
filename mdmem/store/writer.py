"""All-or-nothing writes: temp files, a journal and atomic renames, under the memory's lock.

A set of files is written by (1) writing a pending journal that names every
target and the SHA-256 of each new text, (2) writing each new text to a temp file
beside its target and syncing it, then syncing every folder that received a temp
and the parent of every folder the write created, (3) committing the journal by
renaming it, (4) renaming every temp file over its target (or deleting a target
the write removes), (5) removing the journal.
A crash before (3) leaves the old files, stray temps and the pending journal,
which the next run deletes; a crash after (3) is rolled forward by the next run.
Either way the tree is exactly the old state or exactly the new one, and finding
out which takes two `exists` checks per folder (`mdmem.store.journal`), so every command
can afford to ask.

The digests make recovery unambiguous: a temp that is gone is either renamed
already (its target holds the new text) or lost (a disk that dropped synced data);
a lost text cannot be rolled forward, so recovery then refuses, naming the file,
rather than report a write finished that never arrived.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mdmem.errors import WriteError
from mdmem.store.folders import make_folders
from mdmem.store.journal import JOURNAL, PENDING, interrupted

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


def _temp(target: Path) -> Path:
    return target.with_name(target.name + TEMP_SUFFIX)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_digest(path: Path) -> str | None:
    try:
        return _digest(path.read_bytes())
    except OSError:
        return None


@dataclass(frozen=True)
class Journal:
    """What one write does: the targets it replaces and deletes, relative to its folder."""

    replace: tuple[str, ...]
    delete: tuple[str, ...]
    digests: Mapping[str, str]  # replace target -> SHA-256 of its new bytes; {} in old journals

    def dumps(self) -> str:
        plan = {"replace": self.replace, "delete": self.delete, "sha256": dict(self.digests)}
        return json.dumps(plan, sort_keys=True)


def write_files(root: Path, files: Mapping[str, str | None]) -> None:
    """Write every `relative path -> text` under root (None deletes the file), all or nothing.

    The caller holds `locked(root)`.
    """
    recover(root)
    if not files:
        return
    data = {r: text.encode("utf-8") for r, text in sorted(files.items()) if text is not None}
    plan = Journal(
        replace=tuple(data),
        delete=tuple(sorted(r for r, text in files.items() if text is None)),
        digests={relative: _digest(new) for relative, new in data.items()},
    )
    targets = {relative: _target(root, relative) for relative in sorted(files)}
    temps: list[Path] = []
    try:
        _step("pending")
        temps.append(root / PENDING)
        _write_synced(root / PENDING, plan.dumps().encode("utf-8"))
        _fsync_dir(root)
        folders = {root}  # to sync before the commit point, so no temp can vanish after it
        for relative in plan.replace:
            _step(f"temp:{relative}")
            target = targets[relative]
            folders |= {folder.parent for folder in make_folders(root, target.parent)}
            folders.add(target.parent)
            temps.append(_temp(target))
            _write_synced(_temp(target), data[relative])
        for folder in sorted(folders, reverse=True):  # a created folder before its parent
            _fsync_dir(folder)
        _step("journal")
        os.replace(root / PENDING, root / JOURNAL)
        _fsync_dir(root)
    except OSError as exc:
        _discard(temps)
        raise WriteError(
            f"could not write {exc.filename or root}: {exc.strerror}; nothing changed"
        ) from None
    except BaseException:
        _discard(temps)
        raise
    try:
        _roll_forward(root, plan)
    except OSError:
        # The journal is committed, so the only way out is forward: a transient fault
        # (a busy file, an interrupted call) is cured by going through it once more.
        try:
            _roll_forward(root, plan)
        except OSError as exc:
            raise WriteError(
                f"could not finish writing {exc.filename or root}: {exc.strerror}; the next "
                f"mdmem command completes the write from {JOURNAL}"
            ) from None


def replace_file(target: Path, data: bytes) -> None:
    """Replace one file outside a memory folder (git's merge result): temp, sync, rename.

    A temp a crash left beside the target is overwritten by the next call.
    """
    temp = _temp(target)
    try:
        _step(f"file-temp:{target.name}")
        _write_synced(temp, data)
        _step(f"file-rename:{target.name}")
        os.replace(temp, target)
    except OSError as exc:
        _discard([temp])
        raise WriteError(f"could not write {target}: {exc.strerror}; nothing changed") from None
    _fsync_dir(target.parent)


def _discard(paths: list[Path]) -> None:
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink()


def _target(root: Path, relative: str) -> Path:
    parts = Path(relative).parts
    if not parts or ".." in parts or Path(relative).is_absolute():
        raise WriteError(f"refusing to write outside the memory folder: {relative}")
    folder = root
    for part in parts[:-1]:
        folder = folder / part
        if folder.is_symlink():
            raise WriteError(
                f"refusing to write through a symbolic link: {root.name}/{relative}", folder
            )
    return root / relative


def _roll_forward(root: Path, plan: Journal) -> None:
    folders = set()
    for relative in plan.replace:
        target = root / relative
        _step(f"replace:{relative}")
        if _temp(target).exists():
            os.replace(_temp(target), target)
            folders.add(target.parent)
    for relative in plan.delete:
        target = root / relative
        _step(f"delete:{relative}")
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
            folders.add(target.parent)
    for folder in sorted(folders):
        _fsync_dir(folder)
    _step("cleanup")
    with contextlib.suppress(FileNotFoundError):
        (root / JOURNAL).unlink()
    _fsync_dir(root)


_JOURNAL_KEYS = {"replace", "delete", "sha256"}


def _read_journal(path: Path) -> Journal | None:
    """The journal on disk; None when it does not parse.

    Older formats still read: a bare list (replacements only), and an object without
    `sha256` (a journal from before digests, whose temps recovery has to trust).
    """
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, list):
        data = {"replace": data, "delete": []}
    if not isinstance(data, dict) or not {"replace", "delete"} <= set(data) <= _JOURNAL_KEYS:
        return None
    lists = (data["replace"], data["delete"])
    if not all(isinstance(r, list) and all(isinstance(x, str) for x in r) for r in lists):
        return None
    digests = data.get("sha256", {})
    if not isinstance(digests, dict) or not all(isinstance(d, str) for d in digests.values()):
        return None
    return Journal(tuple(data["replace"]), tuple(data["delete"]), digests)


def _check_finishable(root: Path, plan: Journal) -> None:
    """Refuse to roll forward a write a power cut took part of; drop temps that are of no use.

    A target is ready when its temp holds the new text, or done when the target does
    (renamed before the crash, or rewritten with the text it had). Anything else is a
    lost text: nothing is touched and the journal stays, so every command says so.
    """
    lost: list[str] = []
    useless: list[Path] = []
    for relative in plan.replace:
        digest = plan.digests.get(relative)
        target = root / relative
        if digest is None or _file_digest(_temp(target)) == digest:
            continue
        if _file_digest(target) == digest:
            useless.append(_temp(target))  # damaged, if there at all: renaming it would harm
            continue
        lost.append(relative)
    if lost:
        named = ", ".join(f"{root.name}/{relative}" for relative in lost)
        raise WriteError(
            f"cannot finish the interrupted write in {root.name}/{JOURNAL}: the new text of "
            f"{named} never reached the disk, so nothing was changed; check the files the "
            "journal names against git (git status, git diff), restore what is wrong, then "
            "delete the journal",
            f"{root.name}/{lost[0]}",
        )
    _discard(useless)


def recover(root: Path) -> list[str]:
    """Finish a write a crash interrupted after its journal, or drop one from before it.

    Returns the paths a finished write touched. The caller holds `locked(root)`.
    """
    if not interrupted(root):
        return []
    journal, pending = root / JOURNAL, root / PENDING
    finished: list[str] = []
    if journal.exists():
        plan = _read_journal(journal)
        if plan is None:
            raise WriteError(f"{journal} is unreadable; restore it from git or delete it")
        for relative in (*plan.replace, *plan.delete):
            _target(root, relative)
        _check_finishable(root, plan)
        try:
            _roll_forward(root, plan)
        except OSError as exc:
            raise WriteError(
                f"could not finish the interrupted write of {exc.filename or root}: "
                f"{exc.strerror}; fix that path, then run mdmem again ({journal.name} keeps "
                "what is left to do)"
            ) from None
        finished = sorted((*plan.replace, *plan.delete))
    elif pending.exists():
        # Never committed: the old files stand and the temps it names go. A pending
        # journal that does not parse was cut short while being written, before any temp.
        plan = _read_journal(pending)
        for relative in plan.replace if plan is not None else ():
            with contextlib.suppress(OSError):
                _temp(_target(root, relative)).unlink()
    with contextlib.suppress(FileNotFoundError):
        pending.unlink()
    _fsync_dir(root)
    return finished
