"""Long reads show a progress bar on a terminal's stderr, and nothing anywhere else."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from mdmem.cli.options import PROGRESS_FROM


@pytest.fixture
def large_memory(tmp_path: Path) -> Path:
    memory = tmp_path / "memory"
    sessions = memory / "sessions"
    sessions.mkdir(parents=True)
    (memory / "continuity.md").write_text(
        "## Key Decisions\n\n- A fact\n  <!-- id: some-fact | created: 2026-01-01 | uses: 1 -->\n"
    )
    for index in range(PROGRESS_FROM + 100):
        day, rest = divmod(index, 1000)
        name = f"2026-01-{day + 1:02d}-{rest // 60:02d}{rest % 60:02d}00.md"
        (sessions / name).write_text("# S\n\n## Memory References\n- Referenced: some-fact\n")
    return memory


def _run(memory: Path, stderr: int) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "mdmem", "review", "--root", str(memory), "--no-commit"],
        stdout=subprocess.PIPE,
        stderr=stderr,
        env={**os.environ, "MDMEM_NO_CACHE": "1"},
        check=False,
    )


def test_bar_on_a_terminal(large_memory: Path) -> None:
    leader, follower = pty.openpty()
    done = _run(large_memory, follower)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: everything was read
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert done.returncode == 0
    assert b"Reading session logs" in shown
    assert b"100%" in shown


def test_silent_when_stderr_is_not_a_terminal(large_memory: Path) -> None:
    done = _run(large_memory, subprocess.PIPE)
    assert done.returncode == 0
    assert done.stderr == b""
    assert b"Reviewed 2100 sessions" in done.stdout
