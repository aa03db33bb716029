"""The continuity merge driver: table-driven cases on the pure merge, the line fallback, the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mdmem.cli import main
from mdmem.format.document import parse_document
from mdmem.format.textfile import TextFile, split_lines
from mdmem.merging.continuity import merge_continuity, merge_lines

HEAD = "# Continuity\n\nLong-term memory of paygate.\n\n## Project State\n\n"


def fact(fact_id: str, text: str = "", **fields: str | int) -> str:
    values = {"created": "2026-09-01", "last_used": "2026-10-01", "uses": 3, "tier": "active"}
    values.update({key.replace("_by", "-by"): value for key, value in fields.items()})
    footer = " | ".join([f"id: {fact_id}", *(f"{k}: {v}" for k, v in values.items())])
    return f"- {text or fact_id.replace('-', ' ').capitalize()}.\n  <!-- {footer} -->\n"


def memory(*facts: str, review: str = "2026-10-01 | through 2026-10-01-090000") -> str:
    state = f"- **goal:** ship refunds\n- **last_review:** {review}\n"
    return HEAD + state + "\n## Key Decisions\n\n" + "".join(facts) + "\n## Open Threads\n"


A = fact("alpha-rule")
B = fact("beta-rule")
C = fact("gamma-rule")


CASES = [
    pytest.param(
        memory(A),
        memory(A, fact("ours-new-rule", tier="working", uses=1)),
        memory(A, fact("theirs-new-rule", tier="working", uses=1)),
        memory(
            A,
            fact("ours-new-rule", tier="working", uses=1),
            fact("theirs-new-rule", tier="working", uses=1),
        ),
        id="both_add_ours_then_theirs",
    ),
    pytest.param(
        memory(A, B, C),
        memory(A, C),
        memory(A, B, C),
        memory(A, C),
        id="one_deletes_other_unchanged",
    ),
    pytest.param(
        memory(A, B, C),
        memory(A, C),
        memory(A, fact("beta-rule", uses=5, last_used="2026-10-09", tier="archive-candidate"), C),
        memory(A, fact("beta-rule", uses=5, last_used="2026-10-09", tier="archive-candidate"), C),
        id="one_deletes_other_refreshed_kept_for_the_review_to_place",
    ),
    pytest.param(
        memory(A, B, C),
        memory(A, C),
        memory(A, fact("beta-rule", "Beta, reworded on the other branch"), C),
        memory(A, fact("beta-rule", "Beta, reworded on the other branch"), C),
        id="one_deletes_other_rewrote_text_kept",
    ),
    pytest.param(
        memory(A, B),
        memory(A),
        memory(B),
        memory().replace("\n\n\n", "\n\n"),  # and no double blank line is left at the seam
        id="each_deletes_a_neighbour",
    ),
    pytest.param(
        memory(A),
        memory(fact("alpha-rule", uses=4, last_used="2026-10-05", tier="archive-candidate")),
        memory(fact("alpha-rule", uses=5, last_used="2026-10-04", tier="working")),
        memory(fact("alpha-rule", uses=5, last_used="2026-10-05", tier="working")),
        id="both_change_review_fields_larger_uses_newer_date_higher_tier",
    ),
    pytest.param(
        memory(A),
        memory(fact("alpha-rule", uses=4)),
        memory(fact("alpha-rule", tier="archive-candidate")),
        memory(fact("alpha-rule", uses=4, tier="archive-candidate")),
        id="tier_changed_on_one_side_only_is_taken",
    ),
    pytest.param(
        memory(A),
        memory(fact("alpha-rule", tier="superseded", superseded_by="alpha-two")),
        memory(fact("alpha-rule", uses=6, tier="archive-candidate")),
        memory(fact("alpha-rule", uses=6, tier="superseded", superseded_by="alpha-two")),
        id="superseded_wins_over_live_tier",
    ),
    pytest.param(
        memory(A),
        memory(fact("alpha-rule", uses=7, tier="working")),
        memory(fact("alpha-rule", tier="core")),
        memory(fact("alpha-rule", uses=7, tier="core")),
        id="core_wins_over_decaying_tier",
    ),
    pytest.param(
        memory(A),
        memory(fact("alpha-rule", uses=4, origin="2026-10-03-090000")),
        memory(fact("alpha-rule", "Alpha, sharpened", origin="2026-09-30-090000")),
        memory(fact("alpha-rule", "Alpha, sharpened", uses=4, origin="2026-09-30-090000")),
        id="text_from_the_side_that_rewrote_it_footer_merged",
    ),
    pytest.param(
        memory(A),
        memory(fact("alpha-rule", helpful=12, harmful=0, maturity="proven")),
        memory(fact("alpha-rule", helpful=2, harmful=4, maturity="deprecated")),
        memory(fact("alpha-rule", helpful=12, harmful=4, maturity="established")),
        id="feedback_counts_larger_maturity_recomputed",
    ),
    pytest.param(
        memory(A),
        memory(A, fact("reactivated-rule", uses=2, last_used="2026-10-06")),
        memory(A, fact("reactivated-rule", uses=3, last_used="2026-10-04")),
        memory(A, fact("reactivated-rule", uses=3, last_used="2026-10-06")),
        id="both_add_the_same_fact_once",
    ),
    pytest.param(
        memory(A),
        memory(A, review="2026-10-05 | through 2026-10-05-100000-api"),
        memory(A, review="2026-10-07 | through 2026-10-07-080000-web"),
        memory(A, review="2026-10-07 | through 2026-10-07-080000-web"),
        id="newer_review_stamp_wins",
    ),
    pytest.param(
        memory(A),
        memory(A, B).replace("paygate.", "paygate, the payments API."),
        memory(A, C),
        memory(A, B, C).replace("paygate.", "paygate, the payments API."),
        id="prose_changed_on_one_side_merges_around_facts",
    ),
]


def loose(*facts: str) -> str:
    """A continuity whose Key Decisions list has a blank line between items."""
    return memory("\n".join(facts))


CASES += [
    pytest.param(
        loose(A, B),
        loose(A, B, fact("ours-new-rule")),
        loose(A, B, fact("theirs-new-rule")),
        loose(A, B, fact("ours-new-rule"), fact("theirs-new-rule")),
        id="loose_list_both_add_blank_line_between",
    ),
    pytest.param(
        loose(A, B),
        loose(A),
        loose(A, B, fact("theirs-new-rule")),
        loose(A, fact("theirs-new-rule")),
        id="loose_list_one_archives_the_last_other_appends",
    ),
    pytest.param(
        memory(A, B),
        memory(A),
        memory(A, B, fact("theirs-new-rule")),
        memory(A, fact("theirs-new-rule")),
        id="tight_list_one_archives_the_last_other_appends",
    ),
    pytest.param(
        "",
        memory(A, fact("ours-new-rule")),
        memory(B, fact("alpha-rule", uses=9)),
        memory(B, fact("alpha-rule", uses=9), fact("ours-new-rule")),
        id="add_add_both_branches_created_the_file",
    ),
    pytest.param(
        memory(A),
        memory(fact("alpha-rule", uses=5)),
        memory().replace("\n\n\n", "\n\n") + "\n## Reactivated\n\n" + B,
        memory(fact("alpha-rule", uses=5)) + "\n## Reactivated\n\n" + B,
        id="fact_kept_against_a_deletion_returns_to_its_own_section",
    ),
    pytest.param(
        memory(A),
        memory(fact("alpha-rule", supersedes="cache-one-rule", uses=5)),
        memory(fact("alpha-rule", supersedes="cache-two-rule")),
        memory(fact("alpha-rule", supersedes="cache-two-rule", uses=5)),
        id="links_set_differently_by_each_ledger_take_the_larger_id",
    ),
]


@pytest.mark.parametrize(("base", "ours", "theirs", "expected"), CASES)
def test_clean_merge(base: str, ours: str, theirs: str, expected: str) -> None:
    merged = merge_continuity(base, ours, theirs)
    assert merged.conflicts == ()
    assert merged.text == expected


def test_prose_both_sides_edit_is_a_line_merge() -> None:
    base = memory(A)
    ours = base.replace("Long-term memory of paygate.", "Long-term memory of paygate (API).")
    theirs = memory(A, B)
    merged = merge_continuity(base, ours, theirs)
    assert merged.clean
    assert merged.text == memory(A, B).replace("of paygate.", "of paygate (API).")


def test_real_text_conflict_marks_that_fact_only() -> None:
    base = memory(A, B)
    ours = memory(fact("alpha-rule", "Alpha, as ours has it"), B, fact("ours-new-rule"))
    theirs = memory(fact("alpha-rule", "Alpha, as theirs has it", uses=9), B)
    merged = merge_continuity(base, ours, theirs)
    assert merged.conflicts == ("alpha-rule",)
    block = (
        "<<<<<<< ours\n"
        + fact("alpha-rule", "Alpha, as ours has it")
        + "=======\n"
        + fact("alpha-rule", "Alpha, as theirs has it", uses=9)
        + ">>>>>>> theirs\n"
    )
    assert merged.text == memory("__", B, fact("ours-new-rule")).replace("__", block)


def test_creator_field_rewritten_both_ways_is_a_conflict() -> None:
    merged = merge_continuity(
        memory(A),
        memory(fact("alpha-rule", scope="src/api/**")),
        memory(fact("alpha-rule", scope="src/web/**")),
    )
    assert merged.conflicts == ("alpha-rule",)
    assert merged.text.count("<<<<<<< ours\n") == 1


def test_prose_rewritten_both_ways_is_a_line_conflict() -> None:
    base = memory(A)
    ours = base.replace("of paygate.", "of paygate, ours.")
    theirs = base.replace("of paygate.", "of paygate, theirs.")
    merged = merge_continuity(base, ours, theirs)
    assert merged.conflicts == ("line 3",)
    assert "<<<<<<< ours\nLong-term memory of paygate, ours.\n=======\n" in merged.text
    assert merged.text.endswith(memory(A).split("paygate.\n", 1)[1])


def test_crlf_versions_merge_and_keep_ours_endings() -> None:
    base = memory(A).replace("\n", "\r\n")
    ours = memory(A, fact("ours-new-rule")).replace("\n", "\r\n")
    theirs = memory(fact("alpha-rule", uses=8), fact("theirs-new-rule"))  # LF on this side
    merged = merge_continuity(base, ours, theirs)
    assert merged.clean
    expected = memory(fact("alpha-rule", uses=8), fact("ours-new-rule"), fact("theirs-new-rule"))
    assert merged.text == expected.replace("\n", "\r\n")


def test_untouched_bytes_of_ours_are_kept() -> None:
    odd = "- Alpha.\n  <!--id:alpha-rule|created: 2026-09-01 |uses: 3| tier: active | x: y -->\n"
    theirs_odd = odd.replace("uses: 3", "uses: 5")
    merged = merge_continuity(memory(odd), memory(odd, B), memory(theirs_odd))
    assert merged.clean
    assert merged.text == memory(odd.replace("uses: 3", "uses: 5 "), B)


def test_unparseable_version_falls_back_to_a_line_merge() -> None:
    base = memory(A)
    ours = memory(A, B)
    theirs = memory(A.replace("<!-- id: alpha-rule", "<!-- id: Alpha Rule"))
    merged = merge_continuity(base, ours, theirs)
    assert merged.fallback is not None and "Alpha Rule" in merged.fallback
    assert not merged.clean
    assert "Alpha Rule" in merged.text and "beta-rule" in merged.text


def test_line_merge_marks_conflicts_like_git_merge_file() -> None:
    merged = merge_lines("a\nb\nc\n", "a\nB1\nc\n", "a\nB2\nc\n")
    assert merged.text == "a\n<<<<<<< ours\nB1\n=======\nB2\n>>>>>>> theirs\nc\n"
    assert merged.conflicts == ("line 2",)
    assert merge_lines("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n").text == "A\nb\nC\n"


IDS = [f"fact-{n}" for n in range(8)]


@settings(max_examples=60, deadline=None)
@given(
    base_ids=st.lists(st.sampled_from(IDS), max_size=6, unique=True),
    drops=st.tuples(st.sets(st.sampled_from(IDS)), st.sets(st.sampled_from(IDS))),
    uses=st.tuples(
        st.dictionaries(st.sampled_from(IDS), st.integers(3, 9)),
        st.dictionaries(st.sampled_from(IDS), st.integers(3, 9)),
    ),
    new=st.tuples(st.integers(0, 2), st.integers(0, 2)),
)
def test_property_keeps_additions_drops_deletions_takes_larger_uses(
    base_ids: list[str],
    drops: tuple[set[str], set[str]],
    uses: tuple[dict[str, int], dict[str, int]],
    new: tuple[int, int],
) -> None:
    """Whatever each side deletes, adds or recounts, the merge is clean and exact.

    A fact one side deleted stays only when the other side changed it (a recount).
    """
    sides = []
    for name, drop, counts, added in zip(("ours", "theirs"), drops, uses, new, strict=True):
        kept = [i for i in base_ids if i not in drop]
        facts = [fact(i, uses=counts.get(i, 3)) for i in kept]
        facts += [fact(f"{name}-new-{n}", uses=1) for n in range(added)]
        sides.append(memory(*facts))
    merged = merge_continuity(memory(*(fact(i) for i in base_ids)), *sides)
    assert merged.clean
    document = parse_document(TextFile("merged", split_lines(merged.text)))
    found = {f.id: int(f.get("uses") or 0) for f in document.facts}

    def kept_by(side: int, fact_id: str) -> bool:
        return fact_id not in drops[side] and (
            fact_id not in drops[1 - side] or uses[side].get(fact_id, 3) != 3
        )

    survivors = [i for i in base_ids if kept_by(0, i) or kept_by(1, i)]
    expected = {
        i: max(uses[side].get(i, 3) for side in (0, 1) if i not in drops[side]) for i in survivors
    }
    expected.update({f"ours-new-{n}": 1 for n in range(new[0])})
    expected.update({f"theirs-new-{n}": 1 for n in range(new[1])})
    assert found == expected
    assert [f.id for f in document.facts if f.id in expected and f.id in base_ids] == survivors


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def test_cli_clean_merge_writes_ours_and_exits_0(tmp_path: Path) -> None:
    base = write(tmp_path / "base", memory(A))
    ours = write(tmp_path / "ours", memory(A, B))
    theirs = write(tmp_path / "theirs", memory(A, C))
    args = ["merge-driver", str(base), str(ours), str(theirs), "memory/continuity.md"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert ours.read_text("utf-8") == memory(A, B, C)
    assert not list(tmp_path.glob("*.mdmem-tmp"))


def test_cli_conflict_exits_1_and_names_the_fact(tmp_path: Path) -> None:
    base = write(tmp_path / "base", memory(A))
    ours = write(tmp_path / "ours", memory(fact("alpha-rule", "Ours")))
    theirs = write(tmp_path / "theirs", memory(fact("alpha-rule", "Theirs")))
    args = ["merge-driver", str(base), str(ours), str(theirs), "memory/continuity.md"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert "memory/continuity.md: conflicts to resolve: alpha-rule" in result.stderr
    assert ours.read_text("utf-8").count(">>>>>>> theirs") == 1


def test_cli_bytes_that_are_not_utf8_fall_back_without_crashing(tmp_path: Path) -> None:
    base = write(tmp_path / "base", "a\nb\n")
    ours = tmp_path / "ours"
    ours.write_bytes(b"a\nb\xff\n")
    theirs = write(tmp_path / "theirs", "a\nb\nc\n")
    result = CliRunner().invoke(main, ["merge-driver", str(base), str(ours), str(theirs)])
    assert result.exit_code == 1
    assert "not valid UTF-8" in result.stderr
    assert ours.read_bytes() == b"a\n<<<<<<< ours\nb\xff\n=======\nb\nc\n>>>>>>> theirs\n"


def archive(*blocks: str) -> str:
    return "# Archive 2026-Q4\n" + "".join(blocks)


def block(through: str, reason: str, *facts: str) -> str:
    heading = f"## Archived {through[:10]} (review through {through})"
    return f"\n{heading}\n\n### {reason}\n\n" + "".join(facts)


def test_union_archive_same_fact_archived_with_different_footers_is_kept_once() -> None:
    """Git's union merge would give this fact two footers; the driver gives it one."""
    superseded = fact("alpha-rule", tier="superseded", section="Key Decisions")
    faded = fact("alpha-rule", tier="archived", uses=4, section="Key Decisions")
    ours = archive(block("2026-10-10-100000-api", "Superseded", superseded))
    theirs = archive(block("2026-10-11-100000-web", "Faded", faded, B))
    merged = merge_continuity(archive(), ours, theirs, union=True)
    assert merged.conflicts == ()
    one = fact("alpha-rule", tier="superseded", uses=4, section="Key Decisions")
    assert merged.text == archive(
        block("2026-10-10-100000-api", "Superseded", one),
        block("2026-10-11-100000-web", "Faded", B),
    )


