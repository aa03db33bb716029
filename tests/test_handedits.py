"""Hand edits that lose nothing (docs/LINT.md, Hand edits): one test per row of the table,
each on a real git repository with the pre-commit hook installed, as an agent edits by hand.

The rule: what would lose a fact, or can never be mended once committed, stops the hook
while it can still be mended; what is committed is reported once; no review loses a live
fact.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.store.load import load
from tests.helpers import git, make_repo
from tests.test_lint import BASE_SESSION, CONTINUITY, SEEN, SESSION, footer, write_memory

LOG = "memory/sessions/2026-03-02-090000.md"
RULE = "Never log request bodies; they hold card numbers"
CENTS = "Payment tests pass amounts as integer cents (1999, never 19.99)"
FLOAT = "Store money as float dollars in the payments table, rounded on display"
BORN = ("created: 2026-03-02", "last_used: 2026-03-02", "uses: 1", "tier: working")


def item(text: str, fact_id: str, *fields: str) -> str:
    return f"- {text}\n" + footer(fact_id, *(fields or (*SEEN, "tier: working")))


MEMORY = (
    "# Continuity\n\n## Key Decisions\n\n"
    + item("Mutations use POST only; no PUT or PATCH", "post-only-mutations")
    + item(RULE, "never-log-bodies")
    + item(CENTS, "integer-cents", *SEEN, "tier: working", "supersedes: float-money")
    + item(FLOAT, "float-money", *SEEN, "tier: superseded", "superseded-by: integer-cents")
)
FIRST_LOG = BASE_SESSION + "- Created: never-log-bodies, integer-cents, float-money\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    work = tmp_path / "repo"
    write_memory(work, {CONTINUITY: MEMORY, SESSION: FIRST_LOG})
    make_repo(work)
    result = CliRunner().invoke(main, ["hooks", "install", "--root", str(work / "memory")])
    assert result.exit_code == 0, result.output
    return work


def commit(repo: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`git add -A` then `git commit`, the hook and all, as an agent runs them."""
    git(repo, "add", "-A")
    command = ["git", "commit", "-q", "-m", "hand edit", *extra]
    return subprocess.run(command, cwd=repo, capture_output=True, text=True)


def review(repo: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["review", "--root", str(repo / "memory")])
    return result.exit_code, result.output


def live(repo: Path) -> set[str]:
    memory = load(repo / "memory")
    return {fact.id for fact in memory.continuity.facts if not fact.is_superseded}


def log(*lines: str) -> str:
    return "# Session: payments\n\n" + "\n".join(lines) + "\n"


def edit(repo: Path, relative: str, text: str) -> None:
    path = repo / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def replace(repo: Path, relative: str, old: str, new: str) -> None:
    path = repo / relative
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


LIVE = {"post-only-mutations", "never-log-bodies", "integer-cents"}


@pytest.mark.parametrize(
    ("text", "warning", "line"),
    [
        pytest.param(
            log("## Memory References", "- Superseded: never-log-bodies -> log-bodies-redactd"),
            "W002",
            4,
            id="successor-typo",
        ),
        pytest.param(
            log("### Memory References", "- Referenced: never-log-bodies"),
            "W014",
            3,
            id="references-heading-level",
        ),
        pytest.param(
            log("## Memory References", "- Referenced: never-log-body"), "W002", 4, id="cited-typo"
        ),
        pytest.param(
            log("## Memory References", "- Refrenced: never-log-bodies"),
            "W003",
            4,
            id="unknown-key",
        ),
        pytest.param(
            log("## Memory References", "- Superseded: never-log-bodies"),
            "W017",
            4,
            id="no-successor",
        ),
    ],
)
def test_a_log_mistake_stops_the_hook_until_mended_and_is_reported_once_committed(
    repo: Path, text: str, warning: str, line: int
) -> None:
    edit(repo, LOG, text)
    refused = commit(repo)
    assert refused.returncode == 1
    assert f"{LOG}:{line}: E011 " in refused.stderr
    assert f"({warning} once committed: fix it now)" in refused.stderr
    assert review(repo)[0] == 3  # the review refuses it too, naming it
    # Forced through, it is history: a warning once, and the hook says no more of it.
    assert commit(repo, "--no-verify").returncode == 0
    lint = CliRunner().invoke(main, ["lint", "--root", str(repo / "memory")])
    assert "1 warning about committed session logs" in lint.stdout
    replace(repo, CONTINUITY, "no PUT or PATCH", "no PUT, no PATCH")
    later = commit(repo)
    assert later.returncode == 0 and LOG not in later.stderr
    code, _ = review(repo)
    assert code == 0
    expected = LIVE - {"never-log-bodies"} if warning == "W017" else LIVE
    assert live(repo) == expected


