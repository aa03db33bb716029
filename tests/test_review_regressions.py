"""Review bugs found by an independent review, each pinned by the smallest memory that showed it."""
# ruff: noqa: E501  (footers in the fixtures are one line, as in a real memory)

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mdmem.linting.gate import review
from mdmem.linting.run import lint
from mdmem.reviewing.plan import plan_review
from mdmem.store.load import load
from tests.helpers import where


def build(tmp_path: Path, continuity: str, sessions: dict[str, str], **files: str) -> Path:
    root = tmp_path / "memory"
    (root / "sessions").mkdir(parents=True)
    (root / "continuity.md").write_text(continuity)
    for stem, refs in sessions.items():
        log(root, stem, refs)
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def log(root: Path, stem: str, refs: str) -> None:
    (root / "sessions" / f"{stem}.md").write_text(f"# Session\n\n## Memory References\n{refs}\n")


@pytest.fixture
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")


def footer_of(root: Path, fact_id: str) -> str:
    for path in [root / "continuity.md", *sorted((root / "archive").glob("*.md"))]:
        for line in path.read_text().splitlines():
            if f"id: {fact_id} |" in line:
                return line.strip()
    raise AssertionError(fact_id)


DUPLICATE_RULE = """# Continuity

## Key Decisions

- Mock the database in tests
  <!-- id: mock-the-database | created: 2026-01-01 | last_used: 2026-01-03 | uses: 3 | tier: active -->

## Open Threads
"""
ARCHIVED_COPY = """# Archive 2026-Q1

## Archived 2026-01-03 (review through 2026-01-03-100000)

### Faded

- Mock the database in tests
  <!-- id: mock-the-database | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: archived | section: Key Decisions -->
"""


def test_merge_duplicate_of_a_harmful_rule_gets_one_thread(tmp_path: Path, no_cache: None) -> None:
    harmful = {f"2026-01-0{n}-100000": "- Harmful: mock-the-database" for n in (1, 2, 3)}
    root = build(tmp_path, DUPLICATE_RULE, harmful)
    (root / "archive").mkdir()
    (root / "archive" / "2026-Q1.md").write_text(ARCHIVED_COPY)
    plan, _ = review(root, commit=False)
    assert plan.summary is not None
    assert plan.summary.opened == ("invert-to-anti-pattern-mock-the-database",)
    again, _ = review(root, commit=False)
    assert not again.changed


TWO_SUPERSEDED = """# Continuity

## Key Decisions

- Cache for 60 s
  <!-- id: cache-sixty | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: superseded | superseded-by: cache-per-route -->
- Cache for 30 s on search
  <!-- id: cache-thirty | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: superseded | superseded-by: cache-per-route -->
- Cache per route
  <!-- id: cache-per-route | created: 2026-01-02 | last_used: 2026-01-02 | uses: 1 | tier: working | supersedes: cache-sixty -->
"""


def test_supersedes_link_settles_in_one_review(tmp_path: Path, no_cache: None) -> None:
    root = build(
        tmp_path,
        TWO_SUPERSEDED,
        {
            "2026-01-01-100000": "- Created: cache-sixty, cache-thirty",
            "2026-01-02-100000": "- Created: cache-per-route\n"
            "- Superseded: cache-sixty → cache-per-route\n"
            "- Superseded: cache-thirty → cache-per-route",
            "2026-01-03-100000": "- Restored: cache-sixty",
        },
    )
    review(root, commit=False)
    assert "supersedes: cache-thirty" in footer_of(root, "cache-per-route")
    again, _ = review(root, commit=False)
    assert not again.changed


INVARIANT = """# Continuity

## Architectural Invariants

- Money is stored in integer cents
  <!-- id: integer-cents | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: core -->
"""


def test_restored_invariant_returns_as_core(tmp_path: Path, no_cache: None) -> None:
    root = build(
        tmp_path,
        INVARIANT,
        {
            "2026-01-01-100000": "- Created: integer-cents",
            "2026-01-02-100000": "- Superseded: integer-cents (invalidated)",
        },
    )
    review(root, commit=False)
    assert where(root)["integer-cents"][0].startswith("archive/")
    log(root, "2026-01-03-100000", "- Restored: integer-cents")
    plan, _ = review(root, commit=False)
    assert plan.summary is not None and dict(plan.summary.tiers)["core"] == 1
    assert where(root)["integer-cents"][0] == "continuity.md"
    assert not plan_review(load(root)).changed


