"""The reading commands: scope globs, lookup's ranking, show's history and `--as-of`, the
context an agent reads (what never appears in it, beside what does), and its budget."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mdmem.cli import main
from mdmem.errors import MdmemError
from mdmem.format.document import parse_document
from mdmem.format.scope import in_scope
from mdmem.format.textfile import TextFile
from mdmem.format.words import claim, is_prohibition, normalised_tokens, word_counts
from mdmem.reading import history, search, sources
from mdmem.reading.context import (
    NAMED_LEFT_OUT,
    as_json,
    as_prohibition,
    estimate_tokens,
    plan_context,
    render_markdown,
)
from mdmem.reading.entries import Entry, entries_of
from mdmem.reading.ranking import best_line_hits, log_hits, rank, sorted_line_hits
from mdmem.reading.scoring import line_points, make_query, may_match
from mdmem.store import cache
from mdmem.store.files import read, read_all, read_bytes
from mdmem.store.folders import project_path
from tests.reading_memory import write_memory

DEMO = Path(__file__).resolve().parent.parent / "templates" / "demo" / "memory"


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return write_memory(tmp_path)


# --- scope -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scope", "path", "expected"),
    [
        pytest.param("src/api/**", "src/api/x.py", True, id="double_star_below"),
        pytest.param("src/api/**", "src/api/v1/deep/x.py", True, id="double_star_deep"),
        pytest.param("src/api/**", "docs/a.md", False, id="elsewhere"),
        pytest.param("src/api/**", "src/apis/x.py", False, id="prefix_is_not_folder"),
        pytest.param("src/api/**", "./src/api/x.py", True, id="dot_slash_dropped"),
        pytest.param("src/api/**", "src\\api\\x.py", True, id="backslashes_read_as_slash"),
        pytest.param("src/*.py", "src/a.py", True, id="star_in_segment"),
        pytest.param("src/*.py", "src/api/a.py", False, id="star_never_crosses_slash"),
        pytest.param("**/test_*.py", "test_a.py", True, id="double_star_zero_segments"),
        pytest.param("**/test_*.py", "a/b/test_a.py", True, id="double_star_many_segments"),
        pytest.param("a/**/b.py", "a/b.py", True, id="inner_double_star_zero"),
        pytest.param("a/**/b.py", "a/x/y/b.py", True, id="inner_double_star_many"),
        pytest.param("*.md", "docs/deep/a.md", True, id="name_alone_any_depth"),
        pytest.param("Makefile", "sub/Makefile", True, id="plain_name_any_depth"),
        pytest.param("src/?.py", "src/ab.py", False, id="question_one_char"),
        pytest.param("src/[ab].py", "src/b.py", True, id="character_set"),
        pytest.param("src/[!ab].py", "src/b.py", False, id="negated_set"),
        pytest.param("src/[.py", "src/[.py", True, id="unclosed_bracket_literal"),
        pytest.param("docs/**, src/api/**", "src/api/x.py", True, id="comma_list_any"),
        pytest.param("", "anything", True, id="empty_scope_applies"),
        pytest.param(None, "anything", True, id="no_scope_applies"),
        pytest.param("src/**", None, True, id="no_path_keeps_all"),
    ],
)
def test_scope_globs(scope: str | None, path: str | None, expected: bool) -> None:
    assert in_scope(scope, path) is expected


# --- ranking ---------------------------------------------------------------------------


def entry(fact_id: str, text: str, tier: str = "active", **fields: str) -> Entry:
    pairs = (("id", fact_id), ("tier", tier), *fields.items())
    return Entry("memory/continuity.md", 1, 2, "Key Decisions", None, text, pairs)


FACTS = [
    entry("webhook-retry-backoff", "Webhook retries back off exponentially", tags="retry"),
    entry("webhook-signing", "Webhooks are signed with HMAC", tier="core"),
    entry("queue-retry-limit", "The queue retried three times at most", tier="working"),
    entry("old-retry-rule", "Retry webhooks every five seconds", tier="archived"),
    entry("authentication-flow", "Authentication goes through the gateway"),
    entry("zz-retrying-jobs", "Jobs keep retrying forever", tier="active"),
]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # (exact 3 + tag 5) x active 4 = 32; "retrying" 3 x active 4 = 12; "retried"
        # 3 x working 3 = 9; 3 x archived 1 = 3.
        pytest.param(
            "retries",
            ["webhook-retry-backoff", "zz-retrying-jobs", "queue-retry-limit", "old-retry-rule"],
            id="plural_and_tense_match_tag_wins",
        ),
        pytest.param(
            "Webhook RETRY",
            # 44 (3 + 3 + 5, x4), 15 (3, x5), 12 (3, x4), 9 (3, x3), 6 (3 + 3, x1)
            [
                "webhook-retry-backoff",
                "webhook-signing",
                "zz-retrying-jobs",
                "queue-retry-limit",
                "old-retry-rule",
            ],
            id="case_and_two_words",
        ),
        pytest.param("auth", ["authentication-flow"], id="substring_scores_one"),
        pytest.param("gateway authentication", ["authentication-flow"], id="word_order"),
        pytest.param("signed hmac", ["webhook-signing"], id="core_weight"),
    ],
)
def test_ranking_pins_the_order(query: str, expected: list[str]) -> None:
    found = rank(FACTS, make_query(query))
    assert [hit.entry.id for hit in found.hits] == expected


def test_ties_break_by_id_whatever_the_input_order() -> None:
    twins = [entry("b-fact-two", "cache the index"), entry("a-fact-one", "cache the index")]
    assert [h.entry.id for h in rank(twins, make_query("cache")).hits] == [
        "a-fact-one",
        "b-fact-two",
    ]
    assert [h.entry.id for h in rank(twins[::-1], make_query("cache")).hits] == [
        "a-fact-one",
        "b-fact-two",
    ]


def test_superseded_facts_are_apart_and_filters_apply() -> None:
    facts = [
        *FACTS,
        entry("old-webhook", "Webhook retry", tier="superseded", **{"superseded-by": "x-y"}),
        entry("api-retry", "API retry rule", scope="src/api/**"),
    ]
    found = rank(facts, make_query("retry"), path="docs/a.md", tier=None)
    assert "old-webhook" not in [h.entry.id for h in found.hits]
    assert [h.entry.id for h in found.superseded] == ["old-webhook"]
    assert "api-retry" not in [h.entry.id for h in found.hits]
    assert "api-retry" in [h.entry.id for h in rank(facts, make_query("retry")).hits]
    only = rank(facts, make_query("retry"), tier="working")
    assert [h.entry.id for h in only.hits] == ["queue-retry-limit"]


WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)
IRREGULAR_WORDS = st.sampled_from(["ran", "written", "children", "built", "retries", "tried"])


@given(
    st.lists(st.one_of(WORDS, IRREGULAR_WORDS), min_size=1, max_size=8),
    st.one_of(WORDS, IRREGULAR_WORDS),
)
def test_the_prefilter_never_drops_a_match(text_words: list[str], query_word: str) -> None:
    # Whenever a query word is a word, or part of a word, of the normalised text, the
    # cheap prefilter on the lowercase text lets it through.
    text = " ".join(text_words)
    query = make_query(query_word)
    words = normalised_tokens(text)
    if any(q in word for q in query.words for word in words):
        assert may_match(text.lower(), query)


LOG_WORDS = st.sampled_from(
    ["Retries", "RETRIED", "retry-webhook", "web-hooks", "don't", "won\u2019t", "team's",
     "make sure", "keep in mind", "not", "ran", "Children", "tried", "Timeout", "time-out",
     "\u0130ndex", "\u212aey", "stra\u00dfe", "\u03a3igma", "caf\u00e9", "x_y", "a.b",
     "--no-verify", ",", "(", "\u2014", "`code`", "", "auth", "AUTHENTICATION"]
)  # fmt: skip
LOG_LINES = st.lists(LOG_WORDS, max_size=6).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(LOG_LINES, min_size=1, max_size=8),
    st.sampled_from(["\n", "\r\n"]),
    st.lists(st.one_of(LOG_WORDS, WORDS, IRREGULAR_WORDS), min_size=1, max_size=3).map(" ".join),
)
def test_log_hits_are_every_line_that_scores(lines: list[str], ending: str, asked: str) -> None:
    # The needles skip lines, never a line that scores: log_hits gives what scoring every
    # line of the log with its whole normalisation gives.
    query = make_query(asked)
    assume(query.words)
    text = ending.join(lines)
    every = [
        (number, line.strip(), line_points(query, normalised_tokens(line)))
        for number, line in enumerate((raw.rstrip("\r") for raw in text.split("\n")), 1)
    ]
    expected = [item for item in every if item[2]]
    found = log_hits("m/sessions/x.md", "x", text, query)
    assert [(hit.line, hit.text, hit.score) for hit in found] == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(LOG_LINES, min_size=1, max_size=5), min_size=1, max_size=6),
    st.lists(st.one_of(LOG_WORDS, WORDS, IRREGULAR_WORDS), min_size=1, max_size=3).map(" ".join),
    st.one_of(st.none(), st.integers(min_value=1, max_value=6)),
)
def test_the_best_lines_are_those_of_scoring_every_log(
    logs: list[list[str]], asked: str, limit: int | None
) -> None:
    # Under a limit, lines of a log whose bound cannot place them are never scored; the
    # answer is still the first `limit` of every scoring line in lookup's order.
    query = make_query(asked)
    assume(query.words)
    named = [(f"m/sessions/{n:02}.md", f"{n:02}", "\n".join(lines)) for n, lines in enumerate(logs)]
    every = [hit for log in named for hit in log_hits(*log, query)]
    read = [(f"{stem}.md", text.encode("utf-8")) for _, stem, text in named]
    for order in (read, read[::-1]):  # the folder's order is any order
        assert best_line_hits(order, "m/sessions/", query, limit) == sorted_line_hits(every)[:limit]


@pytest.mark.parametrize(
    ("logs", "asked", "limit", "expected"),
    [
        # a log holding both words apart scores 3 a line; the newer log's line ties and wins
        (["retry\ntimeout", "retry"], "retry timeout", 1, [("01", 1, 3)]),
        (["retry\ntimeout", "retry"], "retry timeout", 2, [("01", 1, 3), ("00", 1, 3)]),
        (["retry timeout", "retry"], "retry timeout", 1, [("00", 1, 6)]),
        (
            ["x", "retries\ntimed out\nretry timeouts"],
            "retry timeout",
            2,
            [("01", 3, 6), ("01", 1, 3)],
        ),
        (["retry", "retry", "retry"], "retry", None, [("02", 1, 3), ("01", 1, 3), ("00", 1, 3)]),
    ],
)
def test_the_best_lines_in_lookup_order(
    logs: list[str], asked: str, limit: int | None, expected: list[tuple[str, int, int]]
) -> None:
    read = [(f"{n:02}.md", text.encode("utf-8")) for n, text in enumerate(logs)]
    found = best_line_hits(read, "m/sessions/", make_query(asked), limit)
    assert [(hit.session, hit.line, hit.score) for hit in found] == expected


# --- context ---------------------------------------------------------------------------


def test_context_leaves_out_what_must_never_appear(memory: Path) -> None:
    shown = sources.context(memory, "webhook retries")
    ids = set(shown.ids)
    # never: superseded, archived, blocked, deprecated, superseded by a pending log, done
    assert ids.isdisjoint(
        {
            "webhook-fixed-interval",
            "webhook-full-logging",
            "deploy-token-config",
            "redis-payload-cache",
            "webhook-timeout-ten",
            "rotate-signing-key",
        }
    )
    # their live neighbours do appear
    assert {"webhook-backoff", "signed-webhooks", "export-csv-tenant"} <= ids
    assert [entry.id for entry, _, _ in shown.warnings] == ["redis-payload-cache"]
    text = render_markdown(shown)
    assert "redis-payload-cache" in text.split("## Warnings")[1]


def test_context_scope_in_and_out(memory: Path) -> None:
    assert "api-pydantic-models" in sources.context(memory, None, path="src/api/x.py").ids
    assert "api-pydantic-models" not in sources.context(memory, None, path="docs/a.md").ids
    assert "api-pydantic-models" in sources.context(memory, None).ids


@pytest.mark.parametrize(
    ("cwd", "given", "seen"),
    [
        pytest.param(None, "{project}/src/api/x.py", "src/api/x.py", id="absolute-inside"),
        pytest.param(None, "{project}/docs/../src/api/x.py", "src/api/x.py", id="dot-dot-inside"),
        pytest.param("", "{project}/docs/a.md", "docs/a.md", id="absolute-elsewhere"),
        pytest.param("src/api", "x.py", "src/api/x.py", id="relative-to-a-working-folder-inside"),
        pytest.param("docs", "a.md", "docs/a.md", id="relative-elsewhere"),
        pytest.param("src", "src/api/x.py", "src/src/api/x.py", id="from-where-it-runs"),
        pytest.param("", "./src/api/x.py", "src/api/x.py", id="relative-from-the-top"),
        pytest.param(None, "src/api/x.py", "src/api/x.py", id="no-working-folder"),
        pytest.param("src/api", "../cur/x.py", "src/cur/x.py", id="a-link-is-not-followed"),
    ],
)  # fmt: skip
def test_path_is_read_relative_to_the_project(
    memory: Path, cwd: str | None, given: str, seen: str
) -> None:
    """Agents pass absolute paths, people paths relative to where they stand: both are
    read as the path from the project's top that a scope names, a link as it is named."""
    project = memory.parent.resolve()
    for folder in ("src/api", "docs"):
        (project / folder).mkdir(parents=True, exist_ok=True)
    (project / "src/api/x.py").write_text("", "utf-8")
    (project / "src/cur").symlink_to(project / "src/api")
    here = None if cwd is None else project / cwd
    assert project_path(memory, given.format(project=project), here) == seen
    path = given.format(project=project)
    shown = seen.startswith("src/api/")
    assert (
        "api-pydantic-models" in sources.context(memory, None, path=path, cwd=here).ids
    ) is shown
    hits = search.lookup(memory, "pydantic models", path=path, cwd=here).ranking.hits
    assert ("api-pydantic-models" in [hit.entry.id for hit in hits]) is shown


