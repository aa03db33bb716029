"""All git plumbing: find the repository and make the review commit of exactly its files."""

from __future__ import annotations

import os
from pathlib import Path

import git

from mdmem.errors import GitError


def repository(path: Path) -> git.Repo | None:
    """The git repository holding `path`, or None outside one."""
    try:
        return git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None


def commit_files(repo: git.Repo, paths: list[Path], message: str) -> str:
    """Commit exactly `paths` as they are on disk; whatever else is staged stays staged."""
    top = Path(repo.working_tree_dir or ".").resolve()
    relatives = sorted({os.path.relpath(path.resolve(), top) for path in paths})
    try:
        repo.git.add("--", *relatives)
        repo.git.commit("--only", "--no-verify", "--quiet", "-m", message, "--", *relatives)
    except git.GitCommandError as exc:
        detail = (exc.stderr or "").strip().replace("stderr: ", "").strip("'\n ")
        raise GitError(f"git refused the review commit: {detail or exc}") from None
    return repo.head.commit.hexsha
