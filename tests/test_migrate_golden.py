"""Golden migrations: one case per source format, under tests/migrate/<case>/.

A case holds `before/` (a project: the source files, and `memory/` when it starts from
a memory of its own; else tests/migrate/_memory, a memory as `mdmem init` lays it out),
`args` (the SOURCE arguments, one a line, relative to the project), `CASE.md` (what it
shows), and what the migration at STAMP must leave: `after/` (the memory folder, every
file byte for byte) and `output.txt` (what `mdmem migrate` prints). The source files must
be left as they were, lint must find no error in the memory the migration leaves, and
the same migration run again must import nothing.

To regenerate after an intended change, run
`MDMEM_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_migrate_golden.py`, then
read the diff of tests/migrate/ before committing it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mdmem.linting.run import lint
from mdmem.migrating.migrate import migrate
from mdmem.migrating.plan import describe
from mdmem.store.lock import LOCK
from tests.helpers import snapshot

GOLDEN = Path(__file__).parent / "migrate"
BASE_MEMORY = GOLDEN / "_memory"
CASES = sorted(path.name for path in GOLDEN.iterdir() if (path / "before").is_dir())
UPDATE = os.environ.get("MDMEM_UPDATE_GOLDEN") == "1"
STAMP = "2026-05-04-120000"
LATER = "2026-05-04-130000"


def project(name: str, target: Path) -> Path:
    """The case's `before/` project copied to `target`, with the base memory unless it
    brings its own."""
    shutil.copytree(GOLDEN / name / "before", target)
    if not (target / "memory").exists():
        shutil.copytree(BASE_MEMORY, target / "memory")
    return target


def sources(name: str) -> list[Path]:
    lines = (GOLDEN / name / "args").read_text(encoding="utf-8").splitlines()
    return [Path(line) for line in lines if line.strip()]


def outside_memory(root: Path) -> dict[str, bytes]:
    return {path: data for path, data in snapshot(root).items() if not path.startswith("memory/")}


def test_every_format_has_a_case() -> None:
    assert {
        "claude-md-realistic",
        "agents-md-nested",
        "gemini-md",
        "cursorrules",
        "cursor-mdc",
        "copilot",
        "windsurf",
        "cass-playbook",
    } <= set(CASES)


@pytest.mark.parametrize("name", CASES)
def test_a_golden_tree_holds_no_lock_file(name: str) -> None:
    """The lock's file is how the lock works, not what a migration leaves: `snapshot`
    passes over it, and a golden tree must not hold one."""
    assert sorted((GOLDEN / name).rglob(LOCK)) == []


@pytest.mark.parametrize("name", CASES)
def test_migration_matches_its_golden_files(name: str, tmp_path: Path) -> None:
    root = project(name, tmp_path / "project")
    originals = outside_memory(root)
    plan = migrate(root / "memory", sources(name), stamp=STAMP, cwd=root)
    output = describe(plan, dry_run=False) + "\n"
    memory_after = snapshot(root / "memory")
    case = GOLDEN / name
    if UPDATE:
        shutil.rmtree(case / "after", ignore_errors=True)
        shutil.copytree(root / "memory", case / "after", ignore=shutil.ignore_patterns(LOCK))
        (case / "output.txt").write_text(output, encoding="utf-8")
    assert output == (case / "output.txt").read_text(encoding="utf-8")
    assert memory_after == snapshot(case / "after")
    assert outside_memory(root) == originals, "a source file changed"
    errors = [finding.render() for finding in lint(root / "memory") if finding.is_error]
    assert errors == []
    again = migrate(root / "memory", sources(name), stamp=LATER, cwd=root)
    assert (again.log, dict(again.writes)) == (None, {}), "a second run must import nothing"
    assert snapshot(root / "memory") == memory_after
