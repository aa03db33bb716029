"""`mdmem diff` on real git histories: a branch that adds, supersedes, forgets, makes core
and deletes a file a fact names; a review's own commit; a merge."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.adopting import demo
from mdmem.changes.compare import reworded
from mdmem.changes.read import diff
from mdmem.changes.render import MARKER, markdown
from mdmem.cli.main import main
from mdmem.errors import MdmemError
from mdmem.format.leftout import leaving_out
from tests.helpers import GIT_ENV, git


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


def cli(repo: Path, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--root", str(repo / "memory")])
    assert result.exit_code == 0, result.output
    return result.output


def kinds_of(changes: object) -> set[tuple[str, str]]:
    return {(change.kind, change.id) for change in changes.changes}  # type: ignore[attr-defined]


@pytest.fixture
def branched(tmp_path: Path) -> Path:
    """The demo repository, reviewed, then a branch that adds a fact, supersedes one,
    forgets one, makes one core, opens a thread and deletes a file a fact names."""
    repo = demo.run(tmp_path / "paygate").repository
    git(repo, "checkout", "-q", "-b", "work")
    cli(repo, "session", "start", "--slug", "work")
    cli(
        repo,
        "add",
        "Refund webhooks are retried with exponential backoff",
        "--section",
        "Key Decisions",
    )
    cli(repo, "supersede", "node18-fetch-keepalive", "--invalidate")
    cli(repo, "forget", "openapi-from-schemas", "--reason", "the OpenAPI document is gone")
    cli(repo, "core", "stripe-api-version-pinned")
    cli(repo, "thread", "Decide the retry budget for the outbox worker")
    cli(repo, "ref", "idempotency-key-required")
    git(repo, "rm", "-q", "src/money/currencies.ts")
    git(repo, "mv", "src/db/pool.ts", "src/db/connections.ts")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "work")
    return repo


def test_a_branch_says_what_it_did_to_the_memory(branched: Path) -> None:
    with leaving_out():
        changes = diff(branched / "memory", "main", "work")
    found = kinds_of(changes)
    added = [c for c in changes.changes if c.kind == "added"]
    assert [c.section for c in added] == ["Key Decisions"]
    assert "exponential backoff" in added[0].lead
    assert ("invalidated", "node18-fetch-keepalive") in found
    assert ("forgotten", "openapi-from-schemas") in found
    forgotten = next(c for c in changes.changes if c.kind == "forgotten")
    assert forgotten.detail == "the OpenAPI document is gone"
    assert ("made core", "stripe-api-version-pinned") in found
    assert any(kind == "thread opened" for kind, _ in found)
    [session] = changes.sessions
    assert "idempotency-key-required" in session.cited
    assert {(p.id, p.path, p.renamed_to) for p in changes.paths} == {
        ("currency-exponent-table", "src/money/currencies.ts", None),
        ("pg-bigint-as-string", "src/db/pool.ts", "src/db/connections.ts"),
    }
    new = {(f.code, f.message.split(" ")[0]) for f in changes.findings}
    assert ("W028", "currency-exponent-table") in new and ("W028", "pg-bigint-as-string") in new
    assert not changes.reviewed


def test_the_markdown_flags_what_a_person_must_approve(branched: Path) -> None:
    text = cli(branched, "diff", "main", "work")
    assert text.startswith(MARKER)
    approve = text.split("**A person must approve:**", 1)[1].split("**", 1)[0]
    assert "`stripe-api-version-pinned` made core" in approve
    assert "reason: the OpenAPI document is gone" in text
    assert (
        "`pg-bigint-as-string` names `src/db/pool.ts`, renamed to `src/db/connections.ts`" in text
    )


def test_json_lists_every_change_and_the_default_base_is_the_merge_base(branched: Path) -> None:
    (branched / "memory" / "continuity.md").write_text(
        (branched / "memory" / "continuity.md")
        .read_text("utf-8")
        .replace("Refund webhooks are retried", "Refund webhooks are always retried"),
        "utf-8",
    )
    answer = json.loads(cli(branched, "diff", "--json"))
    assert answer["head"] == "working tree"
    assert answer["base"] == git(branched, "rev-parse", "main").strip()[:12]
    kinds = {change["kind"] for change in answer["changes"]}
    assert {"added", "forgotten", "made core", "thread opened"} <= kinds
    assert "warnings" not in answer


def test_rewording_names_the_words(tmp_path: Path) -> None:
    assert reworded("Use POST only for mutations", "Use POST or PUT for mutations") == (
        '"only" → "or PUT"'
    )
    assert reworded("a b c", "a b c d") == '+"d"'
    assert reworded("a b c", "a c") == '-"b"'
    assert reworded("a  b", "a b") == "spacing only"


def test_a_review_commit_shows_its_tier_moves(tmp_path: Path) -> None:
    repo = demo.run(tmp_path / "paygate").repository
    with leaving_out():
        changes = diff(repo / "memory", "HEAD~1", "HEAD")
    assert changes.reviewed
    found = kinds_of(changes)
    assert ("archived", "idempotency-ttl-index") in found
    assert ("reactivated", "stripe-test-clock-cleanup") in found
    assert ("tier", "refunds-async-queue") in found
    assert ("superseded", "refunds-sync-call") in found
    assert not changes.sessions and not changes.findings
    assert changes.findings_fixed > 0  # the stale footers the review wrote
    assert "**Tier moves (a review's)** (10)" in markdown(changes)


def test_a_merge_brings_the_other_branchs_facts(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    git(repo, "checkout", "-q", "-b", "left")
    cli(repo, "session", "start", "--slug", "left")
    cli(repo, "add", "Payout reports are generated nightly at two", "--section", "Key Decisions")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "left")
    git(repo, "checkout", "-q", "main")
    cli(repo, "session", "start", "--slug", "right")
    cli(repo, "core", "stripe-api-version-pinned")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "right")
    git(repo, "merge", "-q", "--no-edit", "left")
    with leaving_out():
        merged = diff(repo / "memory", "HEAD^1", "HEAD")
        both = diff(repo / "memory", "HEAD~2", "HEAD")
    assert {kind for kind, _ in kinds_of(merged)} == {"added"}
    assert [s.stem.rsplit("-", 1)[1] for s in merged.sessions] == ["left"]
    assert ("made core", "stripe-api-version-pinned") in kinds_of(both)
    assert sorted(s.stem.rsplit("-", 1)[1] for s in both.sessions) == ["left", "right"]


def test_no_change_and_an_unknown_revision(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    assert "No change to the memory." in cli(repo, "diff", "HEAD", "HEAD")
    result = CliRunner().invoke(main, ["diff", "--root", str(repo / "memory"), "no-such-rev"])
    assert result.exit_code == 3
    assert "no-such-rev" in result.output


def test_outside_git_it_refuses(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "continuity.md").write_text("# Continuity\n", "utf-8")
    with pytest.raises(MdmemError, match="not in a git repository"):
        diff(memory)


def test_an_unreadable_item_is_left_out_and_named(branched: Path) -> None:
    continuity = branched / "memory" / "continuity.md"
    text = continuity.read_text("utf-8")
    continuity.write_text(text.replace("| tier: core", "| tier: core | bad field", 1), "utf-8")
    result = CliRunner().invoke(main, ["diff", "--root", str(branched / "memory"), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["warnings"] and answer["warnings"][0]["path"].endswith("continuity.md")


def test_the_help_has_an_example() -> None:
    result = CliRunner().invoke(main, ["diff", "--help"])
    assert "Example: mdmem diff" in result.output


def test_untracked_logs_are_new_sessions(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    cli(repo, "session", "start", "--slug", "fresh")
    cli(repo, "ref", "idempotency-key-required")
    with leaving_out():
        changes = diff(repo / "memory")
    assert [s.stem.rsplit("-", 1)[1] for s in changes.sessions] == ["fresh"]
    assert os.listdir(repo / "memory" / "sessions")


def test_a_supersession_only_logged_is_reported_for_the_next_review(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    cli(repo, "session", "start", "--slug", "logged")
    [log] = [p for p in (repo / "memory" / "sessions").iterdir() if p.stem.endswith("-logged")]
    text = log.read_text("utf-8")
    heading = "## Memory References\n"
    event = "- Superseded: migrations-forward-only (invalidated)\n"
    log.write_text(text.replace(heading, heading + event, 1), "utf-8")
    with leaving_out():
        changes = diff(repo / "memory")
    [change] = [c for c in changes.changes if c.id == "migrations-forward-only"]
    assert change.kind == "invalidated" and "the next review writes it" in change.detail
    assert changes.sessions[0].events == ("Superseded: migrations-forward-only",)


def test_a_fact_deleted_by_hand_is_flagged_as_removed(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    continuity = repo / "memory" / "continuity.md"
    lines = continuity.read_text("utf-8").splitlines(keepends=True)
    footer = next(n for n, line in enumerate(lines) if "id: migrations-forward-only" in line)
    start = max(n for n in range(footer) if lines[n].startswith("- "))
    continuity.write_text("".join(lines[:start] + lines[footer + 1 :]), "utf-8")
    with leaving_out():
        changes = diff(repo / "memory")
    [change] = changes.changes
    assert (change.kind, change.id, change.flagged) == (
        "removed",
        "migrations-forward-only",
        True,
    )
    assert "⚠️ `migrations-forward-only` removed" in markdown(changes)


def test_a_committed_log_rewritten_or_deleted_is_for_a_person_to_approve(tmp_path: Path) -> None:
    """The ledger is immutable: a change that edits a committed log (pushed past the hook,
    from a clone without it) or deletes one is flagged, not passed as no change."""
    repo = demo.build(tmp_path / "paygate")
    logs = sorted((repo / "memory" / "sessions").glob("*.md"))
    edited, deleted = logs[0], logs[1]
    edited.write_text(edited.read_text("utf-8") + "\nA note added later.\n", "utf-8")
    deleted.unlink()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "rewrite the ledger")
    changes = diff(repo / "memory", "HEAD~1", "HEAD")
    assert (changes.sessions_rewritten, changes.sessions_removed) == (
        (edited.stem,),
        (deleted.stem,),
    )
    shown = markdown(changes)
    approve = shown.split("**A person must approve:**", 1)[1].split("\n\n", 2)[1]
    assert approve.splitlines() == [
        f"- ⚠️ session log `{edited.stem}` rewritten: a committed log is the ledger and is never "
        "edited, but to redact a secret (restore it from the base unless that is the edit)",
        f"- ⚠️ session log `{deleted.stem}` removed: the ledger loses every citation it made",
    ]
    data = json.loads(cli(repo, "diff", "HEAD~1", "HEAD", "--json"))
    assert (data["sessions_rewritten"], data["sessions_removed"]) == ([edited.stem], [deleted.stem])


def test_a_folder_the_change_emptied_is_named_as_deleted(tmp_path: Path) -> None:
    """A fact that names a folder (`src/db/`): one file of it renamed within it leaves it;
    the folder renamed whole is renamed; every file deleted deletes it."""
    repo = demo.build(tmp_path / "paygate")
    cli(repo, "session", "start", "--slug", "db")
    cli(repo, "add", "Queries go through `src/db/` and nothing else", "--section", "Key Decisions")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a fact naming a folder")
    git(repo, "mv", "src/db/pool.ts", "src/db/connections.ts")
    git(repo, "commit", "-q", "-m", "renamed within")
    assert "src/db" not in {path.path for path in diff(repo / "memory", "HEAD~1", "HEAD").paths}
    git(repo, "mv", "src/db", "src/store")
    git(repo, "commit", "-q", "-m", "the folder renamed")
    named = [(p.id, p.path, p.renamed_to) for p in diff(repo / "memory", "HEAD~1", "HEAD").paths]
    assert named == [("queries-go-src-db-nothing", "src/db", "src/store")]
    git(repo, "rm", "-q", "-r", "src/store")
    git(repo, "commit", "-q", "-m", "no more db folder")
    named = [(p.id, p.path, p.renamed_to) for p in diff(repo / "memory", "HEAD~3", "HEAD").paths]
    assert ("queries-go-src-db-nothing", "src/db", None) in named, named


NOTHING_YET = "nothing to compare yet: HEAD names no commit; commit the memory first"


@pytest.mark.parametrize(
    "revisions",
    [(), ("HEAD",), ("main",), ("main", "HEAD")],
    ids=["default", "HEAD", "main", "two"],
)
def test_a_repository_with_no_commit_says_there_is_nothing_to_compare(
    tmp_path: Path, revisions: tuple[str, ...]
) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "continuity.md").write_text("# Continuity\n", "utf-8")
    git(tmp_path, "init", "-q", "-b", "main")
    result = CliRunner().invoke(main, ["diff", *revisions, "--root", str(memory)])
    assert result.exit_code == 3, result.output
    assert NOTHING_YET in result.stderr and "git knows no commit" not in result.stderr


def test_an_orphan_branch_compares_with_a_named_commit(tmp_path: Path) -> None:
    repo = demo.build(tmp_path / "paygate")
    git(repo, "checkout", "-q", "--orphan", "fresh")
    with leaving_out():
        changes = diff(repo / "memory", "main")
    assert changes.empty
    result = CliRunner().invoke(main, ["diff", "--root", str(repo / "memory")])
    assert result.exit_code == 3 and NOTHING_YET in result.stderr
