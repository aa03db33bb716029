"""Where the secret patterns meet a line's edges, odd characters and each literal they
look for: each case names the categories found."""

from __future__ import annotations

import pytest

from mdmem.safety.secrets import SecretHit, find_secrets
from tests.test_secrets import DB_PASSWORD, GITHUB_CLASSIC, PASSWORD, PEM_BODY

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

BEGIN = "-----BEGIN "


@pytest.mark.parametrize("prefix", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"])
@pytest.mark.parametrize("start", ["ok", "oK", "ow", "OW", "ox", "oI"])
def test_a_github_token_opening_with_o_and_a_marked_letter_is_found(
    prefix: str, start: str
) -> None:
    token = prefix + start + "a1" * 17
    assert find_secrets(f"token {token}") == (SecretHit("github-token", 1, 7),)


@pytest.mark.parametrize(("category", "token"), EVERY_LITERAL)
def test_every_literal_is_looked_for(category: str, token: str) -> None:
    text = f"# Notes\n- use {token} here\n"
    assert find_secrets(text) == (SecretHit(category, 2, 7),)


# Line edges, line endings and characters a case-insensitive pattern reads as letters. Each
# case names the categories found, so that a case finding nothing says so.
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
    hits = find_secrets(text)
    assert [hit.category for hit in hits] == categories
