"""`mdmem lint --explain CODE`: each code's meaning and fix, shipped in the package, and
docs/LINT.md's table of codes, which must be that same text row for row."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.linting import explain as explain_module
from mdmem.linting.explain import explain, explanations
from mdmem.linting.findings import CHECKS

DOCS = Path(__file__).resolve().parent.parent / "docs" / "LINT.md"
CODE_ROW = re.compile(r"^\| [EW]\d{3} \|")

W004 = """\
W004 date-only-session-name (warning)

What it means:
  A session log named `YYYY-MM-DD.md`: it sorts before every timed log of its day.

How to fix it:
  Name new logs `YYYY-MM-DD-HHMMSS[-slug].md`.
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["lint", *args])
    return result.exit_code, result.stdout, result.stderr


def test_every_code_has_an_explanation_and_no_other() -> None:
    assert set(explain_module._TEXTS) == set(CHECKS)
    assert [explained.code for explained in explanations()] == list(CHECKS)


def test_the_docs_table_is_the_explanations() -> None:
    rows = [line for line in DOCS.read_text("utf-8").splitlines() if CODE_ROW.match(line)]
    expected = [explained.table_row() for explained in explanations()]
    assert rows == expected, "docs/LINT.md's table of codes should read:\n" + "\n".join(expected)


def test_explain_prints_the_code_s_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no memory here: explaining reads none
    assert run("--explain", "W004") == (0, W004, "")


@pytest.mark.parametrize(
    "query", ["W004", "w004", "date-only-session-name", "Date-Only-Session-Name"]
)
def test_a_code_or_its_name_in_any_case(query: str) -> None:
    assert run("--explain", query)[:2] == (0, W004)


@pytest.mark.parametrize("query", ["W999", "E01", "unknown", ""])
def test_an_unknown_code_is_a_usage_error_naming_the_codes(query: str) -> None:
    code, out, err = run("--explain", query)
    assert (code, out) == (2, "")
    assert f"Invalid value for '--explain': no lint code or name {query!r}" in err
    codes = ", ".join(CHECKS)
    assert f"the codes are {codes}" in " ".join(err.split())


def test_a_missing_code_is_a_usage_error() -> None:
    code, _, err = run("--explain")
    assert code == 2
    assert "'--explain' requires an argument" in err


def test_explain_as_json() -> None:
    code, out, _ = run("--explain", "unknown-id", "--json")
    explained = explain("W002")
    assert code == 0 and explained is not None
    assert json.loads(out) == {
        "code": "W002",
        "name": "unknown-id",
        "severity": CHECKS["W002"].severity,
        "meaning": explained.meaning,
        "fix": "Correct it while the log is uncommitted; after that, cite the right id in the "
        "next log.",
    }


def test_every_explanation_reads_in_the_terminal() -> None:
    for explained in explanations():
        text = explained.render()
        assert text.startswith(f"{explained.code} {explained.name} ({explained.severity})\n")
        assert all(len(line) <= 88 or " " not in line.strip() for line in text.splitlines())
        assert " ".join(text.split()).endswith(" ".join(explained.fix.split()))


def test_lint_help_points_at_explain_not_at_the_docs() -> None:
    code, out, _ = run("--help")
    assert code == 0
    assert "docs/LINT.md" not in out
    assert "mdmem lint --explain CODE" in " ".join(out.split())
