"""The fact footer: a one-line HTML comment of `key: value` fields that opens with `id`.

A footer is edited in place: only the values the review owns change, and every
other byte (spacing, unknown fields, their order) is written back as it was read.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from mdmem.errors import ParseError

# Kebab-case of at least two words; real memories also carry ids with dots from version
# numbers (`release-4.6.2`), read as ids too (mdmem never makes one). A dot must be
# followed by a letter or digit, so a sentence's final period is not part of an id.
ID_PATTERN = r"[a-z][a-z0-9]*(?:\.[a-z0-9]+)*(?:-[a-z0-9]+(?:\.[a-z0-9]+)*)+"
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
_RANK = {key: rank for rank, key in enumerate(CANONICAL)}

_FIELD = re.compile(
    r"^(?P<lead>\s*)(?P<key>[A-Za-z][A-Za-z0-9_-]*)(?P<sep>\s*:\s*)(?P<value>.*?)(?P<tail>\s*)$"
)
_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
# A comment opening with `key:`, whitespace allowed around each part (as `str.strip` reads it).
_COMMENT_KEY = re.compile(r"\s*<!--\s*([A-Za-z][A-Za-z0-9_-]*)\s*:")


@dataclass(frozen=True, slots=True)
class Field:
    key: str
    value: str
    segment: str  # the raw text between separators, whitespace included


@dataclass(frozen=True, slots=True)
class Footer:
    """A footer line: `segments` are the raw texts between the `|` separators, whitespace
    included; `values` maps each segment's key to its value, in the same order."""

    indent: str
    segments: tuple[str, ...]
    trail: str
    values: dict[str, str] = dataclasses.field(hash=False, repr=False)

    @property
    def id(self) -> str:
        return next(iter(self.values.values()))

    @property
    def fields(self) -> tuple[Field, ...]:
        """The fields as values, built on demand: parsing and editing keep raw segments."""
        pairs = zip(self.values.items(), self.segments, strict=True)
        return tuple(Field(key, value, segment) for (key, value), segment in pairs)

    def get(self, key: str) -> str | None:
        return self.values.get(key)

    def as_dict(self) -> dict[str, str]:
        return dict(self.values)

    def render(self) -> str:
        """The line body, byte-identical to what was read when nothing changed."""
        return f"{self.indent}<!--{'|'.join(self.segments)}-->{self.trail}"

    def updated(self, changes: Mapping[str, str | None]) -> Footer:
        """Set (str) or drop (None) fields; untouched fields keep their bytes and order."""
        values = self.values
        for key, value in changes.items():
            if values.get(key) != value:
                break
        else:
            return self
        keys = list(values)
        segments = list(self.segments)
        new_values = dict(values)
        added: list[tuple[str, str]] = []
        dropped = False
        for key, value in changes.items():
            old = values.get(key)
            if value == old:
                continue
            if value is None:
                dropped = True
            elif old is None:
                added.append((key, value))
            else:
                index = keys.index(key)
                head, tail = _frame(segments[index])
                segments[index] = head + value + tail
                new_values[key] = value
        if dropped or added:
            if dropped:
                kept = [index for index, key in enumerate(keys) if changes.get(key, "") is not None]
                keys = [keys[index] for index in kept]
                segments = [segments[index] for index in kept]
            for key, value in added:
                position = _insertion_point(keys, key)
                if not segments[position - 1].endswith((" ", "\t")):
                    segments[position - 1] += " "
                keys.insert(position, key)
                segments.insert(position, f" {key}: {value} ")
                new_values[key] = value
            new_values = {key: new_values[key] for key in keys}
        return Footer(self.indent, tuple(segments), self.trail, new_values)


@functools.lru_cache(maxsize=4096)
def _frame(segment: str) -> tuple[str, str]:
    """What stays around a segment's value when the value changes: the key with the spacing
    around its colon, and the whitespace after the value (one space if it had none)."""
    match = _FIELD.match(segment)
    assert match is not None  # every stored segment is `key: value`
    return match["lead"] + match["key"] + match["sep"], match["tail"] or " "


def _insertion_point(keys: list[str], key: str) -> int:
    """A new field goes after the last present field that comes before it in CANONICAL order."""
    rank = _RANK.get(key, len(CANONICAL))
    position = 1
    for index, present in enumerate(keys):
        present_rank = _RANK.get(present)
        if present_rank is not None and present_rank <= rank:
            position = index + 1
    return position


