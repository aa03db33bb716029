"""One incremental review and lint: what each session log yields is kept per log
(`store.cache.Stamped`), and a review or lint with the cache finds exactly what one
without it finds, whatever happened to the logs in between, reading only the logs that
are new or changed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from mdmem.errors import MdmemError
from mdmem.linting import run as running
from mdmem.linting.gate import review
from mdmem.linting.run import lint
from mdmem.store import cache
from mdmem.store import load as loading
from tests.helpers import copy_tree, git, make_repo

GOLDEN = Path(__file__).parent / "golden"
NEW_LOG = "# S\n\n## Memory References\n- Referenced: webhook-raw-body, no-such-fact-id\n"


def outcome(memory: Path) -> tuple[object, ...]:
    """lint's findings and the review's plan (a dry run: nothing written), or its refusal."""
    try:
        plan, _ = review(memory, dry_run=True)
    except MdmemError as refused:
        return lint(memory), str(refused), None
    return lint(memory), plan.diff(), plan.summary


def both(memory: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, ...]:
    """The outcome without caches, then with them, which must be the same."""
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    uncached = outcome(memory)
    monkeypatch.delenv("MDMEM_NO_CACHE")
    assert outcome(memory) == uncached
    return uncached


def counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The session logs read from now on, by file name."""
    read: list[str] = []
    original = loading.read_bytes

    def counted(path: Path | str, display: str) -> bytes:
        read.append(os.path.basename(path))
        return original(path, display)

    monkeypatch.setattr(loading, "read_bytes", counted)
    return read


