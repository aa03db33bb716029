"""How a memory document is read: a table of odd items, properties of generated documents,
and CommonMark (markdown-it-py, a test dependency only) as the oracle for block boundaries.

- each odd shape a person might write reads to the facts, or the error, in the table;
- a generated document, however odd, reads to facts or to a ParseError naming a line;
- on documents that CommonMark and mdmem read alike by design (no lazy continuation lines,
  items indented by at least two spaces, fences inside items closed), mdmem finds the same
  headings, fenced blocks and top-level list items as markdown-it-py;
- a footer renders back as it was read, or its error names the line; `Footer.updated`
  edits each field in place; headings, line endings and splits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from mdmem.errors import ParseError
from mdmem.format.document import Document, heading, parse_document
from mdmem.format.fences import fenced_blocks
from mdmem.format.footer import (
    CANONICAL,
    Field,
    Footer,
    footer_ids,
    looks_like_footer,
    new_footer,
    parse_footer,
)
from mdmem.format.items import fact_text_spans
from mdmem.format.textfile import TextFile, decode, split_lines

MORE = settings(max_examples=settings.default.max_examples * 2)


FOOTER_NOT_LAST = "a footer must be the last line of its item; move the text after it above it"
FOOTER_CLOSES_NOTHING = "a footer that closes no list item; indent it under its fact"
COMMENT_LEFT_OPEN = (
    "fact text opens a comment ('<!--') it does not close on the same line, "
    "which would hide text from a reader; close it or reword it"
)
OUTSIDE_A_SECTION = "a fact outside any '## ' section; move it under a section heading"
COMMENT_IN_TEXT = "fact text contains '<!--', which would hide text from a reader; reword it"
NOT_KEBAB = "id 'Aa-bb' is not kebab-case of at least two words (like 'post-only-mutations')"


def outcome(read: object) -> object:
    """What a reading gave, or the error (message, file, line) it raised."""
    try:
        return read()  # type: ignore[operator]
    except ParseError as error:
        return (error.message, error.path, error.line)


def reading(text: str) -> object:
    """A document's facts and footerless items as plain values, or its error."""
    file = TextFile("memory/continuity.md", split_lines(text))
    try:
        document = parse_document(file)
    except ParseError as error:
        return ("error", error.message, error.line)
    facts = tuple((fact.id, fact.start, fact.end, fact.checkbox) for fact in document.facts)
    return ("facts", facts, tuple((item.start, item.end) for item in document.footerless))