def new_footer(indent: str, values: Mapping[str, str]) -> Footer:
    """A footer written by mdmem itself, in the canonical spacing."""
    segments = tuple(f" {key}: {value} " for key, value in values.items())
    return Footer(indent, segments, "", dict(values))


# A footer-shaped line, found from the newline before it: one search over a whole text.
_ID_LINE = re.compile(r"\n[^\S\n]*<!--[^\S\n]*id[^\S\n]*:([^\n]*)")


def footer_ids(text: str) -> list[str]:
    """The id of every footer-shaped line of a text, in order: a cheap count for checks."""
    return [
        rest.split("|", 1)[0].split("-->", 1)[0].strip() for rest in _ID_LINE.findall("\n" + text)
    ]


def looks_like_footer(line_body: str) -> bool:
    """A line that is only an HTML comment opening with `id` (or with a footer key)."""
    if "<!--" not in line_body:
        return False
    match = _COMMENT_KEY.match(line_body)
    return match is not None and match[1] in KNOWN_KEYS


def parse_footer(line_body: str, path: str, line: int) -> Footer:
    """Parse one footer line strictly; anything ambiguous is an error naming the line."""
    if "-->" not in line_body:
        raise ParseError("unclosed footer: the comment has no closing '-->'", path, line)
    if line_body.count("<!--") > 1:
        raise ParseError("a footer value contains '<!--'", path, line)
    if line_body.count("-->") > 1:
        raise ParseError("a footer value contains '-->'", path, line)
    rest = line_body.lstrip(" \t")
    indent = line_body[: len(line_body) - len(rest)]
    closed = rest.rstrip(" \t")
    if not rest.startswith("<!--") or not closed.endswith("-->"):
        raise ParseError("text after the footer comment on the same line", path, line)
    trail = rest[len(closed) :]
    segments = closed[4:-3].split("|")
    values: dict[str, str] = {}
    for segment in segments:
        key, colon, value = segment.partition(":")
        key = key.strip()
        if not colon or not _KEY.match(key):
            raise ParseError(
                f"footer field {segment.strip()!r} is not 'key: value'",
                path,
                line,
                context=line_body,
            )
        if key in values:
            raise ParseError(f"footer field {key!r} appears twice", path, line, context=line_body)
        values[key] = value.strip()
    first, fact_id = next(iter(values.items()))
    if first != "id":
        message = f"footer must open with 'id', not {first!r}"
        raise ParseError(message, path, line, context=line_body)
    if not ID_RE.match(fact_id):
        raise ParseError(
            f"id {fact_id!r} is not kebab-case of at least two words (like 'post-only-mutations')",
            path,
            line,
            context=line_body,
        )
    problem = _invalid_value(values)
    if problem is not None:
        raise ParseError(problem, path, line, context=line_body)
    return Footer(indent, tuple(segments), trail, values)


def _invalid_value(values: dict[str, str]) -> str | None:
    """What is wrong with the first invalid value of the fields the review reads, or None."""
    for key, (valid, message) in _RULES.items():
        value = values.get(key)
        if value is not None and not valid(value):
            return message.format(key=key, value=repr(value))
    return None


def _whole_number(value: str) -> bool:
    return value.isascii() and value.isdigit()


def _empty_or_id(value: str) -> bool:
    return not value or ID_RE.match(value) is not None


@functools.lru_cache(maxsize=4096)
def valid_date(value: str) -> bool:
    if not DATE_RE.match(value):
        return False
    year, month, day = int(value[:4]), int(value[5:7]), int(value[8:10])
    if not 1 <= month <= 12 or day < 1:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
    return day <= days


# The values the review reads: each one's rule, and the error, in the order they are checked.
_RULES: dict[str, tuple[Callable[[str], bool], str]] = {
    "created": (valid_date, "{key} {value} is not a date (YYYY-MM-DD)"),
    "last_used": (valid_date, "{key} {value} is not a date (YYYY-MM-DD)"),
    "uses": (_whole_number, "{key} {value} is not a whole number"),
    "helpful": (_whole_number, "{key} {value} is not a whole number"),
    "harmful": (_whole_number, "{key} {value} is not a whole number"),
    "tier": (TIERS.__contains__, f"unknown tier {{value}} (one of: {', '.join(TIERS)})"),
    "supersedes": (_empty_or_id, "{key} {value} is not an id"),
    "superseded-by": (_empty_or_id, "{key} {value} is not an id"),
}
