"""GitPython is imported only by what talks to git: its import takes longer than a review of a
small memory, so loading, planning, lint without git and the commands that read a memory
outside a repository never import it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mdmem.git.discover import top_level

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "templates" / "demo" / "memory"

PROGRAM = """\
import contextlib, io, sys
from pathlib import Path
import mdmem
from mdmem.cli import main
from mdmem.linting.run import lint

memory = mdmem.find_root(Path.cwd())
mdmem.plan_review(mdmem.load(memory))
lint(memory)
for args in (["--version"], ["review", "--dry-run"], ["review", "--dry-run", "--json"], ["lint"]):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(args, standalone_mode=False)
print(sorted(name for name in sys.modules if name == "git" or name.startswith("git.")))
"""


def test_reading_a_memory_outside_a_repository_never_imports_git(tmp_path: Path) -> None:
    if top_level(tmp_path) is not None:
        pytest.skip("the temporary folder lies inside a git repository")
    shutil.copytree(DEMO, tmp_path / "project" / "memory")
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        cwd=tmp_path / "project",
        capture_output=True,
        text=True,
        env=environment,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr
