"""Concurrency: processes that share one memory take turns through its lock, and nothing breaks.

The lock is held from the test itself while real `python -m mdmem` processes start,
so the contention is certain rather than hoped for; releasing it lets them through in
whatever order the scheduler picks, and every order must give the same tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.store import lock
from tests.helpers import GIT_ENV, git, make_repo, snapshot

DEMO = Path(__file__).resolve().parent.parent / "templates" / "demo" / "memory"
QUEUE_UP = 0.5  # seconds the processes get to reach the held lock (not an assertion)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    shutil.copytree(DEMO, folder / "memory")
    return make_repo(folder)


@pytest.fixture
def reviewed(tmp_path: Path, repo: Path) -> dict[str, bytes]:
    """The tree one review on its own leaves, made in a copy."""
    copy = tmp_path / "reference"
    shutil.copytree(repo, copy)
    result = mdmem(copy, "review")
    assert result.returncode == 0, result.stderr
    return snapshot(copy)


def start(repo: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "mdmem", *args],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **GIT_ENV, **env},
    )


def mdmem(repo: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    process = start(repo, *args, **env)
    out, err = process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def together(repo: Path, *commands: tuple[str, ...]) -> list[subprocess.CompletedProcess[str]]:
    """Start every command while the test holds the lock, then let them all go at once."""
    with lock.locked(repo / "memory"):
        processes = [start(repo, *args) for args in commands]
        time.sleep(QUEUE_UP)
        assert all(p.poll() is None for p in processes), "a command ran past a held lock"
    done = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return done


def review_commits(repo: Path) -> int:
    return git(repo, "log", "--format=%s").count("mdmem review through")


def test_two_reviews_at_once_one_writes_the_other_finds_nothing_new(
    repo: Path, reviewed: dict[str, bytes]
) -> None:
    first, second = together(repo, ("review",), ("review",))
    assert (first.returncode, second.returncode) == (0, 0), first.stderr + second.stderr
    outputs = sorted([first.stdout, second.stdout], key=lambda out: "Nothing new" in out)
    assert "Committed" in outputs[0]
    assert "Nothing new since the last review" in outputs[1]
    assert snapshot(repo) == reviewed
    assert review_commits(repo) == 1
    assert git(repo, "status", "--porcelain") == ""


def test_many_reviews_at_once_take_turns(repo: Path, reviewed: dict[str, bytes]) -> None:
    """Four reviews started together, with a lock file a killed process left: one writes.

    Two writers at once would both plan from the old tree and the second commit would
    fail (nothing to commit) and undo, leaving the tree out of step with HEAD.
    """
    (repo / "memory" / lock.LOCK).write_text("12345 a-host-long-gone\n")
    processes = [start(repo, "review") for _ in range(4)]
    results = [(*p.communicate(timeout=120), p.returncode) for p in processes]
    assert [code for _, _, code in results] == [0, 0, 0, 0], results
    assert sum("Committed" in out for out, _, _ in results) == 1
    assert snapshot(repo) == reviewed
    assert review_commits(repo) == 1


def test_a_review_and_a_lint_at_once(repo: Path, reviewed: dict[str, bytes]) -> None:
    before = mdmem(repo, "lint", "--json")
    review, lint = together(repo, ("review",), ("lint", "--json"))
    assert review.returncode == 0, review.stderr
    assert snapshot(repo) == reviewed
    after = mdmem(repo, "lint", "--json")
    # Lint ran wholly before the review or wholly after it: never on a half-written tree.
    assert (lint.returncode, lint.stdout) in {
        (before.returncode, before.stdout),
        (after.returncode, after.stdout),
    }, lint.stdout + lint.stderr
    assert lint.returncode in (0, 1), lint.stderr


def test_lock_timeout_exits_4_with_a_clear_message(repo: Path) -> None:
    before = snapshot(repo)
    with lock.locked(repo / "memory"):
        result = mdmem(repo, "review", MDMEM_LOCK_TIMEOUT="0.3")
    assert result.returncode == 4
    message = result.stderr.strip()
    assert message.startswith("mdmem: ")
    assert "another mdmem command holds this memory's lock (waited 0.3 s)" in message
    assert "run this command again, or wait longer with --lock-timeout" in message
    assert snapshot(repo) == before


@pytest.mark.parametrize(
    ("setting", "accepted"),
    [
        pytest.param("0", True, id="zero-means-do-not-wait"),
        pytest.param("2.5", True, id="fractional"),
        pytest.param("-1", False, id="negative"),
        pytest.param("soon", False, id="not-a-number"),
    ],
)
def test_lock_timeout_setting_is_validated(repo: Path, setting: str, accepted: bool) -> None:
    result = CliRunner().invoke(
        main, ["review", "--dry-run", "--root", str(repo)], env={"MDMEM_LOCK_TIMEOUT": setting}
    )
    assert result.exit_code == (0 if accepted else 2), result.output
    if not accepted:
        assert "MDMEM_LOCK_TIMEOUT" in result.output or "--lock-timeout" in result.output


def test_lock_timeout_is_documented_in_help() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert "MDMEM_LOCK_TIMEOUT" in result.output
    assert "--lock-timeout" in result.output


HOLDER = """\
import sys, time
from pathlib import Path
from mdmem.store.lock import locked
with locked(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(60)
"""


def test_the_lock_of_a_killed_process_is_free_at_once(
    repo: Path, reviewed: dict[str, bytes]
) -> None:
    """The OS releases the lock with its holder: no stale lock to wait for or to break."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(repo / "memory")], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        before = snapshot(repo)
        assert mdmem(repo, "review", MDMEM_LOCK_TIMEOUT="0.2").returncode == 4
        assert snapshot(repo) == before
    finally:
        holder.kill()
        holder.wait()
    result = mdmem(repo, "review", MDMEM_LOCK_TIMEOUT="0")
    assert result.returncode == 0, result.stderr
    assert snapshot(repo) == reviewed


def test_the_lock_is_reentrant_within_a_process(repo: Path) -> None:
    with lock.locked(repo / "memory"), lock.locked(repo / "memory", timeout=0):
        pass
    with lock.locked(repo / "memory", timeout=0):  # released by the outer block
        pass
