"""Ids derived from a fact's text: kebab-case, unique, the same for the same text."""

from __future__ import annotations

import pytest

from mdmem.format.footer import ID_RE
from mdmem.writing.ids import MOST_CHARACTERS, derive_id


@pytest.mark.parametrize(
    ("text", "taken", "expected"),
    [
        pytest.param(
            "Mutations use POST only; no PUT or PATCH", (), "mutations-use-post-only-no", id="words"
        ),
        pytest.param("The cache is keyed by the tenant", (), "cache-keyed-tenant", id="stop-words"),
        pytest.param("Don't mock the database", (), "dont-mock-database", id="polarity-kept"),
        pytest.param("- [ ] Decide the retry policy", (), "decide-retry-policy", id="checkbox"),
        pytest.param("**Never** use `eval`", (), "never-use-eval", id="markdown"),
        pytest.param(
            "See [the runbook](https://example.com/run/book) for deploys",
            (),
            "see-runbook-deploys",
            id="link-target-and-url-left-out",
        ),
        pytest.param("Café menus need résumé ids", (), "cafe-menus-need-resume-ids", id="accents"),
        pytest.param("日本語 POST only", (), "post-only", id="no-ascii-form-left-out"),
        pytest.param("2FA is required", (), "fact-2fa-required", id="starts-with-a-digit"),
        pytest.param(
            "Creating a frozen dataclass costs about 0.45 ms on Python 3.11",
            (),
            "creating-frozen-dataclass-costs-0.45",
            id="a-number-with-a-point-is-one-word",
        ),
        pytest.param(
            "Pin Python 3.11.7.", (), "pin-python-3.11.7", id="a-version-then-a-full-stop"
        ),
        pytest.param("v2. Then x.y", (), "v2-x-y", id="a-point-beside-letters-splits"),
        pytest.param("the of and", (), "the-of-and", id="only-stop-words"),
        pytest.param("Caching", (), "caching-d211a4c2", id="one-word-gets-a-digest"),
        pytest.param("!!! ... ???", (), "fact-b63acca4", id="all-punctuation"),
        pytest.param("", (), "fact-e3b0c442", id="empty"),
        pytest.param("日本語", (), "fact-77710aed", id="no-ascii-word"),
        pytest.param(
            "Cache keys include the tenant",
            ("cache-keys-include-tenant",),
            "cache-keys-include-tenant-2",
            id="collision",
        ),
        pytest.param(
            "Cache keys include the tenant",
            ("cache-keys-include-tenant", "cache-keys-include-tenant-2"),
            "cache-keys-include-tenant-3",
            id="second-collision",
        ),
        pytest.param(
            "Supercalifragilisticexpialidocious configuration values stay immutable forever",
            (),
            "supercalifragilisticexpialidoci-configur",
            id="a-first-word-too-long-for-a-second-both-cut",
        ),
        pytest.param(
            "Retry webhooks with exponential backoff and jitter up to ten times",
            (),
            "retry-webhooks-exponential-backoff",
            id="very-long-text-five-words-at-most-40-characters",
        ),
        pytest.param("x" * 200, (), "x" * 31 + "-" + "aa20c23e", id="one-very-long-word"),
    ],
)
def test_derive_id(text: str, taken: tuple[str, ...], expected: str) -> None:
    derived = derive_id(text, set(taken))
    assert derived == expected
    assert ID_RE.match(derived), derived
    assert derived not in taken
    assert len(derived) <= MOST_CHARACTERS + len("-99")


@pytest.mark.parametrize(
    "text",
    ["Mutations use POST only", "Café résumé", "!!!", "x" * 500, "日本語", "  padded  "],
)
def test_the_same_text_gives_the_same_id(text: str) -> None:
    assert derive_id(text, set()) == derive_id(text, set())
    assert derive_id(text, {"other-id"}) == derive_id(text, set())


def test_ids_are_unique_when_each_is_added_to_the_taken_ones() -> None:
    taken: set[str] = set()
    for _ in range(5):
        taken.add(derive_id("Retries back off", taken))
    assert taken == {
        "retries-back",
        "retries-back-2",
        "retries-back-3",
        "retries-back-4",
        "retries-back-5",
    }
