"""benchmarks/run.py at a tiny size: every command runs, and the table and JSON say so."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.helpers import BENCHMARKS, load_script

runner = load_script(BENCHMARKS / "run.py", "mdmem_bench_run")


def run_tiny(tmp_path: Path) -> tuple[int, dict[str, object]]:
    out = tmp_path / "results.json"
    options = ["--sizes", "40:60", "--repeat", "1", "--json", str(out)]
    code = runner.main([*options, "--scratch", str(tmp_path), "--trees", str(tmp_path / "trees")])
    return code, json.loads(out.read_text(encoding="utf-8"))


def test_every_command_runs_and_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = run_tiny(tmp_path)
    assert code == 0
    names = [command.name for command in runner.COMMANDS]
    assert report["commands"] == names
    assert {"floor", "bound", "review", "review_warm", "lint", "lint_warm"} <= set(names)
    (result,) = report["results"]  # type: ignore[misc]
    assert (result["sessions"], result["facts"]) == (40, 60)
    for name in names:
        summary = result["commands"][name]
        assert not summary["failed"], name
        assert summary["seconds"] > 0, name
        assert summary["cpu_seconds"] > 0, name
        assert summary["exit_codes"] != [], name
    assert result["commands"]["review"]["exit_codes"] == [0]
    assert result["commands"]["bound"]["exit_codes"] == [0]
    table = capsys.readouterr().out
    assert "| bound s (x floor) | review s (x floor) |" in table
    assert table.splitlines()[2].startswith("| 40 | 60 | ")
    assert (tmp_path / "trees" / "40-60" / "reviewed" / "memory" / "continuity.md").is_file()
    cpu_header = "| size | facts | " + " | ".join(f"{name} cpu s" for name in names) + " |"
    assert cpu_header in table


# A child that spins until it has used this much CPU time itself, on any machine.
SPIN = """
import os, time
child = os.fork()
if child == 0:
    while time.process_time() < 0.3:
        pass
    os._exit(0)
os.waitpid(child, 0)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the command forks its helper")
def test_cpu_time_counts_the_helpers_a_command_reaps() -> None:
    run = runner.timed([sys.executable, "-c", SPIN])
    assert run.exit_code == 0
    assert run.cpu_seconds >= 0.3  # the forked child's, though the command itself idled


def test_a_failing_command_fails_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(memory: Path) -> list[str]:
        code = "import sys; print('no such memory', file=sys.stderr); sys.exit(3)"
        return [sys.executable, "-c", code]

    commands = [runner.COMMANDS[0], runner.Command("broken", broken)]
    monkeypatch.setattr(runner, "COMMANDS", commands)
    code, report = run_tiny(tmp_path)
    assert code == 1
    (result,) = report["results"]  # type: ignore[misc]
    assert result["commands"]["broken"]["failed"] is True
    assert result["commands"]["floor"]["failed"] is False
    captured = capsys.readouterr()
    assert "no such memory" in captured.err  # the failed command's stderr is shown
    row = captured.out.splitlines()[2].split(" | ")
    assert row[3].endswith(" FAILED") and not row[2].endswith(" FAILED")  # broken, floor
