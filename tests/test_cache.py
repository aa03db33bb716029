"""The derived caches outside the tree: what each session log yields, and the rule every
cache follows."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mdmem.linting.gate import review
from mdmem.linting.run import lint
from mdmem.store import cache
from tests.helpers import copy_tree, load_script, make_repo

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"


def test_caches_live_in_the_git_folder_inside_a_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 0)  # keep the logs just copied
    repo = make_repo(copy_tree(GOLDEN / "rule-6-active" / "before", tmp_path / "repo"))
    review(repo / "memory", commit=False)
    location = cache.location(repo / "memory", "logs")
    assert location is not None
    assert location.parent == repo / ".git" / "mdmem"
    assert location.is_file()


def test_a_second_review_changes_nothing_until_a_file_changes(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 0)  # keep the files copied just now, as if older
    plan, _ = review(memory, commit=False)
    assert plan.changed
    again, _ = review(memory, commit=False)
    assert not again.changed
    assert again.summary is not None and plan.summary is not None
    assert again.summary.tiers == plan.summary.tiers
    # A change to any input is seen: a new log is read by the next review.
    log = memory / "sessions" / "2026-03-09-090000.md"
    log.write_text("# S\n\n## Memory References\n- Referenced: webhook-raw-body\n")
    third, _ = review(memory, commit=False)
    assert third.changed
    assert third.summary is not None and third.summary.through == "2026-03-09-090000"


@pytest.mark.parametrize(
    "damage",
    [b"", b"[]", b"{not json", b"\x00" * 40, b'{"code": 1}'],
    ids=["cut-short", "not-an-object", "text", "zeros", "foreign"],
)
def test_a_damaged_log_cache_is_no_cache(
    memory: Path, damage: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 0)
    found = lint(memory)
    path = cache.location(memory, "logs")
    assert path is not None and cache.load(memory, "logs")
    whole = path.read_bytes()
    path.write_bytes(damage or whole[:-3])  # b"": the cache cut short
    assert lint(memory) == found  # every log read again, and the cache made again
    assert cache.load(memory, "logs")["files"].keys() == {
        log.name for log in (memory / "sessions").glob("*.md")
    }


def test_a_log_cache_changed_but_still_well_formed_is_no_cache(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept yield is not checked for its shape, nor for its sense: the file's CRC says
    that it is what this code wrote."""
    monkeypatch.setattr(cache, "RACY_NS", 0)
    plan = review(memory, dry_run=True)[0].diff()
    path = cache.location(memory, "logs")
    assert path is not None
    whole = path.read_bytes()
    assert b'"webhook-raw-body"' in whole
    path.write_bytes(whole.replace(b'"webhook-raw-body"', b'"webhook-raw-bodies"'))
    assert review(memory, dry_run=True)[0].diff() == plan


def test_settled_review_notices_a_hand_edit(memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 0)  # keep the files copied just now, as if older
    review(memory, commit=False)
    continuity = memory / "continuity.md"
    text = continuity.read_text()
    continuity.write_text(text.replace("uses: 1 | tier: active", "uses: 7 | tier: active", 1))
    stat = continuity.stat()
    os.utime(continuity, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    plan, _ = review(memory, commit=False)
    assert plan.changed  # the footer a human edited is recomputed


def test_a_log_edited_during_the_review_is_read_again_by_the_next(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "RACY_NS", 0)  # keep the files copied just now, as if older
    log = memory / "sessions" / "2026-03-08-090000.md"

    def agent_edits_a_log(done: int, total: int) -> None:  # after the review read it
        if done == total:
            text = log.read_text().replace(
                "- Referenced: webhook-raw-body",
                "- Referenced: webhook-raw-body, sentry-sourcemaps-upload",
            )
            log.write_text(text)

    first, _ = review(memory, commit=False, progress=agent_edits_a_log)
    assert first.changed
    second, _ = review(memory, commit=False)
    assert second.changed  # the log's cache entry did not hide the edit
    assert second.summary is not None
    assert "sentry-sourcemaps-upload" in second.summary.refreshed


@pytest.mark.parametrize("kind", ["logs", "status"])
def test_a_cache_written_by_other_code_is_not_trusted(
    memory: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any change to mdmem's source (a scanner's, the cache layout's) outdates every cache."""
    monkeypatch.setattr(cache, "RACY_NS", 0)
    review(memory, commit=False)
    lint(memory)
    assert cache.load(memory, kind)
    monkeypatch.setattr(cache, "code_version", lambda: "another-version")
    assert cache.load(memory, kind) == {}
    cache.save(memory, kind, {"entries": {}})
    assert cache.load(memory, kind) == {"code": "another-version", "entries": {}}


@pytest.mark.parametrize("changed", ["linting/checks.py", "safety/secrets.py", "store/cache.py"])
def test_a_change_to_any_source_file_changes_the_code_version(tmp_path: Path, changed: str) -> None:
    package = Path(cache.__file__).resolve().parent.parent
    copy = shutil.copytree(package, tmp_path / "mdmem", ignore=shutil.ignore_patterns("*.pyc"))
    copied = load_script(copy / "store" / "cache.py", "copied_cache")
    before = copied.code_version()
    assert before == cache.code_version()
    with (copy / changed).open("a") as source:
        source.write("# changed\n")
    copied.code_version.cache_clear()
    assert copied.code_version() != before


def test_an_edit_that_keeps_the_size_changes_the_code_version(tmp_path: Path) -> None:
    """The version is taken from each file's stat: an edit of the same length is seen by
    its modification time."""
    package = Path(cache.__file__).resolve().parent.parent
    copy = shutil.copytree(package, tmp_path / "mdmem", ignore=shutil.ignore_patterns("*.pyc"))
    copied = load_script(copy / "store" / "cache.py", "copied_cache_same_size")
    before = copied.code_version()
    source = copy / "format" / "footer.py"
    stat = source.stat()
    source.write_bytes(source.read_bytes().replace(b"footer", b"FOOTER", 1))
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert source.stat().st_size == stat.st_size
    copied.code_version.cache_clear()
    assert copied.code_version() != before


def test_a_source_file_linked_to_is_stated_through_its_link(tmp_path: Path) -> None:
    """An install that links each file to a shared copy (as some installers may): an edit
    of the copy is an edit of the source Python runs."""
    package = Path(cache.__file__).resolve().parent.parent
    copy = shutil.copytree(package, tmp_path / "mdmem", ignore=shutil.ignore_patterns("*.pyc"))
    shared = tmp_path / "shared-footer.py"
    shutil.copyfile(copy / "format" / "footer.py", shared)
    (copy / "format" / "footer.py").unlink()
    (copy / "format" / "footer.py").symlink_to(shared)
    copied = load_script(copy / "store" / "cache.py", "copied_cache_linked")
    before = copied.code_version()
    with shared.open("a") as source:
        source.write("# changed\n")
    copied.code_version.cache_clear()
    assert copied.code_version() != before
