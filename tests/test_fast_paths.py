"""The whole-text readings against the plain ones they stand in for (property_ tests).

- a document read with the usual fact taken in one regular-expression step (`_parse`
  with `whole_text=True`, what `parse_document` does) gives what the line-by-line reading
  gives: the same sections, facts, footers and footerless items, or the same error;
- `usual_footer` and `read_usual_footer` read a footer exactly as `parse_footer` does,
  whenever they read one;
- `Footer.updated` gives what the field-by-field edit of `Footer.fields` gives;
- `heading` reads a line as the regular expression it replaced, and `split_lines` splits a
  text as `str.split` on LF does;
- facts and footers made without their frozen `__init__` equal the ones it makes.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from mdmem.errors import ParseError
from mdmem.format import document
from mdmem.format.document import Fact, _made_fact, _parse, heading, parse_document
from mdmem.format.footer import (
    CANONICAL,
    USUAL_INNER,
    USUAL_INNER_ID,
    Field,
    Footer,
    _made_footer,
    footer_ids,
    looks_like_footer,
    new_footer,
    parse_footer,
    read_usual_footer,
    usual_footer,
)
from mdmem.format.textfile import TextFile, decode, split_lines

MORE = settings(max_examples=settings.default.max_examples * 2)

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
def footer_lines(draw: st.DrawFn, usual: bool = False) -> str:
    """A footer line: mostly one that reads, sometimes anything a person might write.

    `usual`: always of the shape `usual_footer` is asked about (`<!--`, an `id` field
    first, `-->`, spaces and tabs around), whatever its fields hold.
    """
    keys = draw(st.lists(st.sampled_from(list(GOOD)), unique=True, max_size=6))
    if one_in(draw, 8):
        keys.insert(draw(st.integers(0, len(keys))), draw(st.sampled_from(ODD_KEYS)))
    fields = [draw(segment(key)) for key in keys]
    if not one_in(draw, 8):
        fields.insert(0, draw(st.sampled_from([" id: aa-bb ", "id:cc-dd-1", " id : ee-ff\t"])))
    elif usual or one_in(draw, 2):
        fields.insert(0, draw(st.sampled_from(ODD_IDS)))
    if not fields:
        fields = [" "]
    indent = draw(st.sampled_from(["", "  ", "  ", "\t", " \t"]))
    opening, closing, trail = "<!--", "-->", draw(st.sampled_from(["", "", " ", "\t"]))
    if not usual and one_in(draw, 6):
        opening = draw(st.sampled_from(["<!-", "<!--<!--", "x <!--"]))
    if not usual and one_in(draw, 6):
        closing = draw(st.sampled_from(["--", "-->-->", "--->", "-- >"]))
    if not usual and one_in(draw, 6):
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


def outcome(read: object) -> object:
    """A document, or the error (message, file, line) reading it raised."""
    try:
        return read()  # type: ignore[operator]
    except ParseError as error:
        return (error.message, error.path, error.line)


def assert_readings_agree(text: str, unique: bool) -> None:
    file = TextFile("memory/continuity.md", split_lines(text))
    by_lines = outcome(lambda: _parse(file, unique, whole_text=False))
    assert outcome(lambda: _parse(file, unique, whole_text=True)) == by_lines
    if "\r" not in text.replace("\r\n", ""):  # decode refuses a lone CR
        decoded = decode(text.encode(), "memory/continuity.md")
        assert outcome(lambda: parse_document(decoded, unique_ids=unique)) == by_lines


@MORE
@given(documents(), st.booleans())
def test_property_whole_text_reading_agrees_with_line_by_line(text: str, unique: bool) -> None:
    assert_readings_agree(text, unique)


@pytest.mark.parametrize(
    "item",
    [
        pytest.param("- a\n  <!-- id: aa-bb -->\n\n\xa0\n  late\n", id="nbsp_blank_then_indented"),
        pytest.param("- a\n\n<!-- id: aa-bb -->\n", id="flush_left_after_a_blank"),
        pytest.param("- a\n  <!-- id: aa-bb -->\n<!-- id: cc-dd -->\n", id="flush_left_below"),
        pytest.param("* a\n<!-- id: aa-bb -->\n  indented below\n", id="indented_below_flush_left"),
        pytest.param("- a\n  <!-- id: aa-bb -->\n  more\n", id="text_after_the_footer"),
        pytest.param("- a\n  ~~~\n  <!-- id: aa-bb -->\n", id="tilde_fence_left_open"),
        pytest.param("- a\n  ```\n  <!-- id: aa-bb -->\n  ```\n", id="footer_in_a_fence"),
        pytest.param("- a\n  ```\n  <!-- id: aa-bb -->\n\n- b\n```\n", id="fence_runs_on"),
        pytest.param("- a <!-- x -->\n  <!-- id: aa-bb -->\n", id="comment_in_the_text"),
        pytest.param("- a\n  <!-- id: aa-bb | note: a-->b -->\n", id="closing_in_a_value"),
        pytest.param("- a\n  <!-- id: aa-bb | tier: core | tier: core -->\n", id="key_twice"),
        pytest.param("- a\n  <!-- id: aa-bb | x y: 1 -->\n", id="key_with_a_space"),
        pytest.param("- a\n  <!-- id: aa-bb | uses: ٣ -->\n", id="uses_other_digit"),
        pytest.param("- a\n  <!-- id: Aa-bb -->\n", id="id_not_kebab_case"),
        pytest.param(
            "- [x] a\n\n  text\n\n  <!-- id: aa-bb -->\n\n## T\n", id="blank_lines_inside"
        ),
        pytest.param("- a\r\n  <!-- id: aa-bb -->", id="crlf_and_no_last_ending"),
        pytest.param("- a\n  <!-- id: aa-bb -->\r", id="lone_cr_after_the_footer"),
    ],
)
@pytest.mark.parametrize("section", ["## S\n", ""])
def test_odd_items_read_alike(section: str, item: str) -> None:
    assert_readings_agree(section + item, unique=True)


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(("a\nb\n", "c\n"), id="two_lines_in_one"),
        pytest.param(("- a\n", "", "  <!-- id: aa-bb -->\n"), id="an_empty_line"),
        pytest.param(("## S\n", "- a", "  <!-- id: aa-bb -->\n"), id="a_line_without_ending"),
    ],
)
def test_lines_that_do_not_split_back_are_read_line_by_line(lines: tuple[str, ...]) -> None:
    file = TextFile("memory/continuity.md", lines)
    assert outcome(lambda: parse_document(file)) == outcome(
        lambda: _parse(file, True, whole_text=False)
    )


USUAL = (
    "# Continuity\r\n\r\n## Gotchas\r\n\r\n"
    "- Fake timers break BullMQ\r\n  <!-- id: fake-timers | created: 2026-03-01 | uses: 1 -->\r\n"
    "- [ ] Wraps over\r\n  two lines, with a < b\r\n\r\n    - and a nested bullet\r\n"
    "\t<!--id:wrapped-fact|tier:core|reviewed-by: ci -->  \r\n"
    "* Footer flush left below\r\n<!-- id: flush-left -->\r\n\r\n## Notes\r\n"
    "+ Last line has no ending\r\n  <!-- id: last-line | origin: 2026-03-01-090000 -->"
)


def test_usual_facts_take_the_one_step_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """The usual fact never reaches the line-by-line reading (or the speed is gone)."""
    file = decode(USUAL.encode(), "continuity.md")
    by_lines = _parse(file, True, whole_text=False)

    def line_by_line(*args: object) -> None:
        raise AssertionError(f"read line by line: {args[1:]}")

    for name in ("_item_end", "_read_item", "parse_footer"):
        monkeypatch.setattr(document, name, line_by_line)
    read = parse_document(file)
    assert read == by_lines
    assert [(fact.id, fact.line, fact.end, fact.checkbox) for fact in read.facts] == [
        ("fake-timers", 5, 6, None),
        ("wrapped-fact", 7, 11, " "),
        ("flush-left", 12, 13, None),
        ("last-line", 16, 17, None),
    ]


# -- footers -------------------------------------------------------------------------------

_USUAL_LINE = re.compile(rf"([ \t]*)<!--({USUAL_INNER})-->([ \t]*)")
_USUAL_ID_LINE = re.compile(rf"([ \t]*)<!--({USUAL_INNER_ID})-->([ \t]*)")


@given(footer_lines(usual=True))
@example("  <!-- id: aa-bb | note: a-->b -->")
@example("  <!-- id: aa-bb | tier: core | tier: core -->")
@example("<!--id:aa-bb|x y: 1-->")
@example("\t<!-- id: aa-bb | created: 2026-02-30 -->")
@example("<!-- id: Aa-bb | uses: 3 -->")
@example("<!--id:aa-bb-->")
@example("<!-- id: a-b--c -->")
@example("<!-- id: aa-bb- | uses: 3 -->")
@example("<!-- id: aa-bb | note: a--b -->")
def test_property_usual_footer_reads_as_parse_footer(line: str) -> None:
    shape = _USUAL_LINE.fullmatch(line)
    assert shape is not None, "footer_lines(usual=True) drew a line of another shape"
    read = outcome(lambda: parse_footer(line, "continuity.md", 7))
    footer = usual_footer(*shape.groups())
    event("read by usual_footer" if footer is not None else "left to parse_footer")
    if footer is not None:  # None leaves the line to parse_footer, which may refuse it
        assert footer == read
        assert isinstance(read, Footer)
        assert footer.fields == read.fields
        assert footer.render() == read.render() == line
    # What the document reader takes: the same footer, for every line that reads as usual.
    with_id = _USUAL_ID_LINE.fullmatch(line)
    assert with_id is not None or footer is None
    if with_id is not None:
        indent, inner, fact_id, trail = with_id.groups()
        assert read_usual_footer(indent, inner, fact_id, trail) == footer


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


# -- headings, lines, and values made without __init__ ------------------------------------

_HEADING = re.compile(r"^(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")


def heading_by_regex(line_body: str) -> tuple[int, str] | None:
    """`heading` as first written, with a regular expression."""
    if not line_body.startswith("#"):
        return None
    match = _HEADING.match(line_body)
    if match is None:
        return None
    title = match[2] or ""
    unclosed = title.rstrip("#")
    if not unclosed or unclosed[-1] in " \t":
        title = unclosed
    return len(match[1]), title.strip()


@given(
    st.lists(st.sampled_from(["#", "##", " ", "\t", "x", "C#", "\n", "\r", "\xa0"])).map("".join)
)
@example("## Notes on C# ")
@example("#\n")
@example("## x #\n")
@example("####### seven")
def test_property_heading_reads_as_the_regular_expression(line: str) -> None:
    assert heading(line) == heading_by_regex(line)


def split_at_lf(text: str) -> tuple[str, ...]:
    parts = text.split("\n")
    return tuple([part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else []))


# What `str.splitlines` also breaks at: rare in a text, so a text draws mostly the others.
BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
LINE_PARTS = ["a", "é", "\n", "\r\n", "\r"] * 4 + BREAKS


@given(st.lists(st.sampled_from(LINE_PARTS)).map("".join))
@example("a\ra")
@example("\r\r\n")
@example("a\x85b\n")
@example("a\u2028")
def test_property_split_lines_splits_at_lf_only(text: str) -> None:
    assert split_lines(text) == split_at_lf(text)


def test_made_values_equal_the_ones_init_makes() -> None:
    footer = Footer("  ", (" id: aa-bb ", " uses: 2 "), "", {"id": "aa-bb", "uses": "2"})
    made_footer = _made_footer("  ", (" id: aa-bb ", " uses: 2 "), "", {"id": "aa-bb", "uses": "2"})
    fact = Fact("Gotchas", "", 3, 5, footer, " ")
    made_fact = _made_fact("Gotchas", "", 3, 5, made_footer, " ", "aa-bb")
    for made, plain in ((made_footer, footer), (made_fact, fact)):
        assert type(made) is type(plain)
        assert made == plain
        assert repr(made) == repr(plain)
        assert not hasattr(made, "__dict__")
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, dataclasses.fields(made)[0].name, "x")
    assert hash(made_fact) == hash(fact)
    assert made_fact.id == fact.id == "aa-bb"
    assert dataclasses.replace(made_fact, start=4) == dataclasses.replace(fact, start=4)
