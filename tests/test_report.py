"""`mdmem stats`, `mdmem trend` and `mdmem report`: golden cases for maturity, inversion,
the three trend verdicts, and the page's markdown and escaping."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.report.build import stats, write_report
from mdmem.report.trend import trend_of
from mdmem.reviewing.maturity import maturity
from mdmem.reviewing.rows import ReviewRow, read_rows
from tests.reportmemory import fact, lay_out, reviews_text

# (helpful, harmful) -> maturity, at each boundary of SPEC §7.
MATURITY = [
    pytest.param(2, 0, "candidate", id="two_events_candidate"),
    pytest.param(3, 0, "established", id="three_events_established"),
    pytest.param(1, 1, "candidate", id="two_mixed_events_candidate"),
    pytest.param(2, 1, "deprecated", id="three_events_one_harmful_deprecated"),
    pytest.param(7, 3, "established", id="harmful_exactly_30_percent"),
    pytest.param(6, 3, "deprecated", id="harmful_over_30_percent"),
    pytest.param(10, 0, "proven", id="ten_helpful_none_harmful"),
    pytest.param(9, 0, "established", id="nine_helpful_not_proven"),
    pytest.param(10, 1, "proven", id="harmful_under_10_percent"),
    pytest.param(9, 1, "established", id="harmful_exactly_10_percent_nine_helpful"),
    pytest.param(18, 2, "established", id="harmful_exactly_10_percent"),
]


@pytest.mark.parametrize(("helpful", "harmful", "expected"), MATURITY)
def test_maturity_boundaries(helpful: int, harmful: int, expected: str) -> None:
    assert maturity(helpful, harmful) == expected


def _voted_memory(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """One fact per maturity case, voted on by the session logs; and id -> expected."""
    facts, votes, expected = "", {}, {}
    for number, case in enumerate(MATURITY):
        helpful, harmful, label = case.values
        fact_id = f"voted-fact-{number}"
        facts += fact(f"Rule number {number}", fact_id)
        votes[fact_id] = (int(helpful), int(harmful))  # type: ignore[call-overload]
        expected[fact_id] = str(label)
    facts += fact("Nobody voted on this one", "unvoted-fact")
    return lay_out(tmp_path, facts, votes), expected


def test_stats_count_each_maturity_as_the_review_decides(tmp_path: Path) -> None:
    root, expected = _voted_memory(tmp_path)
    found = stats(root)
    counts = dict(found.maturity)
    for label in ("candidate", "established", "proven", "deprecated"):
        assert counts[label] == list(expected.values()).count(label), label
    assert counts["no feedback"] == 1
    assert list(found.deprecated) == sorted(i for i, m in expected.items() if m == "deprecated")


def test_report_shows_each_fact_maturity_and_votes(tmp_path: Path) -> None:
    root, expected = _voted_memory(tmp_path)
    out = tmp_path / "report.html"
    write_report(root, out)
    page = out.read_text("utf-8")
    for number, case in enumerate(MATURITY):
        helpful, harmful, label = case.values
        item = re.search(rf'<li [^>]*id="f-voted-fact-{number}".*?</li>', page, re.DOTALL)
        assert item is not None
        assert f"{label} (helpful {helpful}, harmful {harmful})" in item[0]
        assert expected[f"voted-fact-{number}"] == label


# (helpful, harmful, type) -> whether the review proposes "Invert to anti-pattern".
INVERSIONS = [
    pytest.param(0, 3, "rule", True, id="three_harmful_none_helpful"),
    pytest.param(1, 3, "rule", True, id="harmful_over_twice_helpful"),
    pytest.param(2, 4, "rule", False, id="harmful_exactly_twice_helpful"),
    pytest.param(0, 2, "rule", False, id="two_harmful_too_few"),
    pytest.param(0, 5, "anti-pattern", False, id="already_an_anti_pattern"),
]


def _inversion_memory(tmp_path: Path) -> Path:
    facts, votes = "", {}
    for number, case in enumerate(INVERSIONS):
        helpful, harmful, kind, _ = case.values
        facts += fact(f"Rule {number}", f"inverted-rule-{number}", type=str(kind))
        votes[f"inverted-rule-{number}"] = (int(helpful), int(harmful))  # type: ignore[call-overload]
    return lay_out(tmp_path, facts, votes, git=True)


def test_inversion_proposals_before_and_after_the_review(tmp_path: Path) -> None:
    root = _inversion_memory(tmp_path)
    proposed = [f"inverted-rule-{n}" for n, case in enumerate(INVERSIONS) if case.values[3]]
    before = stats(root)
    assert [(i.fact_id, i.pending) for i in before.inversions] == [(i, True) for i in proposed]
    assert before.inversions[0].harmful == 3
    result = CliRunner().invoke(main, ["review", "--root", str(root)])
    assert result.exit_code == 0, result.output
    after = stats(root)
    assert [(i.fact_id, i.pending) for i in after.inversions] == [(i, False) for i in proposed]
    out = tmp_path / "report.html"
    write_report(root, out)
    page = out.read_text("utf-8")
    threads = page[page.index('id="threads"') : page.index('id="findings"')]
    assert all(f"Invert to anti-pattern: {fact_id}?" in threads for fact_id in proposed)
    pitfalls = page[page.index('id="pitfalls"') : page.index('id="threads"')]
    assert 'id="f-inverted-rule-4"' in pitfalls  # the anti-pattern, apart from the rules


def test_stats_closest_to_archival_and_most_used(tmp_path: Path) -> None:
    facts = fact("Stale rule", "stale-rule") + fact("Fresh rule", "fresh-rule")
    root = lay_out(tmp_path, facts, {"stale-rule": (1, 0), "fresh-rule": (0, 0)})
    found = stats(root)
    # stale-rule was named by the first of 20 logs: 19 sessions since, margin 20 - 19 = 1.
    # fresh-rule was never named: counted from its created date, 2026-03-01, the first log.
    margins = {m.fact_id: (m.sessions_since_last_used, m.margin) for m in found.closest_to_archival}
    assert margins == {"stale-rule": (19, 1), "fresh-rule": (19, 1)}
    assert found.most_used == ()
    assert found.cadences[0].since == 20 and found.cadences[0].due  # never reviewed


# -- trend -----------------------------------------------------------------------------------

TRENDS = [
    pytest.param([(1, 5, 2, 4), (1, 8, 2, 1)], "IMPROVING", id="improving"),
    pytest.param([(1, 8, 2, 1), (1, 6, 2, 3), (1, 4, 2, 6)], "DECLINING", id="declining"),
    pytest.param([(1, 8, 2, 1), (1, 8, 3, 1)], "STABLE", id="stable"),
    # balance 0/20 -> 1/20: exactly 5 points is a trend.
    pytest.param([(0, 10, 0, 10), (0, 10, 1, 9)], "IMPROVING", id="exactly_five_points"),
    # only the last 5 rows count: an old collapse before them is forgotten.
    pytest.param(
        [(0, 0, 0, 9), *[(1, 8, 2, 1)] * 5], "STABLE", id="only_the_last_five_reviews_count"
    ),
    pytest.param([(1, 8, 2, 1)], None, id="one_review_no_verdict"),
    pytest.param([], None, id="no_review_no_verdict"),
]


@pytest.mark.parametrize(("rows", "verdict"), TRENDS)
def test_trend_on_recorded_rows(tmp_path: Path, rows: list[tuple[int, ...]], verdict: str) -> None:
    root = lay_out(tmp_path, fact("A rule", "some-rule"), reviews=reviews_text(*rows))  # type: ignore[arg-type]
    result = CliRunner().invoke(main, ["trend", "--json", "--root", str(root)])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["verdict"] == verdict
    assert payload["reviews"] == len(rows)
    text = CliRunner().invoke(main, ["trend", "--root", str(root)]).output
    assert text.startswith(verdict) if verdict else "a trend needs at least two" in text


def test_trend_rows_in_ledger_order_duplicates_once(tmp_path: Path) -> None:
    text = reviews_text((1, 5, 2, 4), (1, 8, 2, 1))
    lines = text.splitlines(keepends=True)
    swapped = "".join([*lines[:-2], lines[-1], lines[-2], lines[-1]])
    root = lay_out(tmp_path, fact("A rule", "some-rule"), reviews=swapped)
    from mdmem.store.load import read_optional

    rows = read_rows(read_optional(root, "reviews.md"))
    assert [row.through for row in rows] == ["2026-03-01-090000", "2026-03-02-090000"]
    assert trend_of(rows).verdict == "IMPROVING"


def test_a_bad_review_row_names_its_line(tmp_path: Path) -> None:
    text = reviews_text((1, 5, 2, 4)).replace("| 5 |", "| five |")
    root = lay_out(tmp_path, fact("A rule", "some-rule"), reviews=text)
    result = CliRunner().invoke(main, ["trend", "--root", str(root)])
    assert result.exit_code == 3
    assert "memory/reviews.md:5: a review row has 12 cells" in result.stderr


def test_trend_needs_no_division() -> None:
    row = ReviewRow("2026-03-01", "2026-03-01-090000", 1, (0, 0, 0, 0, 3, 1), 0, 0, 0)
    assert trend_of([row, row]).verdict == "STABLE"  # nothing live: balance 0, no error


# -- the page --------------------------------------------------------------------------------

MARKDOWN_FACT = (
    "Run `make test` before a push; see [the CI guide](https://example.com/ci) and\n"
    "*never* skip **lint**:\n"
    "\n"
    "```sh\n"
    "make lint\n"
    "```"
)
HOSTILE_FACT = (
    "Hostile <script>document.title='PWNED'</script> text with "
    "<img src=x onerror=\"document.title='PWNED'\"> and "
    "[a link](javascript:document.title='PWNED') and ![pixel](https://example.com/p.png)"
)


def hostile_memory(tmp_path: Path) -> Path:
    facts = fact(MARKDOWN_FACT, "markdown-rich-fact") + fact(HOSTILE_FACT, "hostile-html-fact")
    facts += fact("Never mock the database", "never-mock-database", type="anti-pattern")
    return lay_out(tmp_path, facts, reviews=reviews_text((0, 3, 0, 0), (0, 2, 0, 1)))


def test_report_renders_markdown_and_escapes_html(tmp_path: Path) -> None:
    root = hostile_memory(tmp_path)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", "--root", str(root), "--html", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text("utf-8")
    rich = re.search(r'<li [^>]*id="f-markdown-rich-fact".*?</li>', page, re.DOTALL)
    assert rich is not None
    assert "<code>make test</code>" in rich[0]
    assert '<a rel="noopener noreferrer" href="https://example.com/ci">the CI guide</a>' in rich[0]
    assert "<em>never</em>" in rich[0] and "<strong>lint</strong>" in rich[0]
    assert '<pre><code class="language-sh">make lint\n</code></pre>' in rich[0]
    hostile = re.search(r'<li [^>]*id="f-hostile-html-fact".*?</li>', page, re.DOTALL)
    assert hostile is not None
    assert "&lt;script&gt;" in hostile[0] and "&lt;img src=x" in hostile[0]
    assert "<script" not in page and "<img" not in page and "javascript:" not in page
    assert "https://example.com/p.png" in hostile[0]  # an image is a link, never loaded
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert "<svg" in page and "DECLINING" in page


def test_report_is_deterministic_and_json(tmp_path: Path) -> None:
    root = hostile_memory(tmp_path)
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    result = CliRunner().invoke(
        main, ["report", "--json", "--root", str(root), "--html", str(first)]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["facts"] == 3
    write_report(root, second)
    assert first.read_bytes() == second.read_bytes()


def test_stats_json_and_text(tmp_path: Path) -> None:
    root, _ = _voted_memory(tmp_path)
    result = CliRunner().invoke(main, ["stats", "--json", "--root", str(root)])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["sessions"] == 20
    # Only the fact voted on up to the last session (18 + 2 votes) is still active.
    assert payload["tiers"]["active"] == 1 and payload["tiers"]["archive-candidate"] == 11
    assert payload["cadences"]["review"] == {"since": 20, "every": 10, "due": True}
    text = CliRunner().invoke(main, ["stats", "--root", str(root)]).output
    assert text.startswith("20 sessions through 2026-03-20-090000.")


def test_stats_says_one_fact_and_one_session(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (root / "sessions").mkdir(parents=True)
    (root / "continuity.md").write_text(
        "# Continuity\n\n## Notes\n\n- Deploys go through the canary first\n"
        "  <!-- id: deploys-canary-first | created: 2026-06-01 | uses: 1 | tier: working -->\n",
        "utf-8",
    )
    (root / "sessions" / "2026-06-01-090000.md").write_text(
        "# Start\n\n## Memory References\n- Created: deploys-canary-first\n", "utf-8"
    )
    text = CliRunner().invoke(main, ["stats", "--root", str(root)]).output
    assert text.startswith("1 session through 2026-06-01-090000.\n"), text
    assert "  Notes: 1 fact, 4 lines\n" in text, text
