"""benchmarks/read.py at a tiny size: every reading command runs in a committed repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import BENCHMARKS, load_script

bench = load_script(BENCHMARKS / "read.py", "mdmem_bench_read")


def test_every_read_command_runs_and_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.json"
    options = ["--sizes", "40:60", "--repeat", "1", "--json", str(out)]
    assert bench.main([*options, "--trees", str(tmp_path / "trees")]) == 0
    seconds = json.loads(out.read_text("utf-8"))["seconds"]["40:60"]
    assert sorted(seconds) == sorted(bench.COMMANDS)
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("| sessions | facts | version s | lookup_cold s | lookup s |")
    assert "floor_sessions)" in table[2]  # lookup --sessions against reading every log
