"""A whole agent session through the write commands, then `mdmem review`: what an agent
does, in order, and the tiers and footers the review leaves (a real git repository)."""

from __future__ import annotations

import json
from pathlib import Path

from mdmem.linting.run import lint
from mdmem.store.load import load
from tests.helpers import git, where
from tests.test_corpus import footer
from tests.test_write_commands import repo as repo  # the fixture: a committed memory
from tests.test_write_commands import run, started

STEM = "2026-07-01-120000-tokens"


def ok(*args: str) -> dict[str, object]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    payload: dict[str, object] = json.loads(result.stdout)
    return payload


def test_an_agent_session_through_the_commands_then_the_review(repo: Path) -> None:
    log = started(repo, "--slug", "tokens")
    assert log.name == f"{STEM}.md"

    # New knowledge, a duplicate of old knowledge, a fact that helped, one that turned false.
    added = ok("add", "Access tokens expire after fifteen minutes", "--section", "Key Decisions")
    new_id = str(added["id"])
    assert (
        run(
            "add", "Mutations only use POST, never PUT or PATCH", "--section", "Key Decisions"
        ).exit_code
        == 0
    )
    ok("ref", "webhook-fire-forget", "--helpful")
    ok("supersede", "webhook-fire-forget", "--by-text", "Webhooks go through the outbox table")
    ok("thread", "Decide how refresh tokens rotate")
    refused = run("add", "Mock the database in the integration tests", "--section", "Testing")
    assert refused.exit_code == 3 and "mock-the-database" in refused.stderr

    references = log.read_text("utf-8").split("## Memory References\n", 1)[1]
    assert f"- Created: {new_id}" in references
    assert "- Referenced: post-only-mutations" in references  # the duplicate, cited
    assert "- Helpful: webhook-fire-forget" in references
    assert "- Superseded: webhook-fire-forget → " in references
    findings = lint(repo / "memory")  # what the commands wrote is what lint expects
    assert [f.render() for f in findings if f.is_error or log.name in f.path] == []

    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "session: tokens")
    review = run("review", "--json")
    assert review.exit_code == 0, review.output

    born = footer(repo, new_id)
    assert (born["tier"], born["uses"], born["origin"], born["created"]) == (
        "working",
        "1",
        STEM,
        "2026-07-01",
    )
    places = where(repo / "memory")
    assert places["webhook-fire-forget"] == ("archive/2026-Q3.md", "superseded")
    successor = footer(repo, "webhook-fire-forget")["superseded-by"]
    assert footer(repo, successor)["supersedes"] == "webhook-fire-forget"
    assert places[successor] == ("continuity.md", "working")
    assert footer(repo, "post-only-mutations")["last_used"] == "2026-07-01"
    assert footer(repo, "webhook-fire-forget")["helpful"] == "1"
    thread = [f for f in load(repo / "memory").continuity.facts if f.is_open_thread]
    assert [f.get("origin") for f in thread] == [STEM]
    # Only the fixture's own flaw is left: an archived fact names a successor never added.
    assert [(f.code, f.path) for f in lint(repo / "memory")] == [
        ("W005", "memory/archive/2026-Q2.md")
    ]
    again = run("review", "--json")
    assert json.loads(again.stdout)["written"] == []  # the review is idempotent
