"""Regression tests for problems found reviewing the review/lint speed-ups."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from mdmem.linting.gate import review
from tests.helpers import copy_tree

GOLDEN = Path(__file__).parent / "golden"


class Node:
    """A plain object that can sit in a reference cycle."""

    partner: object = None


def test_a_review_leaves_the_callers_cyclic_garbage_to_the_collector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long-running caller (the library API) must not have its garbage pinned forever:
    # gc.freeze() moves every object of the process, not only the review's, out of reach.
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    memory = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()  # so that no collection frees the cycle before the review ends
    try:
        node = Node()
        node.partner = node
        alive = weakref.ref(node)
        del node
        review(memory, commit=False)
    finally:
        if enabled:
            gc.enable()
    gc.collect()
    frozen = gc.get_freeze_count()
    gc.unfreeze()  # leave the process as other tests expect it
    assert alive() is None, f"the caller's garbage cycle was frozen ({frozen} objects frozen)"
