"""The secret scan looks only where a pattern could match, and that changes nothing: on
generated texts it reports exactly the hits, and redacts exactly the text, of a full scan
that runs every pattern over the whole text, kept below as the reference.

The scan under test runs each pattern on the lines holding a word that every match of it
contains, found in a marked ASCII copy of the text; the reference has no copy, no words and
no lines. The patterns and the code that turns matches into spans are shared, so the
property is about where the scan looks, not about what the patterns match.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mdmem.safety import candidates, secrets
from mdmem.safety.secrets import SecretHit, find_secrets, redact
from tests.test_secrets import (
    AWS_SECRET,
    DB_PASSWORD,
    GITHUB_CLASSIC,
    JWT,
    PASSWORD,
    PEM_BODY,
    PRIVATE_KEY,
)

# The reference: every pattern over the whole text.


def full_scan_once(text: str) -> list[secrets._Span]:
    spans = list(secrets._private_key_spans(text))
    for category, pattern in secrets._TOKEN_PATTERNS:
        spans += [secrets._Span(m.start(), m.end(), category) for m in re.finditer(pattern, text)]
    spans += secrets._value_spans(re.finditer(secrets._AWS_SECRET, text), "aws-secret-key")
    spans += secrets._value_spans(re.finditer(secrets._CONNECTION, text), "connection-string")
    spans += secrets._password_spans(re.finditer(secrets._PASSWORD, text))
    return secrets._settle(spans)


def full_find_secrets(text: str) -> tuple[SecretHit, ...]:
    return secrets._hits(text, secrets._redaction(text, full_scan_once)[0])


def full_redact(text: str) -> str:
    return secrets._redaction(text, full_scan_once)[1]


def assert_same_as_full_scan(text: str) -> tuple[SecretHit, ...]:
    hits = find_secrets(text)
    assert hits == full_find_secrets(text)
    assert redact(text) == full_redact(text)
    return hits


# Generated texts: secrets that look real, near misses, prose and footers, glued together.

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def run(alphabet: str, low: int, high: int) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(alphabet), min_size=low, max_size=high)


def prefixed(prefixes: list[str], body: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(str.__add__, st.sampled_from(prefixes), body)


def flip_case(words: list[str]) -> st.SearchStrategy[str]:
    """One of `words` with some letters in the other case."""
    return st.builds(
        lambda word, flips: "".join(
            c.swapcase() if flip else c
            for c, flip in zip(word, flips + [False] * len(word), strict=False)
        ),
        st.sampled_from(words),
        st.lists(st.booleans(), max_size=12),
    )


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
# tokens are a character short, and prefixes that nearly match. Bodies start with the
# characters the scan marks (k, w, x, I, _) as often as with any other.
MARKED_FIRST = st.sampled_from(
    ["", "k", "K", "w", "W", "x", "I", "_", "kI", "ok", "Ow", "oW", "ox", "OI", "o_", "oK"]
)  # "o" and a mark: the slack branch must not take a github token's mark
TOKENS = st.one_of(
    prefixed(["AKIA", "ASIA", "AKIB", "akia"], run(UPPER_DIGITS, 15, 17)),
    prefixed(["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "gh_", "GHP_"], run(ALNUM, 35, 38)),
    st.builds(lambda a, b: "ghp_" + a + b, MARKED_FIRST, run(ALNUM, 34, 37)),
    prefixed(["github_pat_", "github_pat-"], run(ALNUM + "_", 21, 24)),
    prefixed(["glpat-", "glpat_", "GLPAT-"], run(ALNUM + "_-", 19, 22)),
    prefixed(["xoxb-", "xoxp-", "xoxz-", "xoxoxb-", "XOXB-"], run(ALNUM + "-", 9, 14)),
    prefixed(["sk_live_", "rk_live_", "sk_test_", "SK_LIVE_", "k_live_"], run(ALNUM, 15, 18)),
    prefixed(["sk-ant-", "Sk-ant-"], run(ALNUM + "_-", 19, 24)),
    prefixed(["sk-proj-", "sk-admin-", "sk-svcacct-"], run(ALNUM + "_-", 19, 22)),
    prefixed(["sk-", "task-sk-", "SK-"], run(ALNUM, 31, 34)),
    prefixed(["AIza", "aiza", "AIZA"], run(ALNUM + "_-", 34, 36)),
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
CASED = flip_case(
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
        "to\u212aen",
        "cl\u0131ent_secret",
        "ap\u0130_key",
    ]
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
    st.sampled_from([":", ": ", "=", " = ", ":=", "=>\t", "-", " is ", "\n= "]),
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
            BEGIN + "RSA private key-----\n" + PEM_BODY,
            "the private key lives in the vault; PRIVATE KEY rotation is manual",
        ]
    ),
    st.builds(
        lambda kind, gap, body: (
            f"{BEGIN}{kind}PRIVATE KEY-----{gap}{body}\n-----END PRIVATE KEY-----"
        ),
        st.sampled_from(["", "RSA ", "EC ", "rsa "]),
        st.sampled_from(["\n", "\r\n", "\n" * 30, "\n  \n> ", " \\n "]),
        run(ALNUM + "+/", 1, 30),
    ),
)
# Every word the scan starts from, in any case, so that a word it misses in some spelling
# loses a line.
TRIGGERS = flip_case(
    [
        "key",
        "token",
        "password",
        "passwd",
        "secret",
        "PRIVATE KEY",
        "sk-",
        "sk_live_",
        "rk_live_",
        "AKIA",
        "ASIA",
        "AIza",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "github_pat_",
        "glpat-",
        "xox",
        "eyJ",
        "://",
    ]
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
        "- api-boundary-01611 \u2014 Name api modules after the loop \u2014 faded \u2014 Q2.md",
    ]
)
# Characters that trip case folding or widen the string (\u0130 lower-cases to two
# characters), that the scan's copy turns into `?` or marks, and long runs of the
# characters the searches look for.
ODD = st.one_of(
    st.sampled_from(
        [
            "\u0130",
            "\u017f",
            "\u212a",
            "\u0131",
            "\u03a3",
            "\u2014",
            "\u2026",
            "\u2192",
            "\U0001f600",
            "\ud800",
            "\x01",
            "\x02",
            "?",
        ]
    ),
    st.sampled_from(["\r\n", "\r", "\t", "\\n", ">", "..."]),
    st.builds(
        str.__mul__, st.sampled_from(["/", "J", ":/", "k", "_", "I", "w", "\n"]), st.integers(1, 40)
    ),
)
FILLER = st.text(st.sampled_from("abcKEYkey:=/'\"` _-.@\n\r\t\u0130\u017f\u2014\x01"), max_size=20)
PIECES = st.one_of(TOKENS, ASSIGNMENTS, ASSIGNMENTS, CONNECTIONS, PEM, TRIGGERS, PROSE, ODD, FILLER)
SEPARATORS = st.sampled_from(
    ["", " ", "\n", "\n\n", "\r\n", "\t", " = ", ": ", "'", "/", "_", "-", ".", "\u2014"]
)


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
def test_scan_matches_the_full_scan(text: str) -> None:
    assert_same_as_full_scan(text)


@pytest.mark.parametrize("prefix", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"])
@pytest.mark.parametrize("start", ["ok", "oK", "ow", "OW", "ox", "oI"])
def test_a_github_token_opening_with_o_and_a_marked_letter_is_found(
    prefix: str, start: str
) -> None:
    """Such a token's mark could be taken by the `xox` branch, tried before the github one."""
    token = prefix + start + "a1" * 17
    assert assert_same_as_full_scan(f"token {token}") == (SecretHit("github-token", 1, 7),)


