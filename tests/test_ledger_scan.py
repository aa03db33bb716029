"""The session-log scanner: sections, typed lines, log names (property_ against plain loops)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.errors import ParseError
from mdmem.format.sessionlog import (
    EVENT_KEYS,
    SessionName,
    _sections,
    _typed_lines,
    parse_session_name,
    parse_session_names,
    scan_log,
    session_of,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("## Memory References\n## Notes\n", [(1, "")], id="heading_right_after"),
        pytest.param("## Memory References\n\n## Notes\n", [(1, "")], id="blank_then_heading"),
        pytest.param(
            "## Memory References\n- Referenced: a-b\n### Sub\n- c-d\n# End\n- e-f\n",
            [(1, "- Referenced: a-b\n### Sub\n- c-d")],
            id="level_three_does_not_end",
        ),
        pytest.param(
            "# S\n## Memory References\n- a-b\n#tag\n##\n- c-d\n",
            [(2, "- a-b\n#tag")],
            id="bare_hashes_end_hashtag_does_not",
        ),
        pytest.param("## Memory References", [(1, "")], id="heading_is_last_without_newline"),
        pytest.param(
            "## Memory References\n\n## Notes\nx\n## Memory References\n- Referenced: a-b\n",
            [(1, ""), (5, "- Referenced: a-b")],
            id="the_heading_written_twice",
        ),
    ],
)
def test_section_boundaries(text: str, expected: list[tuple[int, str]]) -> None:
    assert _sections(text.encode("utf-8"), "log.md") == expected


def test_tokens_and_events_of_a_typical_log() -> None:
    text = (
        "# Session\n\n## Memory References\n"
        "- Referenced: cache-layout-01, queue-default-02\n"
        "- Created: report-default-03 (tier: working)\n"
        "- Superseded: queue-default-02 -> queue-policy-04\n"
        "  (wrapped-note-05)\n\n## Notes\nnot-counted-06\n"
    )
    name = SessionName("2026-01-01", "100000", "", "2026-01-01-100000")
    session = session_of(name, "log.md", scan_log(text.encode("utf-8"), "log.md"))
    assert session.references == {
        "cache-layout-01",
        "queue-default-02",
        "report-default-03",
        "queue-policy-04",
        "wrapped-note-05",
    }
    assert [(e.kind, e.ids, e.new_id, e.line) for e in session.events] == [
        ("created", ("report-default-03",), None, 5),
        ("superseded", ("queue-default-02",), "queue-policy-04", 6),
    ]
    assert session.section_line == 3


@pytest.mark.parametrize("arrow", ["→", "->", "=>"])
def test_a_supersession_arrow_is_read_in_each_spelling(arrow: str) -> None:
    text = f"## Memory References\n- Superseded: old-rule {arrow} new-rule (the new one)\n"
    name = SessionName("2026-01-01", "100000", "", "2026-01-01-100000")
    session = session_of(name, "log.md", scan_log(text.encode("utf-8"), "log.md"))
    assert [(e.kind, e.ids, e.new_id) for e in session.events] == [
        ("superseded", ("old-rule",), "new-rule")
    ]


def typed_lines_by_items(section: str, heading_line: int) -> tuple[list[object], list[object]]:
    """The typed-line reading as it was first written: every item through the key pattern."""
    item_re = re.compile(r"^[-*+][ \t]+([^\n]*(?:\n[ \t]+\S[^\n]*)*)", re.MULTILINE)
    keyed_re = re.compile(r"^([A-Za-z][A-Za-z _-]*?)[ \t]*:(.*)$", re.DOTALL)
    token = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")
    events: list[object] = []
    unknown: list[object] = []
    for item in item_re.finditer(section):
        keyed = keyed_re.match(item[1])
        if keyed is None:
            continue
        key = keyed[1].strip().lower()
        if key == "referenced":
            continue
        number = heading_line + 1 + section.count("\n", 0, item.start())
        if key not in EVENT_KEYS:
            unknown.append([number, keyed[1].strip()])
        elif key == "superseded":
            parts = re.split("→|->|=>", keyed[2], maxsplit=1)
            old = token.findall(parts[0])
            new = token.findall(parts[1]) if len(parts) > 1 else []
            if old:
                events.append([key, [old[0]], new[0] if new else None, number])
        else:
            ids = list(dict.fromkeys(token.findall(keyed[2])))
            if ids:
                events.append([key, ids, None, number])
    return events, unknown


ITEM_LINES = st.sampled_from(
    [
        "- Referenced: cache-layout-01, queue-default-02",
        "- referenced : cache-layout-01",
        "- REFERENCED\t: cache-layout-01",
        "- Referenced-by: cache-layout-01",
        "- Referenced later: cache-layout-01",
        "- Referencedx: cache-layout-01",
        "- Refer enced: cache-layout-01",
        "- Note - Referenced: cache-layout-01",
        "  - Referenced: indented-item-01",
        "- Referenced: cache-layout-01: a second colon",
        "* Referenced: x-1",
        "- Created: report-default-03 (tier: working)",
        "+ Helpful: cache-layout-01, cache-layout-01, queue-default-02",
        "- Harmful:",
        "- Superseded: queue-default-02 -> queue-policy-04",
        "- Superseded: queue-default-02 → queue-policy-04, other-id-05",
        "- Superseded: no arrow-here-06",
        "- Reactivated: old-fact-07",
        "- Restored: old-fact-08",
        "- Mentioned: other-thing-09",
        "- Seen by - team: a-b",
        "-   Created :  spaced-out-10",
        "  wrapped-id-11, wrapped-id-12",
        "\tcontinued-13",
        "-Created: not-an-item-14",
        "- 1x: starts-with-digit-15",
        "- no key here-16",
        "",
        "prose created: prose-17",
    ]
)


@given(st.lists(ITEM_LINES, max_size=12), st.integers(min_value=1, max_value=50))
def test_property_typed_lines_equal_the_item_reading(lines: list[str], heading: int) -> None:
    section = "\n".join(lines)
    assert _typed_lines(section, heading) == typed_lines_by_items(section, heading)


NAMES = st.builds(
    lambda day, timed, slug: f"2026-01-{day:02d}{timed}{slug if timed else ''}.md",
    st.integers(1, 3),
    st.sampled_from(["", "-000000", "-100000", "-100001", "-235959"]),
    st.sampled_from(["", "-a", "-a-b", "-ab", "-b", "-a0", "-0"]),
)  # a slug only after a time


@given(st.lists(NAMES, unique=True))
def test_property_log_names_sort_in_ledger_order_as_text(names: list[str]) -> None:
    """The ledger's order, (date, time, slug), is the order of the names' stems as text."""
    parsed = [parse_session_name(name, name) for name in names]
    by_fields = sorted(parsed, key=lambda name: (name.date, name.time, name.slug))
    assert sorted(parsed, key=lambda name: name.stem) == by_fields


def test_a_time_in_other_digits_is_judged_by_its_value() -> None:
    """`\\d` in the name pattern takes any decimal digit; the time is checked by its value."""
    name = parse_session_name("2026-01-07-\u0661\u0662\u0660\u0660\u0660\u0660.md", "log")
    assert name.time == "\u0661\u0662\u0660\u0660\u0660\u0660"  # 12:00:00
    with pytest.raises(ParseError, match="impossible time"):
        parse_session_name("2026-01-07-\u0662\u0664\u0660\u0660\u0660\u0660.md", "log")  # 24:00


def _one_by_one(filenames: list[str]) -> list[SessionName] | str:
    try:
        return [parse_session_name(name, "sessions/" + name) for name in filenames]
    except ParseError as error:
        return str(error)


def _together(filenames: list[str]) -> list[SessionName] | str:
    try:
        return parse_session_names(filenames, "sessions/")
    except ParseError as error:
        return str(error)


@pytest.mark.parametrize(
    "filenames",
    [
        pytest.param([], id="empty"),
        pytest.param(["2026-01-07.md", "2026-01-07-080000-a-b.md"], id="valid"),
        pytest.param(["2026-01-07.md/2026-01-08.md"], id="slash_inside"),
        pytest.param(["2026-01-07.md\n2026-01-08.md"], id="newline_inside"),
        pytest.param(["2026-02-29-080000.md"], id="impossible_day"),
        pytest.param(["2026-01-07-240000.md"], id="impossible_time"),
        pytest.param(["2026-01-07-\u0661\u0662\u0660\u0660\u0660\u0660.md"], id="other_digits"),
        pytest.param(["2026-01-07-080000-a.md", "notes.md", "2026-01-0x.md"], id="first_bad_named"),
    ],
)
def test_listing_cases(filenames: list[str]) -> None:
    together = _together(filenames)
    assert together == _one_by_one(filenames)
    if filenames[:1] == ["2026-01-07.md"]:
        assert together == [
            SessionName("2026-01-07", "", "", "2026-01-07"),
            SessionName("2026-01-07", "080000", "a-b", "2026-01-07-080000-a-b"),
        ]
    if "notes.md" in filenames:
        assert "sessions/notes.md" in str(together)


def test_a_heading_written_twice_counts_both_sections() -> None:
    # The template's empty section left above, a second one written at the end by hand.
    text = (
        "# Session\n\n## Memory References\n\n## Notes\nDid things.\n\n"
        "## Memory References\n- Referenced: cache-layout-01\n- Created: report-default-03\n"
    )
    references, events, _, heading = scan_log(text.encode("utf-8"), "log.md")
    assert references == ["cache-layout-01", "report-default-03"]
    assert [(kind, ids, line) for kind, ids, _, line in events] == [
        ("created", ["report-default-03"], 10)
    ]
    assert heading == 3  # the writer keeps adding to the first


@pytest.mark.parametrize(
    ("heading", "read"),
    [
        pytest.param("## Memory References", True, id="as_written"),
        pytest.param("##  Memory References", True, id="two_spaces_after_hashes"),
        pytest.param("##\tMemory References", True, id="tab_after_hashes"),
        pytest.param("## Memory References  ", True, id="trailing_spaces"),
        pytest.param("## Memory References\r", True, id="carriage_return"),
        pytest.param("## Memory References ##", True, id="closing_hashes"),
        pytest.param("### Memory References", False, id="another_level"),
        pytest.param("## memory references", False, id="another_case"),
        pytest.param("## Memory References:", False, id="trailing_colon"),
        pytest.param("##Memory References", False, id="no_space_is_no_heading"),
        pytest.param("## Memory References and more", False, id="another_title"),
    ],
)
def test_the_ledger_heading_is_read_as_a_heading(heading: str, read: bool) -> None:
    """Spacing around the title is markdown's, not the title's (the protocol's scripts read
    `## +Memory References[ \\t]*` too); another level, case or title is not the ledger."""
    text = f"# Session\n{heading}\n- Referenced: cache-layout-01\n## Next\n"
    assert scan_log(text.encode("utf-8"), "log.md")[0] == (["cache-layout-01"] if read else [])


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param(
            "- **Superseded:** old-rule-01 → new-rule-02",
            [["superseded", ["old-rule-01"], "new-rule-02", 2]],
            id="bold_key_and_colon",
        ),
        pytest.param(
            "- **Superseded**: old-rule-01 -> new-rule-02",
            [["superseded", ["old-rule-01"], "new-rule-02", 2]],
            id="bold_key_colon_outside",
        ),
        pytest.param(
            "- *Created:* fresh-fact-03",
            [["created", ["fresh-fact-03"], None, 2]],
            id="italic_key",
        ),
        pytest.param(
            "- __Restored__: old-rule-01",
            [["restored", ["old-rule-01"], None, 2]],
            id="underscored_key",
        ),
        pytest.param("- `old-rule-01`: why it held", [], id="code_span_is_no_key"),
        # Read in one pass: a key's class and the spaces around it once overlapped, and a
        # long line without a colon backtracked for seconds (minutes at 20,000 spaces).
        pytest.param("- Created" + " " * 3000 + "fresh-fact-03", [], id="long_line_no_colon"),
        pytest.param(
            "- Created" + " " * 3000 + ": fresh-fact-03",
            [["created", ["fresh-fact-03"], None, 2]],
            id="long_space_before_the_colon",
        ),
    ],
)
def test_a_key_in_emphasis_is_the_key(line: str, expected: list[object]) -> None:
    assert _typed_lines(f"\n{line}", 0) == (expected, [])


NOTED = [
    # (a line of the section, the events it is; every id of it stays a reference, SPEC §4)
    *(
        pytest.param(
            f"- {key.capitalize()}: listed-fact (better than noted-fact)",
            [(key, ("listed-fact",), None)],
            id=f"{key}_note",
        )
        for key in EVENT_KEYS
        if key not in ("referenced", "superseded")
    ),
    pytest.param(
        "- Superseded: listed-fact → new-fact (noted-fact → other-fact)",
        [("superseded", ("listed-fact",), "new-fact")],
        id="superseded_note",
    ),
    pytest.param("- Created: (none — kept in noted-fact)", [], id="none_with_a_note"),
    pytest.param(
        "- Helpful: listed-fact (a note that wraps\n  onto noted-fact), second-fact",
        [("helpful", ("listed-fact", "second-fact"), None)],
        id="a_note_wrapped",
    ),
    pytest.param(
        "- Harmful: listed-fact (a note left open noted-fact",
        [("harmful", ("listed-fact",), None)],
        id="a_note_left_open",
    ),
    pytest.param("- Referenced: listed-fact (see noted-fact)", [], id="referenced_note"),
]


@pytest.mark.parametrize(("line", "expected"), NOTED)
def test_an_id_in_a_note_is_a_reference_not_an_event(line: str, expected: list[object]) -> None:
    text = f"## Memory References\n{line}\n"
    name = SessionName("2026-01-01", "100000", "", "2026-01-01-100000")
    session = session_of(name, "log.md", scan_log(text.encode("utf-8"), "log.md"))
    assert [(e.kind, e.ids, e.new_id) for e in session.events] == expected
    assert "noted-fact" in session.references
    assert all(set(event.ids) <= session.references for event in session.events)
