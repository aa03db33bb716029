"""A review commit that git refuses or Ctrl-C cuts short leaves the tree and index as they were.

SPEC §1.4: a failed or interrupted review leaves every file as it was. For a review in
git that means the files on disk and git's index too: a review that staged its texts
and then gave up would have the user's next plain `git commit` commit the undone
review. Each case below sets up what a user may have staged, records the working
tree, `git status`, `git diff --cached` and `git ls-files --stage`, runs a review git
refuses or that is interrupted, and compares all four byte for byte.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from tests.helpers import GIT_ENV, copy_tree, git, make_repo, snapshot

GOLDEN = Path(__file__).parent / "golden"
REVIEW_FILES = [
    "memory/archive/2026-Q1.md",  # changed
    "memory/archive/INDEX.md",  # new
    "memory/continuity.md",  # changed
    "memory/reviews.md",  # new
]
GOAL = "- **goal:** keep the payments API boring\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose memory has work for a review: two files change, two are new."""
    work = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo")
    (work / "src").mkdir()
    (work / "src" / "app.py").write_text("print('hello')\n")
    return make_repo(work)


def edit_goal(repo: Path, words: str) -> None:
    path = repo / "memory" / "continuity.md"
    text = path.read_text("utf-8")
    path.write_text(text.replace(GOAL, GOAL.replace("boring", f"boring {words}")), "utf-8")


# What the user did before running the review. Each leaves a different index.


def nothing_staged(repo: Path) -> None:
    pass


def unrelated_file_staged(repo: Path) -> None:
    (repo / "src" / "app.py").write_text("print('staged change')\n")
    git(repo, "add", "src/app.py")
    (repo / "notes.txt").write_text("untracked\n")


def own_edit_of_continuity_staged(repo: Path) -> None:
    edit_goal(repo, "and fast")
    git(repo, "add", "memory/continuity.md")
    unrelated_file_staged(repo)


def staged_edit_then_more_unstaged(repo: Path) -> None:
    edit_goal(repo, "and fast")
    git(repo, "add", "memory/continuity.md")
    edit_goal(repo, "and cheap")  # the index holds one text, the disk another


STAGING = [
    pytest.param(nothing_staged, id="nothing-staged"),
    pytest.param(unrelated_file_staged, id="unrelated-file-staged"),
    pytest.param(own_edit_of_continuity_staged, id="own-continuity-edit-staged"),
    pytest.param(staged_edit_then_more_unstaged, id="staged-edit-then-unstaged-edit"),
]


# Ways git refuses the commit.


