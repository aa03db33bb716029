"""benchmarks/realmem.py, the check of real memories: it runs every reading command on a
memory and counts what refused and what crashed, honestly (a refusal is counted, and
--fail exits 1 on it), and checks the newest state's review."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
SCRIPT = PROJECT / "benchmarks" / "realmem.py"
MEMORY = PROJECT / "tests" / "realshaped" / "thread-files" / "memory"


def run(*arguments: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, arguments)],
        capture_output=True,
        text=True,
        check=False,
        cwd=PROJECT,
    )


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_AUTHOR_NAME", "t")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "t@example.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "t")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "t@example.invalid")


def test_a_memory_it_reads_counts_no_refusal(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = run(MEMORY, "--json", out, "--fail")
    assert result.returncode == 0, result.stdout + result.stderr
    (tally,) = json.loads(out.read_text())
    assert (tally["states"], tally["refusals"], tally["crashes"]) == (1, {}, {})
    assert tally["runs"] == 10  # every reading command, `show` of a fact it holds included
    newest = tally["newest"]
    assert newest["review_exit"] == 0 and newest["ids_lost"] == []
    assert newest["ids_after"] >= newest["ids_before"] > 0
    assert "states 1, runs 10, refusals 0, crashes 0" in result.stdout


def test_a_refusal_is_counted_and_fails_the_check(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    shutil.copytree(MEMORY, memory)
    continuity = memory / "continuity.md"
    continuity.write_text(continuity.read_text("utf-8") + "<<<<<<< HEAD\n", "utf-8")
    out = tmp_path / "out.json"
    result = run(memory, "--json", out, "--fail")
    assert result.returncode == 1
    (tally,) = json.loads(out.read_text())
    # A reading command leaves the file out and names it; the review refuses it, and the
    # fact `show` asks for was in the file left out.
    assert tally["refusals"] == {"review --dry-run": 1, "show": 1}
    assert tally["crashes"] == {}
    assert "merge-conflict marker" in result.stdout
