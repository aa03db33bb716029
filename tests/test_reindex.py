"""A rewritten document indexed again by parts gives the index a first reading gives.

Documents are built from the lines a memory holds (headings of every level, facts with
wrapped text and notes, items without a footer, paragraphs, blank lines, now and then a
fence, a stray footer or a footer left flush), then edited as a review edits them: a
block changed, dropped or added anywhere. `reindex` over the old document's index must
give `index_of(parse_document(new))`, or the same error.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdmem.errors import ParseError
from mdmem.format import document as document_module
from mdmem.format.document import parse_document
from mdmem.format.textfile import TextFile
from mdmem.reading import index as index_module
from mdmem.reading.index import Index, index_of, reindex

WORDS = st.sampled_from(["retry", "webhook", "auth", "cache", "Timeouts", "deploy", "x#"])
TEXT = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)


@st.composite
def blocks(draw: st.DrawFn) -> list[str]:
    """One block of lines, each with its ending."""
    kind = draw(st.integers(0, 11))
    text = draw(TEXT)
    fact_id = f"{text.split()[0].lower()}-{draw(st.integers(0, 30))}".replace("#", "")
    tier = draw(st.sampled_from(["archived", "core", "superseded", "working"]))
    footer = f"<!-- id: {fact_id} | created: 2024-01-01 | tier: {tier} -->\n"
    extra = draw(st.sampled_from(["", " | tags: retry, auth", " | scope: src/**"]))
    footer = footer.replace(" -->", extra + " -->")
    if kind <= 4:  # a fact, sometimes wrapped, a checkbox, a note after its footer
        box = draw(st.sampled_from(["", "[ ] ", "[x] "]))
        wrapped = ["  " + draw(TEXT) + "\n"] if kind == 1 else []
        note = ["  <!-- a note -->\n"] if kind == 2 else []
        indent = "" if kind == 3 else "  "
        return [f"- {box}{text}\n", *wrapped, indent + footer, *note]
    choices = {
        5: [f"{draw(st.sampled_from(['#', '##', '###', '####']))} {text}\n"],
        6: ["\n"],
        7: [f"- {text}\n"],  # an item without a footer: grouped with the fact below
        8: [f"{text}\n"],
        9: ["```\n", f"## {text}\n", "```\n"],
        10: [footer],  # a footer that closes no item: an error
        11: [f"  {text}\n"],
    }
    return choices[kind]


DOCUMENT = st.lists(blocks(), min_size=1, max_size=30)


def first_reading(lines: list[str]) -> Index | ParseError:
    try:
        return index_of(parse_document(TextFile("m/archive/x.md", tuple(lines)), unique_ids=False))
    except ParseError as error:
        return error


def by_parts(lines: list[str], old: tuple[Index, list[list[object]]] | None) -> Index | ParseError:
    try:
        return reindex(TextFile("m/archive/x.md", tuple(lines)), *(old or (None, [])))[0]
    except ParseError as error:
        return error


def same(left: Index | ParseError, right: Index | ParseError) -> bool:
    if isinstance(left, ParseError) or isinstance(right, ParseError):
        return str(left) == str(right)
    return left == right


@pytest.mark.parametrize("odds", [1, 2, 16])
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    before=DOCUMENT,
    edits=st.lists(
        st.tuples(st.sampled_from(["change", "drop", "add"]), st.integers(0, 40), blocks()),
        max_size=4,
    ),
)
def test_reindex_by_parts_equals_a_first_reading(
    monkeypatch: pytest.MonkeyPatch,
    odds: int,
    before: list[list[str]],
    edits: list[tuple[str, int, list[str]]],
) -> None:
    monkeypatch.setattr(index_module, "PART_ODDS", odds)
    heading = [["# Archive\n"], ["\n"], ["## Archived 2024-01-01\n"], ["\n"]]
    old_blocks = heading + before
    new_blocks = list(old_blocks)
    for kind, at, block in edits:
        at %= len(new_blocks) + 1
        if kind == "add":
            new_blocks.insert(at, block)
        elif at < len(new_blocks):
            new_blocks[at : at + 1] = [] if kind == "drop" else [block]
    old_lines = [line for block in old_blocks for line in block]
    new_lines = [line for block in new_blocks for line in block]
    expected = first_reading(new_lines)
    assert same(by_parts(new_lines, None), expected)  # no previous index: a first reading
    if isinstance(first_reading(old_lines), ParseError):
        return
    old = reindex(TextFile("m/archive/x.md", tuple(old_lines)), None, [])
    assert same(by_parts(new_lines, old), expected)


def test_an_unchanged_part_is_not_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "PART_ODDS", 1)
    facts = [
        (f"- Fact {n} about retries\n", f"  <!-- id: fact-{n} | created: 2024-01-01 -->\n")
        for n in range(6)
    ]
    moved = (facts[2][0].replace("about", "on"), facts[2][1])
    lines = ("## Archived\n", "\n", *(line for fact in facts for line in fact))
    old = reindex(TextFile("m/a.md", lines), None, [])
    kept = [line for fact in facts[:2] + facts[3:] for line in fact]
    edited = ("## Archived\n", "\n", *kept, *moved)
    parsed: list[int] = []
    real = document_module.parse_document

    def counting(file: TextFile, **options: bool) -> object:
        parsed.append(len(file.lines))
        return real(file, **options)

    monkeypatch.setattr(document_module, "parse_document", counting)  # as reindex finds it
    again, parts = reindex(TextFile("m/a.md", edited), *old)
    assert again == index_of(real(TextFile("m/a.md", edited), unique_ids=False))
    assert parsed == [3]  # the moved fact alone, under its heading; the rest reused
    assert len(parts) == 7
