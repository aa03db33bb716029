"""Session logs: their names, and the `## Memory References` section of each log.

The section is found line by line (headings and code fences), not with a markdown parser;
`reviewing.ledger` indexes what it finds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mdmem.errors import ParseError
from mdmem.format.fences import Fences
from mdmem.format.footer import ID_PATTERN, valid_date
from mdmem.format.textfile import LONE_CR, check_conflict_markers, decode_text

REFERENCES_HEADING = "## Memory References"
EVENT_KEYS = (
    "referenced",
    "created",
    "reactivated",
    "superseded",
    "restored",
    "helpful",
    "harmful",
    "forgotten",  # `mdmem forget`: the tombstone in blocked.md is what counts
    "closed",  # the protocol's v4.39: a thread's completion, a use of it like any other
)

_NAME = re.compile(
    r"^(?P<date>\d{4}-\d{2}-\d{2})(?:-(?P<time>\d{6})(?:-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*))?)?\.md$"
)
_TIME_ALONE = re.compile(r"\d{4}-\d{2}-\d{2}-\d{6}")
_TOKEN = re.compile(rf"(?<![\w-]){ID_PATTERN}(?![\w-])")
_KEY = re.compile(r"[A-Za-z][A-Za-z _-]*")
# A list item and the indented lines that continue it (its text starts after the marker).
_ITEM = re.compile(r"^[-*+][ \t]+([^\n]*(?:\n[ \t]+\S[^\n]*)*)", re.MULTILINE)
# The ledger's heading as a markdown heading: any run of spaces after the `##`, and
# trailing spaces or a closing run of `#`s, read as the protocol's own scripts read it.
_REFERENCES = re.compile(r"^##[ \t]+Memory References(?:[ \t]+#*)?[ \t\r\n]*$")
_NEXT_HEADING = re.compile(r"^#{1,2}(?:[ \t]|\r?$)")
# `OLD → NEW`, and as people also write it, `OLD -> NEW`, `OLD => NEW`, `OLD to NEW`.
_ARROW = re.compile(r"→|->|=>|[ \t]to[ \t]")


@dataclass(frozen=True, order=True, slots=True)
class SessionName:
    """A session log's name; instances sort in ledger order."""

    date: str
    time: str  # "" for a date-only log, which sorts before that day's timed logs
    slug: str
    stem: str

    @property
    def filename(self) -> str:
        return self.stem + ".md"


def parse_session_name(filename: str, path: str) -> SessionName:
    match = _NAME.match(filename)
    if match is None:
        raise ParseError(
            "session log name must be YYYY-MM-DD-HHMMSS[-slug].md (slug: lowercase letters, "
            "digits, hyphens)",
            path,
        )
    date, time, slug = match.groups("")  # the groups date, time, slug; "" where absent
    if not valid_date(date):
        raise ParseError(f"session log name has an impossible date {date!r}", path)
    clock = int(time or 0)  # HHMMSS as one number
    if clock // 10000 > 23 or clock // 100 % 100 > 59 or clock % 100 > 59:
        raise ParseError(f"session log name has an impossible time {time!r}", path)
    return SessionName(date, time, slug, filename[:-3])


def session_stem(value: str) -> str:
    """The session a footer's `origin` names: a stem as mdmem writes it, or as people and
    agents also write it, a file name or a path (`sessions/2026-06-15-183705.md`)."""
    return value.rpartition("/")[2].removesuffix(".md")


def parse_session_names(filenames: Sequence[str], folder: str) -> list[SessionName]:
    """`parse_session_name` of every name in a folder (shown as `folder`, which ends in
    "/"): the error is the first bad name's, in the order given."""
    return [parse_session_name(filename, folder + filename) for filename in filenames]


@dataclass(frozen=True, slots=True)
class Event:
    """One typed line of a Memory References section."""

    kind: str  # one of EVENT_KEYS
    ids: tuple[str, ...]
    new_id: str | None  # for `Superseded: OLD → NEW`
    line: int


