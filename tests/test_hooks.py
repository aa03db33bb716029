"""The pre-commit hook, installed into real repositories and run by real `git commit`."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.adopting.hooks import CHAINED, MARKER
from mdmem.cli import main
from tests.helpers import git, git_init, make_repo
from tests.test_lint import BASE, EMPTY_SESSION, LATER, SESSION, TOKEN, write_memory

DUPLICATE = BASE + BASE.split("\n", 4)[4]  # the one fact twice: an error (E003)

ROOT = Path(__file__).parent.parent


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    work = tmp_path / "repo"
    write_memory(work, {})
    (work / "src").mkdir()
    (work / "src" / "app.py").write_text("print('hello')\n")
    return make_repo(work)


def install(repo: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["hooks", "install", "--root", str(repo / "memory"), *args])
    return result.exit_code, result.stdout, result.stderr


def commit(repo: Path, *paths: str) -> subprocess.CompletedProcess[str]:
    """`git add` then `git commit`, hooks and all, as a person would run them."""
    git(repo, "add", "-A", "--", *paths)
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change"], cwd=repo, capture_output=True, text=True
    )


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").strip()


def test_install_writes_an_executable_hook(repo: Path) -> None:
    code, out, _ = install(repo)
    hook = repo / ".git" / "hooks" / "pre-commit"
    assert code == 0
    assert out == f"Installed the pre-commit hook: {hook}\n"
    assert MARKER in hook.read_text()
    assert "hook-pre-commit --root memory" in hook.read_text()
    assert os.access(hook, os.X_OK)
    code, out, _ = install(repo)
    assert (code, out) == (0, f"The pre-commit hook is up to date: {hook}\n")
    hook.write_text(hook.read_text().replace("hook-pre-commit", "hook-pre-commit "))
    code, out, _ = install(repo)
    assert (code, out) == (0, f"Updated the pre-commit hook: {hook}\n")


def test_the_first_commit_of_a_new_repository_passes(tmp_path: Path) -> None:
    work = tmp_path / "fresh"
    write_memory(work, {})
    git_init(work)
    assert install(work)[0] == 0
    done = commit(work, "memory")
    assert done.returncode == 0, done.stderr
    assert git(work, "ls-files").split() == [
        "memory/continuity.md",
        "memory/sessions/2026-03-01-090000.md",
    ]


def test_an_edit_to_a_committed_log_is_refused(repo: Path) -> None:
    install(repo)
    before = head(repo)
    log = repo / SESSION
    log.write_text(log.read_text() + "- Referenced: post-only-mutations\n")
    done = commit(repo, SESSION)
    assert done.returncode != 0
    assert (
        f"mdmem: {SESSION}: this commit modifies a committed session log; logs are immutable"
        in done.stderr
    )
    assert head(repo) == before
    told = re.search(r"put it back: git (restore [^)]*)\)", done.stderr)
    assert told is not None and told[1].endswith(f" -- :/{SESSION}"), done.stderr
    git(repo / "memory", *told[1].split())  # as given, from a folder below the top too
    assert git(repo, "status", "--porcelain") == ""


def test_a_mode_change_of_a_committed_log_is_refused(repo: Path) -> None:
    install(repo)
    before = head(repo)
    log = repo / SESSION
    log.chmod(log.stat().st_mode | 0o111)
    done = commit(repo, SESSION)
    assert done.returncode != 0
    assert f"{SESSION}: this commit changes the file mode of a committed session log" in (
        done.stderr
    )
    assert head(repo) == before


@pytest.mark.parametrize("how", ["delete", "rename"])
def test_deleting_or_renaming_a_committed_log_is_refused(repo: Path, how: str) -> None:
    install(repo)
    if how == "delete":
        git(repo, "rm", "-q", SESSION)
    else:
        git(repo, "mv", SESSION, LATER)
    done = subprocess.run(
        ["git", "commit", "-q", "-m", how], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert f"{SESSION}: this commit deletes or renames a committed session log" in done.stderr
    told = re.search(r"put it back: git (restore [^;)]*)", done.stderr)
    assert told is not None, done.stderr
    git(repo, *told[1].split())
    if how == "rename":  # the copy under the new name stays staged until taken out
        assert "renamed, also take out the copy: git rm -f -- NEW-NAME" in done.stderr
        git(repo, "rm", "-q", "-f", "--", LATER)
    assert git(repo, "status", "--porcelain") == ""


def test_a_clean_commit_passes(repo: Path) -> None:
    install(repo)
    (repo / LATER).write_text(EMPTY_SESSION)
    done = commit(repo, LATER)
    assert done.returncode == 0, done.stderr
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == [LATER]


def test_a_lint_error_blocks_the_commit(repo: Path) -> None:
    install(repo)
    (repo / "memory" / "continuity.md").write_text(DUPLICATE)
    before = head(repo)
    done = commit(repo, "memory")
    assert done.returncode != 0
    assert "memory/continuity.md:8: E003 duplicate id post-only-mutations" in done.stderr
    assert "mdmem: commit refused" in done.stderr
    assert head(repo) == before


def test_lint_warnings_do_not_block(repo: Path) -> None:
    install(repo)
    (repo / "memory" / "sessions" / "2026-03-02.md").write_text(EMPTY_SESSION)
    done = commit(repo, "memory")
    assert done.returncode == 0, done.stderr
    assert "W004" in done.stderr


def test_a_commit_outside_the_memory_skips_lint(repo: Path) -> None:
    (repo / "memory" / "continuity.md").write_text(DUPLICATE)
    install(repo)
    (repo / "src" / "app.py").write_text("print('changed')\n")
    done = commit(repo, "src")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_a_secret_in_a_staged_fact_is_refused_without_echoing_it(repo: Path) -> None:
    install(repo)
    fact = f"- Deploy with {TOKEN}\n  <!-- id: deploy-note | created: 2026-03-01 -->\n"
    (repo / "memory" / "continuity.md").write_text(BASE + fact)
    done = commit(repo, "memory")
    assert done.returncode != 0
    assert "E009 secret material (github-token)" in done.stderr
    assert TOKEN not in done.stdout + done.stderr


def test_redacting_a_committed_log_is_allowed(tmp_path: Path) -> None:
    work = tmp_path / "repo"
    write_memory(work, {SESSION: EMPTY_SESSION + f"\nexport GITHUB_TOKEN={TOKEN}\n"})
    repo = make_repo(work)
    log = repo / SESSION
    install(repo)
    log.write_text(EMPTY_SESSION + "\nexport GITHUB_TOKEN=[REDACTED]\n")
    done = commit(repo, SESSION)
    assert done.returncode == 0, done.stderr


def test_core_hooks_path_is_honoured(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")
    assert install(repo)[0] == 0
    assert (repo / ".githooks" / "pre-commit").is_file()
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    log = repo / SESSION
    log.write_text(log.read_text() + "edited\n")
    assert commit(repo, SESSION).returncode != 0


def test_a_foreign_hook_is_never_clobbered(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text('#!/bin/sh\necho foreign >> "$(git rev-parse --git-dir)/ran"\n')
    hook.chmod(0o755)
    code, _, err = install(repo)
    assert code == 4
    assert "is a hook mdmem did not write; run `mdmem hooks install --chain`" in err
    assert "foreign" in hook.read_text()


def test_chain_keeps_the_foreign_hook_and_runs_it_first(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").write_text("#!/bin/sh\necho foreign >> .git/ran\n")
    (hooks / "pre-commit").chmod(0o755)
    code, out, _ = install(repo, "--chain")
    assert code == 0
    assert f"It runs the earlier hook first: {hooks / CHAINED}" in out
    (repo / LATER).write_text(EMPTY_SESSION)
    assert commit(repo, LATER).returncode == 0
    assert (repo / ".git" / "ran").read_text() == "foreign\n"
    log = repo / SESSION
    log.write_text(log.read_text() + "edited\n")
    assert commit(repo, SESSION).returncode != 0
    assert (repo / ".git" / "ran").read_text() == "foreign\nforeign\n"


def test_a_failing_chained_hook_stops_the_commit(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").write_text("#!/bin/sh\necho 'foreign says no' >&2\nexit 3\n")
    (hooks / "pre-commit").chmod(0o755)
    install(repo, "--chain")
    (repo / LATER).write_text(EMPTY_SESSION)
    done = commit(repo, LATER)
    assert done.returncode != 0
    assert "foreign says no" in done.stderr


def test_install_outside_git_is_a_clear_error(tmp_path: Path) -> None:
    root = write_memory(tmp_path, {})
    result = CliRunner().invoke(main, ["hooks", "install", "--root", str(root)])
    assert result.exit_code == 3
    assert "not a git repository" in result.stderr


def test_pre_commit_framework_manifest() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert text.startswith("- id: mdmem-lint\n")
    for line in (
        "  entry: mdmem lint\n",
        "  language: python\n",
        "  pass_filenames: false\n",
        "  files: ^memory/\n",
    ):
        assert line in text
