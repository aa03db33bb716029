"""All git plumbing: find the repository and make the review commit of exactly its files.

GitPython takes longer to import than a review of a small memory, so it is imported only
by the commands that talk to git: the repository's folder is found without it
(`mdmem.git.discover`), and `repository` imports it once there is one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mdmem.errors import GitError
from mdmem.git.discover import top_level

if TYPE_CHECKING:
    import git  # GitPython only when git is asked: see the module's docstring


def repository(path: Path) -> git.Repo | None:
    """The git repository whose working tree holds `path`, or None outside one."""
    top = top_level(path)
    if top is None:
        return None
    import git  # GitPython only when git is asked: see the module's docstring

    try:
        return git.Repo(top)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None


def commit_files(repo: git.Repo, paths: list[Path], message: str, undo: Callable[[], None]) -> str:
    """Commit exactly `paths` as they are on disk (one removed, removed); whatever else is
    staged stays staged.

    Nothing is staged ahead: `git commit --only` takes each path's working-tree text
    and leaves the rest of the index alone; only a path the index does not know yet
    first gets a placeholder (`git add --intent-to-add`), which that command needs.
    A path whose edit the user had staged is committed as it is on disk (the text the
    review read), so the edit goes into the review commit and the path is left staged
    as committed.

    When git refuses (GitError) or the commit is interrupted (KeyboardInterrupt, any
    BaseException) before git made it, the placeholders are taken out again, so the
    index is what it was, a user's staged edit of these paths included; then `undo`
    runs (the caller puts the files back) and the exception goes on. Once git has
    made the commit it stands, with the files it holds, whatever comes after.
    """
    import git  # GitPython only when git is asked: see the module's docstring

    top = top_folder(repo)
    relatives = sorted({os.path.relpath(path.resolve(), top) for path in paths})
    head = repo.head.commit.hexsha if has_head(repo) else None
    placeholders: list[str] = []
    try:
        known = set(repo.git.ls_files("-z", "--", *relatives).split("\0"))
        # A file removed that git never held has nothing to commit (a thread file swept).
        relatives = [path for path in relatives if path in known or (top / path).exists()]
        if new := [path for path in relatives if path not in known]:
            repo.git.add("--intent-to-add", "--", *new)
            placeholders = new
        repo.git.commit("--only", "--no-verify", "--quiet", "-m", message, "--", *relatives)
    except BaseException as exc:
        made = (repo.head.commit.hexsha if has_head(repo) else None) != head
        stuck = ""
        try:
            if made:  # git may die between making the commit and updating the index
                repo.git.reset("--quiet", "--", *relatives)
            elif placeholders:
                repo.git.rm("--cached", "--force", "--quiet", "--", *placeholders)
        except git.GitCommandError:
            if not made:
                stuck = f"; `git rm --cached -- {' '.join(placeholders)}` unstages what is left"
        if not made:
            undo()
        if not isinstance(exc, git.GitCommandError):
            raise
        detail = (exc.stderr or "").strip().replace("stderr: ", "").strip("'\n ")
        if made:
            raise GitError(f"git made the review commit, then failed: {detail or exc}") from None
        raise GitError(f"git refused the review commit: {detail or exc}{stuck}") from None
    return repo.head.commit.hexsha


def init_repository(path: Path) -> git.Repo:
    """A new repository with a fixed initial branch name."""
    import git  # GitPython only when git is asked: see the module's docstring

    return git.Repo.init(path, initial_branch="main")


def commit_all(repo: git.Repo, message: str) -> str:
    repo.git.add("--all")
    repo.git.commit("--no-verify", "--quiet", "-m", message)
    return repo.head.commit.hexsha


def show_commit(path: Path, sha: str) -> str:
    """`git show --stat` of one commit, as a person would read it."""
    repo = repository(path)
    if repo is None:
        raise GitError(f"not a git repository: {path}")
    text: str = repo.git.show("--stat", "--format=commit %H%n%n%B", sha)
    return text


# Session log immutability, for lint and the pre-commit hook. Every function asks git
# once (or once per thousand paths), whatever the number of logs, and returns plain data.

_CHUNK = 1000


@dataclass(frozen=True)
class FirstChange:
    """The first commit that modified or deleted a file, and the file's blob before it."""

    commit: str
    original: str


