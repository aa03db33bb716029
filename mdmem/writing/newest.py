"""The current session without listing the sessions folder or reading HEAD's tree of it.

The newest log HEAD does not hold (`logs.current`) depends on two things only: the
names in the sessions folder, and what HEAD holds there. So the answer is kept in a
memo outside the tree (`store.cache`, kind `session`) with what it was found from:

- the folder's stat (device, inode, modification and change times in ns), which any name
  made, removed or renamed in the folder changes;
- the id of HEAD's tree of the folder (`git rev-parse HEAD:FOLDER`, a few milliseconds
  whatever the folder's size), which names exactly what HEAD holds there;
- the greatest file name that tree holds: a name above it is not committed, so until
  HEAD moves, git is asked only about names at or below it (a new log's name is above).

While the stat and the tree id are what they were, the memo's answer is the one the
listing would give. Else the folder is listed and git asked as before. An mdmem write
into the folder (under the memory's lock, which every mdmem write takes) refreshes the
memo when the folder's stat just before the write was still the memo's: the write made
no name but, for `session start`, the new log's. A memo is trusted for at most
`TRUSTED_FOR` seconds after the listing it comes from: a change made by another program
in the same instant as an mdmem write (the stat cannot tell the two apart) is then seen
within that time. Outside git, before the first commit of the folder, or with
MDMEM_NO_CACHE=1, there is no memo.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mdmem.format.memory import SESSIONS
from mdmem.git import revisions as git_committed
from mdmem.git.discover import top_level
from mdmem.store import cache
from mdmem.writing import logs

KIND = "session"
TRUSTED_FOR = 60.0  # seconds a memo is trusted after the listing it was made from


@dataclass(frozen=True)
class Seen:
    """The current session as found, and what it was found from."""

    folder: list[int]  # the sessions folder's stat: device, inode, mtime and ctime (ns)
    tree: str  # the id of HEAD's tree of the folder
    newest_committed: str  # the greatest file name that tree holds ('' for none)
    current: str | None  # the stem of the current session's log
    listed: float  # when the folder was last listed (seconds since the epoch)
    uncommitted: tuple[str, ...] | None = None  # every log HEAD lacks, newest first (None: unasked)


def find(root: Path) -> tuple[str | None, Seen | None]:
    """The stem of the newest log HEAD does not hold (None: none), and what it was found
    from (None: no memo here)."""
    folder = root / SESSIONS
    asked = functools.partial(committed, root)
    top = top_level(root)
    if top is None or cache.location(root, KIND) is None:
        return logs.current(_listing(folder), asked), None
    relative = Path(os.path.relpath(folder, top)).as_posix()
    tree = git_committed.tree_id(top, relative)
    before = _stat(folder)
    if tree is None or before is None:
        return logs.current(_listing(folder), asked), None
    memo = _load(root)
    if memo is not None and memo.tree == tree and memo.folder == before and _fresh(memo):
        return memo.current, memo
    if memo is not None and memo.tree == tree:
        newest_committed = memo.newest_committed
    else:
        newest_committed = max(committed(root, None), default="")
    listed = time.time()
    stem = logs.current(_listing(folder), asked, newest_committed)
    seen = Seen(before, tree, newest_committed, stem, listed)
    if _stat(folder) == before:  # nothing changed while it was listed
        _save(root, seen)
    return stem, seen


def find_all(root: Path) -> tuple[tuple[str, ...], Seen | None]:
    """The stems of every log HEAD does not hold, newest first, and what they were found
    from (None: no memo here). Outside git, where nothing tells whose a log is, the
    newest log alone."""
    folder = root / SESSIONS
    top = top_level(root)
    if top is None:
        stem = logs.current(_listing(folder), functools.partial(committed, root))
        return (() if stem is None else (stem,)), None
    relative = Path(os.path.relpath(folder, top)).as_posix()
    tree = git_committed.tree_id(top, relative)
    before = _stat(folder)
    memo = _load(root) if cache.location(root, KIND) is not None else None
    same = memo is not None and (memo.tree, memo.folder) == (tree, before) and _fresh(memo)
    if same and memo is not None and memo.uncommitted is not None:
        return memo.uncommitted, memo
    listed = time.time()
    held = committed(root, None)
    found = logs.uncommitted(_listing(folder), held)
    if tree is None or before is None or cache.location(root, KIND) is None:
        return found, None
    seen = Seen(before, tree, max(held, default=""), found[0] if found else None, listed, found)
    if _stat(folder) == before:  # nothing changed while it was listed
        _save(root, seen)
    return found, seen


def committed(root: Path, filenames: Sequence[str] | None) -> frozenset[str]:
    """The names among `filenames` (None: in the whole sessions folder) of the logs HEAD
    holds; none outside a git repository."""
    top = top_level(root)
    if top is None or (filenames is not None and not filenames):
        return frozenset()
    folder = Path(os.path.relpath(root / SESSIONS, top)).as_posix()
    if filenames is None:  # the whole folder: one listing of HEAD's tree
        paths = git_committed.committed_in(top, folder)
    else:
        paths = git_committed.committed(top, [f"{folder}/{name}" for name in filenames])
    cut = len(folder) + 1
    return frozenset(path[cut:] for path in paths)


def write(
    root: Path, files: Mapping[str, str | None], seen: Seen | None, created: str | None = None
) -> None:
    """`write_files`, under the memory's lock, then the memo moved on to the folder as the
    write left it, when the write was all that changed it since `seen` (`created`: the
    stem of a log the write made, which becomes current if it is the newest)."""
    from mdmem.store.writer import write_files  # finding the current log writes nothing

    before = _stat(root / SESSIONS)
    write_files(root, files)
    if seen is None or before != seen.folder or not _fresh(seen):
        return
    after = _stat(root / SESSIONS)
    current, uncommitted = seen.current, seen.uncommitted
    if created is not None:
        newer = current is None or created > current
        if f"{created}.md" <= seen.newest_committed:
            if newer:
                return  # HEAD may hold that name (a committed log deleted): the listing will tell
            uncommitted = None  # whether HEAD holds it, the next listing tells
        elif newer:
            current = created
        if uncommitted is not None:
            uncommitted = tuple(sorted({created, *uncommitted}, reverse=True))
    if after is not None:
        kept = (seen.tree, seen.newest_committed)
        _save(root, Seen(after, *kept, current, seen.listed, uncommitted))


def remembered(root: Path) -> Seen | None:
    """The memo as saved, for a command that makes a log without looking for the current one."""
    return _load(root)


def _listing(folder: Path) -> list[str]:
    return os.listdir(folder) if folder.is_dir() else []


def _stat(folder: Path) -> list[int] | None:
    try:
        stat = os.stat(folder)
    except OSError:
        return None
    return [stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns]


def _fresh(seen: Seen) -> bool:
    return 0 <= time.time() - seen.listed < TRUSTED_FOR


def _load(root: Path) -> Seen | None:
    payload = cache.load(root, KIND)
    with contextlib.suppress(KeyError, TypeError, ValueError):
        seen = Seen(
            [int(value) for value in payload["folder"]],
            str(payload["tree"]),
            str(payload["newest_committed"]),
            None if payload["current"] is None else str(payload["current"]),
            float(payload["listed"]),
            _stems(payload.get("uncommitted")),
        )
        return seen
    return None


def _stems(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        return None
    return tuple(str(stem) for stem in value)


def _save(root: Path, seen: Seen) -> None:
    uncommitted = None if seen.uncommitted is None else list(seen.uncommitted)
    cache.save(root, KIND, {
        "folder": seen.folder, "tree": seen.tree, "newest_committed": seen.newest_committed,
        "current": seen.current, "listed": seen.listed, "uncommitted": uncommitted,
    })  # fmt: skip
