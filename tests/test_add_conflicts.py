"""What a new fact meets before `mdmem add` writes it: a blocked entry, a superseded fact,
a duplicate, a contradiction (SPEC §8, §9), each found whatever the rewording."""

from __future__ import annotations

import pytest

from mdmem.format.blocked import parse_blocked
from mdmem.format.document import parse_document
from mdmem.format.textfile import decode
from mdmem.writing.conflicts import meetings

CONTINUITY = """\
# Continuity

## Architectural Invariants

- Money is always stored as an integer count of minor units
  <!-- id: money-minor-units | created: 2026-01-01 | tier: core -->

## Key Decisions

- Mutations use POST only; no PUT or PATCH
  <!-- id: post-only-mutations | created: 2026-01-01 | uses: 3 | tier: active -->
- Run the integration tests with pytest -x before pushing
  <!-- id: integration-before-push | created: 2026-01-01 | uses: 2 | tier: active -->
- Version the API in the URI
  <!-- id: version-in-uri | tier: superseded | superseded-by: api-in-header -->
- Version the API in the Accept header
  <!-- id: api-in-header | created: 2026-01-02 | tier: working | supersedes: version-in-uri -->

## Conventions

- Money is stored in integer cents, never a float
  <!-- id: cents-not-float | created: 2026-01-01 | uses: 1 | tier: working -->
- Use ruff for formatting, not black
  <!-- id: ruff-not-black | created: 2026-01-01 | uses: 1 | tier: working -->
- All API handlers return JSON errors with a code field
  <!-- id: json-errors-code | created: 2026-01-01 | uses: 1 | tier: working -->
- Never commit generated files under build/
  <!-- id: no-build-commits | created: 2026-01-01 | uses: 1 | tier: working -->
"""
BLOCKED = """\
# Blocked

## Blocked

- Deploy on Fridays after the standup
  <!-- id: friday-deploys | blocked: 2026-02-01 | reason: three outages in a row -->
"""


def found(text: str, section: str = "Key Decisions") -> list[tuple[str, str]]:
    document = parse_document(decode(CONTINUITY.encode(), "memory/continuity.md"))
    entries = parse_blocked(decode(BLOCKED.encode(), "memory/blocked.md"))
    return [(m.kind, m.fact_id) for m in meetings(text, section, [document], entries)]


@pytest.mark.parametrize(
    ("text", "section", "expected"),
    [
        pytest.param("A new rule about caching", "Key Decisions", [], id="nothing"),
        pytest.param(
            "Mutations use POST only; no PUT or PATCH",
            "Key Decisions",
            [("duplicate", "post-only-mutations")],
            id="exact-duplicate",
        ),
        pytest.param(
            "Before pushing, run integration tests with pytest -x",
            "Conventions",
            [("duplicate", "integration-before-push")],
            id="reworded-duplicate-in-another-section",
        ),
        pytest.param(
            "Never run the integration tests with pytest -x before pushing",
            "Key Decisions",
            [("contradiction", "integration-before-push")],
            id="opposite-in-the-same-section",
        ),
        pytest.param(
            "Never run the integration tests with pytest -x before pushing",
            "Conventions",
            [],
            id="opposite-in-another-section-is-not-compared",
        ),
        pytest.param(
            "Money is never stored as an integer count of minor units",
            "Conventions",
            [("contradiction", "money-minor-units")],
            id="opposite-of-a-core-fact-anywhere",
        ),
        pytest.param(
            "The API is versioned in the URI",
            "Key Decisions",
            [("superseded", "version-in-uri")],
            id="superseded-text-comes-back",
        ),
        pytest.param(
            "Deploy on Fridays after standup",
            "Key Decisions",
            [("blocked", "friday-deploys")],
            id="blocked-entry",
        ),
        pytest.param(
            "Generated files under build/ must never be committed",
            "Conventions",
            [("duplicate", "no-build-commits")],
            id="passive-voice-duplicate",
        ),
        pytest.param(
            "Money is stored in integer cents and never a float",
            "Conventions",
            [("duplicate", "cents-not-float")],
            id="and-never-says-what-a-comma-says",
        ),
        pytest.param(
            "Money is stored as a float",
            "Conventions",
            [("contradiction", "cents-not-float")],
            id="asserts-what-a-contrast-excludes",
        ),
        pytest.param(
            "Format with ruff and black",
            "Conventions",
            [("contradiction", "ruff-not-black")],
            id="asserts-the-excluded-tool-too",
        ),
        pytest.param(
            "Use black",
            "Conventions",
            [("contradiction", "ruff-not-black")],
            id="asserts-only-the-excluded-tool",
        ),
        pytest.param(
            "Never store money as a float",
            "Conventions",
            [("duplicate", "cents-not-float")],
            id="a-prohibition-of-the-excluded-word-says-it-again",
        ),
        pytest.param(
            "Store floats in the metrics table",
            "Conventions",
            [],
            id="the-excluded-word-about-something-else",
        ),
        pytest.param(
            "Money is stored as a float",
            "Key Decisions",
            [],
            id="a-contrast-in-another-section-is-not-compared",
        ),
        pytest.param(
            "Use black for formatting, not ruff",
            "Conventions",
            [("contradiction", "ruff-not-black")],
            id="the-swapped-contrast",
        ),
        pytest.param(
            "Never use black for formatting",
            "Conventions",
            [("duplicate", "ruff-not-black")],
            id="a-prohibition-restating-a-contrast",
        ),
        pytest.param(
            "Never use black for the docs site",
            "Conventions",
            [],
            id="a-prohibition-of-the-excluded-word-about-something-else",
        ),
        pytest.param(
            "API handlers never return JSON errors",
            "Conventions",
            [("contradiction", "json-errors-code")],
            id="a-shorter-opposite",
        ),
        pytest.param(
            "Never return JSON",
            "Conventions",
            [],
            id="a-shorter-opposite-of-two-words-is-too-little-to-tell",
        ),
    ],
)
def test_what_a_new_fact_meets(text: str, section: str, expected: list[tuple[str, str]]) -> None:
    assert found(text, section) == expected


def test_the_successor_is_named() -> None:
    document = parse_document(decode(CONTINUITY.encode(), "memory/continuity.md"))
    (meeting,) = meetings("Version the API in the URI", "Key Decisions", [document], ())
    assert (meeting.kind, meeting.successor) == ("superseded", "api-in-header")
