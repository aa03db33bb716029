"""Lint's quicker paths find what the slower ones found: the repository found without GitPython,
scans skipped where nothing can match."""

from __future__ import annotations

import subprocess
from pathlib import Path

import git
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.format import textfile
from mdmem.git import discover, plumbing
from mdmem.linting import run as lintrun
from mdmem.linting import texts as lint
from tests.helpers import make_repo
from tests.test_lint import SESSION, write_memory

GOLDEN = Path(__file__).parent / "golden"


# --- The repository is found as git finds it (tests/test_git_import.py: without GitPython) ---


def test_lint_in_a_worktree_still_reads_history(tmp_path: Path) -> None:
    # A linked worktree holds a `.git` file, not a folder: a repository all the same.
    write_memory(tmp_path / "repo", {})
    repo = make_repo(tmp_path / "repo")
    subprocess.run(["git", "worktree", "add", "-q", str(tmp_path / "tree")], cwd=repo, check=True)
    log = tmp_path / "tree" / SESSION
    log.write_text(log.read_text() + "- Referenced: post-only-mutations\n")
    found = lintrun.lint(tmp_path / "tree" / "memory")
    assert [(f.code, f.path) for f in found] == [("E006", SESSION)]


def _found_by_git(path: Path) -> Path | None:
    """The top folder git itself finds from `path` (None: no work tree there)."""
    if not path.is_dir():
        return None
    done = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], cwd=path, capture_output=True, text=True
    )
    return Path(done.stdout.strip()) if done.returncode == 0 else None


def _layout(base: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder `deep` in one of the places a repository can or cannot be found from."""
    if kind == "variable":  # `$NAME` in a path is a folder's name, not a variable
        git.Repo.init(base / "real")
        monkeypatch.setenv("MDMEM_TEST_FOLDER", "real")
        (base / "$MDMEM_TEST_FOLDER").mkdir()
        return base / "$MDMEM_TEST_FOLDER"
    deep = base / "top" / "a" / "b"
    deep.mkdir(parents=True)
    top = base / "top"
    if kind == "repository":
        git.Repo.init(top)
    elif kind == "bare":
        git.Repo.init(top / "a", bare=True)
    elif kind == "gitfile":
        git.Repo.init(base / "elsewhere")
        (top / ".git").write_text(f"gitdir: {base / 'elsewhere' / '.git'}\n")
    elif kind == "broken gitfile":
        (top / ".git").write_text("not a gitdir line\n")
        git.Repo.init(base)  # above it: git stops at the broken file all the same
    elif kind == "empty .git folder":
        (top / ".git").mkdir()
    elif kind == "stray HEAD":
        (top / "HEAD").write_text("ref: refs/heads/main\n")
    elif kind == "missing":
        return deep / "gone"
    return deep


@pytest.mark.parametrize(
    "kind",
    [
        "none",
        "repository",
        "bare",
        "gitfile",
        "broken gitfile",
        "empty .git folder",
        "stray HEAD",
        "missing",
        "variable",
    ],
)
def test_a_repository_is_found_exactly_where_git_finds_one(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if discover.top_level(tmp_path) is not None:
        pytest.skip("the temporary folder lies inside a git repository")
    path = _layout(tmp_path, kind, monkeypatch)
    expected = _found_by_git(path)
    assert discover.top_level(path) == expected
    found = plumbing.repository(path)
    assert (None if found is None else Path(str(found.working_tree_dir))) == expected
    if kind in ("repository", "gitfile"):
        assert expected == tmp_path / "top"
        assert (
            discover.git_folder(path)
            == tmp_path / ("top" if kind == "repository" else "elsewhere") / ".git"
        )


# --- Scans skipped where nothing can match --------------------------------------------------

PIECES = [
    "- Referenced: some-fact\n",
    "## Memory References\n",
    "plain words\n",
    "\n",
    "\r\n",
    "\r",
    "\ufeff",
    "é",
    "\u202e",
    "=======\n",
    "<<<<<<< HEAD\n",
    ">>>>>>>",
    "DB_PASSWORD=hunter2hunter2x\n",
    "ghp_" + "Zq8Lm2Rk7Tn4Wv9Xb3CdT3BlbkFJ5dS0aPq2",
    " token: [REDACTED]\n",
]


TEXT_PIECES = st.sampled_from(
    [
        *PIECES,
        "the key decision",
        "Token: ",
        "pass",
        "secret = 'abcdefgh12345'",
        "postgres://app:s3cr3tpass@db",
        "AKIAQ7ZK3MBT4XWN2PLA",
        "sk-ant-" + "Zq8Lm2Rk7Tn4Wv9Xb3CdT",
        "xoxb-" + "Zq8Lm2Rk7T9",
        "eyJhbGciOi.eyJzdWIi.Zq8Lm2Rk7Tn4",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAv3bWJhYjE4Mzc0\n",
        "-----END RSA PRIVATE KEY-----",
        "pa\u017f\u017fword=hunter2hunter2x ",
        "\u212aey: hunter2hunter2x",
        "\u0130",
        "|||||||",
        "  =======  \n",
    ]
)


@given(st.lists(TEXT_PIECES, max_size=10).map("".join))
def test_property_the_quick_checks_change_no_finding(text: str) -> None:
    # With the checks made to pass everything, every text takes the full path. (The secret
    # scan has no such check.)
    found = lint.text_findings("memory/x.md", text, facts=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(textfile, "MARKER_RUNS", ("",))
        assert lint.text_findings("memory/x.md", text, facts=False) == found
