"""The forward layer's links (SPEC §10): what a fact serves, and whether that is still live."""

from __future__ import annotations

import re

from mdmem.format.document import Document, Fact
from mdmem.format.footer import ID_PATTERN

_SERVES = re.compile(rf"\bserves:\s*({ID_PATTERN})\b")
_SPLIT = re.compile(r"[\s,]+")


def serves_targets(document: Document, fact: Fact) -> list[tuple[int, str]]:
    """(1-based line, target id) of every `serves` link: the footer field (comma-separated)
    and `→ serves: ID` in the text of a Blueprint item."""
    footer_line = fact.footer_index + 1
    links = [(footer_line, target) for target in _SPLIT.split(fact.get("serves") or "") if target]
    for offset, text in enumerate(document.fact_text(fact)):
        links += [(fact.start + offset + 1, target) for target in _SERVES.findall(text)]
    return links
