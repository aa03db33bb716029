"""The built-in example: `mdmem demo` reviews it, and the result is the one EXPECTED.md states."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from mdmem.adopting.demo import run
from mdmem.cli import main
from mdmem.store.resources import templates_dir
from tests.helpers import git, where

EXPECTED = templates_dir() / "demo" / "EXPECTED.md"
_ROW = re.compile(r"^\| ([a-z0-9-]+) \| (fact|open|done) \| ([a-z-]+) \| (\d+) \| ([\d-]+) \|")


def expected_facts() -> dict[str, tuple[str, int, str]]:
    """id -> (tier, uses, last_used) from the hand-computed table."""
    rows = {}
    for line in EXPECTED.read_text("utf-8").splitlines():
        match = _ROW.match(line)
        if match:
            rows[match[1]] = (match[3], int(match[4]), match[5])
    return rows


def test_expected_table_is_read() -> None:
    assert len(expected_facts()) == 25


def test_demo_review_matches_the_hand_computed_outcome(tmp_path: Path) -> None:
    demo = run(tmp_path / "paygate")
    memory = tmp_path / "paygate" / "memory"
    found = where(memory)
    from mdmem.store.load import load

    loaded = load(memory)
    footers = {
        fact.id: fact.footer for doc in (loaded.continuity, *loaded.archives) for fact in doc.facts
    }
    for fact_id, (tier, uses, last_used) in expected_facts().items():
        assert found[fact_id][1] == tier, fact_id
        assert footers[fact_id].get("uses") == str(uses), fact_id
        assert footers[fact_id].get("last_used") == last_used, fact_id
    assert demo.result.commit is not None
    assert git(tmp_path / "paygate", "status", "--porcelain") == ""
    summary = demo.plan.summary
    assert summary is not None
    assert dict(summary.moved_out) == {
        "idempotency-ttl-index": "completed",
        "node18-fetch-keepalive": "faded",
        "refunds-sync-call": "superseded",
        "vitest-fake-timers-bullmq": "faded",
    }
    assert summary.moved_in == ("stripe-test-clock-cleanup",)


def test_demo_command_prints_summary_and_commit() -> None:
    result = CliRunner().invoke(main, ["demo"])
    assert result.exit_code == 0, result.output
    assert "Reviewed 30 sessions through 2026-10-28-161000." in result.output
    assert "reactivated: stripe-test-clock-cleanup" in result.output
    assert "mdmem review through 2026-10-28-161000" in result.output
    assert "memory/archive/2026-Q4.md" in result.output


def test_demo_output_is_the_same_every_run() -> None:
    first = CliRunner().invoke(main, ["demo"]).output
    second = CliRunner().invoke(main, ["demo"]).output
    strip = re.compile(r"[0-9a-f]{12,40}")  # commit ids carry the commit time
    assert strip.sub("SHA", first) == strip.sub("SHA", second)


def test_readme_shows_the_real_demo_output() -> None:
    """The README's review transcript is what `mdmem demo` prints (commit ids aside)."""
    readme = (Path(__file__).parent.parent / "README.md").read_text("utf-8")
    shown = readme.split("```text\n", 1)[1].split("\n```", 1)[0]
    printed = CliRunner().invoke(main, ["demo"]).output.split("\n", 1)[1]
    sha = re.compile(r"[0-9a-f]{12,40}")
    assert sha.sub("SHA", shown).rstrip() == sha.sub("SHA", printed).rstrip()