def test_a_successor_that_names_no_fact_never_archives_the_live_rule(repo: Path) -> None:
    edit(repo, LOG, log("## Memory References", "- Superseded: never-log-bodies -> log-redactd"))
    assert commit(repo, "--no-verify").returncode == 0
    code, output = review(repo)
    assert code == 0, output
    assert "never-log-bodies" in live(repo)
    archived = (repo / "memory" / "archive").glob("*.md")
    assert not any("never-log-bodies" in path.read_text("utf-8") for path in archived)


def test_a_superseded_by_typo_in_continuity_stops_the_hook_and_is_not_followed(
    repo: Path,
) -> None:
    replace(
        repo, CONTINUITY, "id: never-log-bodies | ", "id: never-log-bodies | superseded-by: x-y | "
    )
    refused = commit(repo)
    assert refused.returncode == 1 and "E011 never-log-bodies: superseded-by x-y" in refused.stderr
    assert commit(repo, "--no-verify").returncode == 0
    edit(repo, LOG, log("## Memory References", "- Referenced: post-only-mutations"))
    assert commit(repo).returncode == 0  # committed: a warning, the hook lets later work by
    assert review(repo)[0] == 0
    assert "never-log-bodies" in {fact.id for fact in load(repo / "memory").continuity.facts}


def test_a_footer_on_the_bullet_s_line_is_refused_with_the_lines_to_write(repo: Path) -> None:
    edit(repo, LOG, log("## Memory References", "- Created: retry-with-backoff"))
    added = "- Retry webhooks with backoff <!-- id: retry-with-backoff | created: 2026-03-02 -->\n"
    replace(repo, CONTINUITY, "- Mutations use", added + "- Mutations use")
    refused = commit(repo)
    assert refused.returncode == 1
    assert "E001 a footer on the bullet's own line" in refused.stderr
    assert "'  <!-- id: retry-with-backoff | created: 2026-03-02 -->'" in refused.stderr
    assert review(repo)[0] == 3
    replace(repo, CONTINUITY, "backoff <!-- id", "backoff\n  <!-- id")  # the fix the message names
    assert commit(repo).returncode == 0
    assert review(repo)[0] == 0
    assert "retry-with-backoff" in live(repo)


def test_a_fact_deleted_by_hand_stops_the_hook_naming_the_commands(repo: Path) -> None:
    replace(repo, CONTINUITY, item(RULE, "never-log-bodies"), "")
    refused = commit(repo)
    assert refused.returncode == 1
    assert "E012 fact never-log-bodies was deleted by hand" in refused.stderr
    assert "mdmem forget ID --reason WHY" in refused.stderr
    assert review(repo)[0] == 3
    git(repo, "checkout", "HEAD", "--", CONTINUITY)
    lint = CliRunner().invoke(main, ["lint", "--root", str(repo / "memory")])
    assert lint.exit_code == 0, lint.output
    assert live(repo) == LIVE


def test_a_footer_deleted_or_an_id_changed_is_named_at_the_fact_s_text(repo: Path) -> None:
    """Not "its text is lost" where the text is still there: the line it stands on, and
    what happened to it."""
    path = repo / CONTINUITY
    text = path.read_text("utf-8")
    lines = text.splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if line.startswith(f"- {RULE}"))
    path.write_text("".join(lines[: at + 1] + lines[at + 2 :]), encoding="utf-8")
    refused = commit(repo)
    assert refused.returncode == 1
    assert f"{CONTINUITY}:{at + 1}: E012 fact never-log-bodies lost its footer by hand" in (
        refused.stderr
    )
    path.write_text(text.replace("id: never-log-bodies |", "id: never-log-body |"), "utf-8")
    lint = CliRunner().invoke(main, ["lint", "--root", str(repo / "memory")])
    assert f"{CONTINUITY}:{at + 1}: E012 fact never-log-bodies is now never-log-body" in (
        lint.output
    )
    assert "text is lost" not in lint.output


