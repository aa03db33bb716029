"""The memory folder (`find_root`), the project beside it, and the folders mdmem makes in
them.

mdmem writes some files outside the memory folder: AGENTS.md and the vendors' instruction
files, Claude Code's settings and the MCP clients' configuration. All of them go in one
place, `project_of(root)`, the folder that holds the memory: the project `--root` names.
Every folder a write needs is made here, through no symbolic link and over no file. A
path given on the command line (`--path`) is read as a path from the project's top
(`project_path`), as a fact's scope names it.
"""

from __future__ import annotations

import os
from pathlib import Path

from mdmem.errors import MdmemError, WriteError
from mdmem.format.memory import CONTINUITY

LINKED = "is a symbolic link; mdmem does not follow links; nothing written"
NOT_A_FOLDER = "is a file where mdmem needs a folder; move it aside, then run the command again"


def find_root(start: Path, explicit: Path | None = None) -> Path:
    """The memory folder: `--root` (the folder itself or one holding `memory/`), else search up."""
    if explicit is not None:
        if not explicit.is_dir():
            raise MdmemError(
                f"{explicit} is no folder; give the memory folder, or the project folder "
                "that holds memory/"
            )
        for candidate in (explicit, explicit / "memory"):
            if (candidate / CONTINUITY).is_file():
                return candidate.resolve()
        raise MdmemError(
            f"no {CONTINUITY} in {explicit} or {explicit / 'memory'}; run 'mdmem init'"
        )
    for folder in (start, *start.parents):
        if (folder / "memory" / CONTINUITY).is_file():
            return (folder / "memory").resolve()
    raise MdmemError(f"no memory/{CONTINUITY} here or in any parent folder; run 'mdmem init'")


def project_of(root: Path) -> Path:
    """The project of the memory folder `root`: the folder that holds it, where the agents'
    and the MCP clients' files go, wherever the git repository's top is."""
    return Path(root).resolve().parent


def project_path(root: Path, path: str, cwd: Path | None = None) -> str:
    """A `--path` as a fact's `scope` reads it: relative to the project (the folder that
    holds the memory), its `..` and `.` steps taken, no link followed. An absolute path is
    made relative to the project; so is a relative one given from `cwd` (the command line's
    working folder, as a shell reads it) when that lies inside the project; any other
    relative path is read from the project's top. Whether the file exists changes nothing.
    A path that leaves the project is refused: no scope could match it; so is an empty
    one (a variable that held no file), which would leave out every scoped fact."""
    if not path.strip():
        raise MdmemError(
            "--path is empty: give a file inside the project, like src/api/handlers.py, or "
            "leave --path out"
        )
    tops = [Path(os.path.abspath(root)).parent, project_of(root)]
    given = Path(path).expanduser()
    if not given.is_absolute():
        here = None if cwd is None else Path(os.path.abspath(cwd))
        inside = here is not None and any(here.is_relative_to(top) for top in tops)
        given = (here if here is not None and inside else tops[0]) / given
    normal = Path(os.path.normpath(given))
    for top in tops:
        if normal.is_relative_to(top):
            return normal.relative_to(top).as_posix()
    raise MdmemError(
        f"--path {path} is outside the project ({tops[0].name}/, which holds the memory): give "
        "a path inside it, like src/api/handlers.py"
    )


def exists(path: Path) -> bool:
    """Whether anything is at `path`, a symbolic link that leads nowhere included."""
    return path.exists() or path.is_symlink()


def make_folders(base: Path, folder: Path) -> list[Path]:
    """Make `folder`, below `base`, and its missing parents; the folders made, outermost
    first. A step that is a symbolic link, or anything but a folder, is refused before any
    folder is made (a WriteError naming it)."""
    parts = folder.relative_to(base).parts
    steps = [base.joinpath(*parts[:depth]) for depth in range(1, len(parts) + 1)]
    for step in steps:
        if step.is_symlink():
            raise WriteError(LINKED, step)
        if step.exists() and not step.is_dir():
            raise WriteError(f"{NOT_A_FOLDER}; nothing written", step)
    made = [step for step in steps if not step.exists()]
    for step in made:
        try:
            step.mkdir(exist_ok=True)
        except OSError as exc:
            raise WriteError(f"could not make this folder: {exc.strerror}", step) from None
    return made
