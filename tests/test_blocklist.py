"""The blocklist survives paraphrase: normalised words, polarity, and the integer nearness
rule (SPEC §9), pinned by a table of refused rewordings beside accepted neighbours."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdmem.format.blocked import BlockedEntry
from mdmem.format.words import Claim, claim, item_claim, normalised_tokens, stem
from mdmem.linting.run import lint
from mdmem.safety.blocklist import SUPERSEDED_KEPT_PERCENT, crosses, near
from mdmem.store.resources import shipped
from tests.paraphrases import ACCEPTED, REFUSED
from tests.test_lint import fact, write_memory


@pytest.mark.parametrize(("entry", "text", "how"), REFUSED, ids=[row[2] for row in REFUSED])
def test_a_reworded_rule_is_refused(entry: str, text: str, how: str) -> None:
    assert near(claim(text), claim(entry)), how


@pytest.mark.parametrize(("entry", "text", "how"), ACCEPTED, ids=[row[2] for row in ACCEPTED])
def test_a_rule_that_says_something_else_is_accepted(entry: str, text: str, how: str) -> None:
    assert not near(claim(text), claim(entry)), how


def test_lint_reports_the_refused_rewordings_and_only_them(tmp_path: Path) -> None:
    entries = sorted({row[0] for row in REFUSED + ACCEPTED})
    blocked = "# Blocked\n\n## Blocked\n\n" + "".join(
        f"- {entry}\n  <!-- id: rule-{n} | blocked: 2026-02-01 | reason: forgotten -->\n"
        for n, entry in enumerate(entries)
    )
    rows = REFUSED + ACCEPTED
    facts = "".join(fact(text, f"text-{n}") for n, (_, text, _) in enumerate(rows))
    continuity = f"# Continuity\n\n## Conventions\n\n{facts}"
    root = write_memory(
        tmp_path, {"memory/continuity.md": continuity, "memory/blocked.md": blocked}
    )
    found = {f.message.split()[1]: f.message for f in lint(root) if f.code == "E008"}
    expected = {f"text-{n}": f"rule-{entries.index(row[0])}" for n, row in enumerate(REFUSED)}
    assert {fact_id: message.split()[7] for fact_id, message in found.items()} == expected


@pytest.mark.parametrize(
    ("forms", "expected"),
    [
        pytest.param("test tests tested testing", "test", id="regular"),
        pytest.param("commit commits committed committing", "commit", id="doubled"),
        pytest.param("run runs running ran", "run", id="irregular-past"),
        pytest.param("write writes writing wrote written", "writ", id="irregular-participle"),
        pytest.param("generate generates generated generating", "generat", id="silent-e"),
        pytest.param("retry retries retried retrying", "retry", id="y"),
        pytest.param("push pushes pushed pushing", "push", id="es"),
        pytest.param("class classes", "class", id="ss"),
        pytest.param("status statuses", "status", id="us"),
        pytest.param("redis", "redis", id="is"),
        pytest.param("need needs needed needing", "need", id="eed"),
        pytest.param("install installs installed installing", "install", id="ll"),
        pytest.param("dependency dependencies", "dependency", id="ies"),
        pytest.param("setting settings", "set", id="plural-gerund"),
        pytest.param("api", "api", id="short"),
    ],
)
def test_stem_removes_plurals_and_tenses(forms: str, expected: str) -> None:
    assert {stem(form) for form in forms.split()} == {expected}


@pytest.mark.parametrize(
    ("text", "words", "negative"),
    [
        pytest.param("Use **POST**, not `PUT`!", {"post", "!put"}, False, id="markdown-contrast"),
        pytest.param("Prefer ruff (never black)", {"prefer", "ruf", "!black"}, False, id="paren"),
        pytest.param("Don't mock it", {"mock"}, True, id="dont"),
        pytest.param("We can\u2019t mock it", {"mock"}, True, id="curly-cant"),
        pytest.param("Won't deploy Fridays", {"deploy", "friday"}, True, id="wont"),
        pytest.param("Never touch the team's config", {"touch", "team", "config"}, True, id="s"),
        pytest.param("Name the branch 'main'", {"nam", "branch", "main"}, False, id="quotes"),
        pytest.param("Push with --no-verify", {"push", "no", "verify"}, False, id="flag"),
        pytest.param("Make sure to run unit-tests", {"run", "unit", "test"}, False, id="filler"),
        pytest.param("Avoid retries, they hide bugs", {"retry", "hid", "bug"}, True, id="avoid"),
        pytest.param("Keep 3 replicas in eu-west-1", {"keep", "3", "replica", "eu", "west", "1"},
                     False, id="numbers"),
        pytest.param("the of and", set(), False, id="only-filler"),
        pytest.param("Store cents and never a float", {"stor", "cent", "!float"}, False,
                     id="and-never-is-a-contrast"),
        pytest.param("Use ruff but not black", {"ruf", "!black"}, False, id="but-not"),
        pytest.param("Tag releases and deploy", {"tag", "releas", "deploy"}, False,
                     id="and-without-a-negator"),
        pytest.param("Don't commit secrets, never push to main",
                     {"commit", "secret", "push", "main"}, True, id="two-prohibitions"),
        pytest.param("Never commit secrets and never push to main",
                     {"commit", "secret", "push", "main"}, True, id="two-prohibitions-and"),
    ],
)  # fmt: skip
def test_claim_reads_content_words_and_polarity(text: str, words: set[str], negative: bool) -> None:
    assert claim(text) == Claim(frozenset(words), negative)


def test_normalised_tokens_are_the_unmarked_content_words() -> None:
    assert normalised_tokens("Use POST, not PUT") == {"post", "put"}
    assert normalised_tokens("Tests RAN") == normalised_tokens("the test runs")


def test_an_item_is_read_without_its_marker_checkbox_or_nested_notes() -> None:
    lines = ("- [x] Mock the database\n", "  in unit tests\n", "  - never in CI\n")
    assert item_claim(lines) == claim("Mock the database in unit tests")


def words(count: int, prefix: str = "w") -> frozenset[str]:
    return frozenset(f"{prefix}{index}" for index in range(count))


@pytest.mark.parametrize(
    ("text", "entry", "result"),
    [
        pytest.param(words(3) | words(5, "x"), words(3), True, id="contained-3-words"),
        pytest.param(words(2) | words(1, "x"), words(2), False, id="contained-2-words"),
        pytest.param(words(2), words(2), True, id="same-2-words"),
        pytest.param(words(4), words(5), True, id="shortened-80-percent"),
        pytest.param(words(3), words(4), False, id="shortened-75-percent"),
        pytest.param(words(18) | {"t"}, words(18) | {"e"}, True, id="overlap-90-percent"),
        pytest.param(words(17) | {"t"}, words(17) | {"e"}, False, id="overlap-89-percent"),
        pytest.param(frozenset(), frozenset(), False, id="both-empty"),
    ],
)
def test_near_is_integer(text: frozenset[str], entry: frozenset[str], result: bool) -> None:
    assert near(Claim(text, False), Claim(entry, False)) is result
    assert near(Claim(text, True), Claim(entry, True)) is result
    assert near(Claim(text, True), Claim(entry, False)) is False


@pytest.mark.parametrize(
    ("text", "other", "result"),
    [
        pytest.param(words(3), words(6), True, id="half-kept-3-words"),
        pytest.param(words(3), words(7), False, id="less-than-half-kept"),
        pytest.param(words(2), words(4), False, id="half-kept-2-words"),
        pytest.param(words(2), words(2), True, id="same-2-words"),
    ],
)
def test_a_superseded_text_is_near_with_half_its_words(
    text: frozenset[str], other: frozenset[str], result: bool
) -> None:
    kept = SUPERSEDED_KEPT_PERCENT
    assert near(Claim(text, False), Claim(other, False), kept=kept) is result


@pytest.mark.parametrize(
    ("text", "other", "result"),
    [
        pytest.param("Use black", "Use ruff, not black", True, id="only-the-excluded-word"),
        pytest.param("Never use black for formatting", "Use ruff for formatting, not black",
                     True, id="a-prohibition-of-it"),
        pytest.param("Never use black for the docs site", "Use ruff for formatting, not black",
                     False, id="about-something-else"),
        pytest.param("Never use ruff for formatting", "Use ruff for formatting, not black",
                     False, id="no-excluded-word"),
        pytest.param("Payment tests pass amounts as float dollars in 1999", "Payment tests pass "
                     "amounts as integer cents, never float dollars", True, id="and-a-detail"),
    ],
)  # fmt: skip
def test_crossing_a_contrast(text: str, other: str, result: bool) -> None:
    assert crosses(claim(text), claim(other)) is result


def entry(index: int, text: str) -> BlockedEntry:
    return BlockedEntry(f"rule-{index}", "2026-02-01", "forgotten", (f"- {text}\n",), "b.md", 1)


def test_the_table_in_decay_md_holds() -> None:
    """Every row of DECAY.md's table of refused and accepted texts is what the rule does."""
    text = shipped("DECAY.md").read_text(encoding="utf-8")
    table = text[text.index("| blocked entry | refused") :].split("\n\n")[0].splitlines()[2:]
    checked = 0
    entry_claim = Claim(frozenset(), False)
    for row in table:
        blocked, refused, accepted = (cell.strip() for cell in row.strip("|").split("|"))
        entry_claim = claim(blocked) if blocked else entry_claim
        assert near(claim(refused), entry_claim), refused
        assert not near(claim(accepted), entry_claim), accepted
        checked += 1
    assert checked >= 10