@pytest.mark.parametrize(
    ("item", "section", "expected"),
    [
        pytest.param(
            "- a\n  <!-- id: aa-bb -->\n\n\xa0\n  late\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 6, None),), ()),
            id="nbsp_blank_then_indented_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb -->\n\n\xa0\n  late\n",
            "",
            ("error", OUTSIDE_A_SECTION, 1),
            id="nbsp_blank_then_indented_no_section",
        ),
        pytest.param(
            "- a\n\n<!-- id: aa-bb -->\n",
            "## S\n",
            ("error", FOOTER_CLOSES_NOTHING, 4),
            id="flush_left_after_a_blank_in_a_section",
        ),
        pytest.param(
            "- a\n\n<!-- id: aa-bb -->\n",
            "",
            ("error", FOOTER_CLOSES_NOTHING, 3),
            id="flush_left_after_a_blank_no_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb -->\n<!-- id: cc-dd -->\n",
            "## S\n",
            (
                "error",
                "a second footer in one item (the first at line 3); give each fact its own bullet",
                4,
            ),
            id="flush_left_below_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb -->\n<!-- id: cc-dd -->\n",
            "",
            (
                "error",
                "a second footer in one item (the first at line 2); give each fact its own bullet",
                3,
            ),
            id="flush_left_below_no_section",
        ),
        pytest.param(
            "* a\n<!-- id: aa-bb -->\n  indented below\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 3, None),), ()),
            id="indented_below_flush_left_in_a_section",
        ),
        pytest.param(
            "* a\n<!-- id: aa-bb -->\n  indented below\n",
            "",
            ("error", OUTSIDE_A_SECTION, 1),
            id="indented_below_flush_left_no_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb -->\n  more\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 4, None),), ()),
            id="text_after_the_footer_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb -->\n  more\n",
            "",
            ("error", OUTSIDE_A_SECTION, 1),
            id="text_after_the_footer_no_section",
        ),
        pytest.param(
            "- a\n  ~~~\n  <!-- id: aa-bb -->\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 4, None),), ()),
            id="tilde_fence_left_open_in_a_section",
        ),
        pytest.param(
            "- a\n  ~~~\n  <!-- id: aa-bb -->\n",
            "",
            ("error", OUTSIDE_A_SECTION, 1),
            id="tilde_fence_left_open_no_section",
        ),
        pytest.param(
            "- a\n  ```\n  <!-- id: aa-bb -->\n  ```\n",
            "## S\n",
            ("facts", (), ((1, 5),)),
            id="footer_in_a_fence_in_a_section",
        ),
        pytest.param(
            "- a\n  ```\n  <!-- id: aa-bb -->\n  ```\n",
            "",
            ("facts", (), ((0, 4),)),
            id="footer_in_a_fence_no_section",
        ),
        pytest.param(
            "- a\n  ```\n  <!-- id: aa-bb -->\n\n- b\n```\n",
            "## S\n",
            ("facts", (), ((1, 7),)),
            id="fence_runs_on_in_a_section",
        ),
        pytest.param(
            "- a\n  ```\n  <!-- id: aa-bb -->\n\n- b\n```\n",
            "",
            ("facts", (), ((0, 6),)),
            id="fence_runs_on_no_section",
        ),
        pytest.param(
            "- a <!-- x -->\n  <!-- id: aa-bb -->\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 3, None),), ()),
            id="comment_in_the_text_in_a_section",
        ),
        pytest.param(
            "- a <!-- x -->\n  <!-- id: aa-bb -->\n",
            "",
            ("error", OUTSIDE_A_SECTION, 1),
            id="comment_in_the_text_no_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb | note: a-->b -->\n",
            "## S\n",
            ("error", "a footer value contains '-->'", 3),
            id="closing_in_a_value_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb | note: a-->b -->\n",
            "",
            ("error", "a footer value contains '-->'", 2),
            id="closing_in_a_value_no_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb | tier: core | tier: core -->\n",
            "## S\n",
            ("error", "footer field 'tier' appears twice", 3),
            id="key_twice_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb | tier: core | tier: core -->\n",
            "",
            ("error", "footer field 'tier' appears twice", 2),
            id="key_twice_no_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb | x y: 1 -->\n",
            "## S\n",
            ("error", "footer field 'x y: 1' is not 'key: value'", 3),
            id="key_with_a_space_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb | x y: 1 -->\n",
            "",
            ("error", "footer field 'x y: 1' is not 'key: value'", 2),
            id="key_with_a_space_no_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb | uses: ٣ -->\n",
            "## S\n",
            ("error", "uses '٣' is not a whole number", 3),
            id="uses_other_digit_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb | uses: ٣ -->\n",
            "",
            ("error", "uses '٣' is not a whole number", 2),
            id="uses_other_digit_no_section",
        ),
        pytest.param(
            "- a\n  <!-- id: Aa-bb -->\n",
            "## S\n",
            (
                "error",
                NOT_KEBAB,
                3,
            ),
            id="id_not_kebab_case_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: Aa-bb -->\n",
            "",
            (
                "error",
                NOT_KEBAB,
                2,
            ),
            id="id_not_kebab_case_no_section",
        ),
        pytest.param(
            "- [x] a\n\n  text\n\n  <!-- id: aa-bb -->\n\n## T\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 6, "x"),), ()),
            id="blank_lines_inside_in_a_section",
        ),
        pytest.param(
            "- [x] a\n\n  text\n\n  <!-- id: aa-bb -->\n\n## T\n",
            "",
            ("error", OUTSIDE_A_SECTION, 1),
            id="blank_lines_inside_no_section",
        ),
        pytest.param(
            "- a\r\n  <!-- id: aa-bb -->",
            "## S\n",
            ("facts", (("aa-bb", 1, 3, None),), ()),
            id="crlf_and_no_last_ending_in_a_section",
        ),
        pytest.param(
            "- a\r\n  <!-- id: aa-bb -->",
            "",
            ("error", OUTSIDE_A_SECTION, 1),
            id="crlf_and_no_last_ending_no_section",
        ),
        pytest.param(
            "- run ```make test``` first\n  <!-- id: aa-bb -->\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 3, None),), ()),
            id="inline_code_span_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb -->\n  <!-- review-note: kept seeded uses:1 -->\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 4, None),), ()),
            id="note_after_the_footer_in_a_section",
        ),
        pytest.param(
            "- Use pnpm\n- Use vitest\n- [ ] Use biome\n  <!-- id: tool-chain -->\n",
            "## S\n",
            ("facts", (("tool-chain", 1, 5, None),), ()),
            id="one_footer_closing_a_group_in_a_section",
        ),
        pytest.param(  # a thread keeps its checkbox: the plain bullets above it are left out
            "- Use pnpm\n- Use vitest\n- [ ] Use biome\n  <!-- id: tool-chain -->\n",
            "## Open Threads\n",
            ("facts", (("tool-chain", 3, 5, " "),), ((1, 2), (2, 3))),
            id="one_footer_under_plain_bullets_closing_a_thread",
        ),
        pytest.param(
            "- Use pnpm\n\n- Use biome\n  <!-- id: tool-chain -->\n",
            "## S\n",
            ("facts", (("tool-chain", 3, 5, None),), ((1, 2),)),
            id="a_blank_line_ends_a_group_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- review-note: first -->\n  <!-- id: aa-bb -->\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 4, None),), ()),
            id="comment_before_the_footer_in_a_section",
        ),
        pytest.param(
            "- never write `<!--` in text\n  <!-- id: aa-bb -->\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 3, None),), ()),
            id="comment_opener_in_a_code_span_in_a_section",
        ),
        pytest.param(
            "- a `code` <!-- left open\n  <!-- id: aa-bb -->\n",
            "## S\n",
            ("error", COMMENT_LEFT_OPEN, 2),
            id="comment_left_open_in_a_section",
        ),
        pytest.param(
            "- a\n  <!-- id: aa-bb -->\n  - a later note\n  <!-- review-note: x -->\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 5, None),), ()),
            id="addendum_then_note_after_the_footer_in_a_section",
        ),
        pytest.param(
            "- a ```x``` b\n  ```\n  code\n  ```\n  <!-- id: aa-bb -->\n",
            "## S\n",
            ("facts", (("aa-bb", 1, 6, None),), ()),
            id="inline_span_then_fence_in_a_section",
        ),
    ],
)
def test_odd_items(item: str, section: str, expected: object) -> None:
    assert reading(section + item) == expected


