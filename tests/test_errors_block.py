"""One rule for lint, the hook and the review: every lint error stops the pre-commit hook
and the review alike, and no warning stops either (docs/LINT.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.adopting.hooks import pre_commit
from mdmem.cli import main
from mdmem.linting.findings import CHECKS, MEND_BEFORE_COMMIT
from tests.helpers import git, make_repo, snapshot
from tests.test_lint import CASES, SESSION, write_memory


@pytest.mark.parametrize(("files", "code", "path", "line"), CASES)
def test_the_hook_and_the_review_refuse_exactly_the_errors(
    tmp_path: Path, files: dict[str, str | None], code: str, path: str, line: int
) -> None:
    (tmp_path / "README.md").write_text("A project\n", encoding="utf-8")
    make_repo(tmp_path)  # the memory arrives in the commit the hook checks
    root = write_memory(tmp_path, files)
    git(tmp_path, "add", "-A")
    # A log's mistake that could never be mended once committed is an error until then
    # (E011); a `supersedes` typo in continuity retires nothing, and a log without any
    # references section may be a session that used none: both stay warnings.
    mend = code in MEND_BEFORE_COMMIT and code != "W005" and (code, line) != ("W014", 1)
    error = CHECKS[code].severity == "error" or mend

    assert pre_commit(root).passed is not error

    before = snapshot(tmp_path)
    result = CliRunner().invoke(main, ["review", "--root", str(root), "--no-commit"])
    if error:
        assert result.exit_code == 3, result.output
        assert result.stderr.startswith(f"mdmem: {path}"), result.stderr
        assert snapshot(tmp_path) == before
    else:
        assert result.exit_code == 0, result.output


def test_an_edited_committed_log_stops_the_review(tmp_path: Path) -> None:
    root = write_memory(tmp_path, {})
    make_repo(tmp_path)
    log = tmp_path / SESSION
    original = log.read_text("utf-8")
    log.write_text(original + "- Referenced: post-only-mutations\n", "utf-8")
    result = CliRunner().invoke(main, ["review", "--root", str(root), "--no-commit"])
    assert result.exit_code == 3, result.output
    added = len(original.splitlines()) + 1  # the line that changed
    assert result.stderr.startswith(f"mdmem: {SESSION}:{added}: E006 "), result.stderr
    git(tmp_path, "checkout", "--", SESSION)  # put back: the review goes ahead
    assert CliRunner().invoke(main, ["review", "--root", str(root)]).exit_code == 0