def test_a_footer_typo_is_its_own_error_not_a_fact_deleted(repo: Path) -> None:
    """While an item is unread, its id may be the one a link or HEAD misses: lint names
    the typo (E001) and says nothing of a fact deleted (E012) nor of a link to none (W005)."""
    replace(repo, CONTINUITY, "id: float-money | ", "id: float-money | tier: workng | ")
    lint = CliRunner().invoke(main, ["lint", "--root", str(repo / "memory")])
    assert "E001 " in lint.output
    assert "E012" not in lint.output and "W005" not in lint.output
    assert review(repo)[0] == 3


def test_a_retired_fact_is_no_deletion(repo: Path) -> None:
    edit(repo, LOG, log("## Memory References", "- Referenced: post-only-mutations"))
    result = CliRunner().invoke(
        main,
        ["forget", "never-log-bodies", "--reason", "wrong", "--root", str(repo / "memory")],
        env={"MDMEM_SESSION": "2026-03-02-090000"},
    )
    assert result.exit_code == 0, result.output
    assert commit(repo).returncode == 0


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        pytest.param(
            ("created: 2026-03-02", "last_used: 2026-03-02", "uses: 1", "tier: core"),
            "W025",
            id="born-core",
        ),
        pytest.param(
            ("created: 2026-03-02", "last_used: 2026-03-02", "uses: 7", "tier: working"),
            "W026",
            id="typed-uses",
        ),
    ],
)
def test_core_or_uses_set_by_hand_is_flagged_for_a_person(
    repo: Path, fields: tuple[str, ...], code: str
) -> None:
    edit(repo, LOG, log("## Memory References", "- Created: retry-with-backoff"))
    new = item("Retry webhooks with backoff", "retry-with-backoff", *fields)
    replace(repo, CONTINUITY, "- Mutations use", new + "- Mutations use")
    passed = commit(repo)
    assert passed.returncode == 0  # a warning: a person decides
    assert f"{code} fact retry-with-backoff" in passed.stderr
    assert review(repo)[0] == 0
    kept = load(repo / "memory").continuity.facts
    footer_of = {fact.id: fact.footer for fact in kept}["retry-with-backoff"]
    if code == "W025":
        assert footer_of.get("tier") == "core"  # humans win: the review keeps it
    else:
        assert footer_of.get("uses") == "1"  # the review counts it from the logs


@pytest.mark.parametrize(
    ("above", "joined"),
    [
        pytest.param("- Never push to main directly\n", True, id="a-bullet"),
        pytest.param(
            "- Never push to main directly\n  and never force-push\n", True, id="two-lines"
        ),
        pytest.param("", False, id="only-reworded"),
        pytest.param("swap", False, id="two-bullets-of-one-fact-swapped"),
    ],
)
def test_a_bullet_written_above_a_fact_without_a_footer_is_named(
    repo: Path, above: str, joined: bool
) -> None:
    """The footer below closes the list above it, so a bullet put right above a fact is
    read as that fact's first line: the hook lets it through with a warning at that line."""
    if above == "swap":  # a fact of two bullets, committed, then its bullets swapped
        replace(repo, CONTINUITY, f"- {RULE}", f"- {RULE}\n- Nor response bodies")
        assert commit(repo).returncode == 0
        replace(
            repo, CONTINUITY, f"- {RULE}\n- Nor response bodies", f"- Nor response bodies\n- {RULE}"
        )
    else:
        reworded = "" if above else " (and in traces)"
        replace(repo, CONTINUITY, f"- {RULE}", f"{above}- {RULE}{reworded}")
    passed = commit(repo)
    assert passed.returncode == 0, passed.stderr
    warned = "memory/continuity.md:7: W030 fact never-log-bodies was joined from above"
    assert (warned in passed.stderr) == joined, passed.stderr


