"""What `mdmem add` reads cheaply: the prefilter that spares claims (`format.words.needles`,
`safety.blocklist.least_shared`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdmem.format.words import claim, needles, shared_words
from mdmem.safety.blocklist import least_shared, near

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