def edit_same_size(log: Path) -> None:
    """Change a log's text, keeping its size and its modification time."""
    stat = log.stat()
    text = log.read_text()
    log.write_text(text.replace("- (none)", "- zz-top", 1))
    os.utime(log, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert log.stat().st_size == stat.st_size


def add(sessions: Path) -> None:
    (sessions / "2026-03-09-090000.md").write_text(NEW_LOG)


def rename(sessions: Path) -> None:
    (sessions / "2026-03-08-090000.md").rename(sessions / "2026-03-08-100000-moved.md")


def delete(sessions: Path) -> None:
    (sessions / "2026-03-07-090000.md").unlink()


def edit(sessions: Path) -> None:
    log = sessions / "2026-03-06-090000.md"
    log.write_text(log.read_text() + "- Referenced: sentry-sourcemaps-upload\n")


def quote_a_secret(sessions: Path) -> None:
    log = sessions / "2026-03-05-090000.md"
    log.write_text(log.read_text() + "\nDB_PASSWORD=hunter2hunter2x\n")


def same_size(sessions: Path) -> None:
    edit_same_size(sessions / "2026-03-04-090000.md")


def checked_out(sessions: Path) -> None:
    """git puts back a log's committed text (another file in its place). The file goes
    first: git does not see an edit that kept the size and mtime when the change time
    falls in the second its index recorded, and would leave the edited file in place."""
    (sessions / "2026-03-04-090000.md").unlink()
    git(sessions.parent.parent, "checkout", "--", "memory/sessions/2026-03-04-090000.md")


CHANGES: list[tuple[Callable[[Path], None], set[str]]] = [
    (add, {"2026-03-09-090000.md"}),
    (edit, {"2026-03-06-090000.md"}),
    (rename, {"2026-03-08-100000-moved.md"}),
    (delete, set()),
    (quote_a_secret, {"2026-03-05-090000.md"}),
    (same_size, {"2026-03-04-090000.md"}),
    (checked_out, {"2026-03-04-090000.md"}),
]


def test_cached_and_uncached_agree_after_every_change_to_the_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo"))
    memory = repo / "memory"
    # Entries are kept for logs changed just now, as for logs changed long ago: the test
    # edits within the file system's clock tick, which `RACY_NS` guards in real use.
    monkeypatch.setattr(cache, "RACY_NS", -(10**12))
    first = both(memory, monkeypatch)
    outcomes = [first]
    for change, expected in CHANGES:
        change(memory / "sessions")
        read = counting_reads(monkeypatch)
        monkeypatch.setenv("MDMEM_NO_CACHE", "1")
        uncached = outcome(memory)
        monkeypatch.delenv("MDMEM_NO_CACHE")
        read.clear()
        assert outcome(memory) == uncached, change.__name__
        # Only the new or changed logs are read, once for the review and lint together
        # (and again by lint alone only when it quotes them, never here for the others).
        assert set(read) <= expected | _quoted(uncached), change.__name__
        assert expected <= set(read), change.__name__
        monkeypatch.undo()
        monkeypatch.setattr(cache, "RACY_NS", -(10**12))
        outcomes.append(uncached)
    seen = outcomes[:-1]
    assert len({repr(item) for item in seen}) == len(seen)  # each change was seen
    assert outcomes[-1] == outcomes[-3]  # and the checkout put back what was


def _quoted(found: tuple[object, ...]) -> set[str]:
    """The logs lint reads to quote their lines (an unknown id's line)."""
    findings = found[0]
    assert isinstance(findings, tuple)
    return {item.path.rsplit("/", 1)[1] for item in findings if item.code == "W002"}


def test_a_log_changed_within_the_clock_tick_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log whose ctime is not clearly before the run began could change again with the
    same stamp: its yield is not kept, and the next run reads it."""
    memory = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"
    add(memory / "sessions")
    lint(memory)
    kept = cache.load(memory, "logs").get("files", {})
    assert "2026-03-09-090000.md" not in kept
    read = counting_reads(monkeypatch)
    lint(memory)
    assert "2026-03-09-090000.md" in read


RESTATED = (
    "- Refunds call Stripe synchronously\n"
    "  <!-- id: refunds-sync-again | created: 2026-03-03 | uses: 1 | tier: active -->\n"
)


def test_a_superseded_text_check_kept_by_digest_sees_every_document_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """W027 is kept against the digest of the documents it reads: a live fact restating a
    superseded one, and an archived text no longer near it, are seen at once."""
    memory = copy_tree(GOLDEN / "restored" / "before", tmp_path / "repo") / "memory"
    continuity, archive = memory / "continuity.md", memory / "archive" / "2026-Q1.md"
    before = both(memory, monkeypatch)
    text = continuity.read_text()
    continuity.write_text(text.replace("- Refunds go through", RESTATED + "- Refunds go through"))
    restated = both(memory, monkeypatch)
    assert any(item.code == "W027" for item in restated[0])  # type: ignore[attr-defined]
    archive.write_text(archive.read_text().replace("call Stripe", "ask Stripe"))
    reworded = both(memory, monkeypatch)
    assert all(item.code != "W027" for item in reworded[0])  # type: ignore[attr-defined]
    assert before != restated != reworded


def test_a_text_kept_by_its_bytes_is_scanned_again_only_when_they_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lint's findings of a text are kept against the digest of its bytes: a text written
    just now (as a review writes continuity.md) is kept at once, and any change to it,
    whatever its stamp, is scanned again."""
    memory = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo") / "memory"
    continuity = memory / "continuity.md"
    scanned: list[str] = []
    original = running._scan

    def counted(data: bytes, display: str) -> object:
        scanned.append(display.rsplit("/", 1)[1])
        return original(data, display)

    monkeypatch.setattr(running, "_scan", counted)
    first = both(memory, monkeypatch)
    scanned.clear()
    assert lint(memory) == first[0]
    assert "continuity.md" not in scanned  # kept, though written within the second
    continuity.write_text(continuity.read_text() + "\nDB_PASSWORD=hunter2hunter2x\n")
    secret = both(memory, monkeypatch)
    assert scanned.count("continuity.md") == 3  # by the review and lint uncached, then once
    assert any(item.code == "E009" for item in secret[0])  # type: ignore[attr-defined]


def test_the_superseded_text_check_is_kept_against_what_head_holds_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In git only a live fact new since HEAD is compared: committing the fact that restates
    a superseded one, the documents unchanged, ends the finding."""
    repo = copy_tree(GOLDEN / "restored" / "before", tmp_path / "repo")
    make_repo(repo)
    continuity = repo / "memory" / "continuity.md"
    text = continuity.read_text()
    continuity.write_text(text.replace("- Refunds go through", RESTATED + "- Refunds go through"))
    fresh = both(repo / "memory", monkeypatch)
    assert any(item.code == "W027" for item in fresh[0])  # type: ignore[attr-defined]
    git(repo, "commit", "-q", "-am", "a fact restated")
    committed = both(repo / "memory", monkeypatch)
    assert all(item.code != "W027" for item in committed[0])  # type: ignore[attr-defined]
