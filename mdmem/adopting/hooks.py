"""The git pre-commit hook: installing it, and what it checks when git runs it.

The hook refuses a commit that modifies, deletes or renames a committed session log
(the ledger is immutable), then runs lint and refuses the commit on errors. It runs
`mdmem hook-pre-commit`, which calls `pre_commit` below.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mdmem.adopting.launch import command_line
from mdmem.errors import MdmemError, WriteError
from mdmem.format.memory import SESSIONS
from mdmem.git.plumbing import (
    blob_bytes,
    hooks_folder,
    relative_path,
    repository,
    staged_changes,
    top_folder,
)
from mdmem.linting.committed import history, only_redacted
from mdmem.linting.findings import Finding, grouped
from mdmem.linting.run import lint
from mdmem.store.lock import locked
from mdmem.store.writer import replace_file

if TYPE_CHECKING:
    import git

HOOK = "pre-commit"
CHAINED = "pre-commit.before-mdmem"
MARKER = "# mdmem pre-commit hook"


@dataclass(frozen=True)
class Installed:
    path: Path
    chained: Path | None  # a hook that was there before, now run first
    replaced: bool  # an earlier mdmem hook was there (rewritten when not `changed`)
    changed: bool = True  # the hook was written: not when it was up to date


@dataclass(frozen=True)
class Refusal:
    """A staged change to a committed session log."""

    path: str  # display path
    action: str  # "modifies" or "deletes or renames"
    git_path: str  # relative to the repository's top, as `git restore` takes it


@dataclass(frozen=True)
class PreCommit:
    refused: tuple[Refusal, ...]
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        return not self.refused and not any(f.is_error for f in self.findings)


def hook_script(memory: str, python: str) -> str:
    """The hook: the chained hook first, then mdmem with the interpreter that installed it
    (else the `mdmem` on PATH)."""
    arguments = f"hook-pre-commit --root {shlex.quote(memory)}"
    return "\n".join(
        [
            "#!/bin/sh",
            f"{MARKER}, written by `mdmem hooks install`; delete this file to remove it.",
            "# It refuses edits to committed session logs, then runs `mdmem lint`.",
            'chained="$(dirname "$0")/' + CHAINED + '"',
            'if [ -x "$chained" ]; then',
            '    "$chained" "$@" || exit $?',
            "fi",
            command_line(python, arguments),
            "",
        ]
    )


def _repository_of(root: Path, why: str) -> tuple[git.Repo, str]:
    """The repository holding the memory folder, and the folder's path inside it."""
    repo = repository(root)
    if repo is None:
        raise MdmemError(f"not a git repository: {why}", root)
    memory = relative_path(repo, root)
    if memory is None:
        raise MdmemError("the memory folder is outside the repository", root)
    return repo, memory


@dataclass(frozen=True)
class HookPlan:
    """What installing the hook would do, found without writing."""

    target: Path
    script: str
    action: str | None  # "install", "chain" (a foreign hook kept), "update", None: up to date
    versioned: bool  # the hooks folder is in the working tree (core.hooksPath)

    @property
    def chained(self) -> Path:
        return self.target.with_name(CHAINED)


def plan_hook(root: Path, *, chain: bool = False, python: str | None = None) -> HookPlan:
    """What `install` would do; a foreign hook without `chain`, or one that cannot be chained
    because a chained hook is there already, is refused (WriteError), nothing written."""
    root = Path(root).resolve()
    repo, memory = _repository_of(root, "there is nowhere to install a hook")
    folder = hooks_folder(repo)
    target = folder / HOOK
    script = hook_script(memory, python or sys.executable)
    where = relative_path(repo, folder)
    versioned = where is not None and ".git" not in Path(where).parts
    if not (target.exists() or target.is_symlink()):
        return HookPlan(target, script, "install", versioned)
    if not target.is_symlink() and MARKER.encode() in target.read_bytes():
        current = target.read_bytes() == script.encode("utf-8") and os.access(target, os.X_OK)
        return HookPlan(target, script, None if current else "update", versioned)
    if not chain:
        raise WriteError(
            f"{target} is a hook mdmem did not write; run `mdmem hooks install "
            f"--chain` to keep it and run it before mdmem, or add `mdmem "
            f"hook-pre-commit` to it yourself",
            target,
        )
    chained = folder / CHAINED
    if chained.exists() or chained.is_symlink():
        raise WriteError(f"{chained} already exists; move one of the two hooks", target)
    return HookPlan(target, script, "chain", versioned)


def install(root: Path, *, chain: bool = False, python: str | None = None) -> Installed:
    """Write the pre-commit hook into the repository's hooks folder (core.hooksPath honoured).

    A hook mdmem did not write is never overwritten: without `chain` that is an error;
    with it, the old hook is kept beside ours and run before it.
    """
    root = Path(root).resolve()
    with locked(root):
        plan = plan_hook(root, chain=chain, python=python)
        return install_planned(plan)


def install_planned(plan: HookPlan, *, written: bool = False) -> Installed:
    """Carry out a plan made under the memory's lock (which the caller holds). `written`:
    the caller wrote the script already, in its own all-or-nothing write; only the mode is
    left to set."""
    target, chained = plan.target, plan.chained
    replaced = plan.action in ("update", None)
    if plan.action is not None:
        if not written:
            target.parent.mkdir(parents=True, exist_ok=True)
            if plan.action == "chain":
                os.replace(target, chained)
            replace_file(target, plan.script.encode("utf-8"))
        mode = target.stat().st_mode
        target.chmod(mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    kept = chained if chained.exists() or chained.is_symlink() else None
    return Installed(target, kept, replaced, plan.action is not None)


def pre_commit(root: Path) -> PreCommit:
    """What the hook checks: staged edits to committed logs, then lint when memory is staged."""
    root = Path(root).resolve()
    repo, memory = _repository_of(root, "there is nothing to check")
    staged = staged_changes(repo, memory)
    if not staged:
        return PreCommit((), ())
    top = top_folder(repo)
    folder = root / SESSIONS
    logs = [
        change
        for change in staged
        if change.status in "MDT"
        and (top / change.path).parent == folder
        and change.path.endswith(".md")
    ]
    log_history = history(root, repo, folder) if logs else None
    originals = log_history.first if log_history is not None else {}
    refused = []
    for change in logs:
        first = originals.get(change.path)
        original = first.original if first is not None else change.old_blob
        mode_changed = change.status != "D" and change.old_mode != change.new_mode
        if change.status != "D" and not mode_changed:
            if change.new_blob == original:
                continue  # it puts back exactly what was committed
            before = blob_bytes(repo, original).decode("utf-8", "replace")
            after = blob_bytes(repo, change.new_blob).decode("utf-8", "replace")
            if only_redacted(before, after):
                continue
        if change.status == "D":
            action = "deletes or renames"
        else:
            action = "changes the file mode of" if mode_changed else "modifies"
        shown = f"{root.name}/{SESSIONS}/{Path(change.path).name}"
        refused.append(Refusal(shown, action, change.path))
    # Warnings about committed logs were news once, when each log was committed (what
    # could be mended then was an error, E011): the hook does not repeat them on every
    # later commit. A file's stale footers are one line, as lint prints them.
    return PreCommit(tuple(refused), grouped(lint(root)))
