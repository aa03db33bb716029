"""The memory's lock: one lock file per memory folder, whatever path reaches it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mdmem.errors import LockError, WriteError
from mdmem.git.discover import git_folder
from mdmem.store import lock

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
