"""The review's post-merge repair: one copy per id, decided from the ledger; reviews.md rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdmem.errors import ParseError
from mdmem.format.textfile import split_lines
from mdmem.linting.gate import review
from mdmem.reviewing.rows import header, in_ledger_order
from mdmem.store.load import load

POLICY = "working_window: 2\nactive_window: 3\narchive_window: 5\n"


def fact(fact_id: str, text: str, last_used: str, tier: str, **extra: str) -> str:
    fields = {"id": fact_id, "created": "2026-01-01", "last_used": last_used, "uses": "1"}
    fields.update(tier=tier, **extra)
    footer = " | ".join(f"{key}: {value}" for key, value in fields.items())
    return f"- {text}\n  <!-- {footer} -->\n"


def archive(quarter: str, *facts: str) -> str:
    heading = "## Archived 2026-03-01 (review through 2026-03-01-090000)\n\n### Faded\n\n"
    return f"# Archive {quarter}\n\n{heading}" + "".join(facts)


def build(tmp_path: Path, continuity: list[str], archives: dict[str, str], refs: str) -> Path:
    """A memory whose six session logs reference `refs` in the newest one only."""
    root = tmp_path / "memory"
    (root / "sessions").mkdir(parents=True)
    (root / "archive").mkdir()
    (root / "decay-policy.md").write_text(POLICY)
    body = "".join(continuity)
    (root / "continuity.md").write_text(f"# Continuity\n\n## Key Decisions\n\n{body}\n")
    for name, text in archives.items():
        (root / "archive" / name).write_text(text)
    for day in range(1, 7):
        line = f"- Referenced: {refs}\n" if day == 6 and refs else ""
        log = f"# Session\n\n## Memory References\n{line}"
        (root / "sessions" / f"2026-04-0{day}-090000.md").write_text(log)
    return root


def copies(root: Path) -> dict[str, list[str]]:
    memory = load(root)
    found: dict[str, list[str]] = {}
    for document in (memory.continuity, *memory.archives):
        for item in document.facts:
            found.setdefault(item.id, []).append(document.path.split("/", 1)[1])
    return found


KEEP = fact("keep-rule", "A fact nobody disputes.", "2026-04-06", "active")
OLD = "Cache merchant settings for 60 s."
NEW = "Cache merchant settings for 30 s."


@pytest.mark.parametrize(
    ("continuity", "archives", "refs", "expected"),
    [
        pytest.param(
            [KEEP, fact("cache-rule", OLD, "2026-04-06", "active")],
            {"2026-Q1.md": archive("2026-Q1", fact("cache-rule", OLD, "2026-01-02", "archived"))},
            "keep-rule, cache-rule",
            ["continuity.md"],
            id="live_keeps_continuity_copy",
        ),
        pytest.param(
            [KEEP, fact("cache-rule", OLD, "2026-01-02", "archive-candidate")],
            {"2026-Q1.md": archive("2026-Q1", fact("cache-rule", OLD, "2026-01-02", "archived"))},
            "keep-rule",
            ["archive/2026-Q1.md"],
            id="archived_keeps_archive_copy_drops_continuity",
        ),
        pytest.param(
            [KEEP],
            {
                "2026-Q1.md": archive("2026-Q1", fact("cache-rule", OLD, "2026-01-02", "archived")),
                "2026-Q2.md": archive("2026-Q2", fact("cache-rule", OLD, "2026-01-02", "archived")),
            },
            "keep-rule",
            ["archive/2026-Q1.md"],
            id="archived_twice_keeps_earliest_quarter",
        ),
        pytest.param(
            [KEEP],
            {
                "2026-Q1.md": archive(
                    "2026-Q1",
                    fact("cache-rule", OLD, "2026-01-02", "archived"),
                    fact("cache-rule", OLD, "2026-01-02", "archived", section="Key Decisions"),
                )
            },
            "keep-rule",
            ["archive/2026-Q1.md"],
            id="archived_twice_in_one_file_keeps_first",
        ),
        pytest.param(
            [KEEP],
            {
                "2026-Q1.md": archive("2026-Q1", fact("cache-rule", OLD, "2026-01-02", "archived")),
                "2026-Q2.md": archive("2026-Q2", fact("cache-rule", OLD, "2026-01-02", "archived")),
            },
            "keep-rule, cache-rule",
            ["continuity.md"],
            id="archived_twice_and_used_again_returns_once",
        ),
    ],
)
def test_one_copy_is_kept(
    tmp_path: Path, continuity: list[str], archives: dict[str, str], refs: str, expected: list[str]
) -> None:
    root = build(tmp_path, continuity, archives, refs)
    plan, _ = review(root, commit=False)
    assert plan.summary is not None and plan.summary.merged_duplicates == ("cache-rule",)
    assert copies(root)["cache-rule"] == expected
    text = (root / "continuity.md").read_text()
    assert "Merge duplicate" not in text  # same text everywhere: nothing to fold in
    index = (root / "archive" / "INDEX.md").read_text()
    assert index.count("- cache-rule — ") == (expected[0] != "continuity.md")


def test_two_texts_keep_both_by_opening_a_thread(tmp_path: Path) -> None:
    root = build(
        tmp_path,
        [KEEP, fact("cache-rule", NEW, "2026-04-06", "active")],
        {"2026-Q1.md": archive("2026-Q1", fact("cache-rule", OLD, "2026-01-02", "archived"))},
        "keep-rule, cache-rule",
    )
    review(root, commit=False)
    assert copies(root)["cache-rule"] == ["continuity.md"]
    assert copies(root)["merge-duplicate-cache-rule"] == ["continuity.md"]
    text = (root / "continuity.md").read_text()
    assert f"- {NEW}\n" in text
    assert (
        "## Open Threads\n\n"
        "- [ ] Merge duplicate: cache-rule has two texts; the review kept the one in "
        "continuity.md and quotes the other (archive/2026-Q1.md) here: fold it in by hand\n"
        f"    - {OLD}\n"
        "  <!-- id: merge-duplicate-cache-rule | created: 2026-04-06 | last_used: 2026-04-06 "
        "| uses: 0 | tier: working -->\n"
    ) in text
    assert OLD not in (root / "archive" / "2026-Q1.md").read_text()


def test_repair_is_done_once(tmp_path: Path) -> None:
    root = build(
        tmp_path,
        [KEEP, fact("cache-rule", NEW, "2026-04-06", "active")],
        {"2026-Q1.md": archive("2026-Q1", fact("cache-rule", OLD, "2026-01-02", "archived"))},
        "keep-rule, cache-rule",
    )
    review(root, commit=False)
    plan, _ = review(root, commit=False)
    assert not plan.changed


def test_id_twice_in_continuity_is_still_an_error(tmp_path: Path) -> None:
    twice = fact("cache-rule", OLD, "2026-04-06", "active")
    root = build(tmp_path, [twice, twice], {}, "cache-rule")
    with pytest.raises(ParseError, match="duplicate id 'cache-rule'"):
        load(root)


def row(through: str, active: int = 3) -> str:
    return f"| {through[:10]} | {through} | 6 | 0 | {active} | 0 | 0 | 0 | 0 | 0 | 0 | 0 |\n"


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        pytest.param(
            [row("2026-04-01-090000"), row("2026-04-06-090000")],
            [row("2026-04-01-090000"), row("2026-04-06-090000")],
            id="in_order_unchanged",
        ),
        pytest.param(
            [row("2026-04-06-090000-web"), row("2026-04-05-090000-api")],
            [row("2026-04-05-090000-api"), row("2026-04-06-090000-web")],
            id="union_merge_order_sorted_by_through",
        ),
        pytest.param(
            [row("2026-04-01-090000"), row("2026-04-02-090000"), row("2026-04-01-090000")],
            [row("2026-04-01-090000"), row("2026-04-02-090000")],
            id="exact_duplicate_dropped",
        ),
        pytest.param(
            [row("2026-04-02-090000", 4), row("2026-04-01-090000"), row("2026-04-02-090000", 5)],
            [row("2026-04-01-090000"), row("2026-04-02-090000", 4), row("2026-04-02-090000", 5)],
            id="two_branches_same_through_both_kept_in_order",
        ),
        pytest.param(
            [row("2026-04-02-090000"), row("2026-04-02")],
            [row("2026-04-02"), row("2026-04-02-090000")],
            id="date_only_log_sorts_before_its_day",
        ),
    ],
)
def test_review_rows_in_ledger_order(rows: list[str], expected: list[str]) -> None:
    text = header("\n") + "".join(rows) + "\nA note below the table.\n"
    after = in_ledger_order(split_lines(text))
    assert "".join(after) == header("\n") + "".join(expected) + "\nA note below the table.\n"
