"""What `mdmem add` reads cheaply: the prefilter that spares claims (`format.words.needles`,
`safety.blocklist.least_shared`), and the archive read as bytes (`writing.add`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdmem.format.words import claim, needles, shared_words
from mdmem.safety.blocklist import least_shared, near
from mdmem.writing.add import holds_id, superseded_facts

VOCABULARY = [
    "test", "tests", "tested", "testing", "retry", "retries", "retried", "commit",
    "committed", "commits", "run", "ran", "runs", "build", "built", "write", "wrote",
    "written", "child", "children", "never", "not", "don't", "always", "must", "avoid",
    "the", "a", "cache", "caches", "deploy", "deployed", "friday", "fridays", "api",
    "unit-tests", "key", "keys", "Generated", "files", "under", "build/", "pytest", "-x",
    ",", ";", ".", "(", ")", "—",
]  # fmt: skip
TEXTS = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=9).map(" ".join)


@settings(max_examples=400)
@given(TEXTS, TEXTS)
def test_a_near_text_always_passes_the_prefilter(new: str, old: str) -> None:
    """The prefilter never drops a text that is near: it counts at least the shared words,
    and a near text shares at least `least_shared` of them."""
    new_claim, old_claim = claim(new), claim(old)
    counted = shared_words(old, needles(new_claim))
    assert counted >= len(
        {w.lstrip("!") for w in new_claim.words} & {w.lstrip("!") for w in old_claim.words}
    )
    if near(old_claim, new_claim):
        assert counted >= least_shared(len(new_claim.words))


@pytest.mark.parametrize(
    ("new", "old", "shared"),
    [
        pytest.param("Retries back off", "Retry with backoff", 3, id="ies-to-y-and-over-counted"),
        pytest.param("We ran the build", "Run builds nightly", 2, id="irregular-and-plural"),
        pytest.param("Cache keys expire", "Deploy on Fridays", 0, id="nothing-shared"),
    ],
)
def test_shared_words(new: str, old: str, shared: int) -> None:
    assert shared_words(old, needles(claim(new))) == shared


ARCHIVE = b"""\
# Archive 2026-Q2

## Archived 2026-06-20 (review through 2026-06-20-090000)

### Faded

- Drizzle over Prisma
  <!-- id: drizzle-over-prisma | tier: archived | note: not superseded -->

### Superseded

- Refunds call Stripe synchronously
  from the request handler
  <!-- id: refunds-sync-call | tier: superseded | superseded-by: refunds-async-queue -->
  <!-- a note: superseded in June -->
- Cache entries live five minutes
  <!-- id: cache-five-minutes | superseded-by: cache-one-minute | tier: superseded -->
"""


def wanted(text: str) -> tuple[tuple[frozenset[str], ...], int]:
    found = claim(text)
    return needles(found), least_shared(len(found.words))


def test_superseded_facts_are_cut_out_of_the_archive() -> None:
    any_word = needles(claim("refunds cache"))
    document = superseded_facts(ARCHIVE, "memory/archive/2026-Q2.md", any_word, 1)
    assert document is not None
    assert [(f.id, f.get("superseded-by")) for f in document.facts] == [
        ("refunds-sync-call", "refunds-async-queue"),
        ("cache-five-minutes", "cache-one-minute"),
    ]
    assert document.fact_text(document.facts[0])[1] == "  from the request handler\n"
    only = superseded_facts(ARCHIVE, "x.md", *wanted("Stripe is called synchronously"))
    assert only is not None and [f.id for f in only.facts] == ["refunds-sync-call"]
    # A footer that only mentions the word is cut out too: `meetings` skips a fact that
    # is not superseded, so reading one too many costs a claim, never a wrong answer.
    faded = superseded_facts(ARCHIVE, "x.md", *wanted("Drizzle over Prisma"))
    assert faded is not None and [f.get("tier") for f in faded.facts] == ["archived"]
    assert superseded_facts(ARCHIVE, "x.md", *wanted("Deploy on Fridays")) is None


def test_holds_id_finds_footers_only_by_their_whole_id() -> None:
    assert holds_id(ARCHIVE, "refunds-sync-call")
    assert holds_id(ARCHIVE, "drizzle-over-prisma")
    assert not holds_id(ARCHIVE, "refunds-sync")
    assert not holds_id(ARCHIVE, "refunds-async-queue")  # named, but no footer opens with it
