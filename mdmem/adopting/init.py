"""`mdmem init`: bring mdmem into a project, adding only what is missing.

Besides the files, it installs the pre-commit hook (`adopting.hooks`; a hook that was there
is kept and run first) and registers the merge drivers in the repository's own git config,
which is per clone, so each clone runs `mdmem init` once. A file that exists is never
overwritten: the git files only gain the lines they lack, a shared file only its own marked
block. So a second run changes nothing and says so, and `--dry-run` plans the same and
writes nothing, not even git config.
"""

from __future__ import annotations

import datetime as dt
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mdmem.adopting import hooks, skeleton
from mdmem.adopting.launch import command_line, interpreter_of
from mdmem.adopting.summary import HookStep, InitResult
from mdmem.errors import MdmemError, WriteError
from mdmem.format.memory import CONTINUITY
from mdmem.format.textfile import TextFile
from mdmem.git.discover import top_level
from mdmem.git.plumbing import config_value, repository, set_config
from mdmem.store.files import read
from mdmem.store.folders import exists, project_of
from mdmem.store.lock import locked
from mdmem.store.resources import read_shipped, shipped, templates_dir
from mdmem.store.writer import recover, write_files
from mdmem.writing.session import utc_now

if TYPE_CHECKING:
    import git

MEMORY = skeleton.MEMORY
GITIGNORE = ".gitignore"
GITATTRIBUTES = ".gitattributes"
WORKFLOW = ".github/workflows/mdmem.yml"
SHIPPED = ("DECAY.md", "REVIEW.md")
# The agents' rule files `mdmem migrate` reads, where a project keeps them: named in the
# next steps when a project holds one, so that its rules become facts.
RULE_FILES = (
    "CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
    ".cursorrules",
    ".cursor/rules",
    ".github/copilot-instructions.md",
    ".windsurfrules",
    ".windsurf/rules",
)

# The lock's file an older mdmem left in the memory folder (and one made outside a git
# repository), the journal, and temp files beside any target.
IGNORED = ("memory/.mdmem.lock*", "memory/.mdmem-journal*", "*.mdmem-tmp")
# reviews.md rows are single lines, safe for git's union merge. Archive files are not
# (a fact archived on both branches with different footers would get two footers):
# they go through the merge driver in union mode, fact by fact.
ATTRIBUTES = (
    "memory/continuity.md merge=mdmem",
    "memory/reviews.md merge=union",
    "memory/archive/*.md merge=mdmem-archive",
)
_COMMENTS = {
    GITIGNORE: "# mdmem: the memory's lock, write journal and temp files",
    GITATTRIBUTES: "# mdmem: memory files merge fact by fact; the review's log as a union",
}
_OWN_FILES = (GITIGNORE, GITATTRIBUTES, *SHIPPED, skeleton.AGENTS)


def driver_config(python: str) -> tuple[tuple[str, str], ...]:
    """Every key and value the drivers need, for the interpreter `python`."""
    return (
        ("merge.mdmem.name", "mdmem: merge continuity.md fact by fact"),
        ("merge.mdmem.driver", command_line(python, "merge-driver %O %A %B %P")),
        ("merge.mdmem-archive.name", "mdmem: merge archive files fact by fact, keeping both sides"),
        ("merge.mdmem-archive.driver", command_line(python, "merge-driver --union %O %A %B %P")),
    )


def _config_changes(repo: git.Repo, python: str) -> tuple[dict[str, str], str | None]:
    """The keys whose value differs from what the drivers need (read, nothing set), and the
    interpreter the drivers named before, when another."""
    changes: dict[str, str] = {}
    replaced = None
    for key, value in driver_config(python):
        old = config_value(repo, key)
        if old != value:
            changes[key] = value
            was = None if old is None else interpreter_of(old)
            if replaced is None and was is not None and was != interpreter_of(value):
                replaced = was
    return changes, replaced


@dataclass(frozen=True)
class _Plan:
    result: InitResult
    files: dict[str, str]
    hook: hooks.HookPlan | None
    repo: git.Repo | None
    config: dict[str, str]  # git config keys to set, and their values


def project_folder(start: Path, explicit: Path | None = None) -> Path:
    """PATH or `--root` (a project, or its memory folder), else the top of the git
    repository here, else here."""
    if explicit is not None:
        path = explicit.resolve()
        if path.name == MEMORY and (path / CONTINUITY).is_file():
            return project_of(path)
        return path
    top = top_level(start)
    return (top if top is not None else start).resolve()


def init(
    project: Path,
    *,
    ci: bool = False,
    dry_run: bool = False,
    python: str | None = None,
    now: dt.datetime | None = None,
) -> InitResult:
    """Add what is missing; with `dry_run`, only say what that would be.

    `python` is the interpreter the hook and the drivers name (this one by default);
    `now` the clock the first session log is named by.
    """
    project = project.resolve()
    if not project.is_dir():
        raise MdmemError(f"{project} is not a folder")
    memory = project / MEMORY
    if exists(memory) and not memory.is_dir():
        raise MdmemError(f"{memory} exists and is not a folder; move it, then run init again")
    python = python or sys.executable
    moment = now if now is not None else utc_now()
    if dry_run:
        return _plan(project, ci, python, moment, dry_run=True).result
    if not memory.is_dir():
        _files(project, ci, moment)  # what cannot be read stops init before the folder is made
    memory.mkdir(exist_ok=True)  # the lock is taken on it
    with locked(memory):
        recover(project)  # what an interrupted init left decides what is still missing
        plan = _plan(project, ci, python, moment, dry_run=False)
        hook = _journaled_hook(project, plan.hook)
        write_files(project, {**plan.files, **hook})
        if plan.hook is not None and plan.hook.action is not None:
            hooks.install_planned(plan.hook, written=bool(hook))
        for key, value in plan.config.items():
            assert plan.repo is not None  # a key is set only in a repository
            set_config(plan.repo, key, value)
    return plan.result


