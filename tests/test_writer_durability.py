"""The journal protocol after a power cut: what is synced before the commit point, and what
recovery may conclude from the files a crash left.

A power cut can lose any directory entry that was not synced, so a temp file may be
gone although its write was acknowledged. These tests build the states a power cut
can leave (a committed journal, some temps renamed, some temps gone or cut short) by
stopping a real write at a write point and then taking files away, and call
`recover` on them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.errors import WriteError
from mdmem.store import writer
from mdmem.store.journal import JOURNAL, interrupted
from tests.helpers import snapshot

OLD = {
    "continuity.md": "## Key Decisions\n\n- Old text\n",
    "decay-policy.md": "# Policy\n",
}
NEW = {
    "archive/2026-Q1.md": "# Archive 2026-Q1\n\n- A fact moved out\n",  # a new file
    "continuity.md": "## Key Decisions\n",  # the fact left it
    "reviews.md": "| review |\n",  # another new file
}


class Crash(BaseException):
    """The process dies: nothing on the way out runs."""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "memory"
    (folder / "sessions").mkdir(parents=True)
    for relative, text in OLD.items():
        (folder / relative).write_text(text, "utf-8")
    return folder


def crash_at(
    root: Path, point: str, files: dict[str, str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run a write and kill it at `point`, leaving the disk as it is there."""

    def hook(label: str) -> None:
        if label == point:
            raise Crash(label)

    monkeypatch.setattr(writer, "fault_hook", hook)
    with pytest.raises(Crash):
        writer.write_files(root, files)
    monkeypatch.setattr(writer, "fault_hook", None)
    assert (root / JOURNAL).exists(), "the crash must come after the commit point"


def temp(root: Path, relative: str) -> Path:
    return root / (relative + writer.TEMP_SUFFIX)


def lose(relative: str) -> Callable[[Path], None]:
    """A power cut took the temp's directory entry."""
    return lambda root: temp(root, relative).unlink()


def cut_short(relative: str) -> Callable[[Path], None]:
    """A power cut kept the temp's name but not all of its bytes."""
    return lambda root: temp(root, relative).write_bytes(temp(root, relative).read_bytes()[:5])


def nothing(root: Path) -> None:
    pass


FIRST, SECOND = "replace:archive/2026-Q1.md", "replace:continuity.md"

FINISHED = [
    pytest.param(FIRST, nothing, id="all-temps-there"),
    pytest.param(SECOND, nothing, id="first-renamed-already"),
    pytest.param("replace:reviews.md", nothing, id="two-renamed-already"),
    pytest.param("cleanup", nothing, id="all-renamed-journal-left"),
]


@pytest.mark.parametrize(("point", "damage"), FINISHED)
def test_recover_finishes_a_write_whose_new_texts_are_all_on_disk(
    root: Path, point: str, damage: Callable[[Path], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    crash_at(root, point, dict(NEW), monkeypatch)
    damage(root)
    assert writer.recover(root) == sorted(NEW)
    assert not interrupted(root)
    expected = {**OLD, **NEW}
    assert snapshot(root) == {path: text.encode() for path, text in expected.items()}


LOST = [
    pytest.param(FIRST, lose("archive/2026-Q1.md"), "archive/2026-Q1.md", id="new-file-temp-lost"),
    pytest.param(FIRST, lose("continuity.md"), "continuity.md", id="existing-file-temp-lost"),
    pytest.param(SECOND, lose("continuity.md"), "continuity.md", id="lost-after-a-rename"),
    pytest.param(FIRST, cut_short("reviews.md"), "reviews.md", id="temp-cut-short"),
]


@pytest.mark.parametrize(("point", "damage", "lost"), LOST)
def test_recover_refuses_a_write_whose_new_text_was_lost(
    root: Path,
    point: str,
    damage: Callable[[Path], None],
    lost: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Recovery must not report a write finished when a file never arrived (the archive
    quarter lost while continuity already dropped the moved fact): it names the file,
    changes nothing and keeps the journal, so every command keeps saying so."""
    crash_at(root, point, dict(NEW), monkeypatch)
    damage(root)
    left = snapshot(root)
    with pytest.raises(WriteError, match="cannot finish the interrupted write") as raised:
        writer.recover(root)
    assert f"memory/{lost}" in str(raised.value)
    assert JOURNAL in str(raised.value)
    assert snapshot(root) == left
    assert interrupted(root)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lose("continuity.md"), id="temp-lost"),
        pytest.param(cut_short("continuity.md"), id="temp-cut-short"),
    ],
)
def test_a_damaged_temp_whose_target_already_holds_the_new_text_is_no_loss(
    root: Path, damage: Callable[[Path], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rewriting a file with the text it has: its temp gone or cut short loses nothing,
    and a cut-short temp is dropped, never renamed over the good file."""
    files = {**NEW, "continuity.md": OLD["continuity.md"]}
    crash_at(root, FIRST, files, monkeypatch)
    damage(root)
    assert writer.recover(root) == sorted(files)
    assert not temp(root, "continuity.md").exists()
    assert (root / "continuity.md").read_text("utf-8") == OLD["continuity.md"]
    assert (root / "archive" / "2026-Q1.md").read_text("utf-8") == NEW["archive/2026-Q1.md"]


def test_every_command_refuses_and_names_the_lost_file(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crash_at(root, FIRST, dict(NEW), monkeypatch)
    lose("archive/2026-Q1.md")(root)
    result = CliRunner().invoke(main, ["lint", "--root", str(root)])
    assert result.exit_code == 4, result.output
    assert "memory/archive/2026-Q1.md" in result.stderr
    assert "cannot finish the interrupted write" in result.stderr


@pytest.mark.parametrize(
    "journal",
    [
        pytest.param(["continuity.md"], id="first-format-bare-list"),
        pytest.param({"replace": ["continuity.md"], "delete": []}, id="without-digests"),
    ],
)
def test_a_journal_written_before_digests_still_rolls_forward(root: Path, journal: object) -> None:
    temp(root, "continuity.md").write_text("## New\n", "utf-8")
    (root / JOURNAL).write_text(json.dumps(journal), "utf-8")
    assert writer.recover(root) == ["continuity.md"]
    assert (root / "continuity.md").read_text("utf-8") == "## New\n"
    assert not interrupted(root)


def test_folders_are_synced_before_the_commit_point(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each folder that received a temp, and the parent of each folder the write created,
    is synced after the temps are written and before the journal is committed, so the
    journal can never name a temp a power cut took away."""
    events: list[str] = []
    real_fsync_dir = writer._fsync_dir

    def fsync_dir(folder: Path) -> None:
        events.append(f"sync:{folder.relative_to(root.parent).as_posix()}")
        real_fsync_dir(folder)

    monkeypatch.setattr(writer, "_fsync_dir", fsync_dir)
    monkeypatch.setattr(writer, "fault_hook", events.append)
    writer.write_files(root, {**NEW, "deep/new/folder/file.md": "x\n"})
    last_temp = max(n for n, event in enumerate(events) if event.startswith("temp:"))
    committed = events.index("journal")
    synced = set(events[last_temp:committed])
    assert synced >= {
        "sync:memory",  # continuity.md's temp, reviews.md's temp, and deep/
        "sync:memory/archive",  # the quarter file's temp
        "sync:memory/deep",  # new/, a folder the write created
        "sync:memory/deep/new",  # folder/, another
        "sync:memory/deep/new/folder",  # file.md's temp
    }, events
