"""mdmem's marked blocks: written only between their markers, idempotent, refused when unpaired."""

from __future__ import annotations

import pytest

from mdmem.errors import ParseError
from mdmem.format.blocks import block_body, block_span, with_block
from mdmem.format.textfile import TextFile, split_lines


def _file(text: str) -> TextFile:
    return TextFile("AGENTS.md", split_lines(text))


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("", "<!-- mdmem:begin usage -->\nnew\n<!-- mdmem:end usage -->\n"),
        (
            "# Agents\n\nBe kind.",
            "# Agents\n\nBe kind.\n\n<!-- mdmem:begin usage -->\nnew\n<!-- mdmem:end usage -->\n",
        ),
        (
            "# Agents\n\n",
            "# Agents\n\n<!-- mdmem:begin usage -->\nnew\n<!-- mdmem:end usage -->\n",
        ),
        (
            "top\n<!-- mdmem:begin usage -->\nold\nolder\n<!-- mdmem:end usage -->\nbottom\n",
            "top\n<!-- mdmem:begin usage -->\nnew\n<!-- mdmem:end usage -->\nbottom\n",
        ),
        (
            "a\r\nb\r\n",
            "a\r\nb\r\n\r\n<!-- mdmem:begin usage -->\r\nnew\r\n<!-- mdmem:end usage -->\r\n",
        ),
        (  # a marker quoted in fenced code is an example, left as it is
            "```md\n<!-- mdmem:begin usage -->\n```\n",
            "```md\n<!-- mdmem:begin usage -->\n```\n\n"
            "<!-- mdmem:begin usage -->\nnew\n<!-- mdmem:end usage -->\n",
        ),
        (  # another block of mdmem's is someone else's business
            "<!-- mdmem:begin export -->\nx\n<!-- mdmem:end export -->\n",
            "<!-- mdmem:begin export -->\nx\n<!-- mdmem:end export -->\n\n"
            "<!-- mdmem:begin usage -->\nnew\n<!-- mdmem:end usage -->\n",
        ),
    ],
)
def test_the_block_is_written_and_nothing_else_changes(before: str, after: str) -> None:
    written = with_block(_file(before), "usage", "new\n")
    assert written == after
    assert with_block(_file(written), "usage", "new\n") == written  # idempotent
    assert block_body(_file(written), "usage") == "new\n"


def test_a_file_without_the_block_has_no_body() -> None:
    assert block_body(_file("# Agents\n"), "usage") is None
    assert block_span(_file("# Agents\n"), "usage") is None


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("a\n<!-- mdmem:begin usage -->\nb\n", 2, "without its end"),
        ("<!-- mdmem:end usage -->\n", 1, "before its begin"),
        ("<!-- mdmem:begin usage -->\n<!-- mdmem:begin usage -->\n", 2, "second begin"),
        (
            "<!-- mdmem:begin usage -->\n<!-- mdmem:end usage -->\n<!-- mdmem:begin usage -->\n",
            3,
            "second begin",
        ),
    ],
)
def test_unpaired_markers_are_refused_with_their_line(text: str, line: int, what: str) -> None:
    with pytest.raises(ParseError) as caught:
        with_block(_file(text), "usage", "new\n")
    assert caught.value.line == line
    assert caught.value.path == "AGENTS.md"
    assert what in caught.value.message