OPEN_THREAD = """# Continuity

## Open Threads

- [ ] Decide the queue library
  <!-- id: queue-library | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: working -->
"""


def test_restored_open_thread_returns_open(tmp_path: Path, no_cache: None) -> None:
    root = build(
        tmp_path,
        OPEN_THREAD,
        {
            "2026-01-01-100000": "- Created: queue-library",
            "2026-01-02-100000": "- Superseded: queue-library (invalidated)",
        },
    )
    review(root, commit=False)
    log(root, "2026-01-03-100000", "- Restored: queue-library")
    plan, _ = review(root, commit=False)
    assert plan.summary is not None and plan.summary.open_threads == 1
    assert not plan_review(load(root)).changed


CHECKED_INVARIANTS = """# Continuity

## Architectural Invariants

- Money is stored in integer cents
  <!-- id: integer-cents | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: core -->

## Open Threads
"""


def test_an_archived_check_still_counts_as_the_last_check(tmp_path: Path, no_cache: None) -> None:
    """Without Project State, the done check is the record: swept away, it still counts."""
    policy = "working_window: 0\nactive_window: 1\narchive_window: 2\nverify_invariants_every: 10\n"
    root = build(tmp_path, CHECKED_INVARIANTS, {}, **{"decay-policy.md": policy})
    opened = []
    for day in range(1, 21):
        log(root, f"2026-02-{day:02d}-100000", "- (none)")
        plan, _ = review(root, commit=False)
        assert plan.summary is not None
        opened += [(day, thread) for thread in plan.summary.opened]
        text = (root / "continuity.md").read_text()
        (root / "continuity.md").write_text(text.replace("- [ ] Re-verify", "- [x] Re-verify"))
    assert [day for day, _ in opened] == [10, 20]


COMPLETED = """# Archive 2026-Q1

## Archived 2026-02-20 (review through 2026-02-20-100000)

### Completed

- [x] Fix the login redirect
  <!-- id: fix-login-redirect | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: archived | section: Open Threads -->
"""


def test_a_completed_thread_is_not_reactivated(tmp_path: Path, no_cache: None) -> None:
    root = build(
        tmp_path,
        "# Continuity\n\n## Open Threads\n",
        {"2026-03-01-100000": "- Referenced: fix-login-redirect (it stayed fixed)"},
    )
    (root / "archive").mkdir()
    (root / "archive" / "2026-Q1.md").write_text(COMPLETED)
    review(root, commit=False)
    assert where(root)["fix-login-redirect"] == ("archive/2026-Q1.md", "archived")


def test_memo_is_not_recorded_when_a_log_arrives_during_the_review(tmp_path: Path) -> None:
    root = build(tmp_path, INVARIANT, {"2026-01-01-100000": "- Referenced: integer-cents"})

    def agent_writes_a_log(done: int, total: int) -> None:  # runs while the review reads
        log(root, "2026-01-02-100000", "- Referenced: integer-cents")

    review(root, commit=False, progress=agent_writes_a_log)
    plan, _ = review(root, commit=False)
    assert plan.summary is not None and plan.summary.through == "2026-01-02-100000"


def test_memo_notices_a_sessions_folder_replaced_by_a_link(tmp_path: Path) -> None:
    root = build(tmp_path, INVARIANT, {"2026-01-01-100000": "- Referenced: integer-cents"})
    review(root, commit=False)
    moved = tmp_path / "elsewhere"
    (root / "sessions").rename(moved)
    os.symlink(moved, root / "sessions")
    with pytest.raises(Exception, match="symbolic link"):
        review(root, commit=False)


BLOCKED = """# Blocked

## Blocked

- Mock the database in unit tests
  <!-- id: mock-the-database | blocked: 2026-01-05 | reason: hid a migration bug twice -->
"""
RETURNING = """# Continuity

## Conventions

- Mock the database in unit tests
  <!-- id: mock-db-again | created: 2026-01-06 | last_used: 2026-01-06 | uses: 1 | tier: working -->
"""


