"""The git repository that holds a path, found as git finds it, without starting git or
importing GitPython: the few checks a short command (lookup's cache) can afford."""

from __future__ import annotations

from pathlib import Path


def top_level(path: Path) -> Path | None:
    """The top folder of the git repository whose working tree holds `path`; None outside one."""
    found = _discover(path)
    return None if found is None else found[0]


def git_folder(path: Path) -> Path | None:
    """The git folder of that repository (a linked worktree has its own); None outside one."""
    found = _discover(path)
    return None if found is None else found[1]


def repository_folders(path: Path) -> tuple[Path, Path] | None:
    """(top folder, git folder) of the repository whose working tree holds `path`, both
    from one search; None outside one."""
    return _discover(path)


def _discover(path: Path) -> tuple[Path, Path] | None:
    """(top folder, git folder), looked for as git looks, without starting git.

    From `path` up, the first folder with a `.git` entry that is either a folder holding
    `HEAD` (a `.git` folder without one is passed by) or a file `gitdir: PATH` (a linked
    worktree or a submodule); a `.git` file that names no folder ends the search.
    """
    start = Path(path).resolve()
    for folder in (start, *start.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            if (dot_git / "HEAD").exists():
                return folder, dot_git
        elif dot_git.is_file():
            target = _gitdir(dot_git)
            return None if target is None else (folder, target)
    return None


def _gitdir(dot_git: Path) -> Path | None:
    try:
        text = dot_git.read_text("utf-8", errors="replace").strip()
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    target = Path(text[len("gitdir:") :].strip())
    target = target if target.is_absolute() else (dot_git.parent / target).resolve()
    return target if target.is_dir() else None
