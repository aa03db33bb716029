"""The reader's rank (SPEC §11): BM25 over normalised words, a tag above a word of the
text, the tier's weight, history after what holds now, ties by id; the same whether
lookup reads the documents or its index; `lookup --explain`; context's leads."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.reading.context import plan_context, render_markdown
from mdmem.reading.entries import Entry
from mdmem.reading.leads import MORE, MOST_CHARACTERS, lead
from mdmem.reading.ranking import rank
from mdmem.reading.scoring import make_query, scored
from tests.reading_memory import write_memory

FILLER = " ".join(f"word{n}" for n in range(40))


def fact(fact_id: str, text: str, tier: str = "active", path: str = "memory/continuity.md",
         checkbox: str | None = None, **fields: str) -> Entry:  # fmt: skip
    pairs = (("id", fact_id), ("tier", tier), *fields.items())
    return Entry(path, 1, 2, "Key Decisions", checkbox, text, pairs)


def ids(entries: list[Entry], query: str) -> list[str]:
    return [hit.entry.id for hit in rank(entries, make_query(query)).hits]


COMMON = [fact(f"common-{n}", f"the deploy step number {n}") for n in range(6)]


@pytest.mark.parametrize(
    ("entries", "query", "expected"),
    [
        pytest.param(
            [*COMMON, fact("rare-word", "the canary goes first")],
            "deploy canary",
            ["rare-word", *(f"common-{n}" for n in range(6))],
            id="a_rare_word_above_a_common_one",
        ),
        pytest.param(
            [fact("long-fact", f"cache the index {FILLER}"), fact("short-fact", "cache it")],
            "cache",
            ["short-fact", "long-fact"],
            id="a_short_fact_above_a_long_one",
        ),
        pytest.param(
            [fact("in-text", "retry the webhook"), fact("in-tags", "the webhook", tags="retry")],
            "retry",
            ["in-tags", "in-text"],
            id="a_tag_above_a_word_of_the_text",
        ),
        pytest.param(
            [
                fact("a-candidate", "rotate keys", "archive-candidate"),
                fact("b-active", "rotate keys"),
            ],
            "rotate",
            ["b-active", "a-candidate"],
            id="active_above_archive_candidate",
        ),
        pytest.param(
            [
                fact("a-archived", "rotate keys", "active", path="memory/archive/2026-Q1.md"),
                fact("b-done", "rotate keys", checkbox="x"),
                fact("c-candidate", f"rotate keys {FILLER}", "archive-candidate"),
            ],
            "rotate keys",
            ["c-candidate", "a-archived", "b-done"],
            id="history_after_what_holds_now_whatever_its_label",
        ),
        pytest.param(
            [fact("auth-flow", "authentication goes through the gateway")],
            "auth",
            ["auth-flow"],
            id="a_word_that_starts_another_scores",
        ),
        pytest.param(
            [fact("latest-news", "the latest news")],
            "test",
            [],
            id="a_word_inside_another_does_not",
        ),
    ],
)
def test_rank(entries: list[Entry], query: str, expected: list[str]) -> None:
    assert ids(entries, query) == expected


def test_ties_by_id_in_any_input_order() -> None:
    twins = [fact(f"{name}-fact", "cache the index") for name in ("c", "a", "b")]
    for order in itertools.permutations(twins):
        assert ids(list(order), "cache") == ["a-fact", "b-fact", "c-fact"]


def test_scores_are_integers_independent_of_input_order() -> None:
    entries = [*COMMON, fact("rare-word", "the canary goes first", tags="deploy")]
    query = make_query("deploy canary step")
    forward, _ = scored(entries, query)
    backward, _ = scored(entries[::-1], query)
    assert forward == backward[::-1]
    assert all(isinstance(score, int) for score, _ in forward)


def test_a_tag_alone_outscores_any_count_in_the_text() -> None:
    often = fact("often-text", " ".join(["retry"] * 30))
    tagged = fact("tagged", "the queue", tags="retry")
    assert ids([often, tagged, *COMMON], "retry") == ["tagged", "often-text"]


def test_only_what_holds_now_counts_for_a_word_s_rarity() -> None:
    """History and superseded facts are ranked after what holds now; they do not make a
    word of the live facts common (its idf), so what holds now ranks as if they were not
    there."""
    live = [fact("canary-first", "the canary goes first"), *COMMON]
    past = [
        *(fact(f"old-{n}", "the canary was skipped", path="memory/archive/2026-Q1.md")
          for n in range(8)),
        fact("done-canary", "check the canary", checkbox="x"),
        fact("gone-canary", "the canary goes last", "superseded"),
        fact("archived-canary", "no canary", "archived"),
    ]  # fmt: skip
    query = make_query("deploy canary")
    alone, crowded = rank(live, query), rank([*live, *past], query)
    assert crowded.corpus == alone.corpus
    assert [hit for hit in crowded.hits if hit.entry in live] == list(alone.hits)


@pytest.mark.parametrize("no_cache", ["", "1"], ids=["index", "no_cache"])
def test_lookup_counts_the_facts_that_hold_now(
    tmp_path: Path, no_cache: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of the nine facts that hold now, five hold `webhook`: the archived, superseded and
    done facts that hold it too are not counted, with or without the index."""
    monkeypatch.setenv("MDMEM_NO_CACHE", no_cache)
    memory = write_memory(tmp_path)
    done = CliRunner().invoke(main, ["lookup", "webhook", "--explain", "--root", str(memory)])
    assert done.exit_code == 0, done.output
    assert "webhook: word x2, in 5/9 facts that hold now " in done.output.splitlines()[1]