def test_union_archive_clashing_texts_keep_both_copies_for_the_review() -> None:
    base = archive(block("2026-10-01-090000", "Faded", A))
    ours = archive(block("2026-10-01-090000", "Faded", fact("alpha-rule", "Alpha, ours")))
    theirs = archive(block("2026-10-01-090000", "Faded", fact("alpha-rule", "Alpha, theirs")))
    merged = merge_continuity(base, ours, theirs, union=True)
    assert merged.conflicts == ()
    both = fact("alpha-rule", "Alpha, ours") + fact("alpha-rule", "Alpha, theirs")
    assert merged.text == archive(block("2026-10-01-090000", "Faded", both))


def test_union_line_merge_keeps_both_sides_unmarked() -> None:
    merged = merge_lines("a\nb\nc\n", "a\nB1\nc\n", "a\nB2\nc\n", union=True)
    assert merged.text == "a\nB1\nB2\nc\n"
    assert merged.clean


def test_a_note_after_a_footer_stays_with_its_fact() -> None:
    """Both sides recounted a fact that carries a note: the merge keeps the note, once."""
    fact = (
        "# Continuity\n\n## Key Decisions\n\n- Seed the cache first\n"
        "  <!-- id: seed-the-cache | uses: {uses} | tier: active -->\n"
        "  <!-- review-note: kept seeded -->\n"
    )
    base, ours, theirs = (fact.format(uses=uses) for uses in (1, 2, 3))
    merged = merge_continuity(base, ours, theirs)
    assert merged.clean
    assert merged.text == fact.format(uses=3)
