"""Find secret material in memory text by category and location, never keeping the value."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from mdmem.safety.candidates import Candidates, find_candidates


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
_TOKEN_PATTERNS: tuple[tuple[str, str], ...] = (
    ("aws-access-key", r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
    (
        "github-token",
        _B + r"(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})" + _E,
    ),
    ("gitlab-token", _B + r"glpat-[A-Za-z0-9_-]{20,}" + _E),
    ("slack-token", _B + r"xox[baprs]-(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9-]{10,}" + _E),
    ("stripe-key", _B + r"(?:sk|rk)_live_[A-Za-z0-9]{16,}" + _E),
    ("anthropic-key", _B + r"sk-ant-[A-Za-z0-9_-]{20,}" + _E),
    (
        "openai-key",
        _B + r"sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|(?!ant-)[A-Za-z0-9]{32,})" + _E,
    ),
    ("google-api-key", _B + r"AIza[0-9A-Za-z_-]{35}" + _E),
    ("jwt", _B + r"eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}" + _E),
)

# A PEM header alone (quoted in prose, "never commit a -----BEGIN RSA PRIVATE KEY----- file")
# is not secret material; it becomes one when key data follows it. Separators accept real
# newlines, indentation, blockquote markers and the literal `\n` of a key pasted from JSON.
_PEM_BEGIN = r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
_PEM_SEP = r"(?:\\n|[ \t\r\n>])+"
_PEM_BODY = (
    r"(?:" + _PEM_SEP + r"(?:[A-Za-z0-9+/]{20,}={0,2}|(?:Proc-Type|DEK-Info|Comment|Version):"
    r"[^\n\\]*))+"
    r"(?:" + _PEM_SEP + r"[A-Za-z0-9+/]{1,19}={0,2})?"
)
_PEM_END = r"(?:\\n|[ \t\r\n>])*-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"

_AWS_SECRET = (
    r"(?<![A-Za-z0-9])(?i:aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key)"
    r"[\"'`]?[ \t]*(?::=|=>|[:=])[ \t]*[\"'`]?"
    r"(?P<value>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
)

# scheme://user:password@host. The user part cannot hold ':' so the split is unambiguous.
_CONNECTION = (
    r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s:@/]*:(?P<value>[^\s@/]+)@[A-Za-z0-9\[]"
)

# The name must end in a secret word (DB_PASSWORD, github_token, apiKey, "secret"), so that
# ids such as `api-key-rotation-policy` and prose such as "the token expires" never match.
_PASSWORD = (
    r"(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))"
    r"(?i:pass(?:word|wd)|secret(?:[_-]?key)?|token|api[_-]?key|access[_-]?key"
    r"|private[_-]?key|client[_-]?secret)"
    r"[\"'`]?[ \t]*(?::=|=>|[:=])[ \t]*"
    r"(?:(?P<q>[\"'`])(?P<quoted>[^\s\"'`]{8,})(?P=q)|(?P<bare>[^\s\"'`,;]{8,}))"
)

_PLACEHOLDER = (
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
_BARE_REFERENCE = r"[A-Za-z_][A-Za-z_.-]*(?:[(\[].*)?"
_ISO_DATE = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?"
_TRAILING_PUNCTUATION = r"[.:)]+$"


def _lines_at(text: str, offsets: Iterable[int]) -> list[tuple[int, int]]:
    """(start, end) of every line holding one of `offsets`, in order."""
    ranges = []
    for start in sorted({text.rfind("\n", 0, offset) + 1 for offset in offsets}):
        end = text.find("\n", start)
        ranges.append((start, len(text) if end < 0 else end))
    return ranges


def _line_matches(pattern: str, text: str, offsets: Iterable[int]) -> Iterator[re.Match[str]]:
    """The matches of `pattern` on the lines holding `offsets`: compiled only when there is
    one (through re's own cache), so that text holding no candidate compiles nothing."""
    for start, end in _lines_at(text, offsets):
        yield from re.compile(pattern).finditer(text, start, end)


def _private_key_spans(text: str) -> Iterator[_Span]:
    for begin in re.finditer(_PEM_BEGIN, text):
        body = re.compile(_PEM_BODY).match(text, begin.end())
        if body is None:  # a header alone, or BEGIN right before END: no key data
            continue
        footer = re.compile(_PEM_END).match(text, body.end())
        yield _Span(begin.start(), body.end() if footer is None else footer.end(), "private-key")


def _value_spans(matches: Iterable[re.Match[str]], category: str) -> Iterator[_Span]:
    for match in matches:
        if not re.fullmatch(_PLACEHOLDER, match["value"]):
            yield _Span(match.start("value"), match.end("value"), category)


def _password_spans(matches: Iterable[re.Match[str]]) -> Iterator[_Span]:
    for match in matches:
        if match["quoted"] is not None:
            start, end = match.span("quoted")
            value = match["quoted"]
        else:
            start, end = match.span("bare")
            value = re.sub(_TRAILING_PUNCTUATION, "", match["bare"])
            if len(value) < 8 or re.fullmatch(_BARE_REFERENCE, value):
                continue
        if re.fullmatch(_PLACEHOLDER, value) or re.fullmatch(_ISO_DATE, value):
            continue
        yield _Span(start, end, "password-assignment")


def _spans(text: str, candidates: Candidates) -> Iterator[_Span]:
    """What the patterns find where they could match, in order of precedence for overlaps.

    A specific format beats a guess from the name it is assigned to.
    """
    if candidates.private_key:  # every PEM header holds it
        yield from _private_key_spans(text)
    for category, pattern in _TOKEN_PATTERNS:
        for match in _line_matches(pattern, text, candidates.tokens.get(category, ())):
            yield _Span(match.start(), match.end(), category)
    assignments, connections = candidates.assignments, candidates.connections
    yield from _value_spans(_line_matches(_AWS_SECRET, text, assignments), "aws-secret-key")
    yield from _value_spans(_line_matches(_CONNECTION, text, connections), "connection-string")
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
    return _settle(_spans(text, find_candidates(text)))


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


# A line that quotes secret material on purpose (an example in a session log) carries this
# marker; lint does not report it there, and every output still masks the value.
ALLOW_MARKER = "lint:allow-secret-material"


def reported_secrets(text: str, *, quoted: bool) -> list[SecretHit]:
    """The secrets of `text` lint reports: where a text may quote examples (`quoted`, a
    session log), not those on a line that carries `ALLOW_MARKER`."""
    lines = text.split("\n") if quoted and ALLOW_MARKER in text else []
    allowed = {number for number, line in enumerate(lines, 1) if ALLOW_MARKER in line}
    return [hit for hit in find_secrets(text) if hit.line not in allowed]


def redact(text: str) -> str:
    """`text` with each secret value replaced by `[REDACTED:<category>]`."""
    return _redaction(text)[1]


def redact_all(value: object) -> object:
    """A JSON value with each of its strings masked (`redact`), before JSON escapes any of
    their characters: what a command or a tool shows of the memory, as data."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: redact_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [redact_all(item) for item in value]
    return value