@pytest.mark.parametrize(("category", "token"), EVERY_LITERAL)
def test_every_literal_is_looked_for(category: str, token: str) -> None:
    text = f"# Notes\n- use {token} here\n"
    assert assert_same_as_full_scan(text) == (SecretHit(category, 2, 7),)


# Where the scan cuts the text into lines, and where its copy of the text differs from it.
# Each case names the categories the full scan finds, so that a case finding nothing says so.
REGION_EDGES = [
    pytest.param(f"password = '{PASSWORD}'\nrest", ["password-assignment"], id="first_line"),
    pytest.param(f"rest\npassword = '{PASSWORD}'", ["password-assignment"], id="last_line"),
    pytest.param(f"rest\n\npassword = '{PASSWORD}'\n", ["password-assignment"], id="last_newline"),
    pytest.param(GITHUB_CLASSIC, ["github-token"], id="whole_text"),
    pytest.param("x" * 3 + "\n" + GITHUB_CLASSIC, ["github-token"], id="glued_after_newline"),
    pytest.param("x" * 3 + GITHUB_CLASSIC, [], id="glued_to_a_word"),
    pytest.param(GITHUB_CLASSIC + "\r\n", ["github-token"], id="before_crlf"),
    pytest.param(f"token:\n{GITHUB_CLASSIC}", ["github-token"], id="trigger_on_line_before"),
    pytest.param(f"api_key\n= '{PASSWORD}'", [], id="name_and_value_on_two_lines"),
    pytest.param(f"password\r= '{PASSWORD}'", [], id="name_and_value_across_cr"),
    pytest.param(
        f"secret:\n'{PASSWORD}'\ntoken: '{DB_PASSWORD}'", ["password-assignment"], id="next_line"
    ),
    pytest.param(
        BEGIN + "RSA PRIVATE KEY-----" + "\n" * 400 + PEM_BODY + "\n-----END RSA PRIVATE KEY-----",
        ["private-key"],
        id="pem_body_far_below_its_header",
    ),
    pytest.param(
        BEGIN + "RSA PRIVATE KEY-----" + "\n  >  \n" * 50 + PEM_BODY,
        ["private-key"],
        id="pem_body_after_quoted_blank_lines",
    ),
    pytest.param(
        "- the key:\n"
        + BEGIN
        + "EC PRIVATE KEY-----\\n"
        + PEM_BODY
        + "\\n-----END EC PRIVATE KEY-----",
        ["private-key"],
        id="pem_escaped_on_one_line",
    ),
    pytest.param(
        "never commit a " + BEGIN + "RSA PRIVATE KEY----- file\n\n" + "prose\n" * 5,
        [],
        id="pem_header_in_prose",
    ),
    pytest.param(BEGIN + "RSA private key-----\n" + PEM_BODY, [], id="pem_header_in_lower_case"),
    pytest.param(f"pa\u017f\u017fword = '{PASSWORD}'", ["password-assignment"], id="long_s"),
    pytest.param(f"api_\u212aey: '{PASSWORD}'", ["password-assignment"], id="kelvin_sign"),
    pytest.param(
        "\u0130" * 200 + f"\nnotes\npassword = '{PASSWORD}'\n",
        ["password-assignment"],
        id="dotted_capital_i_before",
    ),
    pytest.param(
        f"\u2014password='{PASSWORD}'\u2014{GITHUB_CLASSIC}\u2026",
        ["password-assignment", "github-token"],
        id="between_em_dashes",
    ),
    pytest.param(
        "\u00e9\u00e8\u00ea\u00eb\u00fc\u2014\u2026" + f"\nsecret: '{PASSWORD}'",
        ["password-assignment"],
        id="many_distinct_non_ascii",
    ),
    pytest.param(f"\x01ey = '{PASSWORD}'", [], id="a_byte_like_a_mark"),
    pytest.param(
        f"ghp_key= '{PASSWORD}' secret_key={DB_PASSWORD}",
        ["password-assignment"],
        id="marks_in_a_row",
    ),
    pytest.param("xoxoxb-" + "2648371950-Zq8Lm", [], id="literal_inside_a_word"),
    pytest.param(
        f"sk_live_{BODY[:16]}\nAKIA{'Q7ZK3MBT4XWN2PLA'}",
        ["stripe-key", "aws-access-key"],
        id="two_marked_literals",
    ),
]