# -- generated footers and documents -----------------------------------------------------


def one_in(draw: st.DrawFn, count: int) -> bool:
    return draw(st.integers(0, count - 1)) == 0


# Each key with values it may hold, then keys and values a footer should not have.
GOOD = {
    "created": ["2026-01-02", "2024-02-29"],
    "last_used": ["2026-03-01"],
    "uses": ["3", "03", "12"],
    "tier": ["active", "core", "archived"],
    "section": ["Notes on C#", "Gotchas"],
    "origin": ["2026-03-01-090000", "a:b"],
    "supersedes": ["aa-bb", ""],
    "reviewed-by": ["ci-bot", "x y"],
}
ODD_KEYS = ["id", "superseded-by", "Id", "x y", "", "a_b", "9k", "tier"]
ODD_VALUES = ["Bad", "2026-02-30", "٣", "", "x-", "a|b", "<!--", "-->", "a->b", "\xa0v\xa0", "\tt"]
ODD_VALUES += ["a--b", "2024-02-29x", "2023-02-29"]
SPACE = st.sampled_from(["", " ", " ", " ", "  ", "\t", "\xa0"])


@st.composite
def segment(draw: st.DrawFn, key: str) -> str:
    value = draw(st.sampled_from(ODD_VALUES if one_in(draw, 10) else GOOD.get(key, ["x"])))
    if one_in(draw, 30):
        return draw(SPACE) + key + draw(SPACE)  # no colon
    separator = draw(st.sampled_from([": ", ": ", ": ", ":", " : ", ":\t", "::"]))
    return draw(SPACE) + key + separator + value + draw(SPACE)


# Ids that are not kebab-case, or nearly not, and id fields spaced oddly.
ODD_IDS = [" id: Bad ", " id: aa-bb: x ", " id: aa- ", " id: a-b--c ", " id: aa-bb- ", "id:aa-b"]
ODD_IDS += [" id: 9a-b ", " id: a1-b2-c3 ", "\xa0id\xa0:\xa0gg-hh\xa0", " id: ab ", " id: -ab "]


@st.composite
def footer_lines(draw: st.DrawFn) -> str:
    """A footer line: mostly one that reads, sometimes anything a person might write."""
    keys = draw(st.lists(st.sampled_from(list(GOOD)), unique=True, max_size=6))
    if one_in(draw, 8):
        keys.insert(draw(st.integers(0, len(keys))), draw(st.sampled_from(ODD_KEYS)))
    fields = [draw(segment(key)) for key in keys]
    if not one_in(draw, 8):
        fields.insert(0, draw(st.sampled_from([" id: aa-bb ", "id:cc-dd-1", " id : ee-ff\t"])))
    elif one_in(draw, 2):
        fields.insert(0, draw(st.sampled_from(ODD_IDS)))
    if not fields:
        fields = [" "]
    indent = draw(st.sampled_from(["", "  ", "  ", "\t", " \t"]))
    opening, closing, trail = "<!--", "-->", draw(st.sampled_from(["", "", " ", "\t"]))
    if one_in(draw, 6):
        opening = draw(st.sampled_from(["<!-", "<!--<!--", "x <!--"]))
    if one_in(draw, 6):
        closing = draw(st.sampled_from(["--", "-->-->", "--->", "-- >"]))
    if one_in(draw, 6):
        trail = draw(st.sampled_from([" x", "\xa0"]))
    return indent + opening + "|".join(fields) + closing + trail


