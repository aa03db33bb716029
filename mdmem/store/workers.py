"""Pure per-item work shared with one forked helper process, where a second core makes it pay.

A cold review reads every session log once; on two cores a helper process can scan
part of them while this one parses the documents. Nothing depends on the helper:
it sends back the results it computed (marshal over a pipe) and this process computes
whatever is missing itself, the item the helper failed on included, so an error is
raised here, with the same message, in the same order as without a helper; a helper
that crashed or was killed only costs the time it saved.
"""

from __future__ import annotations

import marshal
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Work below this many items is done here: forking costs more than it saves.
SHARE_FROM = 2000


def can_fork() -> bool:
    """Whether forking is safe here: POSIX, and no other thread."""
    if not hasattr(os, "fork") or sys.platform == "win32":
        return False
    return threading.active_count() == 1  # a forked copy of a threaded process can deadlock


def _second_core() -> bool:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) > 1


class Shared(Generic[T, R]):
    """`work` over `items`: the last `share` of them in a helper process, started at once.

    Use as a context manager: the helper is stopped and reaped however the block ends.
    `own` are the items to compute here; `results(own_results)` returns all results in
    item order. `helper`: None starts one where it pays (from SHARE_FROM items, on a
    machine with a second core), True wherever forking is safe, False never.
    """

    def __init__(
        self,
        work: Callable[[T], R],
        items: Sequence[T],
        share: float,
        *,
        helper: bool | None = None,
    ) -> None:
        self._work, self._items = work, items
        if helper is None:
            helper = len(items) >= SHARE_FROM and _second_core()
        cut = len(items) - int(len(items) * share) if helper and can_fork() else len(items)
        self._pid, self._read_end = _fork(work, items[cut:]) if cut < len(items) else (0, -1)
        self.own = items[:cut]

    def results(self, own_results: list[R]) -> list[R]:
        """The results of every item: `own_results` (one per item of `own`), then the
        helper's, then any it lacked, computed here."""
        if len(own_results) != len(self.own):
            raise ValueError("results: one result per item of `own` is needed")
        shared = self._items[len(own_results) :]
        received: list[R] = self._receive() if self._pid else []
        received = received[: len(shared)]
        return own_results + received + [self._work(item) for item in shared[len(received) :]]

    def _receive(self) -> list[R]:
        chunks = []
        while chunk := os.read(self._read_end, 1 << 20):
            chunks.append(chunk)
        # Not in a `finally`: interrupted here (a SIGINT sent to this process alone), the
        # caller's `__exit__` kills the helper instead of waiting for it to finish its share.
        self._reap(kill=False)
        return _loads(b"".join(chunks))

    def _reap(self, *, kill: bool) -> None:
        pid, self._pid = self._pid, 0  # first: an interrupt below must not make a second try
        if not pid:
            return
        if kill:
            os.kill(pid, signal.SIGKILL)
        os.close(self._read_end)
        os.waitpid(pid, 0)

    def __enter__(self) -> Shared[T, R]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._reap(kill=True)


def _fork(work: Callable[[T], R], items: Sequence[T]) -> tuple[int, int]:
    """Start a helper that sends back `work` over `items`: its pid and the read end of its
    pipe, or (0, -1) when no process could be started."""
    read_end, write_end = os.pipe()
    # Ctrl-C reaches both processes: the helper must die of it without running any
    # of this process's handlers, so it is blocked across the fork.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        return 0, -1
    if pid == 0:  # the helper: compute, send, and leave without cleanup of any kind
        status = 1
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            os.close(read_end)
            _send(write_end, _prefix(work, items))
            status = 0
        finally:
            os._exit(status)
    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    os.close(write_end)
    return pid, read_end


def _prefix(work: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """`work` over `items` up to the first that fails: this process redoes that one."""
    done: list[R] = []
    for item in items:
        try:
            done.append(work(item))
        except Exception:
            break
    return done


def _send(descriptor: int, results: list[R]) -> None:
    data = marshal.dumps(results)
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def _loads(data: bytes) -> list[Any]:
    """The helper's results; [] when it died before sending them whole."""
    try:
        payload = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return []
    return payload if isinstance(payload, list) else []
