"""Derived caches of a memory, kept outside the tracked tree: what each session log yields
for the review and lint, lint's findings of the other texts and its dearest check, lint's
counts, and lookup's index of the documents (`mdmem.reading.index`).

One rule for all of them: a cache is trusted only when this exact mdmem wrote it (the
path, size and modification time of every source file of the package, `code_version`),
and each of its entries only while what it was made from is as it was: a log's stamp
(`file_stamp`), a text's bytes or a check's inputs (`digest`). A change to any scanner,
or to the cache's own layout, is a change of source, so no cache outlives the code that
wrote it, as far as Python's own bytecode cache can tell. Each is one JSON object in a
file, after the CRC-32 of its bytes (a line of 8 hex digits), so that what is read back
is what this code wrote and needs no check of its shape; one that is missing,
unreadable, damaged or foreign counts as empty, and is rebuilt from the files.
Set MDMEM_NO_CACHE=1 to bypass them.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import json
import os
import time
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mdmem.format.memory import (
    ARCHIVE,
    BLOCKED,
    CONTINUITY,
    OPEN_THREADS,
    POLICY,
    REVIEWS,
    SESSIONS,
    VISION,
)
from mdmem.git.discover import git_folder

# A file as a cache entry saw it (`file_stamp`).
Stamp = list[int]


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """mdmem's own source as stated: each source file's path, size and modification time
    (ns), a line each; a cache made by other code is not trusted. This is what Python
    itself trusts to run a module's bytecode instead of its source (a file linked to is
    stated through the link, as Python reads it), so a cache is as current as the code
    that runs. Stating the files costs a tenth of reading them, in every command that
    reads a cache; the listing is kept whole in each cache (a few kB), as a digest would
    cost those commands the import of hashlib, which takes as long again."""
    package = Path(__file__).resolve().parent.parent  # mdmem/
    found: list[str] = []
    folders = [str(package)]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.name.endswith(".py"):
                    stat = entry.stat()
                    found.append(f"{entry.path} {stat.st_size} {stat.st_mtime_ns}")
                elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
    cut = len(str(package))
    return "\n".join(sorted(line[cut:] for line in found))


def enabled() -> bool:
    """Whether caches are read and written: not when MDMEM_NO_CACHE is set."""
    return not os.environ.get("MDMEM_NO_CACHE")


def location(root: Path, kind: str) -> Path | None:
    """Where the cache `kind` of this memory lives (`KIND-CRC.json`, CRC the CRC-32 of the
    memory's absolute path): inside the repository's git folder when there is one, else
    the user's cache folder. Two memories whose paths share a CRC (a pair in four
    billion) share the file, each rewriting it in turn, and are told apart only where
    their files have different names, sizes or modification times."""
    if not enabled():
        return None
    root = root.resolve()  # one memory, one cache, whatever path reached it
    digest = f"{zlib.crc32(str(root).encode('utf-8')):08x}"
    folder = git_folder(root) or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return folder / "mdmem" / f"{kind}-{digest}.json"


def load(root: Path, kind: str) -> dict[str, Any]:
    """The cache `kind` of this memory, when this code wrote it; {} otherwise."""
    path = location(root, kind)
    if path is None:
        return {}
    try:
        check, _, data = path.read_bytes().partition(b"\n")
        if check != b"%08x" % zlib.crc32(data):
            return {}  # damaged: cut short, or changed since this code wrote it
        payload = json.loads(data)
    except (OSError, ValueError):
        return {}
    if not isinstance(payload, dict) or payload.get("code") != code_version():
        return {}
    return payload


def save(root: Path, kind: str, payload: dict[str, Any]) -> None:
    """Best effort: a cache that cannot be written is simply rebuilt next time."""
    path = location(root, kind)
    if path is None:
        return
    data = json.dumps({"code": code_version(), **payload}).encode("utf-8")
    data = b"%08x\n" % zlib.crc32(data) + data
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temp.write_bytes(data)
        os.replace(temp, path)


# A check's findings or a text's are kept against the digest of all they read, so that a
# run over the same bytes asks nothing again, however the files were stamped or rewritten.


def digest(parts: Iterable[str | bytes]) -> str:
    """A digest of `parts` (texts as UTF-8), each after its length: no two lists share one."""
    # Start-up: lookup, context and status import this module and digest nothing; hashlib
    # costs them 3 ms (`python -X importtime`).
    import hashlib

    made = hashlib.blake2b(digest_size=20)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        made.update(len(data).to_bytes(8, "little"))
        made.update(data)
    return made.hexdigest()


# Session logs kept with what reading them yields, each against its `file_stamp`
# (`store.load.read_logs`, kind "logs": the review's and lint's), so that a routine review
# or lint reads only the logs that are new or changed.

# How far before the run began a file's ctime must lie for its entry to be kept: a file
# changed in the same tick of the file system's clock as the stat that made the entry
# would keep its stamp (git's "racily clean" entries). A coarse clock ticks every few ms.
RACY_NS = 1_000_000_000


def file_stamp(stat: os.stat_result) -> Stamp:
    """What the file system knows of a file without reading it. The ctime and inode cannot
    be set back by anyone: writing the file, or putting another file in its place (a
    rename, a checkout), moves its ctime or changes its inode, whatever its mtime says."""
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev]


class Stamped:
    """What each file yielded, by name, against its `file_stamp`; saved with the entries of
    the files read this run only, so a deleted or renamed file's entry goes."""

    def __init__(self, root: Path, kind: str) -> None:
        self._root, self._kind = root, kind
        self._begun = time.time_ns()
        self._entries: dict[str, Any] = load(root, kind).get("files", {})
        self._fresh: dict[str, Any] = {}

    def get(self, name: str, stamp: Stamp) -> Any:
        """The yield kept for the file `name` with this stamp, else None."""
        entry = self._entries.get(name)
        if entry is None or entry[0] != stamp:
            return None
        self._fresh[name] = entry
        return entry[1]

    def put(self, name: str, stamp: Stamp, value: Any) -> None:
        """Keep a file's yield (JSON), read after its stamp was taken; not a file changed
        too recently to tell a later change from this one by its stamp."""
        if stamp[2] < self._begun - RACY_NS:
            self._fresh[name] = [stamp, value]

    def save(self) -> None:
        if self._fresh != self._entries:
            save(self._root, self._kind, {"files": self._fresh})


