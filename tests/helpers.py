"""Shared test helpers: tree snapshots, real git repositories, and memory inspection."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from mdmem.adopting.init import IGNORED
from mdmem.store.load import load
from mdmem.store.lock import LOCK

GIT_ENV = {
    "GIT_AUTHOR_NAME": "mdmem tests",
    "GIT_AUTHOR_EMAIL": "tests@mdmem.invalid",
    "GIT_COMMITTER_NAME": "mdmem tests",
    "GIT_COMMITTER_EMAIL": "tests@mdmem.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_script(path: Path, name: str) -> ModuleType:
    """A script that is not in a package (benchmarks/), imported by its path as `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file below root (outside .git) by relative path, as bytes.

    The lock's file of a memory outside git is left out: an OS lock is held on it, not by
    it, so it stays after the first command that locks, empty or as a crash left it.
    """
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(root).parts and path.name != LOCK
    }


def copy_tree(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


def git_init(path: Path) -> Path:
    """A new repository in `path` that ignores what `mdmem init`'s .gitignore lists (an
    older mdmem's lock file, journals, temp files), without a .gitignore in the tree."""
    git(path, "init", "-q", "-b", "main")
    with (path / ".git" / "info" / "exclude").open("a", encoding="utf-8") as exclude:
        exclude.write("".join(f"{pattern}\n" for pattern in IGNORED))
    return path


def make_repo(path: Path) -> Path:
    """A repository holding `path`'s files in one commit."""
    git_init(path)
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial memory")
    return path


def where(memory_root: Path) -> dict[str, tuple[str, str | None]]:
    """id -> (file relative to the memory folder, tier label) after loading."""
    memory = load(memory_root)
    found: dict[str, tuple[str, str | None]] = {}
    for document in (memory.continuity, *memory.archives):
        relative = document.path.split("/", 1)[1]
        for fact in document.facts:
            found[fact.id] = (relative, fact.get("tier"))
    return found