def _files(
    project: Path, ci: bool, now: dt.datetime
) -> tuple[dict[str, str], skeleton.Skeleton, tuple[str, ...], tuple[str, ...]]:
    """Every file init would write (path relative to the project -> text), read from the
    project as it is: a file it cannot read stops it here, before anything is written.
    With the memory laid out, the files whose usage block is rewritten, and the notices."""
    _refuse_odd_files(project, _OWN_FILES)
    laid_out = skeleton.skeleton(project, now, exists)
    files = {**laid_out.files, **_shipped_files(project, ci)}
    for name in (GITIGNORE, GITATTRIBUTES):
        if (text := _extended(project, name)) is not None:
            files[name] = text
    blocks, updated, notices = skeleton.usage_writes(project, exists)
    _refuse_odd_files(project, tuple(files))
    return {**files, **blocks}, laid_out, updated, notices


def _plan(project: Path, ci: bool, python: str, now: dt.datetime, *, dry_run: bool) -> _Plan:
    """Everything init would do; nothing written."""
    files, laid_out, updated, notices = _files(project, ci, now)
    repo = repository(project)
    hook, step, hook_notices = _hook(project, python, repo)
    config, replaced = ({}, None) if repo is None else _config_changes(repo, python)
    not_git = (
        f"{project.name} is not a git repository: no pre-commit hook and no merge drivers; "
        "run `git init`, then `mdmem init` again"
    )
    created = sorted(name for name in files if not exists(project / name))
    result = InitResult(
        project=project,
        dry_run=dry_run,
        fresh=laid_out.session is not None,
        created=tuple(created),
        extended=tuple(sorted(set(files) - {*created, *updated})),
        updated=updated,
        session=laid_out.session,
        facts=laid_out.created,
        hook=step,
        configured=tuple(config),
        notices=(*notices, *hook_notices, *((not_git,) if repo is None else ())),
        python=python,
        replaced=replaced,
        rules=tuple(name for name in RULE_FILES if name not in created and exists(project / name)),
    )
    return _Plan(result, files, hook, repo, config)


def _journaled_hook(project: Path, plan: hooks.HookPlan | None) -> dict[str, str]:
    """The hook script as one more file of init's all-or-nothing write, when it lies in the
    project (`.git/hooks`, not through a link) and no hook that was there must be moved."""
    if plan is None or plan.action not in ("install", "update"):
        return {}
    target = plan.target
    if not target.is_relative_to(project):
        return {}
    relative = target.relative_to(project)
    folders = [project.joinpath(*relative.parts[:depth]) for depth in range(1, len(relative.parts))]
    if any(folder.is_symlink() for folder in folders):
        return {}
    return {relative.as_posix(): plan.script}


def _hook(
    project: Path, python: str, repo: git.Repo | None
) -> tuple[hooks.HookPlan | None, HookStep | None, tuple[str, ...]]:
    """The hook's plan, what it does, and why it is left alone when it is."""
    if repo is None:
        return None, None, ()
    try:
        plan = hooks.plan_hook(project / MEMORY, chain=True, python=python)
    except WriteError as refused:
        return None, None, (f"pre-commit hook not installed: {refused}",)
    if plan.versioned:
        why = (
            f"pre-commit hook not installed: core.hooksPath puts hooks in "
            f"{_shown(project, plan.target.parent)}, a folder of the working tree; run "
            "`mdmem hooks install --chain` to install it there, or call `mdmem "
            "hook-pre-commit` from your own hook"
        )
        return None, None, (why,) if plan.action is not None else ()
    if plan.action is None:
        return plan, None, ()
    chained = _shown(project, plan.chained) if plan.action == "chain" else None
    return plan, HookStep(plan.action, _shown(project, plan.target), chained), ()


def _shown(project: Path, path: Path) -> str:
    try:
        return path.resolve().relative_to(project).as_posix()
    except ValueError:
        return str(path)


def _shipped_files(project: Path, ci: bool) -> dict[str, str]:
    wanted = {name: shipped(name) for name in SHIPPED}
    if ci:
        wanted[WORKFLOW] = templates_dir() / "ci" / "mdmem.yml"
    return {
        relative: read_shipped(source)
        for relative, source in wanted.items()
        if not exists(project / relative)
    }


def _refuse_odd_files(project: Path, names: tuple[str, ...]) -> None:
    """A folder or a link where init would write a file: stop before writing anything."""
    for name in names:
        target = project / name
        if name == skeleton.AGENTS and target.is_symlink():
            continue  # AGENTS.md as a link is left alone (`usage`)
        if exists(target) and (target.is_symlink() or not target.is_file()):
            raise MdmemError(f"{target} is not a regular file; nothing was written")


def _extended(project: Path, name: str) -> str | None:
    """The file with the lines mdmem needs appended, or None when it has them all."""
    wanted = IGNORED if name == GITIGNORE else ATTRIBUTES
    path = project / name
    file = read(path, name) if path.is_file() else TextFile(name, ())
    present = {line.strip() for line in file.lines}
    missing = [line for line in wanted if line not in present]
    if not missing:
        return None
    newline = file.newline
    text = file.text()
    if text and not text.endswith("\n"):
        text += newline
    if file.lines and file.lines[-1].strip():
        text += newline  # a blank line between the user's lines and mdmem's
    if _COMMENTS[name] not in present:
        missing.insert(0, _COMMENTS[name])
    return text + newline.join(missing) + newline