# Lint's counts: what `mdmem status` shows without running lint. They hold while the
# files a routine change touches keep their stamps: the top files, the archive, the
# thread files, the sessions folder itself (a log added or removed) and the newest logs
# by name (the current session's); a log older than those, edited in place, is not noticed.

RECENT_LOGS = 50
_TOP_FILES = (CONTINUITY, POLICY, REVIEWS, BLOCKED, VISION)


def _stats(root: Path, relatives: Iterable[str]) -> dict[str, Stamp]:
    found: dict[str, Stamp] = {}
    for relative in relatives:
        with contextlib.suppress(OSError):
            found[relative] = file_stamp(os.lstat(root / relative))
    return found


def recent_fingerprint(root: Path, names: list[str] | None = None) -> dict[str, Stamp]:
    """relative path -> stamp of the files lint's counts are kept against (see above);
    `names`: the sessions folder's listing, when the caller has it."""
    found = _stats(root, _TOP_FILES)
    with contextlib.suppress(OSError):
        found["sessions/"] = file_stamp(os.lstat(root / SESSIONS))
    for folder in (ARCHIVE, OPEN_THREADS):
        with contextlib.suppress(OSError):
            held = sorted(name for name in os.listdir(root / folder) if name.endswith(".md"))
            found.update(_stats(root, [f"{folder}/{name}" for name in held]))
    with contextlib.suppress(OSError):
        listed = os.listdir(root / SESSIONS) if names is None else names
        stems = (name[:-3] for name in listed if name.endswith(".md"))
        newest = sorted(heapq.nlargest(RECENT_LOGS, stems))
        found.update(_stats(root, [f"{SESSIONS}/{stem}.md" for stem in newest]))
    return found


def save_lint_counts(root: Path, before: dict[str, Stamp], counts: tuple[int, int, int]) -> None:
    """Keep the counts (errors, warnings, warnings about committed logs) of a lint that
    began when the files had the stamps `before`."""
    save(root, "status", {"fingerprint": before, "counts": list(counts)})


def lint_counts(root: Path, names: list[str] | None = None) -> tuple[int, int, int] | None:
    """(errors, warnings, warnings about committed logs) of the last lint, when no file it
    is kept against changed since; `names` as for `recent_fingerprint`."""
    memo = load(root, "status")
    if not memo or memo.get("fingerprint") != recent_fingerprint(root, names):
        return None
    errors, warnings, committed = memo["counts"]  # as `save_lint_counts` kept them
    return errors, warnings, committed