@dataclass(frozen=True, slots=True)
class Session:
    name: SessionName
    path: str
    references: frozenset[str]  # every id-shaped token in the section
    events: tuple[Event, ...]
    unknown_keys: tuple[tuple[int, str], ...]  # (line, key) of lines with a key mdmem does not know
    section_line: int  # 1-based line of the heading; 0 when the log has none

    @property
    def stem(self) -> str:
        return self.name.stem

    @property
    def date(self) -> str:
        return self.name.date


# What a scan of one log finds, as plain values (a cache entry holds them as they are):
# the sorted references, each event as [kind, ids, new id, line], each line with an
# unknown key as [line, key], and the heading's line (0 when the log has no section).
Scan = tuple[list[str], list[list[Any]], list[list[Any]], int]


def scan_log(data: bytes, path: str) -> Scan:
    """The references and typed lines of one session log, from its bytes: of every
    `## Memory References` section, when a person wrote the heading twice."""
    found = _sections(data, path)
    if not found:
        return [], [], [], 0
    tokens: set[str] = set()
    events: list[list[Any]] = []
    unknown: list[list[Any]] = []
    for heading_line, section in found:
        typed, keys = _typed_lines(section, heading_line)
        events += typed
        unknown += keys
        tokens.update(_TOKEN.findall(section))
    return sorted(tokens), events, unknown, found[0][0]


def slugged(stem: str, stems: Iterable[str]) -> list[str]:
    """The stems of `stems` that are `stem` and a slug, when `stem` is a log's date and
    time alone (`2026-03-01-100000` names `2026-03-01-100000-api`); else none."""
    if not _TIME_ALONE.fullmatch(stem):
        return []
    return sorted(other for other in stems if other.startswith(f"{stem}-"))


def session_of(name: SessionName, path: str, scan: Scan) -> Session:
    references, events, unknown, line = scan
    return Session(
        name,
        path,
        frozenset(references),
        tuple(Event(kind, tuple(ids), new_id, number) for kind, ids, new_id, number in events)
        if events
        else (),
        tuple((number, key) for number, key in unknown) if unknown else (),
        line,
    )


def reference_lines(
    data: bytes, path: str, mask: Callable[[str], str] = str
) -> tuple[tuple[str, int, bool], ...]:
    """Every id-shaped token of the `## Memory References` section with its 1-based line,
    and whether it is listed: outside the `(...)` notes of its line.

    The scanner keeps only sets; lint calls this for the few logs that name an unknown id.
    Tokens are looked for in `mask(line)`: lint masks secret values there, so that a
    password shaped like an id is never printed as an unknown id.
    """
    tokens = []
    for number, line in section_lines(data, path).items():
        masked = mask(line)
        listed = set(_TOKEN.findall(_without_notes(masked)))
        tokens += [(token, number, token in listed) for token in _TOKEN.findall(masked)]
    return tuple(tokens)


def section_lines(data: bytes, path: str) -> dict[int, str]:
    """The lines of the `## Memory References` section by 1-based line number (empty
    when the log has none): lint reads a few logs' lines this way, to quote them."""
    return {
        heading_line + 1 + offset: line
        for heading_line, section in _sections(data, path)
        for offset, line in enumerate(section.split("\n"))
    }


_NOTE = re.compile(r"\([^()]*\)")


def _without_notes(line: str) -> str:
    """A line with its `(...)` notes blanked: innermost first; a note opened and not closed
    on the line runs to its end, one closed and not opened runs from its start."""
    line = _blanked(line).partition("(")[0]
    return line.rpartition(")")[2]


def _blanked(line: str) -> str:
    """A line with its closed `(...)` notes blanked, innermost first."""
    while (blanked := _NOTE.sub(" ", line)) != line:
        line = blanked
    return line


def note_left_open(item: str) -> bool:
    """Whether an item's text ends in a `(` note it never closes: what follows is note."""
    return "(" in _blanked(item.replace("\n", " "))


