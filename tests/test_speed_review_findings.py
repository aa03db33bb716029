"""Regression tests for problems found reviewing the review/lint speed-ups."""

from __future__ import annotations

import os
import signal
import time
from types import FrameType

import pytest

from mdmem import workers

needs_fork = pytest.mark.skipif(not workers.can_fork(), reason="needs fork and a second core")


def _slow_in_the_helper(parent: int) -> object:
    def work(item: int) -> int:
        if os.getpid() != parent:
            time.sleep(0.002)  # the helper's share takes seconds
        return item

    return work


@needs_fork
@pytest.mark.parametrize("interrupts", [1, 2])
def test_an_interrupt_while_waiting_for_the_helper_is_raised_at_once(
    interrupts: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SIGINT sent to this process alone (a harness, `kill -INT pid`): the helper, which
    # did not get it, must not be waited for, and a second one must not turn into an
    # OSError from a descriptor closed twice, nor leave a zombie.
    monkeypatch.setattr(workers, "SHARE_FROM", 2)
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
            workers.Shared(work, list(range(2000)), 0.99) as shared,
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