@dataclass(frozen=True)
class LogChange:
    """A committed session log whose working-tree content is not what its first commit held."""

    path: str  # relative to the repository's top folder, '/'-separated
    kind: str  # "changed" or "deleted"
    since: str | None  # the first commit that changed it; None when the change is uncommitted
    original: str  # blob id of the content as first committed


@dataclass(frozen=True)
class StagedChange:
    """One line of `git diff --cached --raw`: what the next commit does to a path."""

    status: str  # git's letter: A, M, D, T
    path: str
    old_blob: str
    new_blob: str
    old_mode: str = ""
    new_mode: str = ""


def top_folder(repo: git.Repo) -> Path:
    return Path(repo.working_tree_dir or ".").resolve()


def relative_path(repo: git.Repo, path: Path) -> str | None:
    """`path` relative to the repository's top, '/'-separated; None when it lies outside."""
    relative = Path(os.path.relpath(path.resolve(), top_folder(repo)))
    if relative.parts[:1] == ("..",):
        return None
    return relative.as_posix()


def hooks_folder(repo: git.Repo) -> Path:
    """Where git runs hooks from: `core.hooksPath` when set, else the repository's own."""
    output: str = repo.git.rev_parse("--git-path", "hooks")
    return top_folder(repo) / output


def has_head(repo: git.Repo) -> bool:
    return bool(repo.head.is_valid())


@dataclass(frozen=True)
class LogHistory:
    """Every session log a commit up to `head` modified or deleted: path -> its first change."""

    head: str
    first: Mapping[str, FirstChange]


def log_history(
    repo: git.Repo, folder: Path, known: Sequence[LogHistory] = ()
) -> LogHistory | None:
    """What history says about the logs in `folder` up to HEAD; None before the first commit.

    Reading history costs a diff of the folder's tree per commit (the folder is flat and
    large), so a history already read up to an ancestor of HEAD is only extended with the
    commits after it. Commits are immutable, so a known history never goes stale.
    """
    pathspec = relative_path(repo, folder)
    if pathspec is None or not has_head(repo):
        return None
    head = repo.head.commit.hexsha
    for history in known:
        if history.head == head:
            return history
        if is_ancestor(repo, history.head, head):
            newer = first_changes(repo, pathspec, since=history.head)
            return LogHistory(head, {**newer, **history.first})  # the older first change wins
    return LogHistory(head, first_changes(repo, pathspec))


def is_ancestor(repo: git.Repo, ancestor: str, descendant: str) -> bool:
    import git  # GitPython only when git is asked: see the module's docstring

    try:
        repo.git.merge_base("--is-ancestor", ancestor, descendant)
    except git.GitCommandError:
        return False  # not an ancestor, or a commit gone after a rebase and a gc
    return True


def first_changes(
    repo: git.Repo, pathspec: str, since: str | None = None
) -> dict[str, FirstChange]:
    """path -> its first modification or deletion after it was added, from one `git log` pass.

    `since`: read only the commits after that one (those of `since..HEAD`).
    """
    found: dict[str, FirstChange] = {}
    revisions = [f"{since}..HEAD"] if since is not None else []
    output: str = repo.git.log(
        "--raw", "-z", "--no-abbrev", "--no-renames", "--no-color", "--format=%H",
        "--diff-filter=MDT", *revisions, "--", pathspec,
    )  # fmt: skip
    commit = ""
    fields = output.split("\0")
    index = 0
    while index < len(fields):
        field = fields[index].lstrip("\n")
        index += 1
        if not field.startswith(":"):
            commit = field or commit
            continue
        old_blob = field.split(" ")[2]  # ":old-mode new-mode old-blob new-blob status"
        path = fields[index]
        index += 1
        # git log lists the newest commit first: the last record seen is the first change.
        found[path] = FirstChange(commit, old_blob)
    return found


