"""Find secret material in memory text by category and location, never keeping the value."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SecretHit:
    """Where a secret sits: a category and a 1-based line and column, and deliberately no value."""

    category: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class _Span:
    """The offsets of one secret value in the scanned text (offsets only, so nothing leaks)."""

    start: int
    end: int
    category: str


# A token with a vendor prefix must not be glued to more token characters on either side,
# or the match is part of a longer identifier (a hash, a URL slug) rather than a key.
_B = r"(?<![A-Za-z0-9_-])"
_E = r"(?![A-Za-z0-9_-])"

# Fixed-format tokens, most specific first: when two candidates overlap, the earlier
# category in this list wins (a `ghp_` token assigned to GITHUB_TOKEN is a github-token).
_TOKEN_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("aws-access-key", re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")),
    (
        "github-token",
        re.compile(_B + r"(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})" + _E),
    ),
    ("gitlab-token", re.compile(_B + r"glpat-[A-Za-z0-9_-]{20,}" + _E)),
    ("slack-token", re.compile(_B + r"xox[baprs]-(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9-]{10,}" + _E)),
    ("stripe-key", re.compile(_B + r"(?:sk|rk)_live_[A-Za-z0-9]{16,}" + _E)),
    ("anthropic-key", re.compile(_B + r"sk-ant-[A-Za-z0-9_-]{20,}" + _E)),
    (
        "openai-key",
        re.compile(
            _B + r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|(?!ant-)[A-Za-z0-9]{32,})" + _E
        ),
    ),
    ("google-api-key", re.compile(_B + r"AIza[0-9A-Za-z_-]{35}" + _E)),
    ("jwt", re.compile(_B + r"eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}" + _E)),
)

# A PEM header alone (quoted in prose, "never commit a -----BEGIN RSA PRIVATE KEY----- file")
# is not secret material; it becomes one when key data follows it. Separators accept real
# newlines, indentation, blockquote markers and the literal `\n` of a key pasted from JSON.
_PEM_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_PEM_SEP = r"(?:\\n|[ \t\r\n>])+"
_PEM_BODY = re.compile(
    r"(?:" + _PEM_SEP + r"(?:[A-Za-z0-9+/]{20,}={0,2}|(?:Proc-Type|DEK-Info|Comment|Version):"
    r"[^\n\\]*))+"
    r"(?:" + _PEM_SEP + r"[A-Za-z0-9+/]{1,19}={0,2})?"
)
_PEM_END = re.compile(r"(?:\\n|[ \t\r\n>])*-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")

_AWS_SECRET = re.compile(
    r"(?<![A-Za-z0-9])(?i:aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key)"
    r"[\"'`]?[ \t]*(?::=|=>|[:=])[ \t]*[\"'`]?"
    r"(?P<value>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
)

# scheme://user:password@host. The user part cannot hold ':' so the split is unambiguous.
_CONNECTION = re.compile(
    r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s:@/]*:(?P<value>[^\s@/]+)@[A-Za-z0-9\[]"
)

# The name must end in a secret word (DB_PASSWORD, github_token, apiKey, "secret"), so that
# ids such as `api-key-rotation-policy` and prose such as "the token expires" never match.
_PASSWORD = re.compile(
    r"(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))"
    r"(?i:pass(?:word|wd)|secret(?:[_-]?key)?|token|api[_-]?key|access[_-]?key"
    r"|private[_-]?key|client[_-]?secret)"
    r"[\"'`]?[ \t]*(?::=|=>|[:=])[ \t]*"
    r"(?:(?P<q>[\"'`])(?P<quoted>[^\s\"'`]{8,})(?P=q)|(?P<bare>[^\s\"'`,;]{8,}))"
)

_PLACEHOLDER = re.compile(
    r"[xX*.\u2022#_-]+"  # xxxxxxxx, ********
    r"|<[^>]*>"  # <your-password>
    r"|\$\{[^}]*\}|\{\{.*\}\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%"
    # A value holding a redaction marker was already handled (as a token inside it, or as
    # itself), so redacted text scans clean.
    r"|.*\[REDACTED(?::[a-z-]+)?\].*"
    r"|(?i:.*(?:changeme|change[_-]me|example|placeholder|redacted|dummy|replace[_-]?me"
    r"|your[_-]?(?:password|secret|token|key|api)|xxxx|\*\*\*).*)"
    r"|(?i:pass(?:word|wd)?|secret|token|pwd)"
)
# A bare value made only of words and dots is a reference (os.environ, secrets.GITHUB_TOKEN,
# "required") rather than a literal secret; real bare passwords carry digits or symbols.
_BARE_REFERENCE = re.compile(r"[A-Za-z_][A-Za-z_.-]*(?:[(\[].*)?")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?")
_TRAILING_PUNCTUATION = re.compile(r"[.:)]+$")


# Where the patterns could match. A pattern tried at every offset of a large memory costs
# far more than a substring search (every token pattern opens with a lookbehind, so the
# regex engine cannot skip ahead to a first character), so each runs only on the lines
# holding a word that every match of it contains: all but the PEM pattern stay within a
# line, and a line holds the same matches whether it or the whole text is searched. The
# words are found in an ASCII copy of the text, in a few passes that each run at the speed
# of a substring search.

# In a case-insensitive pattern, ſ matches `s` and the Kelvin sign `k`; no other non-ASCII
# character matches a letter of the words below.
_CASE_TRAPS = (("\u017f", "s"), ("\u212a", "k"))
# Encoding with "replace" costs a call for each run of non-ASCII characters (an archive
# index has em dashes on every line); replacing one character everywhere costs a copy. A
# memory seldom holds more than a couple of distinct ones.
_REPLACED_BEFORE_ENCODING = 2


def _ascii_view(text: str) -> bytes:
    """`text` as ASCII bytes, one per character, so that every offset carries over.

    Other characters become `?`, except those a case-insensitive pattern matches as an
    ASCII letter, which become that letter. (Lower-casing the text itself would cost several
    times as much once it holds one non-ASCII character, and would turn İ into two
    characters, moving every later offset.)
    """
    for trap, letter in _CASE_TRAPS:
        if trap in text:
            text = text.replace(trap, letter)
    for _ in range(_REPLACED_BEFORE_ENCODING):
        try:
            return text.encode("ascii")
        except UnicodeEncodeError as error:
            text = text.replace(text[error.start], "?")
    return text.encode("ascii", "replace")


# The view is marked in one pass: letters in lower case, so that a case-insensitive word has
# one spelling, and `k`, `w`, `x`, `I` and `_` (rare in prose) as \x01. One regex then finds
# every word holding one of them: the regex engine skips from mark to mark in a tight loop,
# and reads the word around each. `I` is marked only in capitals (AKIA, AIza), so no
# case-insensitive word may hold an `i`. A \x01 of the text is no mark.
_MARKS = bytes(
    1 if byte in b"kKwWxI_" else 2 if byte == 1 else lowered
    for byte, lowered in enumerate(bytes(range(256)).lower())
)
# What both assignment patterns require after the name: an optional closing quote, blanks
# and an operator. Every name ends in `password`, `passwd`, `secret`, `token` or `key`, so a
# line where no such word is followed by an operator holds no assignment.
_OPERATOR = rb"[\"'`]?[ \t]*[:=]"
_AFTER_SECRET = re.compile(_OPERATOR)
# After the mark, a branch reads unmarked characters only (the rest in lookarounds), so that
# no mark is passed over inside a match. A branch opening with a character costs one
# comparison at a mark it does not fit. The empty group names what was found.
_MARKED_WORDS = re.compile(
    rb"\x01(?:ey(?=" + _OPERATOR + rb")(?P<key>)"  # key=
    rb"|ey(?<=pr\x01vate \x01ey)(?P<private_key>)"  # PRIVATE KEY, in some case
    rb"|en(?<=to\x01en)(?=" + _OPERATOR + rb")(?P<token>)"  # token=
    rb"|ord(?<=pass\x01ord)(?=" + _OPERATOR + rb")(?P<password>)"  # password=
    rb"|d(?<=pass\x01d)(?=" + _OPERATOR + rb")(?P<passwd>)"  # passwd=
    rb"|-(?<=s\x01-)(?P<sk>)"  # sk-
    rb"|live(?<=[rs]\x01\x01live)(?=\x01)(?P<live>)"  # sk_live_, rk_live_
    rb"|a(?<=a[s\x01]\x01a)(?P<aws>)"  # AKIA, ASIA
    rb"|za(?<=a\x01za)(?P<google>)"  # AIza
    # xox; not the mark of a `gh?_` token whose body opens with `o` and a marked letter
    # (`ghp_ok...`), which would take that mark from the github branch below.
    rb"|o(?<!gh[pousr]\x01o)(?=\x01)(?P<slack>)"
    rb"|pat(?<=github\x01pat)(?=\x01)(?P<github_pat>)"  # github_pat_
    rb"|(?<=gh[pousr]\x01)(?P<github>))"  # ghp_ and the like: tried at every mark, so last
)
_MARKED_CATEGORIES = {
    "sk": ("openai-key", "anthropic-key"),  # sk-ant- starts with sk-
    "live": ("stripe-key",),
    "aws": ("aws-access-key",),
    "google": ("google-api-key",),
    "slack": ("slack-token",),
    "github_pat": ("github-token",),
    "github": ("github-token",),
}


@dataclass(frozen=True, slots=True)
class _Candidates:
    """Offsets from which each pattern could match, and more: a scanner reads their lines."""

    tokens: dict[str, list[int]]  # by category, offsets of its literals
    private_key: bool  # `PRIVATE KEY` is in the text, so a PEM header may be
    connections: list[int]  # offsets of `://`
    assignments: list[int]  # offsets of a name's last word that an operator follows


def _find_all(text: bytes, word: bytes, rare: int | None = None) -> list[int]:
    """Every offset of `word` in `text`, in order.

    `rare` indexes a character of `word` that memory text seldom holds. A search for one
    character runs many times faster than one for a word, so the search goes from one
    such character to the next while they stay rare, and looks for the word past a budget.
    """
    offsets = []
    position = 0
    if rare is not None:
        budget = 16 + len(text) // 1024  # past it, the checks would cost more than a search
        character = word[rare : rare + 1]
        found = text.find(character, rare)
        while found >= 0 and budget:
            if text.startswith(word, found - rare):
                offsets.append(found - rare)
            found = text.find(character, found + 1)
            budget -= 1
        if found < 0:
            return offsets
        position = found - rare  # no occurrence at or after it was checked yet
    position = text.find(word, position)
    while position >= 0:
        offsets.append(position)
        position = text.find(word, position + 1)
    return offsets


def _find_candidates(text: str) -> _Candidates:
    """Where each pattern could match in `text`."""
    view = _ascii_view(text)
    marked = view.translate(_MARKS)
    tokens: dict[str, list[int]] = {}
    private_key = False
    assignments = []
    for match in _MARKED_WORDS.finditer(marked):
        kind, start = match.lastgroup, match.start()
        if kind in ("key", "token", "password", "passwd"):
            assignments.append(start)
        elif kind == "private_key":  # a header holds it in capitals
            private_key = private_key or view.startswith(b"PRIVATE KEY", start - 8)
        elif kind is not None:  # every branch names itself
            for category in _MARKED_CATEGORIES[kind]:
                tokens.setdefault(category, []).append(start)
    # The other words hold no marked character: each takes a search of its own.
    for start in _find_all(marked, b"secret"):
        if _AFTER_SECRET.match(marked, start + 6):
            assignments.append(start)
    if gitlab := _find_all(view, b"glpat-"):
        tokens["gitlab-token"] = gitlab
    if jwt := _find_all(view, b"eyJ", rare=2):
        tokens["jwt"] = jwt
    return _Candidates(tokens, private_key, _find_all(view, b"://", rare=1), assignments)


def _lines_at(text: str, offsets: Iterable[int]) -> list[tuple[int, int]]:
    """(start, end) of every line holding one of `offsets`, in order."""
    ranges = []
    for start in sorted({text.rfind("\n", 0, offset) + 1 for offset in offsets}):
        end = text.find("\n", start)
        ranges.append((start, len(text) if end < 0 else end))
    return ranges


def _line_matches(
    pattern: re.Pattern[str], text: str, lines: Iterable[tuple[int, int]]
) -> Iterator[re.Match[str]]:
    for start, end in lines:
        yield from pattern.finditer(text, start, end)


def _private_key_spans(text: str) -> Iterator[_Span]:
    for begin in _PEM_BEGIN.finditer(text):
        body = _PEM_BODY.match(text, begin.end())
        if body is None:  # a header alone, or BEGIN right before END: no key data
            continue
        footer = _PEM_END.match(text, body.end())
        yield _Span(begin.start(), body.end() if footer is None else footer.end(), "private-key")


def _value_spans(matches: Iterable[re.Match[str]], category: str) -> Iterator[_Span]:
    for match in matches:
        if not _PLACEHOLDER.fullmatch(match["value"]):
            yield _Span(match.start("value"), match.end("value"), category)


def _password_spans(matches: Iterable[re.Match[str]]) -> Iterator[_Span]:
    for match in matches:
        if match["quoted"] is not None:
            start, end = match.span("quoted")
            value = match["quoted"]
        else:
            start, end = match.span("bare")
            value = _TRAILING_PUNCTUATION.sub("", match["bare"])
            if len(value) < 8 or _BARE_REFERENCE.fullmatch(value):
                continue
        if _PLACEHOLDER.fullmatch(value) or _ISO_DATE.fullmatch(value):
            continue
        yield _Span(start, end, "password-assignment")


def _spans(text: str, candidates: _Candidates) -> Iterator[_Span]:
    """What the patterns find where they could match, in order of precedence for overlaps.

    A specific format beats a guess from the name it is assigned to.
    """
    if candidates.private_key:  # every PEM header holds it
        yield from _private_key_spans(text)
    for category, pattern in _TOKEN_PATTERNS:
        if offsets := candidates.tokens.get(category):
            for match in _line_matches(pattern, text, _lines_at(text, offsets)):
                yield _Span(match.start(), match.end(), category)
    if candidates.assignments:
        assignments = _lines_at(text, candidates.assignments)
        yield from _value_spans(_line_matches(_AWS_SECRET, text, assignments), "aws-secret-key")
    if candidates.connections:
        connections = _lines_at(text, candidates.connections)
        yield from _value_spans(_line_matches(_CONNECTION, text, connections), "connection-string")
    if candidates.assignments:
        yield from _password_spans(_line_matches(_PASSWORD, text, assignments))


def _settle(spans: Iterable[_Span]) -> list[_Span]:
    """The spans that overlap no earlier one, sorted by offset: the first found wins."""
    accepted: list[_Span] = []  # kept sorted by start, so an overlap is with a neighbour
    starts: list[int] = []
    for span in spans:
        index = bisect.bisect_left(starts, span.start)
        if index > 0 and accepted[index - 1].end > span.start:
            continue
        if index < len(accepted) and accepted[index].start < span.end:
            continue
        accepted.insert(index, span)
        starts.insert(index, span.start)
    return accepted


def _scan_once(text: str) -> list[_Span]:
    """Non-overlapping secret spans, sorted by offset; precedence settles overlaps."""
    return _settle(_spans(text, _find_candidates(text)))


@dataclass(frozen=True, slots=True)
class _Part:
    """A stretch of the original text, kept as is (marker None) or replaced by a marker."""

    start: int
    end: int
    marker: str | None = None


def _redaction(
    text: str, scan: Callable[[str], list[_Span]] = _scan_once
) -> tuple[list[_Span], str]:
    """Every secret span (in `text` offsets) and the redacted text.

    Redacting one secret can expose another that was glued to it (a token right before a
    PEM header fails its boundary check until the header becomes a marker), so the redacted
    text is scanned again until it is clean. Markers never match, so each round covers fresh
    original characters and the loop ends.
    """
    parts = [_Part(0, len(text))]
    found: list[_Span] = []
    while True:
        current = "".join(text[p.start : p.end] if p.marker is None else p.marker for p in parts)
        pending = scan(current)
        if not pending:
            return sorted(found, key=lambda span: span.start), current
        next_parts: list[_Part] = []
        position = 0  # where the part begins in `current`
        for part in parts:
            if part.marker is not None:
                next_parts.append(part)
                position += len(part.marker)
                continue
            cursor = part.start
            part_end = position + part.end - part.start
            while pending and pending[0].start < part_end:
                span = pending.pop(0)
                if span.start < position or span.end > part_end:
                    continue  # reaches into a marker: never a secret of its own
                start, end = part.start + span.start - position, part.start + span.end - position
                next_parts += [
                    _Part(cursor, start),
                    _Part(start, end, f"[REDACTED:{span.category}]"),
                ]
                found.append(_Span(start, end, span.category))
                cursor = end
            next_parts.append(_Part(cursor, part.end))
            position = part_end
        next_parts = [p for p in next_parts if p.marker is not None or p.start < p.end]
        if next_parts == parts:  # only spans reaching into markers: nothing more to redact
            return sorted(found, key=lambda span: span.start), current
        parts = next_parts


def _hits(text: str, spans: list[_Span]) -> tuple[SecretHit, ...]:
    """Each span of `text` (in order) as a hit at the line and column where it starts, sorted."""
    hits = []
    line, counted = 1, 0  # newlines before `counted` are in `line`; spans come in order
    for span in spans:
        line += text.count("\n", counted, span.start)
        counted = span.start
        column = span.start - (text.rfind("\n", 0, span.start) + 1) + 1
        hits.append(SecretHit(span.category, line, column))
    return tuple(sorted(hits, key=lambda hit: (hit.line, hit.column, hit.category)))


def find_secrets(text: str) -> tuple[SecretHit, ...]:
    """Every secret in `text` as (category, line, column) of its value, sorted."""
    return _hits(text, _redaction(text)[0])


def redact(text: str) -> str:
    """`text` with each secret value replaced by `[REDACTED:<category>]`."""
    return _redaction(text)[1]


def describe(hit: SecretHit, path: str) -> str:
    """One `path:line:col: secret material (category)` line, safe to print."""
    return f"{path}:{hit.line}:{hit.column}: secret material ({hit.category})"
