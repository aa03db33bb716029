"""Lint on session logs as people write them: supersession lines, citations of retired
facts, and the one story told about committed logs and footers that lag the ledger."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.format.sessionlog import scan_log
from mdmem.linting.run import lint
from mdmem.reviewing.stamps import stamp_through
from tests.helpers import git, make_repo
from tests.test_lint import BASE, BASE_SESSION, LATER, REVIEWED, SESSION, write_memory


@pytest.mark.parametrize(
    ("line", "old", "new"),
    [
        pytest.param("- Superseded: a-rule → b-rule", "a-rule", "b-rule", id="arrow"),
        pytest.param("- Superseded: a-rule -> b-rule", "a-rule", "b-rule", id="ascii-arrow"),
        pytest.param("- Superseded: a-rule => b-rule", "a-rule", "b-rule", id="fat-arrow"),
        pytest.param("- Superseded: a-rule to b-rule", "a-rule", "b-rule", id="to"),
        pytest.param("- superseded: a-rule TO b-rule", "a-rule", None, id="to-is-lowercase"),
        pytest.param(
            "- Superseded: a-rule (moved to the wiki)", "a-rule", None, id="to-inside-a-note"
        ),
        pytest.param(
            "- Superseded: a-rule (old → new names) → b-rule", "a-rule", "b-rule", id="arrow-note"
        ),
        pytest.param("- Superseded: a-rule (invalidated)", "a-rule", None, id="invalidated"),
        pytest.param("- Superseded: a-rule\n  to b-rule", "a-rule", "b-rule", id="wrapped"),
    ],
)
def test_a_supersession_line_names_its_successor(line: str, old: str, new: str | None) -> None:
    _, events, _, _ = scan_log(f"## Memory References\n{line}\n".encode(), "log.md")
    assert events == [["superseded", [old], new, 2]]


def later(*lines: str) -> str:
    return "# Session\n\n## Memory References\n" + "".join(f"{line}\n" for line in lines)


def codes(root: Path) -> list[tuple[str, str, int]]:
    return [(f.code, f.path, f.line) for f in lint(root)]


def test_a_successor_that_names_no_fact_is_an_unknown_id(tmp_path: Path) -> None:
    files = {SESSION: BASE_SESSION + "- Superseded: post-only-mutations to patch-allowed\n"}
    (found,) = lint(write_memory(tmp_path, files))
    assert (found.code, found.line, found.message) == ("W002", 5, "unknown id patch-allowed")


def test_citing_a_fact_before_it_was_superseded_is_fine(tmp_path: Path) -> None:
    files = {
        SESSION: BASE_SESSION + "- Referenced: post-only-mutations\n",
        LATER: later("- Superseded: post-only-mutations (invalidated)"),
    }
    assert codes(write_memory(tmp_path, files)) == []


def test_a_restored_fact_may_be_cited_again(tmp_path: Path) -> None:
    files = {
        SESSION: BASE_SESSION + "- Superseded: post-only-mutations (invalidated)\n",
        LATER: later("- Restored: post-only-mutations", "- Referenced: post-only-mutations"),
    }
    assert codes(write_memory(tmp_path, files)) == []


def test_a_retired_fact_named_in_a_note_is_not_a_citation(tmp_path: Path) -> None:
    files = {
        SESSION: BASE_SESSION + "- Superseded: post-only-mutations (invalidated)\n",
        LATER: later("- Referenced: (none; post-only-mutations is gone)"),
    }
    assert codes(write_memory(tmp_path, files)) == []


def test_the_citation_names_the_successor(tmp_path: Path) -> None:
    files = {
        "memory/continuity.md": BASE
        + "- PATCH is allowed\n  <!-- id: patch-allowed | created: 2026-03-01 | uses: 1 -->\n",
        SESSION: BASE_SESSION
        + "- Created: patch-allowed\n- Superseded: post-only-mutations → patch-allowed\n",
        LATER: later("- Referenced: post-only-mutations"),
    }
    (found,) = [f for f in lint(write_memory(tmp_path, files)) if f.code == "W018"]
    assert found.message == (
        "cites post-only-mutations, which was superseded in 2026-03-01-090000; cite patch-allowed"
    )


def test_footers_lag_between_reviews_and_are_listed_when_the_review_is_due(
    tmp_path: Path,
) -> None:
    stale = {"memory/continuity.md": BASE.replace("uses: 1", "uses: 4")}
    never_reviewed = write_memory(tmp_path / "lagging", stale)
    assert codes(never_reviewed) == []  # one log, never reviewed: not due, may lag
    by_hand = write_memory(tmp_path / "hand", {**stale, "memory/reviews.md": REVIEWED})
    assert [code for code, _, _ in codes(by_hand)] == ["W001"]  # no log since: a hand edit
    due = {**stale, "memory/decay-policy.md": "review_every: 1\n", LATER: later("- (none)")}
    assert sorted(code for code, _, _ in codes(write_memory(tmp_path / "due", due))) == [
        "W001",
        "W007",
    ]


def test_warnings_about_committed_logs_are_one_line_and_do_not_fail_strict(
    tmp_path: Path,
) -> None:
    files = {SESSION: BASE_SESSION + "- Used: post-only-mutations\n"}
    root = write_memory(tmp_path, files)
    runner = CliRunner()
    before = runner.invoke(main, ["lint", "--root", str(root), "--strict"])
    assert before.exit_code == 1  # uncommitted: still fixable, so --strict fails
    assert "W003 unknown key 'Used'" in before.stdout
    make_repo(tmp_path)
    after = runner.invoke(main, ["lint", "--root", str(root), "--strict"])
    assert (after.exit_code, after.stdout.splitlines()) == (
        0,
        [
            "1 warning about committed session logs, which can no longer be edited: "
            "--strict does not fail on them (`mdmem lint --verbose` lists them).",
            "No other findings.",
        ],
    )
    verbose = runner.invoke(main, ["lint", "--root", str(root), "--verbose"])
    assert verbose.stdout.splitlines()[0].startswith(f"{SESSION}:5: W003 unknown key 'Used'")
    listed = json.loads(runner.invoke(main, ["lint", "--root", str(root), "--json"]).stdout)
    assert [(item["code"], item["committed"]) for item in listed] == [("W003", True)]
    # A new log's warning, uncommitted, still counts, beside the committed one.
    (tmp_path / LATER).write_text(later("- Used: post-only-mutations"), encoding="utf-8")
    mixed = runner.invoke(main, ["lint", "--root", str(root), "--strict"])
    assert mixed.exit_code == 1
    # an error: once committed, the key could never be mended (E011, W003 then)
    assert mixed.stdout.splitlines()[0].startswith(f"{LATER}:4: E011 unknown key 'Used'")
    git(tmp_path, "add", "-A")  # staged is not committed: a staged log may still change
    assert runner.invoke(main, ["lint", "--root", str(root), "--strict"]).exit_code == 1


def test_a_dot_file_in_sessions_is_not_a_stray_log(tmp_path: Path) -> None:
    root = write_memory(tmp_path, {"memory/sessions/.gitkeep": ""})
    assert codes(root) == []


def test_now_is_source_date_epoch_when_set_and_a_minute_ahead_is_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`session start` names a log up to a minute ahead when logs start in a burst (one log
    a second): lint does not warn about the names mdmem chose itself."""
    root = write_memory(tmp_path, {LATER: later("- (none)")})  # 2026-03-02-090000
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1772441939")  # 2026-03-02T08:58:59Z
    assert codes(root) == [("W016", LATER, 1)]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1772441940")  # 2026-03-02T08:59:00Z
    assert codes(root) == []


@pytest.mark.parametrize(
    ("value", "through"),
    [
        pytest.param("2026-07-16 | through 2026-07-16-154437", "2026-07-16-154437", id="mdmem"),
        pytest.param("2026-07-16 (through 2026-07-16-154437)", "2026-07-16-154437", id="parens"),
        pytest.param("2026-07-16, through 2026-07-16-154437.", "2026-07-16-154437", id="period"),
        pytest.param("2026-07-16 through 2026-07-16-1544-api", "2026-07-16-1544-api", id="slug"),
        pytest.param("2026-07-16", None, id="no-session"),
    ],
)
def test_a_review_stamp_names_its_session_as_people_write_it(
    value: str, through: str | None
) -> None:
    assert stamp_through(value) == through