@pytest.mark.parametrize(("text", "categories"), REGION_EDGES)
def test_region_edges(text: str, categories: list[str]) -> None:
    hits = assert_same_as_full_scan(text)
    assert [hit.category for hit in hits] == categories


def test_scan_matches_the_full_scan_on_a_large_memory() -> None:
    facts = []
    for number in range(3000):
        facts.append(
            f"- Rotate the API key for service {number} via src/keys/{number}.py; the token "
            f"in CI comes from the vault \u2014 see last_used\n  <!-- id: key-rotation-"
            f"{number:05d} | created: 2026-01-02 | uses: {number % 7} | tier: active | "
            f"section: Key Decisions -->\n"
        )
    planted = {
        100: f"- api_key = '{PASSWORD}' and {GITHUB_CLASSIC}\n",
        1500: f"- backups at postgres://app:{DB_PASSWORD}@db.internal:5432/app\n",
        2999: PRIVATE_KEY + "\n" + JWT + "\n",
    }
    for index, secret in planted.items():
        facts[index] += secret
    text = "# Continuity\n\n## Key Decisions\n\n" + "".join(facts)
    assert len(assert_same_as_full_scan(text)) == 5


@given(texts())
def test_ascii_view_keeps_every_offset(text: str) -> None:
    view = candidates._ascii_view(text)
    assert len(view) == len(text)
    for offset, character in enumerate(text):
        if character.isascii():
            assert view[offset] == ord(character)


# Runs of a word's characters, so that occurrences overlap at every kind of offset.
@given(
    st.builds(
        lambda unit, times, tail: (unit * times + tail).encode(),
        st.text(st.sampled_from("/:x"), min_size=1, max_size=6),
        st.integers(0, 80),
        st.text(st.sampled_from("/:x"), max_size=30),
    ),
    st.sampled_from([b"://", b"x:/", b"x/x"]),
)
def test_find_all_finds_every_word(text: bytes, word: bytes) -> None:
    assert candidates._find_all(text, word) == [
        offset for offset in range(len(text)) if text.startswith(word, offset)
    ]