def head_blobs(repo: git.Repo, paths: Sequence[str]) -> dict[str, str]:
    """path -> blob id at HEAD, for the paths HEAD holds."""
    found: dict[str, str] = {}
    for chunk in _chunks(paths):
        output: str = repo.git.ls_tree("-z", "HEAD", "--", *chunk)
        for record in filter(None, output.split("\0")):
            meta, path = record.split("\t", 1)
            found[path] = meta.split(" ")[2]
    return found


def worktree_blobs(repo: git.Repo, paths: Sequence[str]) -> dict[str, str]:
    """path -> the blob id its working-tree file would get, for the paths that exist."""
    top = top_folder(repo)
    present = [path for path in paths if (top / path).is_file()]
    found: dict[str, str] = {}
    for chunk in _chunks(present):
        output: str = repo.git.hash_object("--", *chunk)
        found.update(zip(chunk, output.split(), strict=True))
    return found


def uncommitted_paths(repo: git.Repo, pathspec: str) -> tuple[str, ...]:
    """Tracked paths whose working tree or index differs from HEAD."""
    output: str = repo.git.diff("-z", "--name-only", "--no-renames", "HEAD", "--", pathspec)
    return tuple(sorted(filter(None, output.split("\0"))))


def staged_changes(repo: git.Repo, pathspec: str) -> tuple[StagedChange, ...]:
    """What the next commit adds, modifies, deletes or retypes under `pathspec`."""
    output: str = repo.git.diff(
        "--cached", "--raw", "-z", "--no-abbrev", "--no-renames", "--", pathspec
    )
    fields = output.split("\0")
    changes: list[StagedChange] = []
    for index in range(0, len(fields) - 1, 2):
        meta = fields[index].lstrip("\n").split(" ")
        status, path = meta[4][:1], fields[index + 1]
        changes.append(StagedChange(status, path, meta[2], meta[3], meta[0].lstrip(":"), meta[1]))
    return tuple(sorted(changes, key=lambda change: change.path))


def blob_bytes(repo: git.Repo, blob: str) -> bytes:
    """A blob's content, through one long-lived `git cat-file --batch` for all calls."""
    data: bytes = repo.odb.stream(bytes.fromhex(blob)).read()
    return data


def session_log_changes(
    repo: git.Repo, folder: Path, log_history: LogHistory
) -> tuple[LogChange, ...]:
    """Committed logs in `folder` whose working-tree content is not what they were committed as.

    `log_history` names the logs a commit modified or deleted (with their content as
    added), one `git diff HEAD` the uncommitted edits; only those few files are then
    looked at. An untracked or newly staged log is not committed: it may still change.
    """
    pathspec = relative_path(repo, folder)
    if pathspec is None:
        return ()
    history = log_history.first
    candidates = sorted(set(history) | set(uncommitted_paths(repo, pathspec)))
    head = head_blobs(repo, candidates)
    current = worktree_blobs(repo, candidates)
    changes: list[LogChange] = []
    for path in candidates:
        first = history.get(path)
        original = first.original if first is not None else head.get(path)
        if original is None or current.get(path) == original:
            continue  # not committed yet, or back to exactly what was committed
        since = first.commit if first is not None and head.get(path) != original else None
        kind = "changed" if path in current else "deleted"
        changes.append(LogChange(path, kind, since, original))
    return tuple(changes)


def _chunks(items: Sequence[str]) -> list[Sequence[str]]:
    return [items[start : start + _CHUNK] for start in range(0, len(items), _CHUNK)]


# The merge driver's registration, for `mdmem init`: the repository's own config only.


def config_value(repo: git.Repo, key: str) -> str | None:
    """A key of the repository's own config (`--local`), or None when it is not set."""
    import git  # GitPython only when git is asked: see the module's docstring

    try:
        value: str = repo.git.config("--local", "--get", key)
    except git.GitCommandError:
        return None
    return value


def set_config(repo: git.Repo, key: str, value: str) -> None:
    import git  # GitPython only when git is asked: see the module's docstring

    try:
        repo.git.config("--local", key, value)
    except git.GitCommandError as exc:
        detail = (exc.stderr or "").strip().replace("stderr: ", "").strip("'\n ")
        raise GitError(f"git refused to set {key}: {detail or exc}") from None
