"""How the write path puts a fact into continuity.md: the item and its born footer, at
the end of its section, every other byte kept."""

from __future__ import annotations

import pytest

from mdmem.errors import MdmemError
from mdmem.format.document import Document, parse_document
from mdmem.format.textfile import decode
from mdmem.writing.facts import born_footer, item_lines, thread_lines, with_footers, with_item

FOOTER = "  <!-- id: {0} | created: 2026-03-01 | uses: 1 | tier: working -->\n"
NEW = ["- Cache keys carry the tenant id", "  <!-- id: tenant-cache-keys -->"]


def doc(text: str) -> Document:
    return parse_document(decode(text.encode(), "memory/continuity.md"))


TIGHT = "# C\n\n## Key Decisions\n\n- One\n" + FOOTER.format("rule-one") + "\n## Later\n"
LOOSE = (
    "# C\n\n## Key Decisions\n\n- One\n"
    + FOOTER.format("rule-one")
    + "\n- Two\n"
    + FOOTER.format("rule-two")
)
LEGACY = "# C\n\n## Key Decisions\n\n- One\n" + FOOTER.format("rule-one") + "- Legacy, no footer\n"


@pytest.mark.parametrize(
    ("text", "section", "expected"),
    [
        pytest.param(
            TIGHT,
            "Key Decisions",
            TIGHT.replace("\n\n## Later", "\n" + "\n".join(NEW) + "\n\n## Later"),
            id="tight-list",
        ),
        pytest.param(LOOSE, "Key Decisions", LOOSE + "\n" + "\n".join(NEW) + "\n", id="loose-list"),
        pytest.param(
            TIGHT,
            "Conventions",
            TIGHT + "\n## Conventions\n\n" + "\n".join(NEW) + "\n",
            id="new-section",
        ),
        pytest.param(
            "# C\n\n## Key Decisions\n",
            "Key Decisions",
            "# C\n\n## Key Decisions\n\n" + "\n".join(NEW) + "\n",
            id="empty-section",
        ),
        pytest.param(
            LEGACY, "Key Decisions", LEGACY + "\n" + "\n".join(NEW) + "\n", id="after-legacy-item"
        ),
        pytest.param(
            TIGHT.replace("\n", "\r\n"),
            "Key Decisions",
            TIGHT.replace("\n\n## Later", "\n" + "\n".join(NEW) + "\n\n## Later").replace(
                "\n", "\r\n"
            ),
            id="crlf",
        ),
        pytest.param(
            TIGHT.rstrip("\n"),
            "Later",
            TIGHT + "\n" + "\n".join(NEW) + "\n",
            id="no-final-newline",
        ),
    ],
)
def test_a_new_item_goes_at_the_end_of_its_section(text: str, section: str, expected: str) -> None:
    after = with_item(doc(text), section, NEW)
    assert after == expected
    assert [f.id for f in doc(after).facts][-1:] == ["tenant-cache-keys"] or section == "Later"


def test_a_born_footer_is_working_and_core_under_invariants() -> None:
    fields = born_footer("a-rule", "Key Decisions", "2026-03-01", "2026-03-01-090000")
    assert fields == {
        "id": "a-rule",
        "created": "2026-03-01",
        "last_used": "2026-03-01",
        "uses": "1",
        "tier": "working",
        "origin": "2026-03-01-090000",
    }
    core = born_footer("a-rule", "Architectural Invariants", "2026-03-01", "s", {"tags": "x"})
    assert (core["tier"], list(core)[-1]) == ("core", "tags")


def test_item_lines_indent_later_lines_and_refuse_comments() -> None:
    lines = item_lines("First line\nsecond line", {"id": "two-lines"})
    assert lines == ["- First line", "  second line", "  <!-- id: two-lines -->"]
    assert thread_lines("Decide", "decide-it", "2026-03-01", "s")[0] == "- [ ] Decide"
    with pytest.raises(MdmemError, match="no HTML comment"):
        item_lines("Sneaky <!-- hidden --> text", {"id": "x-y"})
    with pytest.raises(MdmemError, match="must hold words"):
        item_lines("   ", {"id": "x-y"})


def test_a_footer_change_touches_only_its_line() -> None:
    document = doc(LOOSE)
    fact = document.facts[0]
    after = with_footers(document, [(fact, {"tier": "superseded", "superseded-by": "rule-two"})])
    assert after == LOOSE.replace(
        "uses: 1 | tier: working -->\n\n- Two",
        "uses: 1 | tier: superseded | superseded-by: rule-two -->\n\n- Two",
    )
