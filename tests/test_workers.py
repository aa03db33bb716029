"""Work shared with a forked helper process: same results, same errors, nothing left behind."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mdmem.errors import ParseError
from mdmem.linting.run import lint
from mdmem.store import workers
from mdmem.store.load import load
from tests.helpers import copy_tree, helper_process

GOLDEN = Path(__file__).parent / "golden"

# On one core too: the helper is forced on wherever forking is possible.
pytestmark = pytest.mark.skipif(not workers.can_fork(), reason="needs fork")


def square_with_pid(item: int) -> list[int]:
    if item == 13:
        raise ParseError(f"item {item} is unlucky", "items.md", item)
    return [item * item, os.getpid()]


def run(items: list[int], share: float = 0.5, helper: bool | None = True) -> list[list[int]]:
    with workers.Shared(square_with_pid, items, share, helper=helper) as shared:
        return shared.results([square_with_pid(item) for item in shared.own])


def test_results_are_in_item_order_and_half_come_from_a_helper() -> None:
    results = run(list(range(10)))
    assert [square for square, _ in results] == [n * n for n in range(10)]
    pids = [pid for _, pid in results]
    assert pids[:5] == [os.getpid()] * 5
    assert len(set(pids[5:])) == 1 and pids[5] != os.getpid()


def test_an_error_in_the_helpers_share_is_raised_here_as_without_a_helper() -> None:
    with pytest.raises(ParseError) as raised:
        run(list(range(20)))
    assert (raised.value.message, raised.value.path, raised.value.line) == (
        "item 13 is unlucky",
        "items.md",
        13,
    )


def test_a_helper_that_dies_costs_only_time() -> None:
    parent = os.getpid()

    def dies_in_the_helper(item: int) -> int:
        if os.getpid() != parent:
            os._exit(7)
        return item + 1

    with workers.Shared(dies_in_the_helper, list(range(8)), 0.5, helper=True) as shared:
        results = shared.results([dies_in_the_helper(item) for item in shared.own])
    assert results == list(range(1, 9))


def test_the_helper_is_stopped_and_reaped_when_the_caller_fails() -> None:
    parent = os.getpid()

    def sleeps(item: int) -> int:
        if os.getpid() != parent:
            time.sleep(5)
        return item

    with (
        pytest.raises(RuntimeError),
        workers.Shared(sleeps, list(range(4)), 0.5, helper=True) as shared,
    ):
        pid = shared._pid
        assert pid
        raise RuntimeError("the caller failed")
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left


def test_too_little_work_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "SHARE_FROM", 100)
    results = run(list(range(10)), helper=None)
    assert {pid for _, pid in results} == {os.getpid()}


def test_no_helper_when_told_so() -> None:
    results = run(list(range(100, 100 + workers.SHARE_FROM)), helper=False)
    assert {pid for _, pid in results} == {os.getpid()}


def test_sessions_read_with_a_helper_equal_those_read_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"
    helper_process(monkeypatch, on=True)
    shared = load(memory).sessions
    helper_process(monkeypatch, on=False)
    assert load(memory).sessions == shared and len(shared) > 2


def test_a_bad_log_in_the_helpers_share_gives_the_error_it_gives_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"
    logs = sorted((memory / "sessions").iterdir())
    logs[-1].write_bytes(b"## Memory References\n- Referenced: \xff\n")
    helper_process(monkeypatch, on=True)
    with pytest.raises(ParseError) as shared:
        load(memory)
    helper_process(monkeypatch, on=False)
    with pytest.raises(ParseError) as alone:
        load(memory)
    assert str(shared.value) == str(alone.value) and "not valid UTF-8" in str(alone.value)
    assert shared.value.path == alone.value.path == f"memory/sessions/{logs[-1].name}"


def test_lint_findings_with_a_helper_equal_those_found_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    memory = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"
    logs = sorted((memory / "sessions").iterdir())
    with logs[-1].open("a") as log:  # in the helper's share: the later logs
        log.write("\nDB_PASSWORD=hunter2hunter2x\n\n<<<<<<< HEAD\n- Referenced: no-such-fact\n")
    helper_process(monkeypatch, on=True)
    shared = lint(memory)
    helper_process(monkeypatch, on=False)
    alone = lint(memory)
    assert shared == alone
    assert {"E007", "E009"} <= {finding.code for finding in alone}
