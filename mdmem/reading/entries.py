"""A fact as the reading commands see it: where it is, its text on one line, its footer.

Built from a parsed document (pure); `mdmem.reading.index` keeps what lookup searches of
them in a cache.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mdmem.format.sections import INVARIANTS_SECTION, same_name

if TYPE_CHECKING:  # an entry is shown from lookup's index without the parser
    from mdmem.format.document import Document

_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")
GONE = ("archived", "superseded")


@dataclass(frozen=True)
class Entry:
    """One fact: `line` is its item's first line and `footer_line` its footer's (1-based),
    `text` its lines above the footer on one line, `fields` its footer in order."""

    path: str
    line: int
    footer_line: int
    section: str
    checkbox: str | None  # " " an open thread, "x" a done one, None a plain fact
    text: str
    fields: tuple[tuple[str, str], ...] = field(repr=False)

    @property
    def id(self) -> str:
        return self.fields[0][1]

    def get(self, key: str) -> str | None:
        return self._values.get(key)

    @functools.cached_property
    def _values(self) -> dict[str, str]:
        return dict(self.fields)

    @property
    def tier(self) -> str:
        """The footer's tier label; `working` when it has none, as a new fact is born."""
        return self.get("tier") or "working"

    @property
    def superseded(self) -> bool:
        return self.get("tier") == "superseded" or bool(self.get("superseded-by"))

    @property
    def core(self) -> bool:
        return self.get("tier") == "core" or same_name(self.section, INVARIANTS_SECTION)

    @property
    def anti_pattern(self) -> bool:
        return (self.get("type") or "").strip().lower() == "anti-pattern"

    @property
    def open_thread(self) -> bool:
        return self.checkbox == " "

    def count(self, key: str) -> int:
        value = self.get(key) or ""
        return int(value) if value.isdigit() else 0

    def footer(self) -> str:
        return "<!-- " + " | ".join(f"{key}: {value}" for key, value in self.fields) + " -->"


def entries_of(document: Document) -> tuple[Entry, ...]:
    """Every footered fact of a document, in file order."""
    return tuple(
        Entry(
            document.path,
            fact.line,
            fact.footer_index + 1,
            fact.section,
            fact.checkbox,
            one_line(document.fact_words(fact)),
            tuple(fact.footer.values.items()),
        )
        for fact in document.facts
    )


def one_line(lines: tuple[str, ...] | list[str]) -> str:
    """An item's lines as one line: the bullet and checkbox dropped, whitespace collapsed."""
    if not lines:
        return ""
    first = _MARKER.sub("", lines[0], count=1)
    return " ".join(" ".join([first, *lines[1:]]).split())  # split: re's \s, in C
