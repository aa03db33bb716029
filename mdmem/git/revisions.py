"""States of a repository, as git's objects hold them: which files HEAD holds (for the
short commands of the write path), and two states of it for `mdmem diff` and the check of
paths a fact names.

Each function runs one `git` process and parses its output: GitPython's import costs
more than a whole `mdmem ref`, and its one call per blob more than the whole comparison of
a large memory. Paths are relative to the repository's top folder, '/'-separated.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mdmem.errors import GitError, MdmemError

_CHUNK = 1000  # paths per git process, well inside any command-line limit


@dataclass(frozen=True)
class PathChange:
    """One path a change added (A), modified (M), deleted (D), retyped (T) or renamed (R)."""

    status: str  # git's letter
    path: str  # the path before (for A: the path)
    new_path: str  # the path after (the same as `path` but for R)
    old_blob: str
    new_blob: str  # all zeros for a working-tree file git has not hashed


def resolve(top: Path, revision: str) -> str:
    """The commit `revision` names, as a full id; a GitError naming it when none."""
    done = _git(
        top, ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}"]
    )
    if done.returncode != 0 or not done.stdout.strip():
        raise MdmemError(f"git knows no commit {revision!r}")
    return done.stdout.strip()


def default_base(top: Path) -> str | None:
    """Where the checked-out branch left its upstream (else the default branch): their
    merge base, or None when there is neither (a lone branch, no commit yet)."""
    for candidate in _bases(top):
        done = _git(top, ["merge-base", "HEAD", candidate])
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    return None


def _bases(top: Path) -> list[str]:
    """The branches a base may be taken from, the likeliest first."""
    found = []
    upstream = _git(top, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"])
    if upstream.returncode == 0 and upstream.stdout.strip():
        found.append(upstream.stdout.strip())
    remote = _git(top, ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"])
    if remote.returncode == 0 and remote.stdout.strip():
        found.append(remote.stdout.strip())
    found += ["origin/main", "origin/master", "main", "master"]
    return [name for name in dict.fromkeys(found) if _exists(top, name)]


def _exists(top: Path, name: str) -> bool:
    return _git(top, ["rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"]).returncode == 0


def tree_files(top: Path, commit: str, folder: str = "") -> dict[str, str]:
    """path -> blob id of every file `commit` holds (below `folder` when given)."""
    spec = ["--", f"{folder}/"] if folder else []
    output = _checked(top, ["ls-tree", "-r", "-z", "--full-tree", commit, *spec])
    found: dict[str, str] = {}
    for record in filter(None, output.split("\0")):
        meta, path = record.split("\t", 1)
        kind, blob = meta.split(" ")[1:3]
        if kind == "blob":
            found[path] = blob
    return found


def listed_files(top: Path) -> frozenset[str]:
    """The files of the working tree as git lists them: tracked (the index) and untracked
    but not ignored (`git ls-files --cached --others --exclude-standard`)."""
    output = _checked(top, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    return frozenset(filter(None, output.split("\0")))


def untracked(top: Path, folder: str) -> tuple[str, ...]:
    """Files below `folder` git does not track and does not ignore (a new session log)."""
    spec = ["--", f"{folder}/"] if folder else []
    output = _checked(top, ["ls-files", "-z", "--others", "--exclude-standard", *spec])
    return tuple(sorted(filter(None, output.split("\0"))))


def read_blobs(top: Path, blobs: Sequence[str]) -> dict[str, bytes]:
    """blob id -> content, for every id, from one `git cat-file --batch`."""
    wanted = list(dict.fromkeys(blobs))
    if not wanted:
        return {}
    try:
        done = subprocess.run(
            ["git", "cat-file", "--batch"], cwd=top, input="\n".join(wanted).encode() + b"\n",
            capture_output=True, check=False,
        )  # fmt: skip
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror}", top) from None
    output, found, at = done.stdout, {}, 0
    for blob in wanted:
        end = output.index(b"\n", at)
        header = output[at:end].split(b" ")
        if len(header) != 3:
            raise GitError(f"git holds no object {blob}", top)
        size = int(header[2])
        found[blob] = output[end + 1 : end + 1 + size]
        at = end + 2 + size
    return found


def changed_paths(top: Path, base: str, head: str | None) -> tuple[PathChange, ...]:
    """What changed from commit `base` to `head` (None: the working tree's tracked files),
    renames found as git finds them (`-M`)."""
    sides = [base] if head is None else [base, head]
    output = _checked(top, ["diff", "--raw", "-z", "-M", "--no-abbrev", "--no-color", *sides])
    fields = output.split("\0")
    changes: list[PathChange] = []
    index = 0
    while index < len(fields) - 1:
        meta = fields[index].lstrip("\n").split(" ")
        status = meta[4][:1]
        path = new_path = fields[index + 1]
        index += 2
        if status in "RC":
            new_path = fields[index]
            index += 1
        changes.append(PathChange(status, path, new_path, meta[2], meta[3]))
    return tuple(sorted(changes, key=lambda change: (change.path, change.new_path)))


def renames(top: Path) -> dict[str, str]:
    """old path -> the path git saw it renamed to last, over the history of HEAD (one
    `git log`, newest first); a chain of renames is followed to its end."""
    done = _git(top, ["log", "-M", "--diff-filter=R", "--name-status", "-z", "--format="])
    if done.returncode != 0:
        return {}
    fields = [field.lstrip("\n") for field in done.stdout.split("\0")]
    found: dict[str, str] = {}
    index = 0
    while index + 2 < len(fields):
        if not fields[index].startswith("R"):
            index += 1
            continue
        old, new = fields[index + 1], fields[index + 2]
        found.setdefault(old, new)  # newest first: the first seen is the last rename
        index += 3
    for old in list(found):
        seen = {old}
        while (after := found.get(found[old])) is not None and after not in seen:
            seen.add(after)
            found[old] = after
    return found


def ever_held(top: Path, paths: Sequence[str], until: str = "HEAD") -> frozenset[str]:
    """The files among (or, for a folder or a bare file name, below or named as) `paths`
    that some commit up to `until` added, changed or deleted: one `git log`, limited to
    those paths."""
    if not paths:
        return frozenset()
    specs = [path if "/" in path.rstrip("/") else f":(glob)**/{path.rstrip('/')}" for path in paths]
    specs += [f":(glob)**/{path.rstrip('/')}/**" for path in paths if "/" not in path.rstrip("/")]
    done = _git(top, ["log", until, "--format=", "--name-only", "-z", "--no-renames", "--", *specs])
    if done.returncode != 0:
        return frozenset()
    return frozenset(path.lstrip("\n") for path in done.stdout.split("\0") if path.strip())


def committed(top: Path, paths: Sequence[str]) -> frozenset[str]:
    """The paths among `paths` that HEAD holds; none before the first commit.

    One `git ls-tree` per thousand paths: git reads only the trees on the paths' way.
    """
    found: set[str] = set()
    for start in range(0, len(paths), _CHUNK):
        output = _ls_tree(top, ["--", *paths[start : start + _CHUNK]])
        if output is None:
            return frozenset()
        found.update(filter(None, output.split("\0")))
    return frozenset(found)


def names_in(top: Path, folder: str) -> list[str]:
    """The names (an empty one among them) of what HEAD holds directly inside `folder`;
    none when HEAD holds no such folder or there is no commit yet. git names them bare
    (`HEAD:folder`), so ten thousand logs cost one split."""
    done = _git(top, ["ls-tree", "-z", "--name-only", f"HEAD:{folder}"])
    if done.returncode == 0:
        return done.stdout.split("\0")
    if " tree " not in _git(top, ["ls-tree", "--full-tree", "HEAD", "--", folder]).stdout:
        return []  # no commit, or HEAD holds no such folder
    detail = done.stderr.strip() or f"exit {done.returncode}"
    raise GitError(f"git could not list what HEAD holds: {detail}", top)


def _ls_tree(top: Path, arguments: list[str]) -> str | None:
    """`git ls-tree -z --name-only --full-tree HEAD ARGUMENTS` run in `top`; None when the
    repository has no commit yet."""
    done = _git(top, ["ls-tree", "-z", "--name-only", "--full-tree", "HEAD", *arguments])
    if done.returncode == 0:
        return done.stdout
    if _git(top, ["rev-parse", "--verify", "--quiet", "HEAD"]).returncode != 0:
        return None  # no commit yet: nothing is committed
    detail = done.stderr.strip() or f"exit {done.returncode}"
    raise GitError(f"git could not list what HEAD holds: {detail}", top)


def _checked(top: Path, arguments: list[str]) -> str:
    done = _git(top, arguments)
    if done.returncode != 0:
        detail = done.stderr.strip() or f"exit {done.returncode}"
        raise GitError(f"git {arguments[0]} failed: {detail}", top)
    return done.stdout


def _git(top: Path, arguments: list[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", *arguments], cwd=top, capture_output=True, text=True, encoding="utf-8",
            errors="surrogateescape", check=False,
        )  # fmt: skip
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror}", top) from None
