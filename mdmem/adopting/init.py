"""`mdmem init`: lay out a memory in a project and register the merge driver with git.

Running it twice changes nothing: a file that exists is never overwritten,
`.gitignore` and `.gitattributes` only gain the lines they lack, and git config
is set only where it differs. Every file is written in one all-or-nothing write.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mdmem.errors import MdmemError
from mdmem.format.memory import CONTINUITY, POLICY, SESSIONS
from mdmem.format.textfile import TextFile
from mdmem.git.plumbing import config_value, repository, set_config, top_level
from mdmem.store.files import read
from mdmem.store.lock import locked
from mdmem.store.resources import shipped, templates_dir
from mdmem.store.writer import recover, write_files

MEMORY = "memory"
GITIGNORE = ".gitignore"
GITATTRIBUTES = ".gitattributes"
WORKFLOW = ".github/workflows/mdmem.yml"
SHIPPED = ("DECAY.md", "REVIEW.md")

# The lock's file, the journal, and temp files beside any target.
IGNORED = ("memory/.mdmem.lock*", "memory/.mdmem-journal*", "*.mdmem-tmp")
# reviews.md rows are single lines, safe for git's union merge. Archive files are not
# (a fact archived on both branches with different footers would get two footers):
# they go through the merge driver in union mode, fact by fact.
ATTRIBUTES = (
    "memory/continuity.md merge=mdmem",
    "memory/reviews.md merge=union",
    "memory/archive/*.md merge=mdmem-archive",
)
DRIVER = (
    ("merge.mdmem.name", "mdmem: merge continuity.md fact by fact"),
    ("merge.mdmem.driver", "mdmem merge-driver %O %A %B %P"),
    ("merge.mdmem-archive.name", "mdmem: merge archive files fact by fact, keeping both sides"),
    ("merge.mdmem-archive.driver", "mdmem merge-driver --union %O %A %B %P"),
)
_COMMENTS = {
    GITIGNORE: "# mdmem: the memory's lock, write journal and temp files",
    GITATTRIBUTES: "# mdmem: memory files merge fact by fact; the review's log as a union",
}


@dataclass(frozen=True)
class InitResult:
    project: Path
    created: tuple[str, ...]  # new files, relative to the project
    extended: tuple[str, ...]  # files that gained lines (.gitignore, .gitattributes)
    configured: tuple[str, ...]  # git config keys set
    notice: str | None  # why the merge driver was not registered, when it was not

    @property
    def changed(self) -> bool:
        return bool(self.created or self.extended or self.configured)

    def as_dict(self) -> dict[str, object]:
        return {
            "project": str(self.project),
            "created": list(self.created),
            "extended": list(self.extended),
            "configured": list(self.configured),
            "notice": self.notice,
        }


def project_folder(start: Path, explicit: Path | None = None) -> Path:
    """`--root` (a project, or its memory folder), else the top of the git repository here."""
    if explicit is not None:
        path = explicit.resolve()
        if path.name == MEMORY and (path / CONTINUITY).is_file():
            return path.parent
        return path
    top = top_level(start)
    return (top if top is not None else start).resolve()


def init(project: Path, *, ci: bool = False) -> InitResult:
    """Create what is missing, extend the git files, register the merge driver."""
    project = project.resolve()
    if not project.is_dir():
        raise MdmemError(f"{project} is not a folder")
    memory = project / MEMORY
    if _exists(memory) and not memory.is_dir():
        raise MdmemError(f"{memory} exists and is not a folder; move it, then run init again")
    _refuse_odd_files(project, (GITIGNORE, GITATTRIBUTES, *SHIPPED))
    memory.mkdir(exist_ok=True)  # the lock lives in it
    with locked(memory):
        recover(project)  # what an interrupted init left decides what is still missing
        new = _new_files(project, ci)
        fresh = {name for name in (GITIGNORE, GITATTRIBUTES) if not _exists(project / name)}
        extended = {
            name: text for name in (GITIGNORE, GITATTRIBUTES) if (text := _extended(project, name))
        }
        _refuse_odd_files(project, (*new, *extended))
        write_files(project, {**new, **extended})
    configured, notice = register_merge_driver(project)
    created = sorted([*new, *(name for name in extended if name in fresh)])
    grown = sorted(name for name in extended if name not in fresh)
    return InitResult(project, tuple(created), tuple(grown), configured, notice)


def register_merge_driver(project: Path) -> tuple[tuple[str, ...], str | None]:
    """Set `merge.mdmem.*` and `merge.mdmem-archive.*` in the repository's own config.

    Returns the keys it changed.
    """
    repo = repository(project)
    if repo is None:
        return (), "not a git repository: the merge driver is not registered in git config"
    configured = []
    for key, value in DRIVER:
        if config_value(repo, key) != value:
            set_config(repo, key, value)
            configured.append(key)
    return tuple(configured), None


def _new_files(project: Path, ci: bool) -> dict[str, str]:
    templates = templates_dir()
    wanted = {
        f"{MEMORY}/{CONTINUITY}": templates / "init" / CONTINUITY,
        f"{MEMORY}/{POLICY}": templates / "init" / POLICY,
        **{name: shipped(name) for name in SHIPPED},
    }
    if ci:
        wanted[WORKFLOW] = templates / "ci" / "mdmem.yml"
    files = {
        relative: _read_shipped(source)
        for relative, source in wanted.items()
        if not _exists(project / relative)
    }
    if not _exists(project / MEMORY / SESSIONS):
        files[f"{MEMORY}/{SESSIONS}/.gitkeep"] = ""
    return files


def _read_shipped(source: Path) -> str:
    try:
        return source.read_text("utf-8")
    except OSError:
        raise MdmemError(f"{source} is missing from this installation; reinstall mdmem") from None


def _refuse_odd_files(project: Path, names: tuple[str, ...]) -> None:
    """A folder or a link where init would write a file: stop before writing anything."""
    for name in names:
        target = project / name
        if _exists(target) and (target.is_symlink() or not target.is_file()):
            raise MdmemError(f"{target} is not a regular file; nothing was written")


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


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
