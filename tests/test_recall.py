"""benchmarks/recall.py's pure parts: the task and the truth taken from a session log,
the facts read from a memory, and the baselines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import BENCHMARKS, load_script

recall = load_script(BENCHMARKS / "recall.py", "recall")

CONTINUITY = """\
# Continuity

## Architectural Invariants

- Money is an integer number of cents
  <!-- id: money-in-cents | created: 2026-01-01 | tier: active -->

## Key Decisions

- Webhooks retry with backoff,
  three times at most
  <!-- id: webhook-backoff | created: 2026-01-01 | tier: active -->
- Old rule
  <!-- id: old-rule | created: 2026-01-01 | tier: superseded | superseded-by: webhook-backoff -->
- Core rule
  <!-- id: core-rule | created: 2026-01-01 | tier: core -->

## Open Threads

- [ ] Move retries to the queue
  <!-- id: queue-thread | created: 2026-01-01 | tier: working -->
- [x] Rotate the key
  <!-- id: rotate-key | created: 2026-01-01 | tier: working -->
"""

LOG = """\
# Session

## Summary

Moved `webhook-backoff` retries into queue-thread, see `src/hooks.py`: it works.

## Memory References

- Referenced: webhook-backoff, money-in-cents
- Created: brand-new-fact
- Helpful: queue-thread (it helped)
- Harmful: old-rule,
  rotate-key
- Superseded: old-rule → webhook-backoff
"""


def test_facts_are_read_with_their_state() -> None:
    facts = {fact.id: fact for fact in recall.read_facts(CONTINUITY)}
    assert facts["webhook-backoff"].text == "Webhooks retry with backoff, three times at most"
    assert facts["money-in-cents"].core and facts["core-rule"].core
    assert not facts["old-rule"].live and not facts["rotate-key"].live
    assert facts["queue-thread"].live and not facts["queue-thread"].core


def test_the_task_drops_code_spans_and_fact_ids() -> None:
    task = recall.task_of(LOG, {"queue-thread", "webhook-backoff"})
    assert task == "Moved retries into see : it works."


def test_the_task_is_the_first_sixty_words() -> None:
    log = "## Summary\n\n" + " ".join(f"w{n}" for n in range(100)) + "\n\n## Next\n\nmore\n"
    assert recall.task_of(log, set()).split() == [f"w{n}" for n in range(60)]


@pytest.mark.parametrize(
    ("log", "expected"),
    [
        pytest.param(
            LOG,
            ["webhook-backoff", "money-in-cents", "queue-thread", "old-rule", "rotate-key"],
            id="cited_keys_and_wrapped_lines",
        ),
        pytest.param("## Memory References\n\n(none)\n", [], id="none"),
        pytest.param("## Summary\n\n- Referenced: webhook-backoff\n", [], id="other_section"),
    ],
)
def test_cited(log: str, expected: list[str]) -> None:
    assert recall.cited(log) == expected


def test_the_truth_is_the_live_non_core_facts_cited() -> None:
    facts = [fact for fact in recall.read_facts(CONTINUITY) if fact.live]
    assert recall.truth_of(LOG, facts) == ["webhook-backoff", "queue-thread"]


def test_bm25_ranks_a_rare_word_first_and_fill_serves_core_first() -> None:
    facts = [
        recall.Fact("core-fact", "core " * 10, True, True),
        *(recall.Fact(f"common-{n}", "deploy step", False, True) for n in range(5)),
        recall.Fact("rare-fact", "deploy canary", False, True),
    ]
    ranked = recall.bm25(facts, "canary deploy")
    assert ranked[0] == "rare-fact" and set(ranked) == {f.id for f in facts} - {"core-fact"}
    assert recall.grep(facts, "canary") == ["rare-fact"]
    served = recall.fill(facts, ranked, 25)  # 100 characters: the core fact, then one more
    assert served == {"core-fact", "rare-fact"}


def test_crowd_adds_another_memory_s_live_facts_to_their_sections(tmp_path: Path) -> None:
    """--crowd: the live, non-core facts of another memory, ids tagged and footers kept to
    their dates, uses and tier, each at the end of its own section (a section the memory
    lacks added at the end); the memory's own facts stay as they were."""
    other = CONTINUITY.replace("## Open Threads", "## Conventions").replace(
        "tier: working -->", "tier: working | serves: vision-x | origin: s1 -->", 1
    )
    blocks = recall.live_blocks(other, "x2")
    assert [(title, lines[-1].strip()) for title, lines in blocks] == [
        ("Key Decisions", "<!-- id: x2-webhook-backoff | created: 2026-01-01 | tier: active -->"),
        ("Conventions", "<!-- id: x2-queue-thread | created: 2026-01-01 | tier: working -->"),
    ]
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "continuity.md").write_text(CONTINUITY, encoding="utf-8")
    recall.crowd(memory, blocks)
    facts = recall.read_facts((memory / "continuity.md").read_text(encoding="utf-8"))
    own = recall.read_facts(CONTINUITY)
    assert [fact for fact in facts if not fact.id.startswith("x2-")] == own
    added = {fact.id: fact for fact in facts if fact.id.startswith("x2-")}
    assert added["x2-webhook-backoff"].text == "Webhooks retry with backoff, three times at most"
    assert added["x2-webhook-backoff"].live and added["x2-queue-thread"].live
    text = (memory / "continuity.md").read_text(encoding="utf-8")
    assert text.index("x2-webhook-backoff") < text.index("## Open Threads")
    assert text.index("## Conventions") > text.index("id: queue-thread")
