"""Lint and init bugs found by an independent review, each pinned by the input that showed it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from tests.helpers import git

CONTINUITY = (
    "## Key Decisions\n\n- A\n  <!-- id: aa-one | created: 2026-01-01 | last_used: 2026-01-01"
    " | uses: 1 | tier: working -->\n"
)
SECRET_VALUES = ["zq9-wx7-kk3-pp1", "hunter-22-xyzzy", "s3cr-et-pw9"]
LOG = (
    "# S\n\n## Memory References\n"
    "- Referenced: aa-one (api_key=zq9-wx7-kk3-pp1)\n"
    "- Referenced: aa-one, password: hunter-22-xyzzy\n"
    "- Referenced: aa-one postgres://u:s3cr-et-pw9@db-host-one\n"
)


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_secret_shaped_like_an_id_is_not_printed_as_unknown(
    tmp_path: Path, as_json: bool
) -> None:
    memory = tmp_path / "memory"
    (memory / "sessions").mkdir(parents=True)
    (memory / "continuity.md").write_text(CONTINUITY)
    (memory / "sessions" / "2026-01-01-100000.md").write_text(LOG)
    args = ["lint", "--root", str(memory), *(["--json"] if as_json else [])]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1  # the secrets themselves are errors (E009)
    for value in SECRET_VALUES:
        assert value not in result.output
    codes = [f["code"] for f in json.loads(result.output)] if as_json else []
    assert not as_json or codes.count("E009") == 3


def _init(project: Path) -> subprocess.CompletedProcess[str]:
    git(project, "init", "-q")
    return subprocess.run(
        [sys.executable, "-m", "mdmem", "init"], cwd=project, capture_output=True, text=True
    )


def test_init_refuses_a_file_named_memory(tmp_path: Path) -> None:
    (tmp_path / "memory").write_text("hi\n")
    done = _init(tmp_path)
    assert done.returncode == 3
    assert "exists and is not a folder" in done.stderr
    assert "Traceback" not in done.stderr
    assert (tmp_path / "memory").read_text() == "hi\n"


def test_init_refuses_a_folder_where_it_would_write_a_file(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").mkdir()
    done = _init(tmp_path)
    assert done.returncode == 3
    assert ".gitignore is not a regular file; nothing was written" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git", ".gitignore"]
    again = _init(tmp_path)  # and the next run says the same, no traceback
    assert again.returncode == 3 and "Traceback" not in again.stderr
