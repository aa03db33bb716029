"""`record`: ids on the right `## Memory References` line of a log, each once, every other
line byte for byte; and what the ledger's scanner reads back from the result."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.errors import ParseError
from mdmem.format.sessionlog import scan_log
from mdmem.writing.references import record, record_event

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


# -- record_event: supersessions -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "old", "new", "after"),
    [
        pytest.param(
            HEAD + "## Memory References\n- Created: new-rule\n\n## Next steps\n",
            "old-rule",
            "new-rule",
            HEAD + "## Memory References\n- Created: new-rule\n- Superseded: old-rule → new-rule"
            "\n\n## Next steps\n",
            id="a_line_after_the_last",
        ),
        pytest.param(
            "## Memory References\n- Superseded: a-b → c-d\n",
            "e-f",
            "g-h",
            "## Memory References\n- Superseded: a-b → c-d\n- Superseded: e-f → g-h\n",
            id="one_line_per_supersession",
        ),
        pytest.param(
            "## Memory References\n- Referenced: a-b\n",
            "a-b",
            None,
            "## Memory References\n- Referenced: a-b\n- Superseded: a-b (invalidated)\n",
            id="invalidated",
        ),
        pytest.param(
            "## Memory References\n- Superseded: (none)\n- Helpful: x-y\n",
            "a-b",
            "c-d",
            "## Memory References\n- Superseded: a-b → c-d\n- Helpful: x-y\n",
            id="none_mark_replaced",
        ),
        pytest.param(
            "# S\r\n\r\nDid things.\r\n",
            "a-b",
            "c-d",
            "# S\r\n\r\nDid things.\r\n\r\n## Memory References\r\n- Superseded: a-b → c-d\r\n",
            id="no_section_appends_one_crlf_kept",
        ),
        pytest.param(
            "## Memory References\n- Superseded: a-b -> c-d\n- Restored: a-b\n",
            "a-b",
            "c-d",
            "## Memory References\n- Superseded: a-b -> c-d\n- Restored: a-b\n"
            "- Superseded: a-b → c-d\n",
            id="again_after_a_restore",
        ),
        pytest.param(
            "## Memory References\n- Superseded: a-b → c-d\n",
            "a-b",
            "e-f",
            "## Memory References\n- Superseded: a-b → c-d\n- Superseded: a-b → e-f\n",
            id="another_successor_is_a_new_event",
        ),
    ],
)
def test_record_a_supersession(before: str, old: str, new: str | None, after: str) -> None:
    done = record_event(before, "superseded", old, new)
    assert (done.text, done.added, done.already) == (after, (old,), ())
    _, events, _, _ = scan_log(done.text.encode("utf-8"), "log.md")
    supersessions = [event[:3] for event in events if event[0] == "superseded"]
    assert supersessions[-1] == ["superseded", [old], new]


@pytest.mark.parametrize(
    ("before", "old", "new"),
    [
        pytest.param("## Memory References\n- Superseded: a-b → c-d\n", "a-b", "c-d", id="arrow"),
        pytest.param("## Memory References\n- superseded: a-b -> c-d (x)\n", "a-b", "c-d",
                     id="ascii_arrow_and_note"),
        pytest.param("## Memory References\n- Superseded: a-b (invalidated)\n", "a-b", None,
                     id="invalidated"),
    ],
)  # fmt: skip
def test_a_supersession_already_recorded_changes_nothing(
    before: str, old: str, new: str | None
) -> None:
    done = record_event(before, "superseded", old, new)
    assert (done.text, done.added, done.already, done.changed) == (before, (), (old,), False)


def test_record_event_refuses_conflict_markers() -> None:
    text = "## Memory References\n<<<<<<< HEAD\n=======\n>>>>>>> x\n"
    with pytest.raises(ParseError, match="merge-conflict marker"):
        record_event(text, "superseded", "a-b", "c-d", "memory/sessions/x.md")


@pytest.mark.parametrize(
    ("before", "key", "after"),
    [
        pytest.param(
            "## Memory References\n- Restored: (none)\n- Superseded: a-b → c-d\n",
            "restored",
            "## Memory References\n- Restored: (none)\n- Superseded: a-b → c-d\n- Restored: a-b\n",
            id="a_restore_never_lands_before_the_supersession",
        ),
        pytest.param(
            "## Memory References\n- Referenced: a-b\n- Forgotten: (none)\n",
            "forgotten",
            "## Memory References\n- Referenced: a-b\n- Forgotten: a-b\n",
            id="a_last_none_line_is_replaced",
        ),
        pytest.param(
            "## Memory References\n- Forgotten: a-b\n",
            "forgotten",
            "## Memory References\n- Forgotten: a-b\n",
            id="already_recorded",
        ),
    ],
)
def test_ordered_events_keep_their_order(before: str, key: str, after: str) -> None:
    assert record_event(before, key, "a-b").text == after


def test_a_heading_written_twice_is_written_in_its_last_section() -> None:
    # Read in both sections, so the writer adds after the last: a restore lands after the
    # supersession it undoes, and an id cited in either section is already cited.
    text = (
        "# S\n\n## Memory References\n- Referenced: cache-layout-01\n\n## Notes\nx\n\n"
        "## Memory References\n- Superseded: queue-default-02 → queue-policy-04\n"
    )
    restored = record_event(text, "restored", "queue-default-02").text
    assert restored.endswith(
        "- Superseded: queue-default-02 → queue-policy-04\n- Restored: queue-default-02\n"
    )
    _, events, _, _ = scan_log(restored.encode("utf-8"), "log.md")
    assert [kind for kind, *_ in events] == ["superseded", "restored"]
    again = record(text, "referenced", ["cache-layout-01", "report-default-03"], "log.md")
    assert again.added == ("report-default-03",) and again.already == ("cache-layout-01",)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            "## Memory References\n- Helpful: a-b (better than c-d)\n",
            "## Memory References\n- Helpful: a-b (better than c-d), c-d\n",
            id="an_id_in_a_note_is_not_yet_recorded",
        ),
        pytest.param(
            "## Memory References\n- Helpful: (none — see c-d)\n",
            "## Memory References\n- Helpful: (none — see c-d), c-d\n",
            id="a_none_with_a_note",
        ),
        pytest.param(
            "## Memory References\n- Helpful: a-b (a note left open\n",
            "## Memory References\n- Helpful: a-b (a note left open\n- Helpful: c-d\n",
            id="never_inside_a_note_left_open",
        ),
    ],
)
def test_an_id_is_recorded_where_the_ledger_reads_it_as_an_event(before: str, after: str) -> None:
    """An id only a `(...)` note names is a reference, not a `Helpful:` event: `record`
    adds it, and never where a note left open would swallow it."""
    done = record(before, "helpful", ["c-d"])
    assert (done.text, done.added) == (after, ("c-d",))
    _, events, _, _ = scan_log(done.text.encode("utf-8"), "log.md")
    assert "c-d" in [i for kind, ids, _, _ in events if kind == "helpful" for i in ids]