HEADINGS = ["## Gotchas", "## Notes on C#", "### Sub", "# Continuity", "##", "####### x", " ## No"]
BULLETS = ["- text", "* star", "+ plus", "- [ ] open", "- [x] done", "- [X] Done", "-\ttab", "-"]
BULLETS += ["- a < b", "- `code`", "- ```inline```", "- ~~~", "- [ ]", "-text", "- text"]
TEXT = [
    "  more",
    "\tmore",
    "    - nested",
    "  * nested",
    "  # heading-ish",
    "  x ``` y",
    "  ~~ two",
]
TEXT += ["", "", "  ", "\t\t", "\xa0", " \xa0x", "  a < b", "  more"]
TEXT += ["  <b>", "  `x`", "  ~x", "  a --> b", "  a -- b", "\t<", " ~~", "  -->"]
ODD_TEXT = ["  <!-- note -->", "  text <!-- id: aa-bb -->", "  <!-- id: aa-bb -->", "flush left"]
ODD_TEXT += ["<!-- id: zz-zz -->", "  ```", "  ~~~", "  ````", "  ```python", "- text <!-- c -->"]
OTHER = [
    "text",
    "Paragraph.",
    "<!-- comment -->",
    "| table |",
    "",
    "",
    "  ",
    "\xa0",
    "* footerless",
]
ODD_OTHER = ["  - indented item", "  <!-- note -->", "<<<<<<< HEAD", "=======", "x <<<<<<<"]
ODD_OTHER += ["<!-- id: aa-bb -->", "<!-- tier: core -->", "\t<!-- id: aa-bb -->", "```", "~~~"]
FENCES = [["```", "- x", "  <!-- id: zz-zz -->", "```"], ["~~~", "## not a heading", "~~~"]]
FENCES += [["````", "```", "- y", "````"], ["```python", "code", "```\t"], ["```", "x", "``` no"]]
AFTER = [["", "  late"], ["<!-- id: zz-yy -->"], ["<!-- note -->"], ["  trailing"], ["", "x"]]
AFTER += [["\xa0", "  late"], ["", "\xa0", "  late"], ["<!-- id: zz-yy -->", "  late"]]


@st.composite
def fact_lines(draw: st.DrawFn, number: int) -> list[str]:
    """A list item: mostly a usual fact, sometimes anything a person might write."""
    lines = [draw(st.sampled_from(BULLETS))]
    for _ in range(draw(st.integers(0, 3))):
        lines.append(draw(st.sampled_from(ODD_TEXT if one_in(draw, 25) else TEXT)))
    if one_in(draw, 6):  # a fence in the item, closed or not
        fence = draw(st.sampled_from(["  ```", "  ~~~", "\t````"]))
        lines.append(fence)
        content = st.sampled_from(["  x", "", "- not an item", "## no"])
        lines.extend(draw(st.lists(content, max_size=2)))
        lines.extend(draw(st.sampled_from([[fence], [fence], ["  ```"], ["  ~~~"], ["```"], []])))
    fact_id = "dd-dd" if one_in(draw, 20) else f"f{number}-x"
    if one_in(draw, 12):
        fact_id = draw(st.sampled_from(["a-b--c", "aa-bb-", "Aa-bb", "9a-b", "ab", "a-b-c1"]))
    shape = draw(st.integers(0, 19))
    if shape < 14:
        indent = draw(st.sampled_from(["  ", "  ", "\t", "    ", " "]))
        fields = draw(
            st.sampled_from(
                ["", " | tier: core", " | created: 2026-01-02 | uses: 3 | tier: active"]
            )
        )
        if one_in(draw, 8):  # no spaces, or odd ones
            fields = draw(st.sampled_from(["|tier:core", " | uses: 3|uses: 4", " | a--b: c"]))
            lines.append(f"{indent}<!--id:{fact_id}{fields}-->")
        else:
            lines.append(f"{indent}<!-- id: {fact_id}{fields} -->")
    elif shape < 16:
        if one_in(draw, 3):
            lines.append(draw(st.sampled_from(["", "  ", "\t"])))  # a blank line above it
        lines.append(f"<!-- id: {fact_id} | tier: core -->")  # flush left, right below
    elif shape < 18:
        lines.append(draw(footer_lines()))
    if one_in(draw, 8):
        lines.extend(draw(st.sampled_from(AFTER)))
    return lines


