"""Parser and edit units: headings, code fences in every reader, line edits, stamps.

Each table holds the cases a reader of the markdown gets right; the review cases at
the end show what a wrong answer would have written.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mdmem.errors import ParseError
from mdmem.format.document import heading, parse_document
from mdmem.format.edit import Edit, apply_edits
from mdmem.format.footer import looks_like_footer, parse_footer
from mdmem.format.policy import Policy, parse_policy
from mdmem.format.sessionlog import parse_session_name, scan_log, session_of
from mdmem.format.textfile import TextFile, split_lines
from mdmem.linting.gate import review
from mdmem.reviewing.stamps import read_stamps, stamp_edits


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param("## Notes on C#", (2, "Notes on C#"), id="hash_ends_last_word"),
        pytest.param("## Notes on C# ##", (2, "Notes on C#"), id="closing_after_hash_word"),
        pytest.param("## Key Decisions ##", (2, "Key Decisions"), id="closing_sequence"),
        pytest.param("## Key Decisions\t###  ", (2, "Key Decisions"), id="closing_after_tab"),
        pytest.param("## a #b", (2, "a #b"), id="hash_inside_title"),
        pytest.param("### F# and C#", (3, "F# and C#"), id="hash_inside_and_at_end"),
        pytest.param("## ##", (2, ""), id="only_a_closing_sequence"),
        pytest.param("##", (2, ""), id="empty"),
        pytest.param("#\tTabbed", (1, "Tabbed"), id="tab_after_opening"),
        pytest.param("###### Six", (6, "Six"), id="six_hashes"),
        pytest.param("####### Seven", None, id="seven_hashes_is_text"),
        pytest.param("#######", None, id="seven_bare_hashes_is_text"),
        pytest.param("#5 bolts", None, id="no_space_after_opening"),
        pytest.param(" ## Indented", None, id="indented_is_not_read"),
    ],
)
def test_heading(line: str, expected: tuple[int, str] | None) -> None:
    assert heading(line) == expected


def test_section_title_keeps_a_final_hash() -> None:
    text = "# Continuity\n\n## Notes on C#\n\n- Use records\n  <!-- id: use-records -->\n"
    document = parse_document(TextFile("continuity.md", split_lines(text)))
    assert [fact.section for fact in document.facts] == ["Notes on C#"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param("  <!-- id: aa-bb -->", True, id="opens_with_id"),
        pytest.param("<!--id:aa-bb-->", True, id="no_spaces"),
        pytest.param("  <!-- tier: active | id: aa-bb -->", True, id="opens_with_another_key"),
        pytest.param("<!-- superseded-by: aa-bb -->", True, id="hyphenated_key"),
        pytest.param("<!-- note: later -->", False, id="unknown_key_is_a_comment"),
        pytest.param("<!-- TODO -->", False, id="no_key"),
        pytest.param("text <!-- id: aa-bb -->", False, id="text_before_the_comment"),
    ],
)
def test_looks_like_footer(line: str, expected: bool) -> None:
    assert looks_like_footer(line) is expected


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        pytest.param("created: 2024-02-29", None, id="leap_day"),
        pytest.param("created: 2026-02-29", "created '2026-02-29' is not a date", id="no_leap_day"),
        pytest.param("last_used: 2026-13-01", "last_used '2026-13-01' is not a date", id="month"),
        pytest.param("created: ٢٠٢٦-٠١-٠٢", None, id="date_in_other_digits"),
        pytest.param("uses: 012", None, id="leading_zero"),
        pytest.param("uses: ٣", "uses '٣' is not a whole number", id="uses_other_digit"),
        pytest.param("helpful: -1", "helpful '-1' is not a whole number", id="negative"),
        pytest.param("harmful:", "harmful '' is not a whole number", id="empty_count"),
        pytest.param("tier: Core", "unknown tier 'Core' (one of: core, active,", id="tier_case"),
        pytest.param("supersedes:", None, id="supersedes_empty"),
        pytest.param("superseded-by: Old", "superseded-by 'Old' is not an id", id="not_an_id"),
        pytest.param("origin: a:b", None, id="colon_in_a_value"),
        pytest.param("uses: x | tier: hot", "uses 'x' is not a whole number", id="first_rule_wins"),
        pytest.param("tier: hot | created: x", "created 'x' is not a date", id="rule_order"),
    ],
)
def test_footer_values(fields: str, error: str | None) -> None:
    line = f"  <!-- id: aa-bb | {fields} -->"
    if error is None:
        assert parse_footer(line, "continuity.md", 3).render() == line
    else:
        with pytest.raises(ParseError, match=re.escape(error)):
            parse_footer(line, "continuity.md", 3)


@pytest.mark.parametrize(
    ("text", "active_window"),
    [
        pytest.param("active_window: 2\n", 2, id="no_fence"),
        pytest.param("```\nactive_window: 2\n```\n", 8, id="inside_a_fence_is_an_example"),
        pytest.param("```\n~~~\n```\nactive_window: 2\n", 2, id="tildes_inside_backticks"),
        pytest.param("~~~\n```\n~~~\nactive_window: 2\n", 2, id="backticks_inside_tildes"),
        pytest.param("````\n```\nactive_window: 2\n````\n", 8, id="shorter_marker_does_not_close"),
        pytest.param("```\n```toml\nactive_window: 2\n```\n", 8, id="info_string_does_not_close"),
        pytest.param("```\nx\n```\r\nactive_window: 2\r\n", 2, id="crlf_closing_fence"),
        pytest.param("```\nactive_window: 2\n", 8, id="unclosed_fence_runs_to_the_end"),
    ],
)
def test_policy_ignores_fenced_lines(text: str, active_window: int) -> None:
    policy = parse_policy(TextFile("decay-policy.md", split_lines(text)))
    assert policy == Policy(active_window=active_window)


NAME = parse_session_name("2026-03-01-090000.md", "log")


@pytest.mark.parametrize(
    ("text", "references", "heading_line"),
    [
        pytest.param(
            "## Memory References\n- aa-bb\n## Next\n- cc-dd\n", {"aa-bb"}, 1, id="no_fence"
        ),
        pytest.param(
            "```\n## Memory References\n- aa-bb\n```\n",
            set(),
            0,
            id="heading_in_a_fence_is_an_example",
        ),
        pytest.param(
            "```\n## Memory References\n```\n## Memory References\n- aa-bb\n",
            {"aa-bb"},
            4,
            id="heading_after_a_fenced_example",
        ),
        pytest.param(
            "## Memory References\n- aa-bb\n```\n## Next\n```\n- cc-dd\n## Next\n- ee-ff\n",
            {"aa-bb", "cc-dd"},
            1,
            id="heading_in_a_fence_does_not_end_the_section",
        ),
        pytest.param(
            "## Memory References\n~~~\n```\n~~~\n- aa-bb\n## Next\n- cc-dd\n",
            {"aa-bb"},
            1,
            id="backticks_inside_tildes",
        ),
        pytest.param(
            "## Memory References\n- aa-bb\n```\n```text\n## Next\n```\n- cc-dd\n",
            {"aa-bb", "cc-dd"},
            1,
            id="info_string_does_not_close",
        ),
        pytest.param(
            "# Log\r\n```\r\n## Memory References\r\n```\r\n## Memory References\r\n- aa-bb\r\n"
            "```\r\n## Next\r\n```\r\n- cc-dd\r\n## Next\r\n- ee-ff\r\n",
            {"aa-bb", "cc-dd"},
            5,
            id="crlf",
        ),
    ],
)
def test_session_references_skip_fences(text: str, references: set[str], heading_line: int) -> None:
    session = session_of(NAME, "log", scan_log(text.encode(), "log"))
    assert session.references == references
    assert session.section_line == heading_line


@pytest.mark.parametrize(
    ("lines", "edits", "newline", "expected"),
    [
        pytest.param(
            ("- a\r\n", "  <!-- id: aa-bb -->"),
            [Edit(2, 2, ("- b\r\n",))],
            "\r\n",
            ["- a\r\n", "  <!-- id: aa-bb -->\r\n", "- b\r\n"],
            id="crlf_last_line_gets_crlf",
        ),
        pytest.param(
            ("- a\n", "  <!-- id: aa-bb -->"),
            [Edit(2, 2, ("- b\n",))],
            "\n",
            ["- a\n", "  <!-- id: aa-bb -->\n", "- b\n"],
            id="lf_last_line_gets_lf",
        ),
        pytest.param(
            ("- a\r\n", "b"), [], "\r\n", ["- a\r\n", "b"], id="untouched_last_line_keeps_no_ending"
        ),
        pytest.param(
            ("- a\r\n", "b"),
            [Edit(1, 1, ("x\r\n",))],
            "\r\n",
            ["- a\r\n", "x\r\n", "b"],
            id="insert_before_the_last_line",
        ),
        pytest.param(
            ("- a\r\n", "b"), [Edit(1, 2, ("c",))], "\r\n", ["- a\r\n", "c"], id="replace_last_line"
        ),
        pytest.param(("b",), [Edit(1, 1, ("c",))], "\r\n", ["b\r\n", "c"], id="one_line_file"),
    ],
)
def test_apply_edits(
    lines: tuple[str, ...], edits: list[Edit], newline: str, expected: list[str]
) -> None:
    assert apply_edits(lines, edits, newline) == expected


PROJECT_STATE = (
    "# Continuity\n\n## Project State\n\n"
    "- **goal:** ship it\n"
    "*   **last_review:**\t2026-01-01 | through 2026-01-01-090000  \r\n"
)


@pytest.mark.parametrize(
    ("stamps", "expected"),
    [
        pytest.param(
            {"last_review": "2026-02-01 | through x"},
            [Edit(5, 6, ("*   **last_review:**\t2026-02-01 | through x\r\n",))],
            id="value_replaced_lead_and_ending_kept",
        ),
        pytest.param({"last_review": "2026-01-01 | through 2026-01-01-090000"}, [], id="unchanged"),
        pytest.param(
            {"last_invariant_check": "2026-02-01"},
            [Edit(6, 6, ("- **last_invariant_check:** 2026-02-01\n",))],
            id="missing_stamp_appended",
        ),
    ],
)
def test_stamp_edits(stamps: dict[str, str], expected: list[Edit]) -> None:
    document = parse_document(TextFile("continuity.md", split_lines(PROJECT_STATE)))
    assert read_stamps(document) == {
        "goal": (4, "ship it"),
        "last_review": (5, "2026-01-01 | through 2026-01-01-090000"),
    }
    assert stamp_edits(document, stamps) == expected


# -- what a review writes -----------------------------------------------------------------------

POLICY = "- working_window: 1\n- active_window: 2\n- archive_window: 4\n"
FADED = (
    "- Fake timers break BullMQ\n  <!-- id: fake-timers-bullmq | created: 2026-03-01 | uses: 1 -->"
)


def memory(tmp_path: Path, continuity: str, archive: str | None = None) -> Path:
    """Six session logs; only the first names `fake-timers-bullmq`, so it fades."""
    root = tmp_path / "memory"
    (root / "sessions").mkdir(parents=True)
    (root / "decay-policy.md").write_text(POLICY)
    (root / "continuity.md").write_bytes(continuity.encode())
    if archive is not None:
        (root / "archive").mkdir()
        (root / "archive" / "2026-Q1.md").write_bytes(archive.encode())
    for day in range(1, 7):
        refs = "- Referenced: fake-timers-bullmq\n" if day == 1 else ""
        log = f"# Session\n\n## Memory References\n{refs}"
        (root / "sessions" / f"2026-03-0{day}-090000.md").write_text(log)
    return root


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


@pytest.mark.parametrize(
    ("continuity", "archive", "written"),
    [
        pytest.param(
            crlf(f"# Continuity\n\n## Gotchas\n\n{FADED}\n\n## Project State\n\n- **goal:** x"),
            None,
            "continuity.md",
            id="stamp_after_last_line",
        ),
        pytest.param(
            crlf(f"# Continuity\n\n## Gotchas\n\n{FADED}\n"),
            crlf("# Archive 2026-Q1\n\n## Archived 2026-02-01 (review through x)\n\n- y"),
            "archive/2026-Q1.md",
            id="archive_block_after_last_line",
        ),
    ],
)
def test_crlf_file_without_final_ending_stays_crlf(
    tmp_path: Path, continuity: str, archive: str | None, written: str
) -> None:
    root = memory(tmp_path, continuity, archive)
    review(root, commit=False)
    data = (root / written).read_bytes()
    assert b"fake-timers-bullmq" in (root / "archive/2026-Q1.md").read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") > 0


def test_archived_footer_keeps_a_section_title_ending_in_hash(tmp_path: Path) -> None:
    root = memory(tmp_path, f"# Continuity\n\n## Notes on C#\n\n{FADED}\n")
    review(root, commit=False)
    archived = (root / "archive/2026-Q1.md").read_text()
    assert "| section: Notes on C# -->" in archived