@pytest.mark.parametrize("no_cache", ["", "1"], ids=["index", "no_cache"])
def test_lookup_explain(tmp_path: Path, no_cache: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MDMEM_NO_CACHE", no_cache)
    memory = write_memory(tmp_path)
    runner = CliRunner()
    done = runner.invoke(main, ["lookup", "webhook", "--explain", "--root", str(memory)])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[1].startswith("    score ")
    assert "webhook: word x2, in " in lines[1] and "tier active x8 = " in lines[1]
    score = int(lines[1].split()[1].rstrip(":"))
    assert lines[1].endswith(f"= {score}")
    data = json.loads(
        runner.invoke(
            main, ["lookup", "webhook", "--explain", "--json", "--root", str(memory)]
        ).output
    )
    assert data["hits"][0]["explain"].endswith(f"= {data['hits'][0]['score']}")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Short facts are their own lead.", "Short facts are their own lead.", id="short_whole"
        ),
        pytest.param(
            f"**Never couple functions directly** (ADR-1) {FILLER * 2}",
            f"**Never couple functions directly**{MORE}",
            id="bold_title",
        ),
        pytest.param(
            f"First sentence here. {FILLER * 2}", f"First sentence here.{MORE}", id="first_sentence"
        ),
        pytest.param(
            f"**Note:** the rest. {FILLER * 2}",
            f"**Note:** the rest.{MORE}",
            id="short_bold_is_no_title",
        ),
    ],
)
def test_lead(text: str, expected: str) -> None:
    assert lead(text) == expected


def test_a_long_first_sentence_is_cut_at_a_word() -> None:
    shown = lead(FILLER * 3)
    assert shown.endswith(MORE) and len(shown) <= MOST_CHARACTERS + len(MORE)
    assert (FILLER * 3).startswith(shown.removesuffix(MORE))


def test_context_fits_more_facts_by_their_leads_and_names_what_it_left_out() -> None:
    long = f"**A title long enough** {FILLER * 3}"
    facts = [fact(f"rule-{n:02d}", long) for n in range(60)]
    shown = plan_context(facts, task="title", budget=600)
    text = render_markdown(shown)
    assert len(text) // 4 <= 600
    assert len(shown.items) > 10  # whole, two would fit
    assert all(not item.whole for item in shown.items)
    assert "(Left out to fit 600 tokens, `mdmem show ID` gives any: rule-" in text
    roomy = plan_context(facts[:2], task="title", budget=4000)
    assert all(item.whole for item in roomy.items)  # room left: the best-ranked whole