@st.composite
def documents(draw: st.DrawFn) -> str:
    """Memory documents, mostly well formed, with the odd shapes the reader handles."""
    lines = ["# Continuity", ""]
    if not one_in(draw, 10):
        lines.append("## Gotchas")
    for number in range(draw(st.integers(0, 14))):
        kind = draw(st.integers(0, 19))
        if kind < 12:
            lines.extend(draw(fact_lines(number)))
        elif kind < 14:
            lines.append(draw(st.sampled_from(HEADINGS)))
        elif kind < 15:
            lines.extend(draw(st.sampled_from(FENCES)))
        else:
            lines.append(draw(st.sampled_from(ODD_OTHER if one_in(draw, 15) else OTHER)))
    endings = draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    text = ""
    for line in lines:
        text += line + (draw(st.sampled_from(["\n", "\r\n"])) if endings == "mixed" else endings)
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text


# -- documents -----------------------------------------------------------------------------


@MORE
@given(documents(), st.booleans())
def test_property_any_document_reads_or_names_a_line(text: str, unique: bool) -> None:
    file = TextFile("memory/continuity.md", split_lines(text))
    try:
        document = parse_document(file, unique_ids=unique)
    except ParseError as error:
        assert error.path == "memory/continuity.md"
        assert error.line is not None and 1 <= error.line <= max(1, len(file.lines))
        return
    for fact in document.facts:
        assert fact.start < fact.end <= len(file.lines)
        assert looks_like_footer(document.lines[fact.footer_index].rstrip("\r\n"))
        assert fact.section  # a fact outside a section is refused
    if unique:
        assert len({fact.id for fact in document.facts}) == len(document.facts)
    # The scanners' reading of fact text (which refuses nothing) is the parser's.
    spans = [range(fact.start, fact.footer_index) for fact in document.facts]
    assert fact_text_spans(file.lines) == spans
    if "\r" not in text.replace("\r\n", ""):  # what decode accepts reads the same
        decoded = decode(text.encode(), "memory/continuity.md")
        assert parse_document(decoded, unique_ids=unique) == document


# Documents CommonMark reads as mdmem does, by design: every block is separated from the
# next by a blank line but for items and their continuation lines, continuation lines are
# indented by two spaces, and a fence inside an item is closed inside it. (Where they part
# on purpose, mdmem reads as a person would: a footer written flush left right under its
# item closes the item, and a fence opened in an item runs on until it closes.)
CM_TEXT = [
    "plain words",
    "```make test``` runs it all",
    "``` and ``` in one line",
    "a `span` here",
    "run ```make test``` first",
    "a < b",
    "x ~~~ y",
]
CM_HEADINGS = ["## Gotchas", "### Sub", "## Notes on C#", "##   Spaced  ##"]
CM_FENCES = [["```", "- not an item", "## not a heading", "```"], ["~~~ sh", "```", "~~~"]]
CM_FENCES += [["````md", "```", "````"], ["```python", "x = 1", "```"]]


@st.composite
def cm_item(draw: st.DrawFn, number: int) -> list[str]:
    bullet = draw(st.sampled_from(["- ", "* ", "+ ", "- [ ] ", "- [x] "]))
    lines = [bullet + draw(st.sampled_from(CM_TEXT))]
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            lines.append("  " + draw(st.sampled_from(CM_TEXT)))
        elif kind == 1:
            lines += ["  ```", "  code", "  ```"]
        elif kind == 2:
            lines += ["", "  " + draw(st.sampled_from(CM_TEXT))]
        else:
            lines.append("  - nested " + draw(st.sampled_from(CM_TEXT)))
    if draw(st.booleans()):
        lines.append(f"  <!-- id: fact-{number} | tier: active -->")
    return lines


@st.composite
def cm_documents(draw: st.DrawFn) -> str:
    lines: list[str] = ["# Continuity", "", "## Section", ""]
    for number in range(draw(st.integers(1, 8))):
        kind = draw(st.integers(0, 5))
        if kind <= 2:
            lines += draw(cm_item(number))
            if draw(st.booleans()):
                continue  # the next block follows at once: items only
            if lines[-1].startswith("- ") or kind:
                pass
        elif kind == 3:
            lines.append(draw(st.sampled_from(CM_HEADINGS)))
        elif kind == 4:
            lines += draw(st.sampled_from(CM_FENCES))
        else:
            lines.append(draw(st.sampled_from(CM_TEXT)))
        lines.append("")
    return "\n".join(_separated(lines)) + "\n"


def _separated(lines: list[str]) -> list[str]:
    """A blank line before any block that would otherwise continue an item lazily."""
    out: list[str] = []
    for line in lines:
        starts_block = line and not line.startswith((" ", "- ", "* ", "+ "))
        if starts_block and out and out[-1] != "":
            out.append("")
        out.append(line)
    return out


Blocks = tuple[set[tuple[int, int]], set[tuple[int, int]], set[int]]


