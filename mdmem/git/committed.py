"""Which files HEAD holds, asked of git directly: for the short commands of the write path.

GitPython's import costs more than a whole `mdmem ref`, so these functions run one
`git` process (a few milliseconds) and parse its output. Paths are relative to the
repository's top folder, '/'-separated.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from mdmem.errors import GitError

_CHUNK = 1000  # paths per git process, well inside any command-line limit


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


def committed_in(top: Path, folder: str) -> frozenset[str]:
    """Every path HEAD holds directly inside `folder` (relative to the top, no trailing /)."""
    output = _ls_tree(top, ["--", f"{folder}/"])
    return frozenset() if output is None else frozenset(filter(None, output.split("\0")))


def tree_id(top: Path, folder: str) -> str | None:
    """The id of what HEAD holds at `folder` (relative to the top): a few milliseconds
    whatever its size, as git reads only the trees on the way. None when HEAD holds no
    such path, has no commit yet, or git cannot say."""
    done = _git(top, ["git", "rev-parse", "--verify", "--quiet", f"HEAD:{folder}"])
    found = done.stdout.strip() if done.returncode == 0 else ""
    return found or None


def _ls_tree(top: Path, arguments: list[str]) -> str | None:
    """`git ls-tree -z --name-only --full-tree HEAD ARGUMENTS` run in `top`; None when the
    repository has no commit yet."""
    command = ["git", "ls-tree", "-z", "--name-only", "--full-tree", "HEAD", *arguments]
    done = _git(top, command)
    if done.returncode == 0:
        return done.stdout
    if _git(top, ["git", "rev-parse", "--verify", "--quiet", "HEAD"]).returncode != 0:
        return None  # no commit yet: nothing is committed
    detail = done.stderr.strip() or f"exit {done.returncode}"
    raise GitError(f"git could not list what HEAD holds: {detail}", top)


def _git(top: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            command, cwd=top, capture_output=True, text=True, encoding="utf-8",
            errors="surrogateescape", check=False,
        )  # fmt: skip
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror}", top) from None
