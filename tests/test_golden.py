"""Golden before/after trees: one case per tier rule and per review behaviour.

Each case under tests/golden/ has a `before/` tree, the `after/` tree a review
must leave, and CASE.md saying what it shows. Set MDMEM_UPDATE_GOLDEN=1 to
rewrite the `after/` trees, then read their diff before committing them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from tests.helpers import copy_tree, snapshot, where

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(path.name for path in GOLDEN.iterdir() if (path / "before").is_dir())
UPDATE = os.environ.get("MDMEM_UPDATE_GOLDEN") == "1"

# Where each fact must end up, and with which tier label: the rules, stated
# independently of the after/ trees so that a wrong golden file cannot hide a bug.
EXPECTED: dict[str, dict[str, tuple[str, str | None]]] = {
    "rule-1-superseded": {
        "old-retry-rule": ("archive/2026-Q1.md", "superseded"),
        "new-retry-rule": ("continuity.md", "active"),
    },
    "rule-2-core": {
        "money-in-cents": ("continuity.md", "core"),
        "control-not-core": ("archive/2026-Q1.md", "archived"),
    },
    "rule-3-invariant-wrong-label": {
        "idempotency-key-required": ("continuity.md", "active"),
        "fastify-over-express": ("continuity.md", "active"),
    },
    "rule-4-open-thread": {"partial-capture-ledger": ("continuity.md", "working")},
    "rule-5-working": {
        "payout-batch-cutoff": ("continuity.md", "working"),
        "currency-exponent-table": ("continuity.md", "active"),
    },
    "rule-6-active": {"outbox-for-webhooks": ("continuity.md", "active")},
    "rule-7-archive-candidate": {
        "openapi-from-schemas": ("continuity.md", "archive-candidate"),
        "bullmq-redis-maxmemory": ("continuity.md", "archive-candidate"),
    },
    "rule-8-faded": {
        "vitest-fake-timers-bullmq": ("archive/2026-Q1.md", "archived"),
        "webhook-raw-body": ("continuity.md", "active"),
    },
    "reactivation": {
        "stripe-test-clock-cleanup": ("continuity.md", "active"),
        "sentry-sourcemaps-upload": ("archive/2026-Q1.md", "archived"),
        "webhook-raw-body": ("continuity.md", "active"),
    },
    "supersession-from-ledger": {
        "refunds-sync-call": ("archive/2026-Q1.md", "superseded"),
        "refunds-async-queue": ("continuity.md", "working"),
    },
    "restored": {
        "refunds-sync-call": ("continuity.md", "active"),
        "refunds-async-queue": ("continuity.md", "active"),
    },
    "completed-thread-swept": {
        "idempotency-ttl-index": ("archive/2026-Q1.md", "archived"),
        "done-recently-stays": ("continuity.md", "active"),
    },
    "same-day-sessions": {"stripe-api-version-pinned": ("continuity.md", "archive-candidate")},
    "unreferenced-fact": {
        "node18-fetch-keepalive": ("archive/2026-Q1.md", "archived"),
        "log-redaction-paths": ("continuity.md", "active"),
    },
    "crlf-preserved": {
        "vitest-fake-timers-bullmq": ("archive/2026-Q1.md", "archived"),
        "fastify-over-express": ("continuity.md", "active"),
    },
    "invariants-cadence": {
        "money-in-cents": ("continuity.md", "core"),
        "verify-invariants-2026-03-08-090000": ("continuity.md", "working"),
    },
    "auto-core-proposal": {
        "money-helpers-module": ("continuity.md", "active"),
        "promote-to-core-money-helpers-module": ("continuity.md", "working"),
    },
    "feedback-invert": {
        "mock-the-database": ("continuity.md", "active"),
        "invert-to-anti-pattern-mock-the-database": ("continuity.md", "working"),
    },
}


def _review(root: Path) -> None:
    result = CliRunner().invoke(main, ["review", "--no-commit", "--root", str(root / "memory")])
    assert result.exit_code == 0, result.output


def test_every_case_has_expectations() -> None:
    assert sorted(EXPECTED) == CASES


@pytest.mark.parametrize("case", CASES)
def test_review_matches_golden_tree(case: str, tmp_path: Path) -> None:
    work = copy_tree(GOLDEN / case / "before", tmp_path / "repo")
    _review(work)
    after = GOLDEN / case / "after"
    if UPDATE:
        shutil.rmtree(after, ignore_errors=True)
        shutil.copytree(work, after)
    assert snapshot(work) == snapshot(after)


@pytest.mark.parametrize("case", CASES)
def test_facts_land_where_the_rules_say(case: str, tmp_path: Path) -> None:
    work = copy_tree(GOLDEN / case / "before", tmp_path / "repo")
    before = where(work / "memory")
    _review(work)
    after = where(work / "memory")
    for fact_id, expected in EXPECTED[case].items():
        assert after[fact_id] == expected, fact_id
    assert set(before) <= set(after)  # nothing lost


@pytest.mark.parametrize("case", CASES)
def test_second_review_changes_nothing(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")  # plan again from the files, not the memo
    work = copy_tree(GOLDEN / case / "before", tmp_path / "repo")
    _review(work)
    first = snapshot(work)
    _review(work)
    assert snapshot(work) == first