def _sections(data: bytes, path: str) -> list[tuple[int, str]]:
    """(1-based line of the heading, text of the lines after it up to the next `#`/`##`
    heading outside a code fence) of each `## Memory References` section, in order."""
    text = decode_text(data, path)
    if "Memory References" not in text:
        return []
    if "\r" in text:  # a lone CR (classic Mac ending) ends a line, as editors show it
        text = LONE_CR.sub("\n", text)
    check_conflict_markers(text, path)
    lines = text.split("\n")
    return [
        (start + 1, "\n".join(lines[start + 1 : end]).rstrip("\n"))
        for start, end in references_spans(lines)
    ]


def references_spans(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(index of the `## Memory References` heading line, index of the line that ends the
    section) of each such section in a log's lines, the scanner's and the writer's alike.

    A section ends at the next `#`/`##` heading outside a fence, or at the last line.
    """
    fences = Fences()
    found: list[tuple[int, int]] = []
    start: int | None = None
    for index, line in enumerate(lines):
        if fences.step(line.rstrip("\n")):
            continue
        if start is not None and _NEXT_HEADING.match(line):
            found.append((start, index))
            start = None
        if start is None and _REFERENCES.match(line):
            start = index
    if start is not None:
        found.append((start, len(lines)))
    return found


def references_span(lines: Sequence[str]) -> tuple[int, int] | None:
    """The last `## Memory References` section of a log's lines (`references_spans`), where
    the writer adds lines: after every line a reader reads, so the ledger's order holds
    when a person wrote the heading twice. None without one."""
    spans = references_spans(lines)
    return spans[-1] if spans else None


def item_key(line: str) -> str | None:
    """The lower-cased key of a line that opens a `- Key: ...` item of the section."""
    item = _ITEM.match(line)
    keyed = None if item is None else _keyed(item[1])
    return None if keyed is None else keyed[0].lower()


def _keyed(text: str) -> tuple[str, str] | None:
    """(the key, the rest) of an item `Key: rest`; a key may be set in emphasis, as people
    write it (`**Created:**`, `_Created_:`), and the markup is not part of it. Read by
    splitting at the first colon, in one pass whatever the line's length."""
    head, colon, rest = text.partition(":")
    key = head.lstrip("*_").rstrip(" \t*_")
    if not colon or not _KEY.fullmatch(key):
        return None
    return key, rest.lstrip("*_")


def id_tokens(text: str) -> list[str]:
    """The id-shaped tokens of a text, in order, as the scanner finds them."""
    return _TOKEN.findall(text)


def listed_ids(item: str) -> list[str]:
    """The id-shaped tokens of an item (its wrapped lines too) outside its `(...)` notes,
    in order: the ids a typed line is an event on. An id in a note is mentioned (a
    reference, never an event: `Created: (none — recorded in other-fact)`)."""
    return _TOKEN.findall(_without_notes(item.replace("\n", " ")))


def _typed_lines(section: str, heading_line: int) -> tuple[list[list[Any]], list[list[Any]]]:
    """Events and unknown keys of a section's text; item lines wrap onto indented lines."""
    events: list[list[Any]] = []
    unknown: list[list[Any]] = []
    for item in _ITEM.finditer(section):
        keyed = _keyed(item[1])
        if keyed is None or keyed[0].lower() == "referenced":  # every token is a reference
            continue
        key, rest = keyed[0].lower(), keyed[1]
        number = heading_line + 1 + section.count("\n", 0, item.start())
        if key not in EVENT_KEYS:
            unknown.append([number, keyed[0]])
            continue
        if key == "superseded":  # a note may hold an arrow or "to" of its own
            parts = _ARROW.split(_without_notes(rest.replace("\n", " ")), maxsplit=1)
            old = _TOKEN.findall(parts[0])
            new = _TOKEN.findall(parts[1]) if len(parts) > 1 else []
            if old:
                events.append([key, [old[0]], new[0] if new else None, number])
            continue
        ids = list(dict.fromkeys(listed_ids(rest)))
        if ids:
            events.append([key, ids, None, number])
    return events, unknown
