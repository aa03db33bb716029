"""Facts that point at code that is gone: which tokens are paths, and W028 on real git."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.adopting import demo
from mdmem.cli.main import main
from mdmem.linting.paths import RepoFiles, path_of
from mdmem.linting.run import lint
from tests.helpers import GIT_ENV, git

TOPS = frozenset({"src", "docs", "tests"})


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        pytest.param("src/api/hooks.py", "src/api/hooks.py", id="path"),
        pytest.param("./src/api/hooks.py", "src/api/hooks.py", id="dot-slash"),
        pytest.param("src/api/hooks.py:42", "src/api/hooks.py", id="line-suffix"),
        pytest.param("src/api/hooks.py#L3-L9", "src/api/hooks.py", id="anchor"),
        pytest.param("docs/", "docs/", id="folder"),
        pytest.param("Makefile.toml", "Makefile.toml", id="bare-name"),
        pytest.param("package.json", "package.json", id="bare-json"),
        pytest.param("/api/users", None, id="route"),
        pytest.param("and/or", None, id="unknown-top-folder"),
        pytest.param("os.path", None, id="dotted-name"),
        pytest.param("metadata.request_id", None, id="field"),
        pytest.param("https://example.com/x.py", None, id="url"),
        pytest.param("src/**/*.py", None, id="glob"),
        pytest.param("job.waitUntilFinished(queueEvents)", None, id="call"),
        pytest.param("$HOME/x.sh", None, id="variable"),
        pytest.param("--no-verify", None, id="option"),
    ],
)
def test_which_tokens_are_paths(token: str, expected: str | None) -> None:
    assert path_of(token, TOPS) == expected


def test_what_the_repository_holds() -> None:
    files = RepoFiles.of(["src/api/hooks.py", "README.md", "memory/continuity.md"], "memory")
    assert files.holds("src/api") and files.holds("src/api/") and files.holds("hooks.py")
    assert not files.holds("src/api/other.py") and not files.holds("other.py")
    assert files.glob_matches("src/**") and not files.glob_matches("lib/**")
    assert files.holds_code
    alone = RepoFiles.of(["memory/continuity.md", "DECAY.md", "REVIEW.md", ".gitignore"], "memory")
    assert not alone.holds_code


def gone_lines(repo: Path) -> list[str]:
    return [f.message for f in lint(repo / "memory") if f.code == "W028"]


def test_deleted_renamed_and_never_committed_paths(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    assert gone_lines(repo) == []  # the demo holds the code its facts name
    git(repo, "rm", "-q", "src/money/currencies.ts")
    git(repo, "mv", "src/db/pool.ts", "src/db/connections.ts")
    git(repo, "commit", "-q", "-m", "move code")
    assert gone_lines(repo) == [
        "pg-bigint-as-string names path `src/db/pool.ts`, which is gone "
        "(git saw it renamed to `src/db/connections.ts`)",
        "currency-exponent-table names path `src/money/currencies.ts`, which is gone",
        "currency-exponent-table names scope glob `src/money/**`, which matches no file",
    ]
    # `openapi.json` is named by a fact too, but git never held it (a generated file).
    assert not any("openapi.json" in line for line in gone_lines(repo))


def test_a_memory_kept_alone_is_not_checked(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    for path in demo.CODE:
        git(repo, "rm", "-q", path)
    git(repo, "rm", "-q", "README.md")
    git(repo, "commit", "-q", "-m", "memory only")
    assert gone_lines(repo) == []


def test_outside_git_nothing_is_checked(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    shutil.rmtree(repo / ".git")
    assert gone_lines(repo) == []


def test_context_marks_a_fact_whose_code_is_gone(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    git(repo, "rm", "-q", "src/log/redact.ts")
    git(repo, "commit", "-q", "-m", "drop the redactor")
    result = CliRunner().invoke(main, ["context", "--root", str(repo / "memory")])
    assert result.exit_code == 0, result.output
    marked = [line for line in result.output.splitlines() if "no longer in the repository" in line]
    assert len(marked) == 1 and "(names `src/log/redact.ts`" in marked[0]


def test_an_uncommitted_new_file_counts_as_held(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    git(repo, "mv", "src/db/pool.ts", "src/db/connections.ts")
    (repo / "src" / "db" / "pool.ts").write_text("// back\n", "utf-8")  # untracked
    assert gone_lines(repo) == []
