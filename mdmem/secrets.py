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


# Each pattern below runs only where a quick search shows it could match, and the quick
# searches share a few passes over the text. On a large memory a pass costs about a
# millisecond when the regex engine can skip ahead to a literal first character, and less
# when the search is for one rare character; a pattern that opens with a lookbehind (every
# token pattern) is tried at each offset instead, at ten times the cost, and the assignment
# pattern costs about as much on every line it is tried on.

# A literal every match of a token pattern contains: when none is in the text, the
# pattern cannot match, and the scan skips it.
_TOKEN_LITERALS: dict[str, tuple[str, ...]] = {
    "aws-access-key": ("AKIA", "ASIA"),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab-token": ("glpat-",),
    "slack-token": ("xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"),
    "stripe-key": ("_live_",),
    "anthropic-key": ("sk-ant-",),
    "openai-key": ("sk-",),
    "google-api-key": ("AIza",),
    "jwt": ("eyJ",),
}
_TOKEN_CATEGORY = {
    literal: category for category, literals in _TOKEN_LITERALS.items() for literal in literals
}
# Literals sharing a first character are found in one pass; the rest of each is read in a
# lookahead, which consumes nothing, so that no occurrence hides inside another.
_LITERAL_PASSES = (
    re.compile(r"A(?=(KIA|SIA|Iza))"),
    re.compile(r"g(?=(h[pousr]_|ithub_pat_|lpat-))"),
    re.compile(r"x(?=(ox[baprs]-))"),
)

# The line-bound patterns are tried on the lines of their words, found in the lower-cased
# text. One pass finds the words holding a `k`, rare in prose, along with the lower-cased
# `sk-` and `_live_` token literals (so wherever the literals are, and possibly elsewhere).
# No match can start inside another: each holds one `k`, its first character.
_K_WORDS = re.compile(r"k(?:ey|en(?<=token)|-(?<=sk-)|_live_(?<=[rs]k_live_))")