@pytest.mark.parametrize("given", ["{outside}/elsewhere.py", "../elsewhere.py", "src/../../x.py"])
def test_a_path_outside_the_project_is_refused(memory: Path, tmp_path: Path, given: str) -> None:
    with pytest.raises(MdmemError, match="is outside the project"):
        search.lookup(memory, "pydantic", path=given.format(outside=tmp_path.parent))


@pytest.mark.parametrize("given", ["", "  "])
def test_an_empty_path_is_refused(memory: Path, given: str) -> None:
    # `--path "$FILE"` with FILE unset would otherwise leave out every scoped fact.
    for run in (search.lookup, sources.context):
        with pytest.raises(MdmemError, match="--path is empty"):
            run(memory, "pydantic", path=given)


def test_the_command_reads_path_from_where_it_runs(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (memory.parent / "src/api").mkdir(parents=True)
    monkeypatch.chdir(memory.parent / "src/api")
    result = CliRunner().invoke(main, ["lookup", "pydantic models", "--path", "x.py"])
    assert "api-pydantic-models" in result.stdout


def test_context_sections_fence_and_citation(memory: Path) -> None:
    text = render_markdown(sources.context(memory, "webhook retries"))
    lines = text.splitlines()
    assert "not instructions" in lines[0]
    assert lines[1] == "~~~~" and lines[-2] == "~~~~"
    assert lines[-1] == "Cite only the facts you used: mdmem ref ID [ID...]"
    body = lines[2:-2]
    core = body.index("## Core facts and invariants")
    rules = body.index("## Rules")
    threads = body.index("## Open threads")
    pitfalls = next(i for i, line in enumerate(body) if line.startswith("## Pitfalls"))
    assert core < rules < threads < pitfalls
    assert body[pitfalls + 1].endswith("[mock-database-tests]")
    assert "[mock-database-tests]" not in "\n".join(body[:pitfalls])
    assert all(
        line.endswith("]") for line in body if line.startswith("- ") and "left out" not in line
    )


PITFALLS_HEADING = "## Pitfalls (what went wrong before)"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        pytest.param(
            "Mock the database in integration tests",
            "Do not: Mock the database in integration tests",
            id="positive_is_prefixed",
        ),
        pytest.param(
            "Mocking the database hid a migration bug",
            "Do not: Mocking the database hid a migration bug",
            id="positive_story_is_prefixed",
        ),
        pytest.param("Never commit .env files", "Never commit .env files", id="never"),
        pytest.param(
            "Don't use print for logging; use the logging module",
            "Don't use print for logging; use the logging module",
            id="dont",
        ),
        pytest.param(
            "Do not call the database from views",
            "Do not call the database from views",
            id="do_not",
        ),
        pytest.param("Avoid global state", "Avoid global state", id="avoid"),
        pytest.param("Not pinning dependencies", "Not pinning dependencies", id="not_doing"),
        pytest.param(
            "Tests with no assertions",
            "Do not: Tests with no assertions",
            id="a_practice_holding_a_negator",
        ),
        pytest.param(
            "Flaky tests, never retried",
            "Do not: Flaky tests, never retried",
            id="a_practice_with_a_negated_clause",
        ),
        pytest.param(
            "We never deploy on Fridays",
            "We never deploy on Fridays",
            id="filler_before_the_negator",
        ),
        pytest.param(
            "You must never push to main",
            "You must never push to main",
            id="a_must_before_the_negator",
        ),
    ],
)
def test_a_pitfall_line_reads_as_a_prohibition_on_its_own(text: str, shown: str) -> None:
    """No heading's "do NOT" before a text that already says "never": "do NOT: never"."""
    context = plan_context([entry("the-pitfall", text, type="anti-pattern")])
    body = render_markdown(context).splitlines()
    assert body[body.index(PITFALLS_HEADING) + 1] == f"- {shown} [the-pitfall]"
    assert as_prohibition(text) == shown