@pytest.mark.parametrize(
    "how",
    [
        pytest.param("added", id="superseded-text-added"),
        pytest.param("reworded", id="successor-reworded-into-predecessor"),
    ],
)
def test_a_superseded_fact_s_text_back_by_hand_is_reported_naming_the_successor(
    repo: Path, how: str
) -> None:
    cited = "- Created: money-as-float" if how == "added" else "- Referenced: integer-cents"
    edit(repo, LOG, log("## Memory References", cited))
    if how == "added":
        new = item(FLOAT, "money-as-float", *BORN)
        replace(repo, CONTINUITY, "- Mutations use", new + "- Mutations use")
        fact_id = "money-as-float"
    else:
        replace(repo, CONTINUITY, CENTS, FLOAT)
        fact_id = "integer-cents"
    passed = commit(repo)
    assert passed.returncode == 0
    assert f"W027 fact {fact_id} says what superseded fact float-money said" in passed.stderr
    assert "its successor is integer-cents" in passed.stderr
    assert review(repo)[0] == 0
    assert {"post-only-mutations", "never-log-bodies", fact_id} <= live(repo)


def run(repo: Path, *args: str) -> tuple[int, str]:
    """A command in the session log of the day (made when missing)."""
    if not (repo / LOG).exists():
        edit(repo, LOG, log("## Memory References", "- Referenced: post-only-mutations"))
    result = CliRunner().invoke(
        main, [*args, "--root", str(repo / "memory")], env={"MDMEM_SESSION": "2026-03-02-090000"}
    )
    return result.exit_code, result.output


def test_add_refuses_a_superseded_text_with_a_clause_dropped(repo: Path) -> None:
    code, output = run(repo, "add", "Store money as float dollars", "--section", "Key Decisions")
    assert code != 0
    assert "float-money" in output and "integer-cents" in output


def test_add_opens_a_contradiction_thread_against_what_a_fact_excludes(repo: Path) -> None:
    text = "Payment tests pass amounts as float dollars, never integer cents"
    code, output = run(repo, "add", text, "--section", "Key Decisions")
    assert code == 0, output
    continuity = (repo / CONTINUITY).read_text("utf-8")
    assert "Contradiction:" in continuity and "integer-cents" in continuity
    assert commit(repo).returncode == 0


def test_supersede_by_text_keeps_scope_and_tags_unless_given(repo: Path) -> None:
    replace(repo, CONTINUITY, "id: never-log-bodies | ", "id: never-log-bodies | ")
    replace(
        repo,
        CONTINUITY,
        "uses: 1 | tier: working -->\n- Payment",
        "uses: 1 | tier: working | scope: src/api/** | tags: logs -->\n- Payment",
    )
    text = "Log request bodies only with card numbers masked"
    assert run(repo, "supersede", "never-log-bodies", "--by-text", text)[0] == 0
    facts = {fact.id: fact for fact in load(repo / "memory").continuity.facts}
    new = next(fact for fact in facts.values() if fact.get("supersedes") == "never-log-bodies")
    assert (new.get("scope"), new.get("tags")) == ("src/api/**", "logs")
    code, _ = run(
        repo, "supersede", new.id, "--by-text", "Never log bodies at all", "--tags", "privacy"
    )
    assert code == 0
    facts = {fact.id: fact for fact in load(repo / "memory").continuity.facts}
    newest = next(fact for fact in facts.values() if fact.get("supersedes") == new.id)
    assert (newest.get("scope"), newest.get("tags")) == ("src/api/**", "privacy")
    assert commit(repo).returncode == 0


def test_forget_text_blocks_a_rule_never_in_memory(repo: Path) -> None:
    code, output = run(
        repo, "forget", "--text", "Mock the database in tests", "--reason", "hid a bug"
    )
    assert code == 0, output
    assert "Mock the database in tests" in (repo / "memory" / "blocked.md").read_text("utf-8")
    code, output = run(repo, "add", "Tests mock the database", "--section", "Key Decisions")
    assert code != 0 and "blocked" in output
    assert commit(repo).returncode == 0
    assert review(repo)[0] == 0