def commonmark_blocks(text: str) -> Blocks:
    """markdown-it's top-level headings (line, level), fenced blocks (first, last line, at
    any depth) and top-level list items (first line) of a text, 0-based."""
    headings, fences, items = set(), set(), set()
    for token in MarkdownIt("commonmark").parse(text):
        assert token.map is not None or token.nesting != 1 or token.type == "inline"
        if token.type == "heading_open" and token.level == 0 and token.map:
            headings.add((token.map[0], len(token.markup)))
        elif token.type == "fence" and token.map:
            fences.add((token.map[0], token.map[1] - 1))
        elif token.type == "list_item_open" and token.level == 1 and token.map:
            items.add(token.map[0])
    return headings, fences, items


def mdmem_blocks(
    text: str, document: Document
) -> tuple[set[tuple[int, int]], set[tuple[int, int]], set[int]]:
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    fences = {
        (starts.index(first), starts.index(last) if last in starts else len(lines) - 1)
        for first, last in fenced_blocks(text)
    }
    headings = set()
    for number, line in enumerate(lines):
        found = heading(line)
        inside = any(first <= number <= last for first, last in fences)
        item_line = any(i.start <= number < i.end for i in (*document.facts, *document.footerless))
        if found is not None and found[0] <= 6 and not inside and not item_line:
            headings.add((number, found[0]))
    # A fact may be a group of list items closed by one footer: each of its lines that
    # opens an item at the margin is an item of its own to CommonMark.
    items = {
        number
        for item in (*document.facts, *document.footerless)
        for number in range(item.start, item.end)
        if lines[number][:2] in ("- ", "* ", "+ ")
    }
    return headings, fences, items


@MORE
@given(cm_documents())
def test_property_block_boundaries_agree_with_commonmark(text: str) -> None:
    document = parse_document(TextFile("memory/continuity.md", split_lines(text)))
    assert mdmem_blocks(text, document) == commonmark_blocks(text)


def test_an_inline_code_span_with_triple_backticks_is_no_fence() -> None:
    text = "## Gotchas\n\n- Before a push:\n  ```make test``` runs it all\n"
    text += "  <!-- id: run-make-test -->\n"
    document = parse_document(TextFile("memory/continuity.md", split_lines(text)))
    assert [fact.id for fact in document.facts] == ["run-make-test"]
    assert commonmark_blocks(text)[1] == set()  # CommonMark: a code span, not a fence
    assert fenced_blocks(text) == []
    prose = "## Gotchas\n\n```make test``` runs it all.\n\n- A fact\n  <!-- id: a-fact -->\n"
    document = parse_document(TextFile("memory/continuity.md", split_lines(prose)))
    assert [fact.id for fact in document.facts] == ["a-fact"]


# -- footers -------------------------------------------------------------------------------


@given(footer_lines())
@example("  <!-- id: aa-bb | note: a-->b -->")
@example("  <!-- id: aa-bb | tier: core | tier: core -->")
@example("<!--id:aa-bb|x y: 1-->")
@example("\t<!-- id: aa-bb | created: 2026-02-30 -->")
@example("<!-- id: Aa-bb | uses: 3 -->")
@example("<!-- uses: 3 | id: aa-bb -->")
@example("<!-- id: aa-bb | uses: 3 | id: cc-dd -->")
def test_property_a_footer_renders_as_read_or_names_its_line(line: str) -> None:
    read = outcome(lambda: parse_footer(line, "continuity.md", 7))
    if isinstance(read, Footer):
        assert read.render() == line
        assert read.values == {field.key: field.value for field in read.fields}
    else:
        assert isinstance(read, tuple) and read[1:] == ("continuity.md", 7)


def updated_field_by_field(footer: Footer, changes: Mapping[str, str | None]) -> tuple[Field, ...]:
    """The edit the plain way: each field's own segment rewritten, new fields in place."""
    field = re.compile(r"^(\s*[A-Za-z][A-Za-z0-9_-]*\s*:\s*)(.*?)(\s*)$")
    fields: list[Field] = []
    for old in footer.fields:
        value = changes.get(old.key, old.value)
        if value is None:
            continue
        if value == old.value:
            fields.append(old)
            continue
        match = field.match(old.segment)
        assert match is not None
        fields.append(Field(old.key, value, match[1] + value + (match[3] or " ")))
    for key, value in changes.items():
        if value is None or key in footer.values:
            continue
        rank = CANONICAL.index(key) if key in CANONICAL else len(CANONICAL)
        ranks = [CANONICAL.index(f.key) if f.key in CANONICAL else None for f in fields]
        position = 1 + max([i for i, r in enumerate(ranks) if r is not None and r <= rank] + [0])
        before = fields[position - 1]
        if not before.segment.endswith((" ", "\t")):
            fields[position - 1] = Field(before.key, before.value, before.segment + " ")
        fields.insert(position, Field(key, value, f" {key}: {value} "))
    return tuple(fields)


