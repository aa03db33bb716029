"""The secret scan's quick searches change nothing: on generated texts it reports exactly the
hits, and redacts exactly the text, of the plain scan it replaced, kept below as the oracle.

The oracle runs each token pattern whenever one of its literals is in the text, and each
line-bound pattern on every line where one of its words is in the lower-cased text; the
scan under test decides where to look from a few shared passes instead (words and literals
found together, an operator required after an assignment's name, a rare character searched
for before a word). The patterns themselves are imported, so the property is about where
the scan looks, not about what the patterns match.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mdmem import secrets
from mdmem.secrets import SecretHit, find_secrets, redact
from tests.test_secrets import (
    AWS_SECRET,
    DB_PASSWORD,
    GITHUB_CLASSIC,
    JWT,
    PASSWORD,
    PEM_BODY,
    PRIVATE_KEY,
)

# The oracle: the scan as it was before the quick searches.


def _oracle_token_spans(text: str) -> Iterator[secrets._Span]:
    for category, pattern in secrets._TOKEN_PATTERNS:
        if not any(literal in text for literal in secrets._TOKEN_LITERALS[category]):
            continue
        for match in pattern.finditer(text):
            yield secrets._Span(match.start(), match.end(), category)


def _oracle_private_key_spans(text: str) -> Iterator[secrets._Span]:
    for begin in secrets._PEM_BEGIN.finditer(text):
        body = secrets._PEM_BODY.match(text, begin.end())
        if body is None:
            continue
        footer = secrets._PEM_END.match(text, body.end())
        end = body.end() if footer is None else footer.end()
        yield secrets._Span(begin.start(), end, "private-key")


def _oracle_lines_with(text: str, words: tuple[str, ...]) -> list[tuple[int, int]]:
    lowered = text.lower()
    starts: set[int] = set()
    for word in words:
        position = lowered.find(word)
        while position >= 0:
            starts.add(text.rfind("\n", 0, position) + 1)
            position = lowered.find(word, position + len(word))
    ranges = []
    for start in sorted(starts):
        end = text.find("\n", start)
        ranges.append((start, len(text) if end < 0 else end))
    return ranges


def _oracle_line_matches(
    pattern: re.Pattern[str], text: str, words: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    for start, end in _oracle_lines_with(text, words):
        yield from pattern.finditer(text, start, end)


def _oracle_aws_secret_spans(text: str) -> Iterator[secrets._Span]:
    for match in _oracle_line_matches(secrets._AWS_SECRET, text, ("secret",)):
        if not secrets._PLACEHOLDER.fullmatch(match["value"]):
            yield secrets._Span(match.start("value"), match.end("value"), "aws-secret-key")


def _oracle_connection_spans(text: str) -> Iterator[secrets._Span]:
    for match in _oracle_line_matches(secrets._CONNECTION, text, ("://",)):
        if not secrets._PLACEHOLDER.fullmatch(match["value"]):
            yield secrets._Span(match.start("value"), match.end("value"), "connection-string")


def _oracle_password_spans(text: str) -> Iterator[secrets._Span]:
    words = ("pass", "secret", "token", "key")
    for match in _oracle_line_matches(secrets._PASSWORD, text, words):
        if match["quoted"] is not None:
            start, end = match.span("quoted")
            value = match["quoted"]
        else:
            start, end = match.span("bare")
            value = secrets._TRAILING_PUNCTUATION.sub("", match["bare"])
            if len(value) < 8 or secrets._BARE_REFERENCE.fullmatch(value):
                continue
        if secrets._PLACEHOLDER.fullmatch(value) or secrets._ISO_DATE.fullmatch(value):
            continue
        yield secrets._Span(start, end, "password-assignment")


_ORACLE_SCANNERS: tuple[Callable[[str], Iterator[secrets._Span]], ...] = (
    _oracle_private_key_spans,
    _oracle_token_spans,
    _oracle_aws_secret_spans,
    _oracle_connection_spans,
    _oracle_password_spans,
)


def _oracle_scan_once(text: str) -> list[secrets._Span]:
    accepted: list[secrets._Span] = []
    starts: list[int] = []
    for scanner in _ORACLE_SCANNERS:
        for span in scanner(text):
            index = bisect.bisect_left(starts, span.start)
            if index > 0 and accepted[index - 1].end > span.start:
                continue
            if index < len(accepted) and accepted[index].start < span.end:
                continue
            accepted.insert(index, span)
            starts.insert(index, span.start)
    return accepted


def _oracle_redaction(text: str) -> tuple[list[secrets._Span], str]:
    parts = [secrets._Part(0, len(text))]
    found: list[secrets._Span] = []
    while True:
        current = "".join(text[p.start : p.end] if p.marker is None else p.marker for p in parts)
        pending = _oracle_scan_once(current)
        if not pending:
            return sorted(found, key=lambda span: span.start), current
        next_parts: list[secrets._Part] = []
        position = 0
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
                    continue
                start, end = part.start + span.start - position, part.start + span.end - position
                next_parts += [
                    secrets._Part(cursor, start),
                    secrets._Part(start, end, f"[REDACTED:{span.category}]"),
                ]
                found.append(secrets._Span(start, end, span.category))
                cursor = end
            next_parts.append(secrets._Part(cursor, part.end))
            position = part_end
        next_parts = [p for p in next_parts if p.marker is not None or p.start < p.end]
        if next_parts == parts:
            return sorted(found, key=lambda span: span.start), current
        parts = next_parts


def oracle_find_secrets(text: str) -> tuple[SecretHit, ...]:
    line_starts = [0] + [newline.end() for newline in re.finditer("\n", text)]
    hits = []
    for span in _oracle_redaction(text)[0]:
        line_index = bisect.bisect_right(line_starts, span.start) - 1
        column = span.start - line_starts[line_index] + 1
        hits.append(SecretHit(span.category, line_index + 1, column))
    return tuple(sorted(hits, key=lambda hit: (hit.line, hit.column, hit.category)))


def oracle_redact(text: str) -> str:
    return _oracle_redaction(text)[1]


# Generated texts: secrets that look real, near misses, prose and footers, glued together.

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def run(alphabet: str, low: int, high: int) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(alphabet), min_size=low, max_size=high)


def prefixed(prefixes: list[str], body: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(str.__add__, st.sampled_from(prefixes), body)


# One token per literal the scan looks for, each a match of its category's pattern, built
# from pieces like the planted values of tests/test_secrets.py.
BODY = "Zq8Lm2Rk7Tn4Wv9Xb3CdT3BlbkFJ5dS0aPq2EoU7Rk2LmQ9x"
EVERY_LITERAL = [
    ("aws-access-key", "AKIA" + "Q7ZK3MBT4XWN2PLA"),
    ("aws-access-key", "ASIA" + "Q7ZK3MBT4XWN2PLA"),
    *[("github-token", prefix + "_" + BODY[:36]) for prefix in ("ghp", "gho", "ghu", "ghs", "ghr")],
    ("github-token", "github" + "_pat_" + BODY[:22]),
    ("gitlab-token", "glpat" + "-" + BODY[:20]),
    *[("slack-token", "xox" + letter + "-" + BODY[:12]) for letter in "baprs"],
    ("stripe-key", "sk" + "_live_" + BODY[:16]),
    ("stripe-key", "rk" + "_live_" + BODY[:16]),
    ("anthropic-key", "sk" + "-ant-" + BODY[:20]),
    ("openai-key", "sk" + "-" + BODY[:32]),
    ("openai-key", "sk" + "-proj-" + BODY[:20]),
    ("google-api-key", "AIza" + BODY[:35]),
    ("jwt", "eyJ" + "hbGciOi." + "eyJzdWIi." + BODY[:12]),
]

# A branch per vendor format, with lengths straddling each pattern's minimum so that some
# tokens are a character short, and prefixes that nearly match.
TOKENS = st.one_of(
    prefixed(["AKIA", "ASIA", "AKIB"], run(UPPER_DIGITS, 15, 17)),
    prefixed(["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "gh_"], run(ALNUM, 35, 38)),
    prefixed(["github_pat_"], run(ALNUM + "_", 21, 24)),
    prefixed(["glpat-", "glpat_"], run(ALNUM + "_-", 19, 22)),
    prefixed(["xoxb-", "xoxp-", "xoxz-"], run(ALNUM + "-", 9, 14)),
    prefixed(["sk_live_", "rk_live_", "sk_test_", "SK_LIVE_"], run(ALNUM, 15, 18)),
    prefixed(["sk-ant-", "Sk-ant-"], run(ALNUM + "_-", 19, 24)),
    prefixed(["sk-proj-", "sk-admin-", "sk-svcacct-"], run(ALNUM + "_-", 19, 22)),
    prefixed(["sk-", "task-sk-", "SK-"], run(ALNUM, 31, 34)),
    prefixed(["AIza", "aiza"], run(ALNUM + "_-", 34, 36)),
    st.builds(
        lambda a, b, c: f"eyJ{a}.{b}.{c}",
        run(ALNUM, 4, 8),
        run(ALNUM + "_-", 4, 8),
        run(ALNUM, 9, 14),
    ),
    st.sampled_from([token for _, token in EVERY_LITERAL] + ["AKIA-rotation", "eyJhbGci"]),
)

# Names in any case, some spelled with a character a case-insensitive pattern matches but
# lower() does not map to ASCII (\u017f for s, \u0131 for i), or maps to it (\u212a for k).
NAMES = st.sampled_from(
    [
        "password",
        "passwd",
        "pass",
        "secret",
        "secret_key",
        "SecretKey",
        "token",
        "tokens",
        "api_key",
        "apiKey",
        "access-key",
        "private_key",
        "client_secret",
        "DB_PASSWORD",
        "GITHUB_TOKEN",
        "aws_secret_access_key",
        "SecretAccessKey",
        "AWS.SECRET.KEY",
        "key",
        "max_tokens",
        "pa\u017f\u017fword",
        "\u017fecret",
        "\u212aey",
        "api_\u212aey",
        "cl\u0131ent_secret",
    ]
)
CASED = st.builds(
    lambda name, flips: "".join(
        c.swapcase() if flip else c
        for c, flip in zip(name, flips + [False] * len(name), strict=False)
    ),
    NAMES,
    st.lists(st.booleans(), max_size=12),
)
VALUES = st.one_of(
    st.sampled_from(
        [
            PASSWORD,
            DB_PASSWORD,
            AWS_SECRET,
            "required",
            "os.environ",
            "secrets.GITHUB_TOKEN",
            "${DB_PASSWORD}",
            "<your-password>",
            "changeme123",
            "********",
            "xxxxxxxxxxxx",
            "2026-01-01T10:00:00Z",
            "[REDACTED:jwt]",
            "abc123.",
            "Zq8Lm2Rk7T):",
            "short",
        ]
    ),
    run(ALNUM + "/+=!-_.", 6, 42),
)
QUOTES = st.sampled_from(['"', "'", "`"])
ASSIGNMENTS = st.builds(
    lambda name, quote, blank, operator, value: name + quote + blank + operator + value,
    CASED,
    st.sampled_from(["", "", '"', "'", "`"]),
    st.sampled_from(["", "", " ", "\t", "  "]),
    st.sampled_from([":", ": ", "=", " = ", ":=", "=>\t", "-", " is "]),
    st.one_of(
        st.builds(lambda quote, value: quote + value + quote, QUOTES, VALUES),
        VALUES,
        st.builds(str.__add__, VALUES, st.sampled_from([",", ";", ".", "):", '"'])),
        st.builds(lambda open_, value, close: open_ + value + close, QUOTES, VALUES, QUOTES),
    ),
)
CONNECTIONS = st.builds(
    lambda scheme, user, password, host: f"{scheme}://{user}:{password}@{host}",
    st.sampled_from(["postgres", "mongodb+srv", "redis", "amqp", "HTTP", "git+ssh", "1x"]),
    st.sampled_from(["app", "", "svc", "u:v"]),
    st.one_of(st.sampled_from(["password", "${PW}", DB_PASSWORD, "", "p/w"]), run(ALNUM, 1, 12)),
    st.sampled_from(["db.internal:5432/app", "[::1]/x", "-bad", "cache"]),
)
BEGIN = "-----BEGIN "
PEM = st.one_of(
    st.sampled_from(
        [
            PRIVATE_KEY,
            BEGIN + "OPENSSH PRIVATE KEY-----\n  > " + PEM_BODY,
            BEGIN + "PRIVATE KEY-----\\n" + PEM_BODY + "\\n-----END PRIVATE KEY-----",
            BEGIN + "ENCRYPTED PRIVATE KEY BLOCK-----\nProc-Type: 4,ENCRYPTED\n" + PEM_BODY,
            "never commit a " + BEGIN + "RSA PRIVATE KEY----- file",
            BEGIN + "PUBLIC KEY-----\n" + PEM_BODY + "\n-----END PUBLIC KEY-----",
            "the private key lives in the vault; PRIVATE KEY rotation is manual",
        ]
    ),
    st.builds(
        lambda kind, body: f"{BEGIN}{kind}PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----",
        st.sampled_from(["", "RSA ", "EC ", "rsa "]),
        run(ALNUM + "+/", 1, 30),
    ),
)
PROSE = st.sampled_from(
    [
        "- Never log the password or the session token, even at debug level",
        "- The token expires after 1h; refresh it on 401",
        "## Key Decisions",
        "  <!-- id: api-key-rotation-policy | created: 2026-06-08 | uses: 14 | tier: active -->",
        "  <!-- id: cache-layout-02484 | created: 2023-11-10 | last_used: 2023-12-09 | uses: 3"
        " | tier: archived | scope: src/cache/** | section: Key Decisions -->",
        "- Local DB is `postgres://localhost:5432/app`; credentials come from `.env`",
        "token_expiry: 2026-01-01 and token: 2026-01-01T10:00:00Z",
        "GITHUB_TOKEN: secrets.GITHUB_TOKEN_FOR_RELEASES",
        "keys: see vault; Monkey: business; turnkey:ok",
        "https://example.com/a/b/c and file:///a/b",
    ]
)
# Characters that trip case folding or widen the string (\u0130 lower-cases to two
# characters), and runs of the rare characters the quick searches start from, long enough
# to use up their budget.
ODD = st.one_of(
    st.sampled_from(["\u0130", "\u017f", "\u212a", "\u0131", "\u03a3", "\u2014", "\U0001f600"]),
    st.sampled_from(["\r\n", "\t", "\\n", ">", "..."]),
    st.builds(str.__mul__, st.sampled_from(["/", "J", ":/", "k", "\n"]), st.integers(1, 40)),
)
FILLER = st.text(st.sampled_from("abcKEYkey:=/'\"` _-.@\n\t\u0130\u017f"), max_size=20)
PIECES = st.one_of(TOKENS, ASSIGNMENTS, ASSIGNMENTS, CONNECTIONS, PEM, PROSE, ODD, FILLER)
SEPARATORS = st.sampled_from(["", " ", "\n", "\n\n", "\t", " = ", ": ", "'", "/", "_", "-", "."])


@st.composite
def texts(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.tuples(PIECES, SEPARATORS), max_size=14))
    return draw(SEPARATORS) + "".join(piece + separator for piece, separator in pieces)


@settings(max_examples=5 * settings.default.max_examples)  # cheap, and the point of the file
@given(texts())
# Every name with the operator glued to it and spaced out, so that a word's offset or the
# operator check off by a character loses a line.
@example(
    "\n".join(
        f'{name}:{PASSWORD}\n{name} \t=> \'{PASSWORD}\'\n"{name}": "{PASSWORD}"'
        for name in (
            "password",
            "passwd",
            "secret",
            "token",
            "api_key",
            "SecretKey",
            "CLIENT_SECRET",
        )
    )
)
@example('"aws_secret_access_key": "' + AWS_SECRET + '"\nSecretAccessKey=' + AWS_SECRET)
@example("\u0130" * 30 + f"\ntoken\npassword = '{PASSWORD}'\n" + "x" * 80)
@example("x\n" * 5 + "\u0130" * 4 + "\ntoken: abcdefgh12\n\ntoken: abcdefgh34")
@example(f"pa\u017f\u017fword = '{PASSWORD}' and the token")
@example(f"\u212aey: {PASSWORD} and \u017fecret: '{DB_PASSWORD}' token")
@example("/" * 50 + f"redis://:{DB_PASSWORD}@cache:6379/0 " + "J" * 50 + JWT)
@example("\u0130" * 9 + "\n" + PRIVATE_KEY + "\n" + "\u0130" * 9 + PRIVATE_KEY)
def test_scan_matches_the_plain_line_scan(text: str) -> None:
    assert find_secrets(text) == oracle_find_secrets(text)
    assert redact(text) == oracle_redact(text)


@pytest.mark.parametrize(("category", "token"), EVERY_LITERAL)
def test_every_literal_is_looked_for(category: str, token: str) -> None:
    text = f"# Notes\n- use {token} here\n"
    assert find_secrets(text) == (SecretHit(category, 2, 7),)
    assert oracle_find_secrets(text) == find_secrets(text)


def test_scan_matches_the_plain_line_scan_on_a_large_memory() -> None:
    facts = []
    for number in range(3000):
        facts.append(
            f"- Rotate the API key for service {number} via src/keys/{number}.py; the token "
            f"in CI comes from the vault\n  <!-- id: key-rotation-{number:05d} | created: "
            f"2026-01-02 | uses: {number % 7} | tier: active | section: Key Decisions -->\n"
        )
    planted = {
        100: f"- api_key = '{PASSWORD}' and {GITHUB_CLASSIC}\n",
        1500: f"- backups at postgres://app:{DB_PASSWORD}@db.internal:5432/app\n",
        2999: PRIVATE_KEY + "\n" + JWT + "\n",
    }
    for index, secret in planted.items():
        facts[index] += secret
    text = "# Continuity\n\n## Key Decisions\n\n" + "".join(facts)
    hits = find_secrets(text)
    assert hits == oracle_find_secrets(text)
    assert len(hits) == 5
    assert redact(text) == oracle_redact(text)


# Runs of the rare character long enough to use up the budget (16 checks, more on a long
# text), so that the word search takes over at every kind of offset.
@given(
    st.builds(
        lambda unit, times, tail: unit * times + tail,
        st.text(st.sampled_from("/:x"), min_size=1, max_size=6),
        st.integers(0, 80),
        st.text(st.sampled_from("/:x"), max_size=30),
    ),
    st.sampled_from([("://", 1), ("://", 2), ("://", 0), ("x:/", 2)]),
)
def test_rare_character_search_finds_every_word(text: str, word_and_rare: tuple[str, int]) -> None:
    word, rare = word_and_rare
    assert secrets._find_all(text, word, rare) == secrets._find_all(text, word)
    assert secrets._find_all(text, word) == [
        offset for offset in range(len(text)) if text.startswith(word, offset)
    ]