def test_negative_and_positive_pitfalls_side_by_side() -> None:
    facts = [
        entry("never-commit-env", "Never commit .env files", type="anti-pattern"),
        entry("mock-the-database", "Mock the database in integration tests", type="anti-pattern"),
        entry("rule-not-pitfall", "Never push to main"),
    ]
    text = render_markdown(plan_context(facts))
    pitfalls = text.split(PITFALLS_HEADING + "\n")[1].split("\n~~~~")[0]
    assert pitfalls.splitlines() == [  # no task: equal weights, so by id
        "- Do not: Mock the database in integration tests [mock-the-database]",
        "- Never commit .env files [never-commit-env]",
    ]
    assert "- Never push to main [rule-not-pitfall]" in text  # a rule is shown as written
    assert "do NOT" not in text


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40))
def test_a_pitfall_shown_is_a_prohibition_and_showing_it_again_changes_nothing(
    text: str,
) -> None:
    shown = as_prohibition(text)
    assert claim(shown).negative and is_prohibition(shown)
    assert as_prohibition(shown) == shown


def test_the_cite_line_asks_for_the_facts_used_not_every_id_shown() -> None:
    facts = [entry(f"fact-number-{n}", f"Fact {n} about billing") for n in range(3)]
    context = plan_context(facts)
    last = render_markdown(context).splitlines()[-1]
    assert last == "Cite only the facts you used: mdmem ref ID [ID...]"
    assert as_json(context)["cite"] == last
    assert not any(fact.id in last for fact in facts)
    empty = plan_context([])
    assert render_markdown(empty).splitlines()[-1] == "~~~~" and as_json(empty)["cite"] == ""
    # Through the MCP server the same lines name the tools an agent has there.
    tools = render_markdown(context, tools=True).splitlines()
    assert tools[-1] == "Cite only the facts you used: the `reference` tool, with their ids"
    assert tools[0].endswith("the `show` tool gives the whole.")
    assert tools[1:-1] == render_markdown(context).splitlines()[1:-1]


