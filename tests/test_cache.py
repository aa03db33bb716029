"""The derived caches outside the tree: parsed session logs and the settled review."""

from __future__ import annotations

import marshal
import os
import tempfile
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdmem.reviewing.apply import review
from mdmem.store import cache
from mdmem.store.load import read_bytes, read_sessions
from tests.helpers import copy_tree, make_repo

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    return copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"


def test_cached_sessions_equal_freshly_parsed(
    memory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = read_sessions(memory)
    location = cache.location(memory)
    assert location is not None and location.is_file()
    assert read_sessions(memory) == first  # from the cache
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    assert read_sessions(memory) == first  # from the files


def test_changed_log_is_read_again(memory: Path) -> None:
    read_sessions(memory)
    log = memory / "sessions" / "2026-03-08-090000.md"
    text = log.read_text().replace(
        "- Referenced: webhook-raw-body", "- Referenced: webhook-raw-body, sentry-sourcemaps-upload"
    )
    log.write_text(text)
    names = [s.references for s in read_sessions(memory) if s.stem == "2026-03-08-090000"]
    assert "sentry-sourcemaps-upload" in names[0]


def test_corrupt_cache_is_ignored(memory: Path) -> None:
    first = read_sessions(memory)
    location = cache.location(memory)
    assert location is not None
    location.write_text("{not json")
    assert read_sessions(memory) == first


def test_cache_lives_in_the_git_folder_inside_a_repository(tmp_path: Path) -> None:
    repo = make_repo(copy_tree(GOLDEN / "rule-6-active" / "before", tmp_path / "repo"))
    read_sessions(repo / "memory")
    location = cache.location(repo / "memory")
    assert location is not None
    assert location.parent == repo / ".git" / "mdmem"
    assert location.is_file()


def test_settled_review_is_not_recomputed_until_a_file_changes(memory: Path) -> None:
    plan, _ = review(memory, commit=False)
    assert plan.changed
    again, _ = review(memory, commit=False)
    assert not again.changed
    assert again.summary is not None and plan.summary is not None
    assert again.summary.tiers == plan.summary.tiers
    # A change to any input is seen: a new log makes the next review read everything.
    log = memory / "sessions" / "2026-03-09-090000.md"
    log.write_text("# S\n\n## Memory References\n- Referenced: webhook-raw-body\n")
    third, _ = review(memory, commit=False)
    assert third.changed
    assert third.summary is not None and third.summary.through == "2026-03-09-090000"


def test_a_first_review_records_every_file_it_read(memory: Path) -> None:
    """With no memo to compare, the logs are stat'ed as they are read, not listed first:
    the memo must still hold every one of them, as a full fingerprint sees them."""
    assert cache.read_memo(memory) is None
    review(memory, commit=False)
    memo = cache.read_memo(memory)
    assert memo is not None
    logs = [key for key in memo["fingerprint"] if key.startswith("sessions/") and key[9:]]
    assert len(logs) == len(list((memory / "sessions").glob("*.md"))) > 1
    assert memo["fingerprint"] == cache.fingerprint(memory)
    assert cache.settled(memo, cache.fingerprint(memory)) is not None


@pytest.mark.parametrize(
    "damage",
    [b"", b"mdmem review memo\n", b"{not marshal", b"\x00" * 40],
    ids=["cut-short", "marker-only", "text", "zeros"],
)
def test_a_damaged_memo_is_no_memo(memory: Path, damage: bytes) -> None:
    review(memory, commit=False)
    path = cache.beside(memory, "review", ".marshal")
    assert path is not None and cache.read_memo(memory) is not None
    whole = path.read_bytes()
    path.write_bytes(damage or whole[:-3])  # b"": the memo cut short
    assert cache.read_memo(memory) is None
    plan, _ = review(memory, commit=False)  # read in full, and the memo made again
    assert not plan.changed
    assert cache.read_memo(memory) is not None


def test_settled_review_notices_a_hand_edit(memory: Path) -> None:
    review(memory, commit=False)
    continuity = memory / "continuity.md"
    text = continuity.read_text()
    continuity.write_text(text.replace("uses: 1 | tier: active", "uses: 7 | tier: active", 1))
    stat = continuity.stat()
    os.utime(continuity, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    plan, _ = review(memory, commit=False)
    assert plan.changed  # the footer a human edited is recomputed


@pytest.mark.parametrize(
    "change", [b"", b"- Referenced: webhook-raw-body\n" * 3], ids=["shrank", "grew"]
)
def test_a_log_read_with_a_stale_size_is_read_whole(tmp_path: Path, change: bytes) -> None:
    path = tmp_path / "log.md"
    path.write_bytes(b"# S\n\n## Memory References\n")
    size = path.stat().st_size
    path.write_bytes(b"# S\n" + change)  # changed after its size was taken
    assert read_bytes(str(path), size) == b"# S\n" + change


def test_a_log_edited_during_the_review_is_read_again_by_the_next(memory: Path) -> None:
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
    assert second.changed  # neither the memo nor the session cache hid the edit
    assert second.summary is not None
    assert "sentry-sourcemaps-upload" in second.summary.refreshed


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64))
def test_property_a_damaged_session_cache_reads_as_empty_or_as_entries(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sessions-0.marshal"
        path.write_bytes(data)
        assert isinstance(cache.load(path), dict)


def test_session_cache_round_trip_and_foreign_payloads(tmp_path: Path) -> None:
    path = tmp_path / "sessions-0.marshal"
    entries = {"2026-01-01-100000.md": [10, 20, ["a-b"], [["created", ["a-b"], None, 3]], [], 2]}
    cache.save(path, entries)
    assert cache.load(path) == entries
    saved = path.read_bytes()
    marker = saved[: saved.index(b"\n") + 1]

    def stored(payload: object) -> bytes:  # a well-formed file around another payload
        body = marshal.dumps(payload)
        return marker + zlib.crc32(body).to_bytes(4, "big") + body

    path.write_bytes(stored((cache.FORMAT, entries)))
    assert cache.load(path) == entries
    path.write_bytes(stored((cache.FORMAT + 1, entries)))
    assert cache.load(path) == {}  # another format: rebuilt from the files
    path.write_bytes(stored(["not", "a", "cache"]))
    assert cache.load(path) == {}
    path.write_bytes(saved[:-3])  # cut short
    assert cache.load(path) == {}
    damaged = bytearray(saved)
    damaged[-5] ^= 0xFF  # one byte of the payload changed: the checksum refuses it
    path.write_bytes(bytes(damaged))
    assert cache.load(path) == {}
