"""`writing.newest`: the current session from the memo gives exactly the answer of the plain
rule (list the folder, ask git), over many folder states made in a real git repository:
committed, staged and uncommitted logs, slugs, date-only names, stray files, logs made by
hand or by `session start`, logs deleted, commits, a branch switch."""

from __future__ import annotations

import datetime as dt
import functools
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.store.lock import locked
from mdmem.writing import apply, current, logs, newest
from tests.helpers import git, make_repo
from tests.test_properties import share

COMMITTED = [f"2026-06-{day:02d}-090000.md" for day in range(1, logs.NEWEST_FIRST + 3)]
NAMES = [
    "2026-07-01-120000.md",
    "2026-07-01-120000-api.md",
    "2026-07-01-130000.md",
    "2026-07-02.md",
    "2026-06-05-090000-late.md",  # older than committed logs
    "2026-06-18-090000.md",  # a committed name
    "2026-06-01-090000.md",
    "notes.md",  # not a log
    "2026-07-04-080000-x.md",
]
STARTS = [
    dt.datetime(2026, 7, 1, 12, 0, 0, tzinfo=dt.timezone.utc),  # a taken second: the next one
    dt.datetime(2026, 6, 10, 8, 0, 0, tzinfo=dt.timezone.utc),  # older than committed logs
    dt.datetime(2026, 7, 5, 9, 30, 0, tzinfo=dt.timezone.utc),
    dt.datetime(2026, 6, 18, 9, 0, 0, tzinfo=dt.timezone.utc),  # a committed name, if deleted
]
OPERATIONS = st.one_of(
    st.tuples(st.just("make"), st.integers(0, len(NAMES) - 1)),
    st.tuples(st.just("delete"), st.integers(0, len(NAMES) - 1)),
    st.tuples(st.just("stage"), st.integers(0, len(NAMES) - 1)),
    st.tuples(st.just("start"), st.integers(0, len(STARTS) - 1)),
    st.tuples(st.just("write"), st.just(0)),
    st.tuples(st.just("commit"), st.just(0)),
    st.tuples(st.just("switch"), st.just(0)),
)


def plain(root: Path) -> str | None:
    """The rule without the memo: the folder listed, git asked."""
    folder = root / "sessions"
    names = os.listdir(folder) if folder.is_dir() else []
    return logs.current(names, functools.partial(newest.committed, root))


def settle(root: Path) -> None:
    """Wait until a change made now gets another timestamp than the sessions folder's last
    one: on a file system with a coarse clock, a change by hand in the same tick as an
    mdmem write cannot be told from it (see `newest`)."""
    probe = root.parent / "probe"
    while True:
        probe.write_bytes(b"")
        if os.stat(probe).st_mtime_ns > os.stat(root / "sessions").st_mtime_ns:
            return


def repository(top: Path) -> Path:
    root = top / "memory"
    (root / "sessions").mkdir(parents=True)
    (root / "continuity.md").write_text("# Continuity\n", "utf-8")
    for name in COMMITTED:
        (root / "sessions" / name).write_text("# s\n", "utf-8")
    make_repo(top)
    git(top, "branch", "side")
    return root


def apply_operation(root: Path, operation: tuple[str, int]) -> None:
    kind, index = operation
    top, path = root.parent, root / "sessions" / NAMES[index]
    if kind in ("make", "delete", "commit", "switch"):
        settle(root)
    if kind == "make":
        path.write_text("# by hand\n", "utf-8")
    elif kind == "delete" and path.exists():
        path.unlink()
    elif kind == "stage" and path.exists():
        git(top, "add", str(path))
    elif kind == "start":
        apply.start_session(root, "s" if index == 2 else None, STARTS[index])
    elif kind == "write":
        with locked(root):
            stem, seen = newest.find(root)
            if stem is not None:
                log = current.SessionLog(root, stem, current.NEWEST, seen)
                newest.write(root, {log.relative: log.path.read_text("utf-8") + "x\n"}, seen)
    elif kind == "look":  # the memo made anew
        newest.find(root)
    elif kind == "commit":
        git(top, "add", "-A", "memory")
        git(top, "commit", "-q", "--allow-empty", "-m", "logs")
    elif kind == "switch":
        branch = git(top, "branch", "--show-current").strip()
        git(top, "checkout", "-q", "-f", "side" if branch == "main" else "main")


@share(4)
@given(st.lists(OPERATIONS, min_size=1, max_size=12))
def test_the_memo_gives_the_plain_answer(operations: list[tuple[str, int]]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = repository(Path(scratch))
        for operation in operations:
            apply_operation(root, operation)
            expected = plain(root)
            assert newest.find(root)[0] == expected, operation
            assert newest.find(root)[0] == expected, operation  # from the memo this time


@pytest.mark.parametrize(
    ("steps", "lists"),
    [
        pytest.param([], False, id="nothing_changed"),
        pytest.param([("write", 0)], False, id="after_an_mdmem_write"),
        pytest.param([("start", 2)], False, id="after_session_start"),
        pytest.param([("start", 1)], False, id="after_a_session_start_older_than_current"),
        # A name at or below HEAD's newest may be one HEAD holds (a committed log deleted).
        pytest.param(
            [("delete", 0), ("look", 0), ("start", 1)], True, id="after_a_start_older_than_head"
        ),
        pytest.param(
            [("delete", 0), ("delete", 5), ("look", 0), ("start", 3)],
            True,
            id="after_a_start_taking_a_name_head_holds",
        ),
        pytest.param([("make", 8)], True, id="after_a_log_made_by_hand"),
        pytest.param([("delete", 0)], True, id="after_a_log_deleted"),
        pytest.param([("commit", 0)], True, id="after_a_commit"),
        pytest.param([("stage", 0)], False, id="after_staging"),
    ],
)
def test_the_folder_is_listed_only_when_it_or_head_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, steps: list[tuple[str, int]], lists: bool
) -> None:
    root = repository(tmp_path)
    apply_operation(root, ("make", 0))
    assert newest.find(root)[0] == "2026-07-01-120000"
    for step in steps:
        apply_operation(root, step)
    listed: list[Path] = []
    real = newest._listing
    monkeypatch.setattr(newest, "_listing", lambda folder: listed.append(folder) or real(folder))
    assert newest.find(root)[0] == plain(root)
    assert bool(listed) == lists


def test_no_memo_is_trusted_for_long(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = repository(tmp_path)
    apply_operation(root, ("make", 0))
    _, seen = newest.find(root)
    assert seen is not None
    listed: list[Path] = []
    monkeypatch.setattr(newest.time, "time", lambda: seen.listed + newest.TRUSTED_FOR)
    monkeypatch.setattr(newest, "_listing", lambda folder: listed.append(folder) or [])
    assert newest.find(root)[0] is None
    assert listed == [root / "sessions"]
