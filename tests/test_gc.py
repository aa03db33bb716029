"""A review makes no reference cycles: pausing the collector (memory.bulk_allocation), and
freezing what is left when the command line exits, keeps no garbage alive."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from mdmem.linting.gate import review
from tests.helpers import copy_tree

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(
    "case", ["reactivation", "supersession-from-ledger", "invariants-cadence", "feedback-invert"]
)
def test_a_review_leaves_no_cycles_for_the_collector(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    memory = copy_tree(GOLDEN / case / "before", tmp_path / "repo") / "memory"
    gc.unfreeze()  # what commands run in this process froze (mdmem.cli) is collected first
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(2):  # the planning review, then the one with nothing to do
            plan, result = review(memory, commit=False)
            del plan, result
            gc.unfreeze()  # in case anything froze objects: give them back to the collector
            assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
