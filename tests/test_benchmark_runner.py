"""benchmarks/run.py at a tiny size: every command runs, and the table and JSON say so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import BENCHMARKS, load_script

runner = load_script(BENCHMARKS / "run.py", "mdmem_bench_run")


def run_tiny(tmp_path: Path, *extra: str) -> tuple[int, dict[str, object]]:
    out = tmp_path / "results.json"
    options = ["--sizes", "40:60", "--repeat", "1", "--json", str(out), *extra]
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


def mdmem_commands(*names: str) -> list[object]:
    """The floor and the named commands of the runner's table, in its order."""
    return [c for c in runner.COMMANDS if c.name == "floor" or c.name in names]


@pytest.mark.skipif(
    not (runner.REPOSITORY / ".git").exists(), reason="--base exports a git revision"
)
def test_base_times_both_versions_side_by_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runner, "COMMANDS", mdmem_commands("review", "lint", "lint_warm"))
    code, report = run_tiny(tmp_path, "--base", "HEAD")
    assert code == 0
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=runner.REPOSITORY, capture_output=True, text=True
    ).stdout.strip()
    base = report["base"]
    assert isinstance(base, dict)
    assert (base["revision"], base["commit"]) == ("HEAD", head)
    assert len(base["mdmem_code"]) == 16
    (result,) = report["results"]  # type: ignore[misc]
    assert set(result["base_commands"]) == {"review", "lint", "lint_warm"}  # not the floor
    for name in ("review", "lint", "lint_warm"):
        new, old = result["commands"][name], result["base_commands"][name]
        assert not new["failed"] and not old["failed"], name
        assert new["seconds"] > 0 and old["seconds"] > 0, name
        ratio = result["new_over_base"][name]
        assert ratio == pytest.approx(new["seconds"] / old["seconds"], abs=0.001), name
    captured = capsys.readouterr()
    order = [line.split()[2:4] for line in captured.err.splitlines() if "round 1:" in line]
    assert order == [
        ["floor", "[new]"],
        *(
            [name, label]
            for name in ("review", "lint", "lint_warm")
            for label in ("[new]", "[base]")
        ),
    ]
    table = captured.out
    assert "| size | command | new s | base s (HEAD) | new/base | new cpu s | base cpu s |" in table
    assert f"| 40 | lint_warm | {result['commands']['lint_warm']['seconds']:.3f} | " in table
    assert sorted(path.name for path in tmp_path.iterdir()) == ["results.json", "trees"]


def test_a_version_that_imports_another_mdmem_is_refused(tmp_path: Path) -> None:
    with pytest.raises(runner.VersionUnavailable, match="imports mdmem from"):
        runner.prepare(runner.Version("base", tmp_path))  # no mdmem/ here: the installed one


def test_an_unknown_base_revision_fails_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.json"
    code = runner.main(["--sizes", "40:60", "--base", "no-such-revision", "--json", str(out)])
    assert code == 1
    assert "no-such-revision" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("named", "twins"),
    [
        pytest.param("review", ["review_uncached"], id="first_on_its_tree"),
        pytest.param(
            "lint",
            ["review_uncached", "review_warm_uncached", "lint_uncached"],
            id="after_the_reviews_on_its_copy",
        ),
        pytest.param(
            "review_backlog,review",
            ["review_uncached", "review_backlog_uncached"],
            id="one_twin_copy_per_tree",
        ),
    ],
)
def test_uncached_twins_bring_their_copy_to_the_same_state(named: str, twins: list[str]) -> None:
    commands = runner.with_uncached(runner.COMMANDS, named.split(","))
    assert commands[: len(runner.COMMANDS)] == runner.COMMANDS
    added = commands[len(runner.COMMANDS) :]
    assert [command.name for command in added] == twins
    for twin in added:
        original = twin.name.removesuffix(runner.UNCACHED)
        assert twin.ratio_to == original
        assert twin.environment == (("MDMEM_NO_CACHE", "1"),)
        assert twin.copy != ""  # not the copy the cached commands left


@pytest.mark.parametrize("named", ["floor", "no_such_command"])
def test_uncached_names_an_mdmem_command(named: str) -> None:
    with pytest.raises(ValueError, match=named):
        runner.with_uncached(runner.COMMANDS, [named])


# Exits 1 (a result, not a failure) where mdmem's caches are off, so the exit codes tell
# which environment each column ran in.
PROBE = "import os, sys; sys.exit(1 if os.environ.get('MDMEM_NO_CACHE') else 0)"


def test_an_uncached_twin_runs_with_caches_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def probe(memory: Path) -> list[str]:
        return [sys.executable, "-c", PROBE]

    monkeypatch.delenv("MDMEM_NO_CACHE", raising=False)
    monkeypatch.setattr(runner, "COMMANDS", [runner.COMMANDS[0], runner.Command("probe", probe)])
    code, report = run_tiny(tmp_path, "--uncached", "probe")
    assert code == 0
    assert report["commands"] == ["floor", "probe", "probe_uncached"]
    (result,) = report["results"]  # type: ignore[misc]
    assert result["commands"]["probe"]["exit_codes"] == [0]
    assert result["commands"]["probe_uncached"]["exit_codes"] == [1]
