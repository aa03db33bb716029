"""The paraphrase table: rewordings of blocked rules that must be refused, beside rules on
the same topics that say something else and must be accepted (SPEC §9)."""

from __future__ import annotations

PYTEST = "Run the integration tests with pytest -x before pushing"
BUILD = "Never commit generated files under build/"
MOCK = "Mock the database in unit tests"
RUFF = "Use ruff for formatting, not black"
PIN = "Always pin dependency versions in requirements.txt"
NO_VERIFY = "Never push with --no-verify"
WEBHOOK = (
    "The payment webhook handler retries failed deliveries three times with exponential "
    "backoff before paging on-call"
)

# (blocked entry, text, how it was reworded): each must come near its entry.
REFUSED = [
    (PYTEST, "Before pushing, run the integration tests with pytest -x", "reordered"),
    (PYTEST, "Integration tests are run with pytest -x before each push", "passive, inflected"),
    (PYTEST, "Please always make sure to run the integration tests with pytest -x before "
     "pushing", "filler added"),
    (PYTEST, "Run integration tests with pytest -x before pushing", "filler dropped"),
    (PYTEST, "Run the integration tests with pytest -x before pushing, because CI takes "
     "twenty minutes", "clause added"),
    (PYTEST, "Use pytest -x to run the integration test before you push", "reworded, inflected"),
    (BUILD, "Generated files under build/ must never be committed", "passive"),
    (BUILD, "Don't commit a generated file under build/", "contraction, singular"),
    (BUILD, "You should never commit any of the generated files under build/", "filler added"),
    (BUILD, "Never commit generated files under build/; the release job recreates them",
     "clause added"),
    (BUILD, "Files generated under build/ should never be committed, since CI rebuilds them",
     "passive, reordered, clause added"),
    (BUILD, "Never commit files under build/", "a word dropped"),
    (MOCK, "Unit tests should mock the database", "reordered"),
    (MOCK, "The database is mocked in unit tests", "passive"),
    (MOCK, "Always mock the databases in the unit tests of the billing service",
     "plural, clause added"),
    (MOCK, "mock the DATABASE in Unit-Tests", "case, hyphen"),
    (RUFF, "For formatting, use ruff, not black", "reordered"),
    (RUFF, "Format with ruff, not black", "reworded"),
    (RUFF, "Use ruff for formatting, not black; it is much faster", "clause added"),
    (PIN, "Dependency versions are always pinned in requirements.txt", "passive"),
    (PIN, "Pin the versions of dependencies in requirements.txt", "reordered, plural"),
    (PIN, "Always pin every dependency version in requirements.txt so that builds are "
     "reproducible", "clause added"),
    (WEBHOOK, "Failed deliveries are retried three times with exponential backoff by the "
     "payment webhook handler before on-call is paged", "passive"),
    (WEBHOOK, "The payment webhook handler retried the failed delivery three times with "
     "exponential backoff before it paged on-call", "tense, singular"),
    (NO_VERIFY, "Pushing with --no-verify is never allowed", "reworded"),
]  # fmt: skip

# (blocked entry, text, what differs): each must stay clear of its entry.
ACCEPTED = [
    (PYTEST, "Never run the integration tests with pytest -x before pushing", "opposite polarity"),
    (PYTEST, "Run the unit tests with pytest -x before pushing", "another object"),
    (PYTEST, "Run the integration tests with tox before pushing", "another tool"),
    (PYTEST, "Run the integration tests with pytest -x after pushing", "another claim"),
    (PYTEST, "Run the integration tests before pushing", "a shorter rule"),
    (BUILD, "Always commit generated files under build/", "opposite polarity"),
    (BUILD, "Commit the generated files under build/", "opposite polarity"),
    (BUILD, "Never commit generated files under dist/", "another object"),
    (BUILD, "Never edit generated files under build/", "another verb"),
    (MOCK, "Don't mock the database in unit tests", "opposite polarity"),
    (MOCK, "Mock the HTTP client in unit tests", "another object"),
    (MOCK, "Use a real database in unit tests", "another claim"),
    (MOCK, "Mock the database in integration tests", "another subject"),
    (MOCK, "Mock the database", "half the rule"),
    (RUFF, "Use black for formatting, not ruff", "the contrast swapped"),
    (RUFF, "Never use ruff for formatting", "opposite polarity"),
    (RUFF, "Use ruff for linting, not black", "another subject"),
    (PIN, "Never pin dependency versions in requirements.txt", "opposite polarity"),
    (PIN, "Always pin tool versions in requirements.txt", "another object"),
    (PIN, "Always pin dependency versions in poetry.lock", "another file"),
    (WEBHOOK, "The payment webhook handler retries failed deliveries five times with "
     "exponential backoff before paging on-call", "another number"),
    (WEBHOOK, "The refund webhook handler retries failed deliveries three times with "
     "exponential backoff before paging on-call", "another subject"),
    (WEBHOOK, "The payment webhook handler never retries failed deliveries", "opposite polarity"),
    (NO_VERIFY, "Push with --no-verify when the hook is broken", "opposite polarity"),
]  # fmt: skip
