"""Derived caches of a memory, kept outside the tracked tree: the settled review and lint's.

Each is trusted only while the files it was made from are as they were (size and
modification time in ns), and rebuilt from the files whenever it is missing, stale,
unreadable or written by other code. Set MDMEM_NO_CACHE=1 to bypass them.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import marshal
import os
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mdmem.git.plumbing import git_folder


def location(root: Path, kind: str, suffix: str = ".json") -> Path | None:
    """Where the cache `kind` of this memory lives (`KIND-DIGEST.SUFFIX`): inside the
    repository's git folder when there is one, else the user's cache folder."""
    if os.environ.get("MDMEM_NO_CACHE"):
        return None
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:16]
    git_dir = git_folder(root)
    folder = git_dir / "mdmem" if git_dir is not None else _user_cache() / "mdmem"
    return folder / f"{kind}-{digest}{suffix}"


def _user_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def read_json(path: Path | None) -> dict[str, Any]:
    """A cache file's object; {} when it is missing, unreadable or not an object."""
    if path is None:
        return {}
    try:
        payload = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return payload if isinstance(payload, dict) else {}


def write_json(path: Path | None, payload: dict[str, Any]) -> None:
    """Best effort: a cache that cannot be written is simply rebuilt next time."""
    if path is not None:
        _write_bytes(path, json.dumps(payload).encode("utf-8"))


def _write_bytes(path: Path, data: bytes) -> None:
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temp.write_bytes(data)
        os.replace(temp, path)


# The review memo holds plain lists, strings and numbers for thousands of files: marshal
# writes and reads them faster than JSON. Its format may change between Python versions;
# a file this Python cannot read is as good as missing. A checksum comes first: marshal
# can spend seconds on a damaged length before it gives up.
_MEMO_MARKER = b"mdmem review memo\n"


def read_marshal(path: Path | None, marker: bytes) -> object:
    """A marshalled cache file's value; None when it is missing, damaged or foreign."""
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head, body = data[: len(marker) + 4], data[len(marker) + 4 :]
    if head != marker + zlib.crc32(body).to_bytes(4, "big"):
        return None
    try:
        return marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None


def write_marshal(path: Path | None, marker: bytes, value: Any) -> None:
    """Best effort, as `write_json`."""
    if path is not None:
        body = marshal.dumps(value)
        _write_bytes(path, marker + zlib.crc32(body).to_bytes(4, "big") + body)


# The review memo: a review is a pure function of the memory's files, so when every
# input file has the size and modification time it had right after the last review,
# that review's outcome (nothing to change, and its counts) still holds.
MEMO_FORMAT = 2  # 2: marshal, no longer JSON


_TOP_FILES = ("continuity.md", "decay-policy.md", "reviews.md", "blocked.md", "vision.md")
_FOLDERS = ("archive", "sessions")


def fingerprint(root: Path) -> dict[str, list[int]]:
    """relative path -> [size, mtime_ns] of every file a review reads (links not followed),
    and for each folder whether it is a link and which inode it is."""
    found = _stats(root, _TOP_FILES)
    found.update(_folders(root))
    for folder in _FOLDERS:
        with contextlib.suppress(OSError), os.scandir(root / folder) as entries:
            for entry in entries:
                if entry.name.endswith(".md"):
                    stat = entry.stat(follow_symlinks=False)
                    found[f"{folder}/{entry.name}"] = [stat.st_size, stat.st_mtime_ns]
    return found


def _stats(root: Path, relatives: Iterable[str]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for relative in relatives:
        with contextlib.suppress(OSError):
            stat = os.lstat(root / relative)
            found[relative] = [stat.st_size, stat.st_mtime_ns]
    return found


def _folders(root: Path) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for folder in _FOLDERS:
        with contextlib.suppress(OSError):
            stat = os.lstat(root / folder)
            found[f"{folder}/"] = [int(os.path.islink(root / folder)), stat.st_ino]
    return found


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of mdmem's own source: a memo made by other code is not trusted."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent  # mdmem/
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode("utf-8"))
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def read_memo(root: Path) -> dict[str, Any] | None:
    """The record of the last review, when this code made it; see `settled`."""
    payload = read_marshal(location(root, "review", ".marshal"), _MEMO_MARKER)
    if not isinstance(payload, dict) or payload.get("format") != MEMO_FORMAT:
        return None
    return payload if payload.get("code") == code_version() else None


def settled(memo: dict[str, Any] | None, current: dict[str, list[int]]) -> dict[str, Any] | None:
    """The summary of the last review, if no input file changed since it ran."""
    if memo is None or memo.get("fingerprint") != current:
        return None
    summary = memo.get("summary")
    return summary if isinstance(summary, dict) else None


def save_memo(
    root: Path, before: dict[str, list[int]], written: tuple[str, ...], summary: dict[str, Any]
) -> None:
    """Record the outcome of a review whose files are now on disk.

    `before` is the fingerprint taken before the review read anything; the memo keeps it,
    with only the files the review wrote (and its folders) stat'ed again. A file anyone
    else changed meanwhile (an agent adding a log without the lock) therefore no longer
    matches the memo, and the next review reads everything, as it must.
    """
    after = dict(before)
    for relative in written:
        after.pop(relative, None)
    after.update(_stats(root, written))
    after.update(_folders(root))
    payload = {
        "format": MEMO_FORMAT,
        "code": code_version(),
        "fingerprint": after,
        "summary": summary,
    }
    write_marshal(location(root, "review", ".marshal"), _MEMO_MARKER, payload)