CHANGES = st.dictionaries(
    st.sampled_from(["uses", "last_used", "tier", "origin", "section", "note", "helpful"]),
    st.none() | st.sampled_from(["5", "2026-01-02", "active", "x", "", "a b"]),
    max_size=4,
)


@given(footer_lines(), CHANGES, CHANGES)
@example("  <!-- id: aa-bb | uses:2| tier: core -->", {"uses": "5"}, {"tier": None})
@example("<!-- id: aa-bb|tier:core-->", {"origin": "x"}, {"uses": "1", "tier": None})
def test_property_updated_edits_each_field_in_place(
    line: str, first: dict[str, str | None], then: dict[str, str | None]
) -> None:
    read = outcome(lambda: parse_footer(line, "continuity.md", 7))
    footers = [read] if isinstance(read, Footer) else []
    footers.append(new_footer("  ", {"id": "aa-bb", "tier": "core", "note": "x"}))
    for footer in footers:
        once = footer.updated(first)
        assert once.fields == updated_field_by_field(footer, first)
        assert once.values == {field.key: field.value for field in once.fields}
        twice = once.updated(then)
        assert twice.fields == updated_field_by_field(once, then)
        inner = "|".join(field.segment for field in twice.fields)
        assert twice.render() == f"{footer.indent}<!--{inner}-->{footer.trail}"
        if not first:
            assert once is footer


@given(
    st.lists(st.sampled_from(["a\n", "b\r\n", "\r\n", "\n", "c\r", "d", "e\r\r\n"]), max_size=12)
)
def test_property_newline_counts_the_endings_of_the_lines(lines: list[str]) -> None:
    """`TextFile.newline` counts over the text what the line-by-line count gives."""
    crlf = sum(1 for line in lines if line.endswith("\r\n"))
    lf = sum(1 for line in lines if line.endswith("\n")) - crlf
    expected = "\r\n" if crlf > lf else "\n"
    assert TextFile("f.md", tuple(lines)).newline == expected
    text = "".join(lines)
    if "\r" not in text.replace("\r\n", ""):  # what `decode` accepts
        assert decode(text.encode("utf-8"), "f.md").newline == expected


def footer_ids_by_lines(text: str) -> list[str]:
    """`footer_ids` as first written: every line through `looks_like_footer`."""
    ids = []
    for line in text.split("\n"):
        if "<!--" in line and looks_like_footer(line):
            key, _, rest = line.strip()[4:].partition(":")
            if key.strip() == "id":
                ids.append(rest.split("|", 1)[0].split("-->", 1)[0].strip())
    return ids


FOOTERISH = st.lists(
    st.sampled_from(
        [
            "<!-- id: a-b | uses: 1 -->",
            "  <!--id:c-d-->",
            "\t<!-- id : e-f | tier: core -->  ",
            "<!-- idx: g-h -->",
            "<!-- id-x: i-j -->",
            "<!-- uses: 2 | id: k-l -->",
            "<!-- ID: m-n -->",
            "text <!-- id: o-p -->",
            "<!-- id: q-r",
            "<!-- id:",
            "\u00a0<!--\u2003id\u2003: s-t -->\u00a0",
            "\x1c<!-- id: u-v -->",
            "\x0b<!-- id: w-x -->\r",
            "<!-- id: y-z --> trailing",
            "",
            "- a fact",
            "\r",
            "<!--",
            "id: zz-top -->",
            "  ",
        ]
    ),
    max_size=10,
)


@given(FOOTERISH, st.sampled_from(["\n", "\r\n"]))
def test_property_footer_ids_equal_the_line_by_line_count(lines: list[str], end: str) -> None:
    text = end.join(lines)
    assert footer_ids(text) == footer_ids_by_lines(text)


# -- headings and lines ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param("## Notes on C# ", (2, "Notes on C#"), id="hash_in_a_word_kept"),
        pytest.param("#\n", (1, ""), id="bare_hash"),
        pytest.param("## x #\n", (2, "x"), id="closing_run_dropped"),
        pytest.param("##\tTitle ##", (2, "Title"), id="tab_and_closing_run"),
        pytest.param("####### seven", None, id="seven_is_no_heading"),
        pytest.param("#hashtag", None, id="no_blank_after_the_hashes"),
        pytest.param("#\xa0x", None, id="no_break_space_is_no_blank"),
        pytest.param("## a\nb", None, id="a_newline_inside"),
    ],
)
def test_headings(line: str, expected: tuple[int, str] | None) -> None:
    assert heading(line) == expected


# What `str.splitlines` also breaks at: rare in a text, so a text draws mostly the others.
BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
LINE_PARTS = ["a", "é", "\n", "\r\n", "\r"] * 4 + BREAKS


