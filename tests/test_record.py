"""`record`: ids on the right `## Memory References` line of a log, each once, every other
line byte for byte; and what the ledger's scanner reads back from the result."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.errors import ParseError
from mdmem.format.sessionlog import scan_log
from mdmem.writing.references import record

HEAD = "# Session: refunds\n\nSummary.\n\n"


@pytest.mark.parametrize(
    ("before", "key", "ids", "after"),
    [
        pytest.param(
            HEAD + "## Memory References\n\n## Next steps\n",
            "referenced",
            ["post-only-mutations", "webhook-fire-forget"],
            HEAD + "## Memory References\n- Referenced: post-only-mutations, webhook-fire-forget"
            "\n\n## Next steps\n",
            id="empty_section_gets_its_first_line",
        ),
        pytest.param(
            "## Memory References\n- Referenced: a-b\n- Helpful: c-d\n\n## Next\n",
            "referenced",
            ["e-f"],
            "## Memory References\n- Referenced: a-b, e-f\n- Helpful: c-d\n\n## Next\n",
            id="existing_line_is_extended",
        ),
        pytest.param(
            "## Memory References\n- Referenced: a-b\n",
            "helpful",
            ["a-b"],
            "## Memory References\n- Referenced: a-b\n- Helpful: a-b\n",
            id="new_key_line_after_the_last",
        ),
        pytest.param(
            "## Memory References\n- referenced: a-b (note)\n",
            "referenced",
            ["c-d"],
            "## Memory References\n- referenced: a-b (note), c-d\n",
            id="key_case_insensitive_note_kept",
        ),
        pytest.param(
            "## Memory References\n- Referenced: a-b,\n  c-d\n- Harmful: e-f\n",
            "referenced",
            ["g-h"],
            "## Memory References\n- Referenced: a-b,\n  c-d, g-h\n- Harmful: e-f\n",
            id="wrapped_item_extended_on_its_last_line",
        ),
        pytest.param(
            "## Memory References\n- Harmful: (none)\n",
            "harmful",
            ["a-b"],
            "## Memory References\n- Harmful: a-b\n",
            id="none_mark_replaced",
        ),
        pytest.param(
            "## Memory References\n- Referenced:\n",
            "referenced",
            ["a-b"],
            "## Memory References\n- Referenced: a-b\n",
            id="empty_line_filled",
        ),
        pytest.param(
            "# S\r\n\r\n## Memory References\r\n- Referenced: a-b\r\n",
            "created",
            ["c-d"],
            "# S\r\n\r\n## Memory References\r\n- Referenced: a-b\r\n- Created: c-d\r\n",
            id="crlf_kept",
        ),
        pytest.param(
            "\ufeff## Memory References\n- Referenced: a-b",
            "referenced",
            ["c-d"],
            "\ufeff## Memory References\n- Referenced: a-b, c-d",
            id="bom_and_missing_final_newline_kept",
        ),
        pytest.param(
            "## Memory References\n- Helpful: a-b",
            "harmful",
            ["c-d"],
            "## Memory References\n- Helpful: a-b\n- Harmful: c-d\n",
            id="line_after_a_last_line_without_newline",
        ),
        pytest.param(
            "# Session\n\nDid things.\n",
            "reactivated",
            ["a-b"],
            "# Session\n\nDid things.\n\n## Memory References\n- Reactivated: a-b\n",
            id="no_section_appends_one",
        ),
        pytest.param(
            "```\n## Memory References\n```\n",
            "referenced",
            ["a-b"],
            "```\n## Memory References\n```\n\n## Memory References\n- Referenced: a-b\n",
            id="heading_in_a_fence_is_no_section",
        ),
        pytest.param(
            "## Memory References\n- Referenced: a-b\n- Referenced: c-d\n",
            "referenced",
            ["e-f"],
            "## Memory References\n- Referenced: a-b, e-f\n- Referenced: c-d\n",
            id="first_of_two_lines_with_the_key",
        ),
        pytest.param(
            "## Memory References\nPlain prose first.\n\n## Memory Review\n- Referenced: x-y\n",
            "referenced",
            ["x-y"],
            "## Memory References\nPlain prose first.\n- Referenced: x-y\n\n## Memory Review\n"
            "- Referenced: x-y\n",
            id="other_sections_never_count",
        ),
    ],
)
def test_record(before: str, key: str, ids: list[str], after: str) -> None:
    assert record(before, key, ids).text == after


@pytest.mark.parametrize(
    ("before", "key", "ids", "added", "already"),
    [
        pytest.param(
            "## Memory References\n- Helpful: a-b\n", "referenced", ["a-b"], (), ("a-b",),
            id="referenced_anywhere_in_the_section",
        ),
        pytest.param(
            "## Memory References\n- Referenced: a-b\n", "helpful", ["a-b"], ("a-b",), (),
            id="typed_line_needs_its_own",
        ),
        pytest.param(
            "## Memory References\n- Helpful: a-b\n", "helpful", ["c-d", "a-b", "c-d"],
            ("c-d",), ("a-b",),
            id="each_id_once",
        ),
    ],
)  # fmt: skip
def test_each_id_once(
    before: str, key: str, ids: list[str], added: tuple[str, ...], already: tuple[str, ...]
) -> None:
    done = record(before, key, ids)
    assert (done.added, done.already) == (added, already)
    assert done.changed == bool(added)
    if not added:
        assert done.text == before


def test_conflict_markers_are_refused() -> None:
    text = "## Memory References\n<<<<<<< HEAD\n- Referenced: a-b\n=======\n>>>>>>> x\n"
    with pytest.raises(ParseError, match="merge-conflict marker"):
        record(text, "referenced", ["c-d"], "memory/sessions/x.md")


KEYS = ("referenced", "created", "reactivated", "helpful", "harmful")
IDS = st.sampled_from(["post-only-mutations", "webhook-fire-forget", "retry-with-backoff"])


@given(
    st.lists(st.tuples(st.sampled_from(KEYS), st.lists(IDS, min_size=1, max_size=3)), max_size=8),
    st.sampled_from(["\n", "\r\n"]),
)
def test_what_is_recorded_is_what_the_ledger_reads(
    calls: list[tuple[str, list[str]]], newline: str
) -> None:
    """Any sequence of records: the scanner finds every id, each typed line holds exactly
    the ids recorded under its key, once, and the lines above the section never change."""
    text = newline.join(["# Session: x", "", "Summary.", "", "## Memory References", ""]) + newline
    for key, ids in calls:
        text = record(text, key, ids).text
    references, events, _, _ = scan_log(text.encode("utf-8"), "log.md")
    wanted = {i for _, ids in calls for i in ids}
    assert set(references) == wanted
    for key in KEYS[1:]:
        on_line = [i for kind, ids, _, _ in events if kind == key for i in ids]
        assert on_line == list(dict.fromkeys(i for k, ids in calls if k == key for i in ids))
    assert text.startswith(newline.join(["# Session: x", "", "Summary.", ""]))
    crlf = text.count("\n") if newline == "\r\n" else 0  # every line ends as the log's do
    assert text.count("\r\n") == crlf