def many_rules(count: int) -> list[Entry]:
    section = "Architectural Invariants"
    core = [
        Entry("m/c.md", 1, 2, section, None, f"Invariant {n} holds", (("id", f"core-{n}"),))
        for n in range(3)
    ]
    rules = [
        entry(f"rule-{n:03d}", f"Rule {n} about the {'webhook' if n % 5 == 0 else 'billing'} code")
        for n in range(count)
    ]
    return core + rules


def test_budget_drops_lowest_ranked_first_never_core() -> None:
    facts = many_rules(200)
    shown = plan_context(facts, task="webhook", budget=400)
    text = render_markdown(shown)
    assert estimate_tokens(text) <= 400
    assert shown.dropped > 0
    # the best-ranked left out are named (webhook rules match the task), the rest counted
    left = [item.entry.id for item in shown.left_out]
    assert len(left) == shown.dropped
    named = ", ".join([i for i in left if int(i[5:]) % 5 == 0][:NAMED_LEFT_OUT])
    assert f"(Left out to fit 400 tokens, `mdmem show ID` gives any: {named}" in text or (
        f"({shown.dropped} more facts left out to fit 400 tokens" in text
    )
    assert {"core-0", "core-1", "core-2"} <= set(shown.ids)
    kept = [i for i in shown.ids if i.startswith("rule-")]
    # the webhook rules score, so they are kept before any billing rule
    webhook = [f"rule-{n:03d}" for n in range(0, 200, 5)]
    assert kept[: len(webhook)] == webhook[: len(kept)]
    assert len(kept) + shown.dropped == 200


@pytest.mark.parametrize(
    ("task", "told"),
    [
        pytest.param("webhook", "the `show` tool gives any", id="matching-named"),
        pytest.param("zebra", "the `lookup` tool finds them", id="none-matching"),
    ],
)
def test_what_was_left_out_names_the_tools_for_an_agent_on_mcp(task: str, told: str) -> None:
    shown = plan_context(many_rules(200), task=task, budget=400)
    text = render_markdown(shown, tools=True)
    assert told in text and shown.dropped > 0
    assert "mdmem " not in text.replace("(mdmem context)", "")


def test_budget_smaller_than_core_keeps_core() -> None:
    shown = plan_context(many_rules(10), budget=10)
    assert {"core-0", "core-1", "core-2"} <= set(shown.ids)
    assert shown.dropped == 10


# --- show --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("point", "tier"),
    [
        pytest.param("2025-12-31", None, id="before_it_was_created"),
        pytest.param("2026-01-01-100000", "working", id="created"),
        pytest.param("2026-01-02", "working", id="still_new"),
        pytest.param("2026-01-03", "active", id="active"),
        pytest.param("2026-01-04", "archive-candidate", id="going_stale"),
        pytest.param("2026-01-05-100000.md", "archive-candidate", id="still_stale_by_file_name"),
        pytest.param("2026-01-06", "archived", id="archived"),
        pytest.param("2026-01-07", "active", id="reactivated"),
        pytest.param("2026-01-10", "active", id="now"),
    ],
)
def test_show_as_of_replays_the_ledger(memory: Path, point: str, tier: str | None) -> None:
    shown = search.show(memory, "export-csv-tenant", as_of=point)
    assert shown.as_of is not None
    assert shown.as_of.tier == tier


@pytest.fixture
def reviewed_demo(tmp_path: Path) -> Path:
    """The demo memory after its review: facts the ledger's first log never saw in
    continuity, archived by a review before it (2026-09-01), one since reactivated."""
    memory = Path(shutil.copytree(DEMO, tmp_path / "memory"))
    done = CliRunner().invoke(main, ["review", "--no-commit", "--root", str(memory)])
    assert done.exit_code == 0, done.output
    return memory


