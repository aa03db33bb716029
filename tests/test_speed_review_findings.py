"""Regression tests for problems found reviewing the review/lint speed-ups."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
import weakref
from pathlib import Path
from types import FrameType

import pytest

from mdmem.reviewing.apply import review
from mdmem.store import workers
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


needs_fork = pytest.mark.skipif(not workers.can_fork(), reason="needs fork")


def _slow_in_the_helper(parent: int) -> object:
    def work(item: int) -> int:
        if os.getpid() != parent:
            time.sleep(0.002)  # the helper's share takes seconds
        return item

    return work


@needs_fork
@pytest.mark.parametrize("interrupts", [1, 2])
def test_an_interrupt_while_waiting_for_the_helper_is_raised_at_once(interrupts: int) -> None:
    # SIGINT sent to this process alone (a harness, `kill -INT pid`): the helper, which
    # did not get it, must not be waited for, and a second one must not turn into an
    # OSError from a descriptor closed twice, nor leave a zombie.
    work = _slow_in_the_helper(os.getpid())
    sent = 0

    def interrupt(signum: int, frame: FrameType | None) -> None:
        nonlocal sent
        sent += 1
        if sent >= interrupts:
            signal.setitimer(signal.ITIMER_REAL, 0)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    pid = 0
    started = time.perf_counter()
    try:
        with (
            pytest.raises(KeyboardInterrupt),
            workers.Shared(work, list(range(2000)), 0.99, helper=True) as shared,
        ):
            pid = shared._pid
            assert pid
            signal.setitimer(signal.ITIMER_REAL, 0.2, 0.2)
            shared.results([work(item) for item in shared.own])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - started
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie left
    assert elapsed < 2.0, f"waited {elapsed:.1f} s for a helper that had 4 s of work left"


def test_a_review_with_nothing_to_write_loads_no_secret_patterns(tmp_path: Path) -> None:
    """The secret patterns take longer to build than a small review: they are built for a
    plan that writes, and for no other."""
    memory = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"
    review(memory, commit=False)  # the first review writes; the second has nothing to do
    program = (
        "import sys\nfrom pathlib import Path\nfrom mdmem.reviewing.apply import review\n"
        f"plan, _ = review(Path({str(memory)!r}), commit=False)\n"
        "print(len(plan.writes), 'mdmem.safety.secrets' in sys.modules, 'difflib' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parent.parent
    environment = {
        **os.environ,
        "PYTHONPATH": str(root),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "MDMEM_NO_CACHE": "1",  # read everything: no settled-review memo
    }
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=environment
    )
    assert (done.returncode, done.stdout.split()) == (0, ["0", "False", "False"]), done.stderr
