"""The fact footer: a one-line HTML comment of `key: value` fields that opens with `id`.

A footer is edited in place: only the values the review owns change, and every
other byte (spacing, unknown fields, their order) is written back as it was read.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from mdmem.errors import ParseError, quote

ID_PATTERN = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+"
ID_RE = re.compile(rf"^{ID_PATTERN}$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TIERS = ("core", "active", "working", "archive-candidate", "archived", "superseded")
# The order mdmem writes fields in; fields a person wrote keep their own order.
CANONICAL = (
    "id",
    "created",
    "last_used",
    "uses",
    "tier",
    "origin",
    "supersedes",
    "superseded-by",
    "scope",
    "type",
    "tags",
    "serves",
    "helpful",
    "harmful",
    "maturity",
    "section",
)
KNOWN_KEYS = frozenset(CANONICAL)

_FIELD = re.compile(
    r"^(?P<lead>\s*)(?P<key>[A-Za-z][A-Za-z0-9_-]*)(?P<sep>\s*:\s*)(?P<value>.*?)(?P<tail>\s*)$"
)
_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_KEY_START = re.compile(r"^\s*(?P<key>[A-Za-z][A-Za-z0-9_-]*)\s*:")


@dataclass(frozen=True)
class Field:
    key: str
    value: str
    segment: str  # the raw text between separators, whitespace included


@dataclass(frozen=True)
class Footer:
    indent: str
    fields: tuple[Field, ...]
    trail: str

    @property
    def id(self) -> str:
        return self.fields[0].value

    values: dict[str, str] = dataclasses.field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        # A lookup table built once; it mirrors `fields` and is never mutated.
        if not self.values:
            self.values.update((field.key, field.value) for field in self.fields)

    def get(self, key: str) -> str | None:
        return self.values.get(key)

    def as_dict(self) -> dict[str, str]:
        return dict(self.values)

    def render(self) -> str:
        """The line body, byte-identical to what was read when nothing changed."""
        inner = "|".join(field.segment for field in self.fields)
        return f"{self.indent}<!--{inner}-->{self.trail}"

    def updated(self, changes: Mapping[str, str | None]) -> Footer:
        """Set (str) or drop (None) fields; untouched fields keep their bytes and order."""
        if all(self.values.get(key) == value for key, value in changes.items()):
            return self
        fields: list[Field] = []
        seen: set[str] = set()
        for field in self.fields:
            seen.add(field.key)
            if field.key not in changes:
                fields.append(field)
                continue
            value = changes[field.key]
            if value is None:
                continue
            if value == field.value:
                fields.append(field)
                continue
            match = _FIELD.match(field.segment)
            assert match is not None  # every stored segment matched at parse time
            segment = match["lead"] + match["key"] + match["sep"] + value + (match["tail"] or " ")
            fields.append(Field(field.key, value, segment))
        for key, value in changes.items():
            if key in seen or value is None:
                continue
            position = _insertion_point(fields, key)
            before = fields[position - 1]
            if not before.segment.endswith((" ", "\t")):
                fields[position - 1] = Field(before.key, before.value, before.segment + " ")
            fields.insert(position, Field(key, value, f" {key}: {value} "))
        return Footer(self.indent, tuple(fields), self.trail)


def _insertion_point(fields: list[Field], key: str) -> int:
    """A new field goes after the last present field that comes before it in CANONICAL order."""
    rank = CANONICAL.index(key) if key in CANONICAL else len(CANONICAL)
    position = 1
    for index, field in enumerate(fields):
        if field.key in CANONICAL and CANONICAL.index(field.key) <= rank:
            position = index + 1
    return position


def new_footer(indent: str, values: Mapping[str, str]) -> Footer:
    """A footer written by mdmem itself, in the canonical spacing."""
    fields = tuple(Field(key, value, f" {key}: {value} ") for key, value in values.items())
    return Footer(indent, fields, "")


def footer_ids(text: str) -> list[str]:
    """The id of every footer-shaped line of a text, in order: a cheap count for checks."""
    ids = []
    for line in text.split("\n"):
        if "<!--" in line and looks_like_footer(line):
            key, _, rest = line.strip()[4:].partition(":")
            if key.strip() == "id":
                ids.append(rest.split("|", 1)[0].split("-->", 1)[0].strip())
    return ids


def looks_like_footer(line_body: str) -> bool:
    """A line that is only an HTML comment opening with `id` (or with a footer key)."""
    if "<!--" not in line_body:
        return False
    stripped = line_body.strip()
    if not stripped.startswith("<!--"):
        return False
    match = _KEY_START.match(stripped[4:])
    return match is not None and match["key"] in KNOWN_KEYS


def parse_footer(line_body: str, path: str, line: int) -> Footer:
    """Parse one footer line strictly; anything ambiguous is an error naming the line."""
    stripped = line_body.strip()
    if "-->" not in stripped:
        raise ParseError("unclosed footer: the comment has no closing '-->'", path, line)
    if stripped.count("<!--") > 1:
        raise ParseError("a footer value contains '<!--'", path, line)
    if stripped.count("-->") > 1:
        raise ParseError("a footer value contains '-->'", path, line)
    # String operations rather than regular expressions: this runs once per fact.
    rest = line_body.lstrip(" \t")
    indent = line_body[: len(line_body) - len(rest)]
    closed = rest.rstrip(" \t")
    if not rest.startswith("<!--") or not closed.endswith("-->"):
        raise ParseError("text after the footer comment on the same line", path, line)
    trail = rest[len(closed) :]
    fields: list[Field] = []
    values: dict[str, str] = {}
    for segment in closed[4:-3].split("|"):
        key, colon, value = segment.partition(":")
        key = key.strip()
        if not colon or not _KEY.match(key):
            raise ParseError(
                f"footer field {quote(segment.strip(), line_body)} is not 'key: value'", path, line
            )
        if key in values:
            raise ParseError(f"footer field {quote(key, line_body)} appears twice", path, line)
        values[key] = value.strip()
        fields.append(Field(key, values[key], segment))
    if fields[0].key != "id":
        raise ParseError(
            f"footer must open with 'id', not {quote(fields[0].key, line_body)}", path, line
        )
    fact_id = fields[0].value
    if not ID_RE.match(fact_id):
        raise ParseError(
            f"id {quote(fact_id, line_body)} is not kebab-case of at least two words "
            "(like 'post-only-mutations')",
            path,
            line,
        )
    _validate_values(values, path, line, line_body)
    return Footer(indent, tuple(fields), trail, values)


def _validate_values(values: dict[str, str], path: str, line: int, context: str) -> None:
    for key in ("created", "last_used"):
        value = values.get(key)
        if value is not None and not valid_date(value):
            message = f"{key} {quote(value, context)} is not a date (YYYY-MM-DD)"
            raise ParseError(message, path, line)
    for key in ("uses", "helpful", "harmful"):
        value = values.get(key)
        if value is not None and not (value.isascii() and value.isdigit()):
            raise ParseError(f"{key} {quote(value, context)} is not a whole number", path, line)
    tier = values.get("tier")
    if tier is not None and tier not in TIERS:
        raise ParseError(
            f"unknown tier {quote(tier, context)} (one of: {', '.join(TIERS)})", path, line
        )
    for key in ("supersedes", "superseded-by"):
        value = values.get(key)
        if value and not ID_RE.match(value):
            raise ParseError(f"{key} {quote(value, context)} is not an id", path, line)


@functools.lru_cache(maxsize=4096)
def valid_date(value: str) -> bool:
    if not DATE_RE.match(value):
        return False
    year, month, day = (int(part) for part in value.split("-"))
    if not 1 <= month <= 12 or day < 1:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
    return day <= days
