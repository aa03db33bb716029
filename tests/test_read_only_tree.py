"""A command that writes nothing leaves the working tree as it found it: in a repository
without `mdmem init`'s ignore lines, `git status --porcelain --ignored` says after every
reading command what it said before (the lock, the caches and the lint counts live in the
git folder), and `mdmem status` says the count that `mdmem lint` printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.store import lock
from tests.helpers import git
from tests.reading_memory import LOGS, write_memory

CURRENT = LOGS[-1][0]  # left uncommitted: the current session

# (arguments, exit codes that mean the command ran to its end). lint's 1 is its findings.
READING = [
    pytest.param(["status"], (0,), id="status"),
    pytest.param(["status", "--lint", "--json"], (0,), id="status-lint"),
    pytest.param(["lookup", "webhook", "retries", "--sessions"], (0,), id="lookup"),
    pytest.param(["show", "webhook-backoff"], (0,), id="show"),
    pytest.param(["show", "export-csv-tenant", "--as-of", "2026-01-05-100000"], (0,), id="as-of"),
    pytest.param(["context", "fix", "webhook", "retries"], (0,), id="context"),
    pytest.param(["lint"], (0, 1), id="lint"),
    pytest.param(["lint", "--json"], (0, 1), id="lint-json"),
    pytest.param(["stats"], (0,), id="stats"),
    pytest.param(["trend"], (0,), id="trend"),
    pytest.param(["review", "--dry-run"], (0,), id="review-dry-run"),
    pytest.param(["export", "--dry-run", "--format", "agents-md"], (0,), id="export-dry-run"),
    pytest.param(["session"], (0,), id="session"),
]


def committed_memory(folder: Path) -> Path:
    """The reading tests' memory in a repository of its own that ignores nothing (no
    .gitignore, no info/exclude line), every log committed but the current one."""
    memory = write_memory(folder)
    (memory / "blocked.md").unlink()  # a fact near its entry is an error that stops a review
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "-A")
    git(folder, "reset", "-q", "--", f"memory/sessions/{CURRENT}.md")
    git(folder, "commit", "-q", "-m", "memory")
    return memory


def tree_state(repo: Path) -> str:
    return git(repo, "status", "--porcelain", "--ignored", "--untracked-files=all")


def test_every_reading_command_leaves_git_status_as_it_was(tmp_path: Path) -> None:
    memory = committed_memory(tmp_path)
    before = tree_state(tmp_path)
    assert before == f"?? memory/sessions/{CURRENT}.md\n"
    runner = CliRunner()
    for twice in range(2):  # the first run makes the caches, the second reads them
        for case in READING:
            arguments, ran = case.values
            result = runner.invoke(main, [*arguments, "--root", str(memory)])
            assert result.exit_code in ran, (case.id, twice, result.output)
            assert result.stdout, case.id
            assert tree_state(tmp_path) == before, (case.id, twice)
    # The commands did lock (lint, stats, trend, export): on the git folder's file.
    assert lock.lock_file(memory) == tmp_path / ".git" / "mdmem" / "memory.lock"
    assert (tmp_path / ".git" / "mdmem" / "memory.lock").is_file()
    assert not (memory / lock.LOCK).exists()


def committed_with_findings(folder: Path) -> Path:
    """A memory whose lint prints fewer lines than it has findings: a review overdue
    (review_every 1), so that its four stale footers are listed (one line), and a
    committed log citing an unknown id (a warning lint counts apart)."""
    memory = write_memory(folder)
    (memory / "blocked.md").unlink()
    policy = memory / "decay-policy.md"
    policy.write_text(policy.read_text("utf-8").replace("review_every: 3", "review_every: 1"))
    with (memory / "sessions" / "2026-01-05-100000.md").open("a", encoding="utf-8") as log:
        log.write("- Referenced: no-such-fact\n")
    continuity = memory / "continuity.md"
    text = continuity.read_text("utf-8").replace(
        "uses: 4 | tier: active | tags", "uses: 9 | tier: active | tags"
    )
    continuity.write_text(text, "utf-8")
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "memory")
    return memory


def test_status_says_the_count_lint_printed(tmp_path: Path) -> None:
    memory = committed_with_findings(tmp_path)
    runner = CliRunner()
    root = ["--root", str(memory)]
    every = json.loads(runner.invoke(main, ["lint", "--json", *root]).output)
    assert sorted(finding["code"] for finding in every) == ["W001"] * 4 + ["W002", "W007"]
    printed = runner.invoke(main, ["lint", *root]).output.splitlines()
    assert [line.split(": ")[1][:4] for line in printed[:2]] == ["W007", "W001"]
    assert printed[2].startswith("1 warning about committed session logs")
    assert printed[3:] == ["0 errors, 2 warnings."]  # two lines, not six findings
    said = "lint: 0 errors, 2 warnings; 1 warning about committed session logs"
    counted = {"current": True, "errors": 0, "warnings": 2, "committed_log_warnings": 1}
    for run_lint in ([], ["--lint"]):  # the count the last lint kept, and lint run now
        plain = runner.invoke(main, ["status", *run_lint, *root])
        assert said in plain.output.splitlines(), (run_lint, plain.output)
        data = json.loads(runner.invoke(main, ["status", "--json", *run_lint, *root]).output)
        assert data["lint"] == counted, run_lint
