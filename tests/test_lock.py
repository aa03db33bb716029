"""The memory's lock: one lock file per memory folder, whatever path reaches it; in the
git folder inside a repository, in the memory folder outside one."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import filelock
import pytest

from mdmem.errors import LockError, WriteError
from mdmem.git.discover import git_folder
from mdmem.store import lock
from tests.helpers import git

HOLD = """
import sys, time
from pathlib import Path
from mdmem.store.lock import locked
with locked(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(30)
"""


def test_a_linked_path_to_the_memory_takes_the_same_lock(tmp_path: Path) -> None:
    memory = tmp_path / "repo" / "memory"
    memory.mkdir(parents=True)
    linked = tmp_path / "elsewhere"
    linked.symlink_to(tmp_path / "repo")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(memory)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(LockError), lock.locked(linked / "memory", timeout=0):
            pass
    finally:
        holder.kill()
        holder.wait()
    with lock.locked(linked / "memory", timeout=5):  # free once its holder is gone
        pass
    assert [path.name for path in memory.iterdir()] == [lock.LOCK]


def test_a_missing_memory_folder_is_refused_and_nothing_is_made(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="not a folder"), lock.locked(tmp_path / "nosuch"):
        pass
    assert list(tmp_path.iterdir()) == []


def test_a_negative_timeout_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="number of seconds"), lock.locked(tmp_path, -1):
        pass


def test_a_git_file_naming_a_missing_folder_is_no_repository(tmp_path: Path) -> None:
    (tmp_path / ".git").write_text("gitdir: ../moved-away/.git/worktrees/x\n")
    assert git_folder(tmp_path) is None
    with lock.locked(tmp_path, timeout=0):  # the lock beside the memory still works
        pass


HOLD_OLD = """
import sys, time
import filelock
with filelock.FileLock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(30)
"""


@contextlib.contextmanager
def held(script: str, path: Path) -> Iterator[None]:
    """A process holding a lock through `script` while the block runs."""
    holder = subprocess.Popen(
        [sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.kill()
        holder.wait()


def repository(folder: Path, *memories: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    git(folder, "init", "-q", "-b", "main")
    for memory in memories:
        (folder / memory).mkdir(parents=True)
    return folder


def test_in_a_repository_the_lock_is_in_the_git_folder(tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo", "memory")
    linked = tmp_path / "elsewhere"
    linked.symlink_to(repo)
    with (
        held(HOLD, repo / "memory"),
        pytest.raises(LockError),
        lock.locked(linked / "memory", timeout=0),
    ):
        pass
    with lock.locked(linked / "memory", timeout=5), lock.locked(repo / "memory", timeout=0):
        pass  # free once its holder is gone, and re-entrant by either path
    assert (repo / ".git" / "mdmem" / "memory.lock").is_file()
    assert list((repo / "memory").iterdir()) == []
    assert git(repo, "status", "--porcelain", "--ignored", "--untracked-files=all") == ""


@pytest.mark.parametrize(
    ("memory", "name"),
    [
        pytest.param("memory", "memory.lock", id="at-the-top"),
        pytest.param("docs/memory", "docs%2Fmemory.lock", id="nested"),
        pytest.param("Memory", "memory.lock", id="one-case"),
        pytest.param(".memory", "%2Ememory.lock", id="hidden"),
        pytest.param("50%/memory", "50%25%2Fmemory.lock", id="percent"),
        pytest.param(".", "%2E.lock", id="the-top-itself"),
    ],
)
def test_the_lock_is_named_by_the_folder_from_the_top(
    tmp_path: Path, memory: str, name: str
) -> None:
    repo = repository(tmp_path, memory if memory != "." else "sessions")
    assert lock.lock_file(repo / memory) == repo / ".git" / "mdmem" / name


def test_two_memory_folders_of_one_repository_have_two_locks(tmp_path: Path) -> None:
    repo = repository(tmp_path, "memory", "docs/memory")
    with held(HOLD, repo / "memory"), lock.locked(repo / "docs" / "memory", timeout=0):
        pass


def test_a_linked_worktree_locks_its_own_memory_folder(tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo", "memory")
    (repo / "memory" / "continuity.md").write_text("# Continuity\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    git(repo, "worktree", "add", "-q", str(tmp_path / "other"), "-b", "other")
    other = tmp_path / "other" / "memory"
    own = repo / ".git" / "worktrees" / "other" / "mdmem" / "memory.lock"
    assert lock.lock_file(other) == own
    with held(HOLD, repo / "memory"), lock.locked(other, timeout=0):
        pass  # the main tree's memory is another folder: its lock is another lock
    with held(HOLD, other), pytest.raises(LockError), lock.locked(other, timeout=0):
        pass
    assert own.is_file()


def test_a_lock_file_left_in_the_memory_folder_is_honoured(tmp_path: Path) -> None:
    # An older mdmem, or one that reached the folder from outside the repository (the
    # folder alone mounted elsewhere), locks memory/.mdmem.lock: this one takes turns.
    repo = repository(tmp_path, "memory")
    beside = repo / "memory" / lock.LOCK
    beside.touch()
    with (
        held(HOLD_OLD, beside),
        pytest.raises(LockError, match="another mdmem command"),
        lock.locked(repo / "memory", timeout=0.2),
    ):
        pass
    with (
        lock.locked(repo / "memory", timeout=0),
        pytest.raises(filelock.Timeout),
        filelock.FileLock(beside, timeout=0),
    ):
        pass  # both files held, as long as the command holds the lock
