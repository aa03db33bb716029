"""Tests for mdmem.safety.secrets: categories, false-positive traps, no leaks, redaction."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.safety.secrets import SecretHit, find_secrets, redact

# Planted values are fake, and assembled from pieces so that no scanner (ours or a forge's
# push protection) sees a whole key in this file's source.
AWS_ACCESS = "AKIA" + "Q7ZK3MBT4XWN2PLA"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG" + "/bPxRfiCYzz9sQ3kP0v"
GITHUB_CLASSIC = "ghp" + "_" + "7Rk2LmQ9xZ4bN8vT1cW6yH3jF5dS0aPq2EoU"
GITHUB_FINE = "github" + "_pat_" + "11ABQ7ZK30x9LmQ2vT8cW6_yH3jF5dS0aPq2EoU7Rk2LmQ9xZ4bN8vT1c"
GITLAB = "glpat" + "-" + "x7Rk2LmQ9zZ4bN8vT1cW"
SLACK = "xoxb" + "-" + "2648371950-5839201746-Zq8Lm2Rk7Tn4Wv9Xb3Cd"
STRIPE = "sk" + "_live_" + "51Hq7Rk2LmQ9xZ4bN8vT1cW6"
OPENAI_CLASSIC = "sk" + "-" + "Zq8Lm2Rk7Tn4Wv9Xb3CdT3BlbkFJ5dS0aPq2EoU7Rk2LmQ9x"
OPENAI_PROJECT = "sk" + "-proj-" + "Zq8Lm2Rk7Tn4Wv9Xb3Cd_T3Blbk-FJ5dS0aPq2"
ANTHROPIC = "sk" + "-ant-" + "api03-Zq8Lm2Rk7Tn4Wv9Xb3Cd_T3Blbk-FJ5dS0aPq2EoU7Rk2L"
GOOGLE = "AIza" + "SyD7Rk2LmQ9xZ4bN8vT1cW6yH3jF5dS0aPq"
JWT = (
    "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiJhZ2VudC03IiwiaWF0IjoxNzAwMDAwMDAwfQ"
    ".Zq8Lm2Rk7Tn4Wv9Xb3CdT3BlbkFJ5dS0aPq2EoU"
)
PEM_BODY = "MIIEowIBAAKCAQEAzq8Lm2Rk7Tn4Wv9Xb3CdT3BlbkFJ5dS0aPq2EoU7Rk2LmQ9xZ4bN8vT"
PRIVATE_KEY = (
    "-----BEGIN RSA " + "PRIVATE KEY-----\n" + PEM_BODY + "\nq2Eo==\n-----END RSA PRIVATE KEY-----"
)
DB_PASSWORD = "Wq7-tZ2m!rK9"
PASSWORD = "hunter2-Zq8Lm"

PLANTED = (
    AWS_ACCESS,
    AWS_SECRET,
    GITHUB_CLASSIC,
    GITHUB_FINE,
    GITLAB,
    SLACK,
    STRIPE,
    OPENAI_CLASSIC,
    OPENAI_PROJECT,
    ANTHROPIC,
    GOOGLE,
    JWT,
    PEM_BODY,
    DB_PASSWORD,
    PASSWORD,
)


def hit(category: str, line: int = 1, column: int = 1) -> SecretHit:
    return SecretHit(category, line, column)


POSITIVE = [
    pytest.param(f"key: {AWS_ACCESS}", (hit("aws-access-key", 1, 6),), id="aws_access_key"),
    pytest.param(
        f"aws_secret_access_key = {AWS_SECRET}", (hit("aws-secret-key", 1, 25),), id="aws_secret"
    ),
    pytest.param(
        f'"SecretAccessKey": "{AWS_SECRET}"', (hit("aws-secret-key", 1, 21),), id="aws_secret_json"
    ),
    pytest.param(
        f"GITHUB_TOKEN={GITHUB_CLASSIC}", (hit("github-token", 1, 14),), id="github_classic_wins"
    ),
    pytest.param(f"use {GITHUB_FINE} here", (hit("github-token", 1, 5),), id="github_fine"),
    pytest.param(f"- CI token `{GITLAB}`", (hit("gitlab-token", 1, 13),), id="gitlab"),
    pytest.param(f"webhook {SLACK}", (hit("slack-token", 1, 9),), id="slack"),
    pytest.param(STRIPE, (hit("stripe-key"),), id="stripe"),
    pytest.param(OPENAI_CLASSIC, (hit("openai-key"),), id="openai_classic"),
    pytest.param(f"OPENAI_API_KEY={OPENAI_PROJECT}", (hit("openai-key", 1, 16),), id="openai_proj"),
    pytest.param(f"key {ANTHROPIC}", (hit("anthropic-key", 1, 5),), id="anthropic_not_openai"),
    pytest.param(f"maps: {GOOGLE}.", (hit("google-api-key", 1, 7),), id="google"),
    pytest.param(f"Authorization: Bearer {JWT}", (hit("jwt", 1, 23),), id="jwt"),
    pytest.param(f"intro\n\n{PRIVATE_KEY}\n", (hit("private-key", 3, 1),), id="private_key"),
    pytest.param(
        "  > -----BEGIN OPENSSH " + f"PRIVATE KEY-----\n  > {PEM_BODY}\n",
        (hit("private-key", 1, 5),),
        id="private_key_truncated_quoted",
    ),
    pytest.param(
        '{"private_key": "-----BEGIN '
        + f'PRIVATE KEY-----\\n{PEM_BODY}\\n-----END PRIVATE KEY-----"}}',
        (hit("private-key", 1, 18),),
        id="private_key_json_escaped",
    ),
    pytest.param(f'password = "{PASSWORD}"', (hit("password-assignment", 1, 13),), id="quoted"),
    pytest.param(f"DB_PASSWORD={DB_PASSWORD}", (hit("password-assignment", 1, 13),), id="env"),
    pytest.param(f"  apiKey: '{PASSWORD}'", (hit("password-assignment", 1, 12),), id="camel"),
    pytest.param(
        f"client_secret => `{PASSWORD}`", (hit("password-assignment", 1, 19),), id="arrow"
    ),
    pytest.param(
        f"postgres://app:{DB_PASSWORD}@db.internal:5432/app",
        (hit("connection-string", 1, 16),),
        id="postgres",
    ),
    pytest.param(
        f"MONGO=mongodb+srv://svc:{DB_PASSWORD}@cluster0.example.net/db",
        (hit("connection-string", 1, 25),),
        id="mongodb_srv",
    ),
    pytest.param(
        f"redis://:{DB_PASSWORD}@cache:6379/0", (hit("connection-string", 1, 10),), id="redis"
    ),
    pytest.param(f"amqp://guest:{DB_PASSWORD}@mq/", (hit("connection-string", 1, 14),), id="amqp"),
    pytest.param(
        f"line one\nAWS: {AWS_ACCESS} and {GOOGLE}\n{STRIPE}",
        (hit("aws-access-key", 2, 6), hit("google-api-key", 2, 31), hit("stripe-key", 3, 1)),
        id="several_sorted",
    ),
]

NEGATIVE = [
    pytest.param("api-key-rotation-policy: rotate every 90 days", id="kebab_id"),
    pytest.param("- Never log the password, even at debug level", id="prose_password"),
    pytest.param("- The token expires after 1h; refresh it on 401", id="prose_token"),
    pytest.param(
        "  <!-- id: api-key-rotation-policy | created: 2026-06-08 | last_used: 2026-06-12"
        " | uses: 14 | tier: active -->",
        id="footer",
    ),
    pytest.param("token_expiry: 2026-01-01 and token: 2026-01-01T10:00:00Z", id="iso_dates"),
    pytest.param("Fixed in 3f786850e387550fdab836ed7e6dc881de23001b", id="git_sha"),
    pytest.param("request 550e8400-e29b-41d4-a716-446655440000 failed", id="uuid"),
    pytest.param("password: required", id="bare_word"),
    pytest.param("token: ${{ secrets.GITHUB_TOKEN }}", id="actions_expression"),
    pytest.param("GITHUB_TOKEN: secrets.GITHUB_TOKEN_FOR_RELEASES", id="reference"),
    pytest.param('password = "<your-password-here>"', id="angle_placeholder"),
    pytest.param("DB_PASSWORD=${DB_PASSWORD}", id="env_placeholder"),
    pytest.param("password: changeme123", id="changeme"),
    pytest.param("password: ********", id="stars"),
    pytest.param("api_key = 'xxxxxxxxxxxxxxxx'", id="xxx"),
    pytest.param("secret = 'example-secret-value'", id="example"),
    pytest.param('token = os.environ["API_TOKEN"]', id="environ"),
    pytest.param("def login(password: Optional[str]) -> bool:", id="type_hint"),
    pytest.param("max_tokens: 100000, token_count = 12345678", id="token_suffix_names"),
    pytest.param("postgres://user:password@localhost/db", id="url_placeholder_password"),
    pytest.param("postgres://localhost:5432/app and http://host:8080/a@b", id="url_no_password"),
    pytest.param("git@github.com:org/repo.git", id="ssh_remote"),
    pytest.param("never commit a -----BEGIN RSA " + "PRIVATE KEY----- file", id="pem_header"),
    pytest.param(
        "-----BEGIN PUBLIC KEY-----\n" + PEM_BODY + "\n-----END PUBLIC KEY-----", id="public_key"
    ),
    pytest.param("sk_test_51Hq7Rk2LmQ9xZ4bN8vT1cW6 is the test-mode key", id="stripe_test"),
    pytest.param("task-sk-1234 and AKIA-rotation and eyJhbGci", id="prefixes_alone"),
]

CLEAN_MEMORY = """\
# Continuity

