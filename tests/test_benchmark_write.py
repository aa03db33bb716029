"""benchmarks/write.py at a tiny size: every write command runs in a committed repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import BENCHMARKS, load_script

bench = load_script(BENCHMARKS / "write.py", "mdmem_bench_write")


def test_every_write_command_runs_and_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.json"
    options = ["--sizes", "40:60", "--repeat", "2", "--json", str(out)]
    assert bench.main([*options, "--trees", str(tmp_path / "trees")]) == 0
    seconds = json.loads(out.read_text("utf-8"))["seconds"]["40:60"]
    assert sorted(seconds) == sorted(bench.COMMANDS)
    assert all(len(times) == 2 for times in seconds.values())
    table = capsys.readouterr().out
    assert table.splitlines()[0] == (
        "| sessions | facts | version s | session_start s | ref s | ref_again s | session s "
        "| add s | supersede s |"
    )
    assert table.splitlines()[2].startswith("| 40 | 60 | ")
    assert (tmp_path / "trees" / "40-60" / "reviewed" / "memory").is_dir()
