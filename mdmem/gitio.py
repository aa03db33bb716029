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


def init_repository(path: Path) -> git.Repo:
    """A new repository with a fixed initial branch name."""
    return git.Repo.init(path, initial_branch="main")


def commit_all(repo: git.Repo, message: str) -> str:
    repo.git.add("--all")
    repo.git.commit("--no-verify", "--quiet", "-m", message)
    return repo.head.commit.hexsha


def show_commit(path: Path, sha: str) -> str:
    """`git show --stat` of one commit, as a person would read it."""
    repo = git.Repo(path, search_parent_directories=True)
    text: str = repo.git.show("--stat", "--format=commit %H%n%n%B", sha)
    return text