@given(st.lists(st.sampled_from(LINE_PARTS)).map("".join))
@example("a\ra")
@example("\r\r\n")
@example("a\x85b\n")
@example("a\u2028")
def test_property_split_lines_splits_at_lf_only(text: str) -> None:
    lines = split_lines(text)
    assert "".join(lines) == text
    assert all(line and "\n" not in line[:-1] for line in lines)
    assert all(line.endswith("\n") for line in lines[:-1])


def test_an_addendum_under_the_footer_is_read_as_the_facts_text() -> None:
    text = (
        "## S\n\n- Ports the graph\n  <!-- id: port-graph -->\n  Design drafted later\n"
        "  <!-- review-note: kept -->\n"
    )
    document = parse_document(TextFile("memory/continuity.md", split_lines(text)))
    (fact,) = document.facts
    assert [line.strip() for line in document.fact_words(fact)] == [
        "- Ports the graph",
        "Design drafted later",
    ]
    assert [line.strip() for line in document.fact_notes(fact)] == [
        "Design drafted later",
        "<!-- review-note: kept -->",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "## S\n\n- Pin the compiler\n- Lint in CI\n  <!-- id: build-rules -->\n",
            ("facts", (("build-rules", 2, 5, None),), ()),
            id="a_list_closed_by_one_footer_is_one_fact",
        ),
        pytest.param(
            "## S\n- Keep the queue small\n  <!-- id: queue-small -->\n"
            "- Retry on timeouts\n- Log each retry\n  <!-- id: retry-logged -->\n",
            ("facts", (("queue-small", 1, 3, None), ("retry-logged", 3, 6, None)), ()),
            id="a_list_right_under_a_fact",
        ),
        pytest.param(
            "## Open Threads\n\n- Notes on the port\n- [ ] Port the writer\n"
            "  <!-- id: port-writer -->\n",
            ("facts", (("port-writer", 3, 5, " "),), ((2, 3),)),
            id="a_plain_bullet_above_a_thread_is_left_out",
        ),
        pytest.param(
            "## Open Threads\n\n- [ ] Port the parser\n- [ ] Port the writer\n"
            "  <!-- id: port-writer -->\n",
            ("facts", (("port-writer", 3, 5, " "),), ((2, 3),)),
            id="a_thread_that_lost_its_footer_is_left_out",
        ),
        pytest.param(
            "## Open Threads\n\n- [x] Ship the parser\n- Notes on the port\n- Kept the old API\n"
            "  <!-- id: ship-parser -->\n",
            ("facts", (("ship-parser", 2, 6, "x"),), ()),
            id="plain_bullets_under_a_done_thread_are_its_text",
        ),
        pytest.param(
            "## Open Threads\n\n- Background\n- [ ] Port the writer\n- Keep the old API\n"
            "  <!-- id: port-writer -->\n",
            ("facts", (("port-writer", 3, 6, " "),), ((2, 3),)),
            id="the_group_starts_at_the_last_task_item",
        ),
        pytest.param(
            "## Open Threads\n\n- [x] Ship the parser\n- Notes on the port\n- [ ] Port the writer\n"
            "  <!-- id: port-writer -->\n",
            ("facts", (("port-writer", 4, 6, " "),), ((2, 3), (3, 4))),
            id="a_done_thread_and_its_notes_above_an_open_one",
        ),
        pytest.param(
            "## Open Threads\n\n- Background\n\n- [ ] Port the writer\n- Keep the old API\n"
            "  <!-- id: port-writer -->\n",
            ("facts", (("port-writer", 4, 7, " "),), ((2, 3),)),
            id="a_blank_line_ends_the_list",
        ),
        pytest.param(
            "## Release\n\n- Release in this order:\n- [ ] Bump the version\n- [ ] Tag it\n"
            "  <!-- id: release-steps -->\n",
            ("facts", (("release-steps", 2, 6, None),), ()),
            id="steps_in_another_section_are_one_fact",
        ),
    ],
)
def test_which_items_a_footer_closes(text: str, expected: object) -> None:
    """One footer closes a list (SPEC §3), under Open Threads from its last task item down:
    a thread keeps its checkbox, and what is above it stays footerless; elsewhere a list of
    steps is one fact. The scanners read the same texts."""
    assert reading(text) == expected
    document = parse_document(TextFile("memory/continuity.md", split_lines(text)))
    spans = [range(fact.start, fact.footer_index) for fact in document.facts]
    assert fact_text_spans(document.lines) == spans


def test_the_bullets_a_footer_leaves_out_are_legacy_facts_lint_names() -> None:
    text = "## Open Threads\n\n- Notes on the port\n- [ ] Port the writer\n"
    text += "  <!-- id: port-writer -->\n"
    document = parse_document(TextFile("memory/continuity.md", split_lines(text)))
    assert [(item.start, item.end) for item in document.legacy_facts()] == [(2, 3)]