# After a word, what the assignment pattern needs for a match whose name ends there: the rest
# of the name (pass-word, pass-wd), an optional closing quote, blanks and an operator.
_OPERATOR = r"[\"'`]?[ \t]*[:=]"
_ASSIGNED_AFTER = {
    "pass": re.compile(r"w(?:ord|d)" + _OPERATOR),
    "secret": re.compile(_OPERATOR),
    "token": re.compile(_OPERATOR),
    "key": re.compile(_OPERATOR),
}
# \u0130 lower-cases to two characters, so that later offsets of the lower-cased text drift
# from the text's; \u017f matches `s` case-insensitively but lower-cases to itself. Without
# them, every case-insensitive match of a word is spelled in lower case at the same offset
# of the lower-cased text, which the quicker searches rely on.
_CASE_TRAPS = ("\u0130", "\u017f")
# What every scanner starts from, as the lower-cased text spells it: the words of the
# line-bound patterns and each token literal (the passes above read some in the text
# itself, where they lower-case to these). A text holding none holds no secret, and
# most memory texts (a session log's summary) hold none: they skip the passes.
_TRIGGERS = (
    "key", "pass", "secret", "token", "://", "sk-", "k_live_",
    "akia", "asia", "aiza", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
    "xox", "eyj",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Text:
    """A text to scan, with what the scanners need from it found in a few shared passes."""

    text: str
    lowered: str
    words: dict[str, list[int]]  # offsets of each word in `lowered`
    token_categories: frozenset[str]  # every category whose literal is in `text`, maybe more
    exact: bool  # `lowered` keeps the offsets of `text` and spells its case-insensitive words


def _find_all(text: str, word: str, rare: int | None = None) -> list[int]:
    """Every offset of `word` in `text`, where `word` cannot overlap itself.

    `rare` indexes a character of `word` that memory text seldom holds. A search for one
    character runs many times faster than one for a word, so the search goes from one
    such character to the next while they stay rare, and looks for the word past a budget.
    """
    offsets = []
    position = 0
    if rare is not None:
        budget = 16 + len(text) // 1024  # past it, the checks would cost more than a search
        character = word[rare]
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
        position = text.find(word, position + len(word))
    return offsets


def _prepare(text: str, lowered: str) -> _Text:
    words: dict[str, list[int]] = {
        "pass": _find_all(lowered, "pass"),
        "secret": _find_all(lowered, "secret"),
        "://": _find_all(lowered, "://", rare=1),
        "token": [],
        "key": [],
    }
    categories: set[str] = set()
    for match in _K_WORDS.finditer(lowered):
        found = match.group()
        if found == "key":
            words["key"].append(match.start())
        elif found == "ken":
            words["token"].append(match.start() - 2)
        elif found == "k-":
            categories.update(("openai-key", "anthropic-key"))  # sk-ant- starts with sk-
        else:
            categories.add("stripe-key")
    for literal_pass in _LITERAL_PASSES:
        for match in literal_pass.finditer(text):
            categories.add(_TOKEN_CATEGORY[match[0] + match[1]])
    if _find_all(text, "eyJ", rare=2):
        categories.add("jwt")
    exact = not any(trap in text for trap in _CASE_TRAPS)
    return _Text(text, lowered, words, frozenset(categories), exact)


def _token_spans(scan: _Text) -> Iterator[_Span]:
    for category, pattern in _TOKEN_PATTERNS:
        if category not in scan.token_categories:
            continue
        for match in pattern.finditer(scan.text):
            yield _Span(match.start(), match.end(), category)


def _private_key_spans(scan: _Text) -> Iterator[_Span]:
    text = scan.text
    if scan.exact and not any(
        offset >= 8 and text.startswith("PRIVATE KEY", offset - 8) for offset in scan.words["key"]
    ):
        return  # every header holds PRIVATE KEY, its `key` found at the same offset
    for begin in _PEM_BEGIN.finditer(text):
        body = _PEM_BODY.match(text, begin.end())
        if body is None:  # a header alone, or BEGIN right before END: no key data
            continue
        footer = _PEM_END.match(text, body.end())
        yield _Span(begin.start(), body.end() if footer is None else footer.end(), "private-key")


def _lines_at(text: str, offsets: Iterable[int]) -> list[tuple[int, int]]:
    """(start, end) of every line holding one of `offsets`, in order.

    The line-bound patterns below cannot cross a line and always contain one of their
    words, so running them on the lines of their words alone finds exactly what a
    whole-text scan finds, without trying a complex pattern at every offset of a large memory.
    """
    ranges = []
    for start in sorted({text.rfind("\n", 0, offset) + 1 for offset in offsets}):
        end = text.find("\n", start)
        ranges.append((start, len(text) if end < 0 else end))
    return ranges


def _line_matches(
    pattern: re.Pattern[str], text: str, offsets: Iterable[int]
) -> Iterator[re.Match[str]]:
    for start, end in _lines_at(text, offsets):
        yield from pattern.finditer(text, start, end)


def _aws_secret_spans(scan: _Text) -> Iterator[_Span]:
    for match in _line_matches(_AWS_SECRET, scan.text, scan.words["secret"]):
        if not _PLACEHOLDER.fullmatch(match["value"]):
            yield _Span(match.start("value"), match.end("value"), "aws-secret-key")


def _connection_spans(scan: _Text) -> Iterator[_Span]:
    for match in _line_matches(_CONNECTION, scan.text, scan.words["://"]):
        if not _PLACEHOLDER.fullmatch(match["value"]):
            yield _Span(match.start("value"), match.end("value"), "connection-string")


def _assignment_offsets(scan: _Text) -> Iterator[int]:
    """Offsets of the words on whose lines the assignment pattern is tried.

    Every word, as for the other line-bound patterns; but when the lower-cased text spells
    each match at its offset, only the words an operator follows: the other lines cannot
    match, and in a memory most lines naming a key or a token assign nothing.
    """
    for word, after in _ASSIGNED_AFTER.items():
        for offset in scan.words[word]:
            if not scan.exact or after.match(scan.lowered, offset + len(word)):
                yield offset


def _password_spans(scan: _Text) -> Iterator[_Span]:
    for match in _line_matches(_PASSWORD, scan.text, _assignment_offsets(scan)):
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


# In order of precedence for overlapping candidates: a specific format beats a guess from
# the name it is assigned to.
_SCANNERS: tuple[Callable[[_Text], Iterator[_Span]], ...] = (
    _private_key_spans,
    _token_spans,
    _aws_secret_spans,
    _connection_spans,
    _password_spans,
)


def _scan_once(text: str) -> list[_Span]:
    """Non-overlapping secret spans, sorted by offset; precedence settles overlaps."""
    lowered = text.lower()
    if not any(trigger in lowered for trigger in _TRIGGERS):
        return []
    accepted: list[_Span] = []  # kept sorted by start, so an overlap is with a neighbour
    starts: list[int] = []
    scan = _prepare(text, lowered)
    for scanner in _SCANNERS:
        for span in scanner(scan):
            index = bisect.bisect_left(starts, span.start)
            if index > 0 and accepted[index - 1].end > span.start:
                continue
            if index < len(accepted) and accepted[index].start < span.end:
                continue
            accepted.insert(index, span)
            starts.insert(index, span.start)
    return accepted


@dataclass(frozen=True, slots=True)
class _Part:
    """A stretch of the original text, kept as is (marker None) or replaced by a marker."""

    start: int
    end: int
    marker: str | None = None


def _redaction(text: str) -> tuple[list[_Span], str]:
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
        pending = _scan_once(current)
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


def find_secrets(text: str) -> tuple[SecretHit, ...]:
    """Every secret in `text` as (category, line, column) of its value, sorted."""
    hits = []
    line, counted = 1, 0  # newlines before `counted` are in `line`; spans come in order
    for span in _redaction(text)[0]:
        line += text.count("\n", counted, span.start)
        counted = span.start
        column = span.start - (text.rfind("\n", 0, span.start) + 1) + 1
        hits.append(SecretHit(span.category, line, column))
    return tuple(sorted(hits, key=lambda hit: (hit.line, hit.column, hit.category)))


def redact(text: str) -> str:
    """`text` with each secret value replaced by `[REDACTED:<category>]`."""
    return _redaction(text)[1]


def describe(hit: SecretHit, path: str) -> str:
    """One `path:line:col: secret material (category)` line, safe to print."""
    return f"{path}:{hit.line}:{hit.column}: secret material ({hit.category})"