def no_identity(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No name or email anywhere, and no guessing: `git commit` refuses, `git add` does not."""
    for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.delenv("EMAIL", raising=False)
    home = repo.parent / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    git(repo, "config", "user.useConfigOnly", "true")


def index_locked(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another git process holds the index, as far as git knows."""
    (repo / ".git" / "index.lock").write_text("")


REFUSALS = [
    pytest.param(no_identity, "Author identity unknown", id="no-identity"),
    pytest.param(index_locked, "index.lock", id="index-locked"),
]


def state(repo: Path) -> dict[str, object]:
    """The working tree, HEAD and everything git says about the index, byte for byte."""
    return {
        "files": snapshot(repo),
        "head": git(repo, "rev-parse", "HEAD"),
        "status": git(repo, "status", "--porcelain", "--untracked-files=all"),
        "staged": git(repo, "diff", "--cached", "--binary"),
        "index": git(repo, "ls-files", "--stage"),
    }


def review(repo: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["review", "--root", str(repo / "memory")])
    return result.exit_code, result.stderr


@pytest.mark.parametrize(("refuse", "reason"), REFUSALS)
@pytest.mark.parametrize("user_staging", STAGING)
def test_refused_commit_leaves_tree_and_index_as_they_were(
    repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    user_staging: Callable[[Path], None],
    refuse: Callable[[Path, pytest.MonkeyPatch], None],
    reason: str,
) -> None:
    user_staging(repo)
    before = state(repo)
    refuse(repo, monkeypatch)
    code, err = review(repo)
    assert code == 4, err
    assert "git refused the review commit" in err
    assert reason in err
    (repo / ".git" / "index.lock").unlink(missing_ok=True)
    assert state(repo) == before


@pytest.mark.parametrize("user_staging", STAGING)
def test_commit_holds_the_review_files_and_leaves_other_staging(
    repo: Path, user_staging: Callable[[Path], None]
) -> None:
    """A staged edit of a file the review writes is in the text the review read from disk,
    so it is committed with the review; everything else staged stays staged."""
    user_staging(repo)
    staged_before = git(repo, "diff", "--cached", "--name-only").split()
    on_disk = (repo / "memory" / "continuity.md").read_text("utf-8")
    code, err = review(repo)
    assert code == 0, err
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == REVIEW_FILES
    staged_after = git(repo, "diff", "--cached", "--name-only").split()
    assert staged_after == [path for path in staged_before if path not in REVIEW_FILES]
    status = git(repo, "status", "--porcelain", "--", "memory")
    assert status == "", "every review file is committed as it is on disk"
    committed = git(repo, "show", "HEAD:memory/continuity.md")
    goal = next(line for line in on_disk.splitlines(keepends=True) if "**goal:**" in line)
    assert goal in committed  # the user's edit, as it was on disk, went in with the review


# At the commit itself: a git that is the real one except at `git commit`, where it sends
# SIGINT to mdmem (as a terminal sends Ctrl-C to the whole foreground job) before or after
# committing, or lets another git process take the index first.

FAKE_GIT = """#!/bin/sh
if [ "$1" != commit ]; then
    exec "{real}" "$@"
fi
case "$MDMEM_TEST_AT_COMMIT" in
    sigint-before) kill -INT "$PPID"; exit 130 ;;
    lock-index) : > "$("{real}" rev-parse --git-path index.lock)" ;;
esac
"{real}" "$@"
status=$?
if [ "$MDMEM_TEST_AT_COMMIT" = sigint-after ]; then
    kill -INT "$PPID"
fi
exit $status
"""


def run_mdmem_with_fake_git(repo: Path, at_commit: str) -> subprocess.CompletedProcess[str]:
    real = shutil.which("git")
    assert real is not None
    fake = repo.parent / "fake-bin"
    fake.mkdir()
    script = fake / "git"
    script.write_text(FAKE_GIT.replace("{real}", real), "utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    env = {
        **os.environ,
        **GIT_ENV,
        "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
        "MDMEM_TEST_AT_COMMIT": at_commit,
    }
    env.pop("GIT_PYTHON_GIT_EXECUTABLE", None)
    return subprocess.run(
        [sys.executable, "-m", "mdmem", "review", "--root", str(repo / "memory")],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        # As a terminal's foreground job has it: a suite started in the background by a
        # shell without job control inherits SIGINT ignored, and the Ctrl-C would be lost.
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("user_staging", STAGING)
def test_ctrl_c_before_git_commits_leaves_tree_and_index_as_they_were(
    repo: Path, user_staging: Callable[[Path], None]
) -> None:
    user_staging(repo)
    before = state(repo)
    done = run_mdmem_with_fake_git(repo, "sigint-before")
    assert done.returncode == 130, done.stdout  # interrupted, as shells report Ctrl-C
    assert "mdmem: interrupted" in done.stderr
    assert state(repo) == before
    code, err = review(repo)  # and the review is still to do: the next one makes it
    assert code == 0, err
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == REVIEW_FILES


def test_ctrl_c_after_git_committed_keeps_the_whole_review(repo: Path) -> None:
    """Once the commit is made the review has landed: files and commit stay together."""
    unrelated_file_staged(repo)
    head = git(repo, "rev-parse", "HEAD")
    done = run_mdmem_with_fake_git(repo, "sigint-after")
    assert done.returncode != 0, done.stdout
    assert git(repo, "rev-parse", "HEAD^") == head
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == REVIEW_FILES
    assert git(repo, "status", "--porcelain", "--", "memory") == ""
    assert git(repo, "diff", "--cached", "--name-only").split() == ["src/app.py"]


def test_index_taken_between_placeholder_and_commit_says_how_to_unstage(repo: Path) -> None:
    """The placeholders cannot come out while another git holds the index: the message
    names the command that takes them out, and after it the index is as it was."""
    unrelated_file_staged(repo)
    before = state(repo)
    done = run_mdmem_with_fake_git(repo, "lock-index")
    assert done.returncode == 4, done.stdout
    assert "git refused the review commit" in done.stderr
    command = "git rm --cached -- memory/archive/INDEX.md memory/reviews.md"
    assert f"`{command}` unstages what is left" in done.stderr
    assert snapshot(repo) == before["files"]
    (repo / ".git" / "index.lock").unlink()
    git(repo, *command.split()[1:])
    assert state(repo) == before
