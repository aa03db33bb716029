"""What a merge-conflict marker line is: one definition, for a whole text and for its lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.errors import ParseError
from mdmem.format.textfile import check_conflict_markers, conflict_marker_lines, split_lines
from mdmem.merging.continuity import merge_lines


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("<<<<<<< HEAD\n- a\n=======\n- b\n>>>>>>> topic\n", [1, 3, 5], id="git"),
        pytest.param("|||||||\n", [1], id="diff3_base_marker"),
        pytest.param("a\r\n=======\r\nb", [2], id="crlf"),
        pytest.param("x\n>>>>>>>", [2], id="last_line_without_ending"),
        pytest.param("=======\tmore\n", [1], id="any_whitespace_after_the_run"),
        pytest.param("Title\n=======\n", [2], id="a_setext_underline_of_seven_is_a_marker"),
        pytest.param("========\n<<<<<<<<\n", [], id="eight_is_not_a_marker"),
        pytest.param("======\n", [], id="six_is_not_a_marker"),
        pytest.param("<<<<<<<HEAD\n", [], id="run_glued_to_a_word"),
        pytest.param(" <<<<<<< HEAD\n", [], id="indented"),
        pytest.param("x <<<<<<<\n", [], id="inside_a_line"),
        pytest.param("a\rb\r=======\n", [], id="a_lone_cr_ends_no_line"),
        pytest.param("", [], id="empty"),
    ],
)
def test_marker_lines(text: str, expected: list[int]) -> None:
    assert conflict_marker_lines(text) == expected
    assert conflict_marker_lines(split_lines(text)) == expected


def test_the_first_marker_is_the_error_line() -> None:
    with pytest.raises(ParseError) as raised:
        check_conflict_markers("a\nb\n>>>>>>> x\n=======\n", "memory/continuity.md")
    assert (raised.value.path, raised.value.line) == ("memory/continuity.md", 3)
    check_conflict_markers("a\n======\n", "memory/continuity.md")


def test_what_the_merge_driver_writes_is_read_as_markers() -> None:
    merged = merge_lines("a\nb\n", "a\nB1\n", "a\nB2\n")
    assert conflict_marker_lines(merged.text) == [2, 4, 6]


PIECES = ["<<<<<<<", "=======", ">>>>>>>", "|||||||", "=", " ", "\t", "\n", "\r\n", "\r", "x"]


@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_property_a_text_and_its_lines_have_the_same_markers(text: str) -> None:
    assert conflict_marker_lines(text) == conflict_marker_lines(split_lines(text))