@pytest.mark.parametrize(
    ("fact_id", "point", "tier"),
    [
        # archived by the review through 2026-09-01-170000, before the ledger's first log,
        # and cited by no log since: archived at every point the ledger holds
        pytest.param("sentry-sourcemaps-upload", "2026-09-02", "archived", id="first_log"),
        pytest.param("sentry-sourcemaps-upload", "2026-10-28", "archived", id="last_log"),
        # archived then too, cited on 2026-10-26, brought back by the review through 10-28
        pytest.param("stripe-test-clock-cleanup", "2026-09-02", "archived", id="before_cited"),
        pytest.param("stripe-test-clock-cleanup", "2026-10-26", "active", id="cited"),
        pytest.param("stripe-test-clock-cleanup", "2026-10-28", "active", id="reactivated"),
    ],
)
def test_show_as_of_keeps_what_the_archive_says_of_earlier_reviews(
    reviewed_demo: Path, fact_id: str, point: str, tier: str
) -> None:
    shown = search.show(reviewed_demo, fact_id, as_of=point)
    assert shown.as_of is not None and shown.as_of.tier == tier


@pytest.mark.parametrize(
    ("point", "message"),
    [
        pytest.param("2026-13-45", "no such date", id="no_month_13"),
        pytest.param("2026-02-30", "no such date", id="no_february_30"),
        pytest.param(
            "2026-10-03-143000", "names 2 session logs: 2026-10-03-143000-api, ", id="two"
        ),
        pytest.param("2026-10-03", None, id="a_day"),
        pytest.param("2026-10-01-101000", None, id="a_whole_stem"),
    ],
)
def test_show_as_of_names_a_point_once(
    reviewed_demo: Path, point: str, message: str | None
) -> None:
    if message is None:
        assert search.show(reviewed_demo, "refunds-async-queue", as_of=point).as_of is not None
    else:
        with pytest.raises(MdmemError, match=message):
            search.show(reviewed_demo, "refunds-async-queue", as_of=point)


def test_show_as_of_takes_a_logs_time_without_its_slug(memory: Path) -> None:
    (memory / "sessions" / "2026-01-10-100000.md").rename(
        memory / "sessions" / "2026-01-10-100000-late.md"
    )
    shown = search.show(memory, "export-csv-tenant", as_of="2026-01-10-100000")
    assert shown.as_of is not None and shown.as_of.session == "2026-01-10-100000-late"


def test_show_as_of_ignores_a_later_supersession(memory: Path) -> None:
    before = search.show(memory, "webhook-timeout-ten", as_of="2026-01-08")
    after = search.show(memory, "webhook-timeout-ten", as_of="2026-01-09")
    assert before.as_of is not None and before.as_of.tier != "superseded"
    assert after.as_of is not None and after.as_of.tier == "superseded"


def test_show_history(memory: Path) -> None:
    shown = search.show(memory, "webhook-backoff")
    assert [c.path for c in shown.copies] == ["memory/continuity.md"]
    assert [ref.session for ref in shown.references] == [
        "2026-01-08-100000",
        "2026-01-06-100000",
        "2026-01-03-100000",
        "2026-01-01-100000",
    ]
    assert shown.references[0].line == 6
    assert shown.predecessors == ("webhook-fixed-interval",)
    assert (shown.helpful, shown.harmful) == (1, 0)
    old = search.show(memory, "webhook-fixed-interval")
    assert old.successors == ("webhook-backoff",)
    archived = search.show(memory, "webhook-full-logging")
    assert archived.copies[0].path == "memory/archive/2025-Q4.md"
    assert archived.copies[0].line == 7


def test_show_unknown_id_and_bad_point(memory: Path) -> None:
    result = CliRunner().invoke(main, ["show", "no-such-fact", "--root", str(memory)])
    assert result.exit_code == 3
    assert "no fact 'no-such-fact'" in result.stderr
    result = CliRunner().invoke(
        main, ["show", "webhook-backoff", "--as-of", "someday", "--root", str(memory)]
    )
    assert result.exit_code == 3
    assert "neither a date" in result.stderr


# --- the commands ------------------------------------------------------------------------