def test_review_refuses_text_forgotten_on_purpose(tmp_path: Path, no_cache: None) -> None:
    root = build(
        tmp_path,
        RETURNING,
        {"2026-01-06-100000": "- Created: mock-db-again"},
        **{"blocked.md": BLOCKED},
    )
    before = (root / "continuity.md").read_bytes()
    with pytest.raises(Exception, match="near the blocked entry mock-the-database") as error:
        review(root, commit=False)
    assert getattr(error.value, "line", None) == 5
    assert (root / "continuity.md").read_bytes() == before
    assert not (root / "reviews.md").exists()


SERVING = """# Continuity

## Key Decisions

- Webhooks go through an outbox table
  <!-- id: outbox-for-webhooks | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: active | serves: reliable-webhooks -->
- Retries use jittered backoff
  <!-- id: jittered-retries | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: active | serves: no-such-goal -->

## Open Threads

- [ ] (blueprint) dead-letter queue → serves: reliable-webhooks
  <!-- id: dead-letter-queue | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: working -->
"""
VISION = """# Vision

## North Star

- Merchant webhooks arrive, exactly once, within a minute
  <!-- id: reliable-webhooks | created: 2026-01-01 | tier: core -->
"""


def test_drift_opens_one_thread_per_broken_link(tmp_path: Path, no_cache: None) -> None:
    sessions = {"2026-01-02-100000": "- Referenced: outbox-for-webhooks, jittered-retries"}
    root = build(tmp_path, SERVING, sessions, **{"vision.md": VISION})
    plan, _ = review(root, commit=False)
    assert plan.summary is not None
    assert plan.summary.opened == ("drift-jittered-retries-no-such-goal",)
    text = (root / "continuity.md").read_text()
    assert "- [ ] Drift: jittered-retries doesn't serve no-such-goal (it names no fact)" in text
    again, _ = review(root, commit=False)
    assert not again.changed


def test_a_done_item_that_served_a_superseded_target_is_no_drift(
    tmp_path: Path, no_cache: None
) -> None:
    """A realised Blueprint item (`- [x]`) keeps its link to the vision it served when a
    new vision supersedes that one: history, not drift, for the review and lint alike. The
    same link on a live item is drift."""
    replay = (
        "- [ ] (blueprint) replay tool → serves: reliable-webhooks\n"
        "  <!-- id: replay-tool | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 -->\n"
    )
    done = (
        SERVING.replace("- [ ] (blueprint) dead-letter", "- [x] (blueprint) dead-letter")
        .replace("serves: no-such-goal", "serves: reliable-webhooks")
        .rstrip("\n")
        + "\n"
        + replay
    )
    superseded = VISION.replace("tier: core", "tier: core | superseded-by: on-time-webhooks")
    sessions = {"2026-01-02-100000": "- Referenced: outbox-for-webhooks, dead-letter-queue"}
    root = build(tmp_path, done, sessions, **{"vision.md": superseded})
    drift = {(f.path.rsplit("/", 1)[-1], f.message) for f in lint(root) if f.code == "W006"}
    assert {message.split(" serves ")[0] for _, message in drift} == {
        "drift: outbox-for-webhooks",
        "drift: jittered-retries",
        "drift: replay-tool",
    }
    plan, _ = review(root, commit=False)
    assert plan.summary is not None
    assert sorted(plan.summary.opened) == [
        "drift-jittered-retries-reliable-webhooks",
        "drift-outbox-for-webhooks-reliable-webhooks",
        "drift-replay-tool-reliable-webhooks",
    ]


ORIGIN_AS = """# Continuity

## Key Decisions

- Retries back off exponentially
  <!-- id: retry-backoff | created: 2025-12-01 | uses: 1 | tier: working | origin: {origin} -->
"""


@pytest.mark.parametrize(
    "origin",
    ["2026-01-04-100000", "2026-01-04-100000.md", "sessions/2026-01-04-100000.md"],
)
def test_origin_written_as_a_file_name_or_path_names_that_session(
    tmp_path: Path, no_cache: None, origin: str
) -> None:
    """Created in the fourth of five sessions (its `created` date, typed by hand, is older):
    counted from its origin it is one session old, still working; counted from the date
    it would be five sessions old, and active."""
    sessions = {f"2026-01-0{day}-100000": "- Referenced: (none)" for day in range(1, 6)}
    sessions["2026-01-04-100000"] = "- Created: retry-backoff"
    root = build(tmp_path, ORIGIN_AS.format(origin=origin), sessions)
    review(root, commit=False)
    assert "tier: working" in footer_of(root, "retry-backoff")
    assert f"origin: {origin} " in footer_of(root, "retry-backoff")