## Key Decisions

- Never log the password or the session token, even at debug level
  <!-- id: never-log-credentials | created: 2026-05-02 | uses: 9 | tier: active -->
- API keys rotate every 90 days; see `docs/api-key-rotation.md`
  <!-- id: api-key-rotation-policy | created: 2026-05-02 | uses: 4 | tier: active -->
- Read secrets from the environment (`os.environ["STRIPE_KEY"]`), never from config files
  <!-- id: secrets-from-env | created: 2026-05-03 | uses: 1 | tier: working -->
- The JWT access token expires after 15 minutes; refresh on 401
  <!-- id: jwt-expiry-refresh | created: 2026-05-04 | uses: 2 | tier: working -->
- Local DB is `postgres://localhost:5432/app`; credentials come from `.env`
  <!-- id: local-db-url | created: 2026-05-05 | uses: 3 | tier: active -->
- Fixed by 3f786850e387550fdab836ed7e6dc881de23001b (request 550e8400-e29b-41d4-a716-446655440000)
  <!-- id: retry-fix-commit | created: 2026-05-06 | uses: 1 | tier: working -->

## Project State

- **last_review:** 2026-06-12 | through 2026-06-12-101500-token-refresh
"""


@pytest.mark.parametrize(("text", "expected"), POSITIVE)
def test_finds_secret(text: str, expected: tuple[SecretHit, ...]) -> None:
    assert find_secrets(text) == expected


@pytest.mark.parametrize("text", NEGATIVE)
def test_no_false_positive(text: str) -> None:
    assert find_secrets(text) == ()


def test_clean_memory_has_no_secrets() -> None:
    assert find_secrets(CLEAN_MEMORY) == ()
    assert redact(CLEAN_MEMORY) == CLEAN_MEMORY


@pytest.mark.parametrize(("text", "expected"), POSITIVE)
def test_nothing_leaks(text: str, expected: tuple[SecretHit, ...]) -> None:
    hits = find_secrets(text)
    outputs = [repr(hits), str(hits), redact(text)]
    outputs += [repr(one) for one in hits] + [str(one) for one in hits]
    for value in PLANTED:
        if value in text:
            assert all(value not in output for output in outputs)


def test_redact_names_each_category() -> None:
    text = f"a {GITLAB} b\npassword = '{PASSWORD}'\nc"
    assert redact(text) == (
        "a [REDACTED:gitlab-token] b\npassword = '[REDACTED:password-assignment]'\nc"
    )


def test_hit_has_no_value_field() -> None:
    assert [field.name for field in dataclasses.fields(SecretHit)] == ["category", "line", "column"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        hit("jwt").category = "x"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        hit("jwt").value = "x"  # type: ignore[attr-defined]


def test_deterministic_and_sorted() -> None:
    text = "\n".join(f"{AWS_ACCESS} {STRIPE} {GOOGLE}" for _ in range(3))
    hits = find_secrets(text)
    assert hits == find_secrets(text)
    assert list(hits) == sorted(hits, key=lambda one: (one.line, one.column, one.category))
    assert len(hits) == 9


PLANTED_SNIPPETS = (
    AWS_ACCESS,
    f"aws_secret_access_key={AWS_SECRET}",
    GITHUB_CLASSIC,
    GITHUB_FINE,
    GITLAB,
    SLACK,
    STRIPE,
    OPENAI_CLASSIC,
    OPENAI_PROJECT,
    ANTHROPIC,
    GOOGLE,
    JWT,
    PRIVATE_KEY,
    f'password: "{PASSWORD}"',
    f"DB_PASSWORD={DB_PASSWORD}",
    f"postgres://app:{DB_PASSWORD}@db:5432/app",
    f"token={GITHUB_CLASSIC}",
)
FILLER = st.text(
    alphabet=st.sampled_from("abcXYZ019 _-=:'\"/.@\n`<>[]{}$*"), max_size=30
) | st.sampled_from(["password", "token: ", "secret=", "postgres://u:", "@host ", "never log it"])
SEPARATORS = st.sampled_from(["", " ", "\n", "\t", ": ", "="])


@given(st.lists(st.one_of(st.sampled_from(PLANTED_SNIPPETS), FILLER), max_size=8), SEPARATORS)
def test_property_redact_is_idempotent_and_complete(pieces: list[str], separator: str) -> None:
    text = separator.join(pieces)
    once = redact(text)
    assert redact(once) == once
    assert find_secrets(once) == ()


@given(
    st.lists(
        st.one_of(st.sampled_from(PLANTED_SNIPPETS), st.sampled_from(["fact", "- rule", "ok."])),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from([" ", "\n", "\n\n", " and "]),
)
def test_property_redact_removes_every_planted_value(pieces: list[str], separator: str) -> None:
    redacted = redact(separator.join(pieces))
    assert all(value not in redacted for value in PLANTED)
    assert len(find_secrets(separator.join(pieces))) >= sum(
        piece in PLANTED_SNIPPETS for piece in pieces
    )