def test_lookup_command_lines_and_json(memory: Path) -> None:
    result = CliRunner().invoke(main, ["lookup", "Webhook RETRIES", "--root", str(memory)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("memory/continuity.md:14  webhook-backoff  active  Webhook retries")
    assert "memory/continuity.md:16  webhook-fixed-interval  superseded → webhook-backoff" in (
        result.output
    )
    data = json.loads(
        CliRunner()
        .invoke(main, ["lookup", "webhook", "--json", "--limit", "2", "--root", str(memory)])
        .output
    )
    assert [hit["id"] for hit in data["hits"]] == [
        "webhook-timeout-ten",
        "webhook-backoff",
    ]  # BM25: "webhook" twice (text and id) in the shortest fact first
    assert data["total"] > 2


def test_lookup_sessions_and_no_match(memory: Path) -> None:
    result = CliRunner().invoke(
        main, ["lookup", "reactivated", "--sessions", "--root", str(memory)]
    )
    assert result.exit_code == 0
    assert "memory/sessions/2026-01-07-100000.md:6  2026-01-07-100000  session" in result.output
    missing = CliRunner().invoke(main, ["lookup", "kubernetes", "--root", str(memory)])
    assert (missing.exit_code, missing.stdout) == (1, "")
    assert "Nothing matches" in missing.stderr
    filler = CliRunner().invoke(main, ["lookup", "the of", "--root", str(memory)])
    assert filler.exit_code == 3


def test_read_all_gives_each_file_whole_and_refuses_a_link(tmp_path: Path) -> None:
    # One read of a fixed size a file; a file that fills it, or more, is read to its end.
    sizes = {"empty.md": 0, "small.md": 5, "full.md": 1 << 16, "large.md": (1 << 17) + 3}
    for name, size in sizes.items():
        (tmp_path / name).write_bytes(bytes(index % 251 for index in range(size)))
    names = list(sizes)
    found = read_all(tmp_path, names, "m/sessions/")
    assert found == [read_bytes(tmp_path / name, name) for name in names]
    assert [len(data) for data in found] == list(sizes.values())
    (tmp_path / "linked.md").symlink_to(tmp_path / "small.md")
    with pytest.raises(MdmemError, match=r"m/sessions/linked\.md: is a symbolic link"):
        read_all(tmp_path, ["small.md", "linked.md"], "m/sessions/")
    with pytest.raises(MdmemError, match=r"m/sessions/gone\.md: cannot be read"):
        read_all(tmp_path, ["gone.md"], "m/sessions/")


IMPORTED = """\
import contextlib, io, sys
from mdmem.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(sys.argv[1:])
print(" ".join(sorted(name for name in sys.modules if name.startswith(("mdmem", "hashlib")))))
"""


def _imported(*args: str, cache: Path | None = None) -> set[str]:
    """The mdmem modules a fresh process has imported after running `mdmem ARGS`
    (`cache`: the user's cache folder it is given)."""
    folder = {} if cache is None else {"XDG_CACHE_HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent), **folder},
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


# Modules no reading command runs: the writer (a reader only checks for a cut-short write,
# `store.journal`), `load` and its parsers of every file, GitPython's callers, the write
# commands' CLI module and the write path's checks of new text.
WRITES = {
    "mdmem.store.writer",
    "mdmem.store.load",
    "mdmem.git.plumbing",
    "mdmem.cli.write",
    "mdmem.writing.gathered",
    "mdmem.writing.references",
}


def test_lookup_imports_only_what_it_uses(memory: Path) -> None:
    # A command loads its own module and what it runs: lookup, with --sessions too, no
    # other command's module, nothing that writes, reviews, lints or serves.
    found = _imported("lookup", "webhook retries", "--sessions", "--root", str(memory))
    assert {"mdmem.cli.read", "mdmem.reading.search", "mdmem.safety.secrets"} <= found
    cli = {name for name in found if name.startswith("mdmem.cli.")}
    assert cli == {"mdmem.cli.main", "mdmem.cli.options", "mdmem.cli.read"}
    packages = {name.split(".")[1] for name in found if "." in name}
    assert packages == {"cli", "errors", "format", "git", "reading", "safety", "store"}
    assert not found & {"mdmem.reading.context", "mdmem.reading.history", "mdmem.reading.status"}
    # Nor what only the other reading commands, the write path or git's commands need.
    assert not found & (WRITES | {"mdmem.format.policy", "mdmem.format.vision"})
    for command in (["lookup", "webhook"], ["context", "webhook"], ["status"]):
        imported = _imported(*command, "--root", str(memory))
        assert "mdmem.reading.sources" in imported and not imported & WRITES, command
    # context and status search nothing: no index, and status no ranking either.
    for command in (["context", "webhook"], ["status"]):
        imported = _imported(*command, "--root", str(memory))
        assert not imported & {"mdmem.reading.search", "mdmem.reading.index"}, command
    assert "mdmem.reading.ranking" not in _imported("status", "--root", str(memory))
    # Through a kept index, lookup parses nothing and imports no hashlib.
    cache = memory.parent / "cache"
    assert "mdmem.format.document" in _imported(
        "lookup", "webhook", "--root", str(memory), cache=cache
    )
    # (a query with no superseded hit: a successor named asks blocked.md whether it was
    # forgotten since, which its parser reads)
    again = _imported("lookup", "pydantic", "--root", str(memory), cache=cache)
    assert not again & {"mdmem.format.document", "mdmem.format.blocked", "hashlib"}
    assert "mdmem.store.cache" not in _imported("context", "webhook", "--root", str(memory))
    assert _imported("--version") == {
        "mdmem", "mdmem.cli", "mdmem.cli.main", "mdmem.errors", "mdmem.store", "mdmem.store.lock",
        "mdmem.store.journal",
    }  # fmt: skip


def test_a_query_and_a_task_need_no_quotes(memory: Path) -> None:
    runner = CliRunner()
    quoted = runner.invoke(main, ["lookup", "webhook retries", "--root", str(memory)])
    loose = runner.invoke(main, ["lookup", "webhook", "retries", "--root", str(memory)])
    assert loose.exit_code == 0 and loose.stdout == quoted.stdout
    task = runner.invoke(main, ["context", "fix", "webhook", "retries", "--root", str(memory)])
    assert "# Memory context for: fix webhook retries" in task.stdout


def test_nothing_found_says_whether_a_filter_left_facts_out(memory: Path) -> None:
    runner = CliRunner()
    scoped = runner.invoke(
        main, ["lookup", "pydantic", "--path", "docs/a.md", "--root", str(memory)]
    )
    assert scoped.exit_code == 1
    assert "with --path docs/a.md: 1 fact matches without it" in scoped.stderr
    none = runner.invoke(main, ["lookup", "zzzz", "--tier", "core", "--root", str(memory)])
    assert none.exit_code == 1 and "Nothing matches 'zzzz'; try other words" in none.stderr


def test_a_successor_forgotten_since_is_said_so(memory: Path) -> None:
    # webhook-backoff superseded webhook-fixed-interval, then was forgotten (a tombstone).
    blocked = memory / "blocked.md"
    tombstone = "<!-- id: webhook-backoff | blocked: 2026-01-20 | reason: wrong -->"
    fenced = f"\nAn entry looks like this:\n\n```\n- Retries back off\n  {tombstone}\n```\n"
    original = blocked.read_text(encoding="utf-8")
    blocked.write_text(original + fenced, encoding="utf-8")  # an example: nothing forgotten
    assert not search.lookup(memory, "payload retry interval").forgotten
    text = original + f"\n- Retries back off\n  {tombstone}\n"
    blocked.write_text(text, encoding="utf-8")
    found = search.lookup(memory, "payload retry interval")
    assert "webhook-fixed-interval" in [hit.entry.id for hit in found.ranking.superseded]
    assert any("superseded → webhook-backoff (forgotten)" in line for line in found.render())
    assert found.as_dict()["superseded"][0]["successor_forgotten"] is True
    shown = history.render(search.show(memory, "webhook-fixed-interval"))
    assert "  superseded by: webhook-backoff (forgotten)" in shown


def test_a_limit_says_what_it_left_out_on_stderr(memory: Path) -> None:
    runner = CliRunner()
    every = runner.invoke(main, ["lookup", "webhook", "--root", str(memory)])
    cut = runner.invoke(main, ["lookup", "webhook", "--limit", "1", "--root", str(memory)])
    hits = [line for line in every.stdout.split("\n\n")[0].splitlines() if line]
    assert len(hits) > 1 and "more facts match" not in every.stderr
    assert cut.stdout.split("\n\n")[0].splitlines() == hits[:1]  # stdout: hits only
    assert f"({len(hits) - 1} more facts match; raise --limit to see them)" in cut.stderr


def test_show_and_context_commands(memory: Path) -> None:
    shown = CliRunner().invoke(
        main, ["show", "export-csv-tenant", "--as-of", "2026-01-06", "--root", str(memory)]
    )
    assert shown.exit_code == 0
    assert "as of 2026-01-06 (through 2026-01-06-100000): archived" in shown.output
    data = json.loads(
        CliRunner()
        .invoke(main, ["show", "webhook-backoff", "--json", "--root", str(memory)])
        .output
    )
    assert data["supersedes"] == ["webhook-fixed-interval"] and data["helpful"] == 1
    context = CliRunner().invoke(main, ["context", "webhook", "--root", str(memory)])
    assert context.exit_code == 0
    assert context.output.splitlines()[-1] == "Cite only the facts you used: mdmem ref ID [ID...]"
    as_json = json.loads(
        CliRunner()
        .invoke(main, ["context", "--format", "json", "--budget", "100", "--root", str(memory)])
        .output
    )
    assert as_json["dropped"] > 0 and as_json["core"][0]["id"] == "signed-webhooks"
    assert as_json["cite"] == "Cite only the facts you used: mdmem ref ID [ID...]"


# --- the index gives rank's answer ---------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "options"),
    [
        pytest.param("webhook retries", {}, id="plain"),
        pytest.param("auth retry signing", {"limit": 2}, id="limit"),
        pytest.param("webhook", {"tier": "active"}, id="tier"),
        pytest.param("pydantic api", {"path": "docs/a.md"}, id="scoped_away"),
        pytest.param("payloads", {}, id="archive_and_superseded"),
    ],
)
@pytest.mark.parametrize("no_cache", ["", "1"], ids=["index", "no_cache"])
def test_lookup_through_the_index_ranks_as_rank_does(
    memory: Path,
    query: str,
    options: dict[str, Any],
    no_cache: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MDMEM_NO_CACHE", no_cache)  # "1": scored as read, no index
    documents = [
        parse_document(read(path, sources.display(memory, path)), unique_ids=False)
        for path in search.documents(memory)
    ]
    facts = [entry for document in documents for entry in entries_of(document)]
    expected = rank(facts, make_query(query), **options)
    for _ in range(2):  # cold, then from the cache
        found = search.lookup(
            memory, query, tier=options.get("tier"), path=options.get("path"),
            limit=options.get("limit"),
        ).ranking  # fmt: skip
        assert found == expected


def test_a_review_leaves_lookups_kept_index_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = Path(shutil.copytree(DEMO, tmp_path / "memory"))
    runner = CliRunner()

    def review() -> list[str]:
        done = runner.invoke(main, ["review", "--no-commit", "--json", "--root", str(memory)])
        assert done.exit_code == 0, done.output
        return list(json.loads(done.output)["written"])

    assert "continuity.md" in review()
    assert cache.location(memory, search.ENTRIES_CACHE) is not None
    assert not cache.load(memory, search.ENTRIES_CACHE)  # never looked up: none made
    first = search.lookup(memory, "retry")
    fact_id = first.ranking.hits[0].entry.id
    (memory / "sessions" / "2026-12-01-100000.md").write_text(
        f"# Later\n\n## Memory References\n- Referenced: {fact_id}\n", encoding="utf-8"
    )
    assert "continuity.md" in review()
    read_again: list[str] = []
    real = search.reindex

    def counted(file: TextFile, *old: Any) -> Any:
        read_again.append(file.path)
        return real(file, *old)

    monkeypatch.setattr(search, "reindex", counted)
    assert search.lookup(memory, "retry").ranking.hits  # the index as kept: nothing read
    assert read_again == []


# --- status --------------------------------------------------------------------------------
# --- status --------------------------------------------------------------------------------


def test_status_counts_lint_only_while_nothing_changed(memory: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(main, ["status", "--root", str(memory)])
    assert first.exit_code == 0, first.output
    assert first.output.splitlines()[:3] == [
        "session: memory/sessions/2026-01-10-100000.md (the one uncommitted log)",
        "last review: through 2026-01-08-100000; 2 session logs since (review_every: 3): "
        "no review due",
        "lint: not run since the memory changed; run `mdmem lint` (or status --lint)",
    ]
    assert "memory/continuity.md:33  webhook-queue-thread  Decide whether" in first.output
    runner.invoke(main, ["lint", "--root", str(memory)])
    data = json.loads(runner.invoke(main, ["status", "--json", "--root", str(memory)]).output)
    assert data["lint"] == {
        "current": True,
        "errors": 1,
        "warnings": 0,
        "committed_log_warnings": 0,
    }
    assert data["review_due"] is False and data["since_review"] == 2
    assert [thread["id"] for thread in data["open_threads"]] == ["webhook-queue-thread"]
    current = memory / "sessions" / "2026-01-10-100000.md"  # a newest log, edited in place
    current.write_text(current.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    data = json.loads(runner.invoke(main, ["status", "--json", "--root", str(memory)]).output)
    assert data["lint"]["current"] is False  # with an archive folder beside it too
    runner.invoke(main, ["lint", "--root", str(memory)])
    (memory / "sessions" / "2026-01-11-100000.md").write_text("# New\n", encoding="utf-8")
    data = json.loads(runner.invoke(main, ["status", "--json", "--root", str(memory)]).output)
    assert data["lint"]["current"] is False
    assert data["review_due"] is True and data["since_review"] == 3
    assert (data["session"], data["log"]) == (
        "2026-01-11-100000",
        "memory/sessions/2026-01-11-100000.md",
    )
    now = json.loads(
        runner.invoke(main, ["status", "--lint", "--json", "--root", str(memory)]).output
    )
    assert now["lint"]["current"] is True and now["lint"]["errors"] == 1


def test_status_without_a_session_and_with_a_named_one(tmp_path: Path) -> None:
    memory = write_memory(tmp_path, logs=[])
    result = CliRunner().invoke(main, ["status", "--root", str(memory)])
    assert result.exit_code == 0
    assert result.output.startswith("session: (none: run `mdmem session start`)")
    assert "0 session logs since" in result.output
    named = CliRunner().invoke(main, ["status", "--session", "nope", "--root", str(memory)])
    assert named.exit_code == 3


def test_a_session_is_named_by_its_time_without_its_slug(tmp_path: Path) -> None:
    memory = write_memory(tmp_path, logs=[])
    for slug in ("api", "web"):
        (memory / "sessions" / f"2026-02-01-100000-{slug}.md").write_text("# S\n")
    (memory / "sessions" / "2026-02-02-090000-docs.md").write_text("# S\n")

    def status(*named: str) -> Any:
        return CliRunner().invoke(main, ["status", "--json", *named, "--root", str(memory)])

    one = status("--session", "2026-02-02-090000")
    assert one.exit_code == 0, one.output
    shown = json.loads(one.output)
    assert (shown["session"], shown["log"]) == (
        "2026-02-02-090000-docs",
        "memory/sessions/2026-02-02-090000-docs.md",
    )
    two = status("--session", "2026-02-01-100000")
    assert two.exit_code == 3
    assert "names 2 session logs: 2026-02-01-100000-api, 2026-02-01-100000-web" in two.output
    day = status("--session", "2026-02-02")  # a day is no log's time: it names none
    assert day.exit_code == 3 and "no such session log" in day.output


def test_context_serves_the_vision_as_core_and_counts_votes_since_the_review(
    memory: Path,
) -> None:
    (memory / "vision.md").write_text(
        "# Vision\n\n## North Star\n\n> Every webhook reaches its tenant exactly once.\n"
        "> <!-- id: vision-exactly-once | created: 2025-11-01 -->\n",
        encoding="utf-8",
    )
    for day in ("11", "12", "13"):  # three votes after the last review, one per log
        log = memory / "sessions" / f"2026-01-{day}-100000.md"
        log.write_text("# S\n\n## Memory References\n- Harmful: export-csv-tenant\n")
    shown = sources.context(memory, None)
    core = [item.entry.id for item in shown.items if item.section == "core"]
    assert core == ["signed-webhooks", "vision-exactly-once"]
    assert "export-csv-tenant" not in shown.ids  # 0 helpful, 4 harmful since: deprecated
    assert [entry.id for entry, _, _ in shown.warnings] == [
        "redis-payload-cache",
        "export-csv-tenant",
    ]


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("no-such-fact-anywhere", "no fact 'no-such-fact-anywhere' in continuity or the archive"),
        ("webhook-backof", "; nearest known: webhook-backoff"),
        ("deploy-token-in-repo", "'deploy-token-in-repo' was forgotten on 2025-12-15 (a secret in "
                                 "git); its text is kept at memory/blocked.md:"),
    ],
)  # fmt: skip
def test_show_of_an_unknown_id_names_the_nearest(memory: Path, asked: str, said: str) -> None:
    with pytest.raises(MdmemError) as caught:
        search.show(memory, asked)
    assert said in str(caught.value)
    assert ("nearest known" in str(caught.value)) is ("nearest" in said)


@pytest.mark.parametrize(
    ("counts", "line"),
    [
        pytest.param((1, 0, 0), "lint: 1 error, 0 warnings", id="no-committed"),
        pytest.param((2, 1, 0), "lint: 2 errors, 1 warning", id="one-warning"),
        pytest.param(
            (0, 2, 1),
            "lint: 0 errors, 2 warnings; 1 warning about committed session logs",
            id="committed-apart",
        ),
    ],
)
def test_status_counts_read_as_words(counts: tuple[int, int, int], line: str) -> None:
    from mdmem.linting.tally import Tally
    from mdmem.reading.status import Status, render

    shown = render(Status("memory/sessions/x.md", "newest", None, 0, 10, (), Tally(*counts)))
    assert line in shown


def test_show_of_an_unknown_id_names_the_nearest_whatever_blocked_md_holds(memory: Path) -> None:
    (memory / "blocked.md").write_text("# Blocked\n\n- a rule\n  <!-- id: Not Kebab -->\n", "utf-8")
    with pytest.raises(MdmemError, match="nearest known: webhook-backoff"):
        search.show(memory, "webhook-backof")


_WORD_PIECES = st.sampled_from(
    [
        "retry", "retries", "Retried", "don't", "can\u2019t", "not", "never", "no", "must",
        "make sure", "note that", "in order to", "the", "unit-tests", "no-verify", "a-b",
        "x", "ran", "RUNS", "É", "ß", "_", "-", "--", "'", ",", ";", ".", ". ", " and ",
        " but ", "(", ")", "!", "\u2014", "\n", " ", "  ", "tests", "1", "v2",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.one_of(_WORD_PIECES, st.text(max_size=6)), max_size=14))
def test_word_counts_counts_the_words_of_normalised_tokens(pieces: list[str]) -> None:
    """lookup ranks by `word_counts` and compares by `normalised_tokens`: on any text both
    hold the same words."""
    text = " ".join(pieces)
    counts = word_counts(text)
    assert set(counts) == normalised_tokens(text)
    assert all(count >= 1 for count in counts.values())