DOTTED = """# Continuity

## Key Decisions

- The quality gate of Sonar 4.6.2 blocks a merge on new code smells
  <!-- id: thread-sonar-quality-gate-4.6.2 | created: 2026-01-01 | uses: 1 | tier: working -->
"""


def test_an_id_with_dots_is_an_id_and_a_final_period_is_not_part_of_it(
    tmp_path: Path, no_cache: None
) -> None:
    sessions = {
        "2026-01-01-100000": "- Created: thread-sonar-quality-gate-4.6.2",
        "2026-01-02-100000": "- Referenced: thread-sonar-quality-gate-4.6.2.",
        "2026-01-03-100000": "- Referenced: thread-sonar-quality-gate-4.6.2 (the gate).",
    }
    root = build(tmp_path, DOTTED, sessions)
    review(root, commit=False)
    footer = footer_of(root, "thread-sonar-quality-gate-4.6.2")
    assert "uses: 3 " in footer and "last_used: 2026-01-03 " in footer


QUOTED_VISION = """# Vision

## North Star

> Merchant webhooks arrive, exactly once,
> within a minute.
> <!-- id: reliable-webhooks | created: 2026-01-01 | tier: core -->

Prose about the vision, with a <!-- comment a person sees in the raw file -->.
"""


def test_a_vision_footer_inside_a_blockquote_names_a_live_core_fact(
    tmp_path: Path, no_cache: None
) -> None:
    """(issue 14, item 3) Its id is known: `serves` links to it open no Drift thread, a
    log citing it names no unknown id, and its footer is no hidden markup."""
    from mdmem.linting.run import lint

    serving = SERVING.replace("serves: no-such-goal", "serves: reliable-webhooks")
    sessions = {"2026-01-02-100000": "- Referenced: outbox-for-webhooks, reliable-webhooks"}
    root = build(tmp_path, serving, sessions, **{"vision.md": QUOTED_VISION})
    memory = load(root)
    assert memory.vision is not None
    assert [(f.id, f.line, f.end) for f in memory.vision.facts] == [("reliable-webhooks", 5, 7)]
    plan, _ = review(root, commit=False)
    assert plan.summary is not None and plan.summary.opened == ()
    assert [(f.code, f.path, f.line) for f in lint(root)] == []


NOTED = """# Continuity

## Key Decisions

- Seed the cache before the first request
  <!-- id: seed-the-cache | created: 2026-01-01 | last_used: 2026-01-01 | uses: 1 | tier: active | origin: 2026-01-01-100000 -->
  <!-- review-note: kept seeded uses:1 while the gate is on -->
- Webhooks go through an outbox table
  <!-- id: outbox-for-webhooks | created: 2026-01-01 | uses: 1 | tier: active -->
"""
NOTE = "  <!-- review-note: kept seeded uses:1 while the gate is on -->\n"
SHORT_WINDOWS = "- working_window: 1\n- active_window: 1\n- archive_window: 2\n"


def test_a_note_after_the_footer_moves_with_its_fact(tmp_path: Path, no_cache: None) -> None:
    """(issue 14, item 2) A second comment after the footer belongs to the fact: it goes
    to the archive with it, byte for byte, and comes back with it."""
    sessions = {"2026-01-01-100000": "- Created: seed-the-cache"}
    sessions |= {
        f"2026-01-0{day}-100000": "- Referenced: outbox-for-webhooks" for day in (2, 3, 4, 5)
    }
    root = build(tmp_path, NOTED, sessions, **{"decay-policy.md": SHORT_WINDOWS})
    review(root, commit=False)
    archived = (root / "archive" / "2026-Q1.md").read_text()
    footer_line = archived.index("<!-- id: seed-the-cache")
    assert archived[archived.index("\n", footer_line) + 1 :].startswith(NOTE)
    assert NOTE not in (root / "continuity.md").read_text()
    log(root, "2026-01-06-100000", "- Referenced: seed-the-cache, outbox-for-webhooks")
    review(root, commit=False)
    continuity = (root / "continuity.md").read_text()
    footer_line = continuity.index("<!-- id: seed-the-cache")
    assert continuity[continuity.index("\n", footer_line) + 1 :].startswith(NOTE)
    again, _ = review(root, commit=False)
    assert not again.changed
