"""Secrets never leak: one planted value per category, in every place a memory holds text,
and every command's stdout and stderr scanned for it.

Where a planted value sits in a file the review would write (a fact, a footer field,
an archived fact), the review refuses with exit 3 and names the category and the
path:line, never the value, and writes nothing; a session log's secret is the lint's to
report. An error message that quotes user text (a footer value, a policy value) passes
through `redact`. The planted values are fake and assembled from pieces
(tests/test_secrets.py), so no scanner sees a whole key in the source.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mdmem.cli import main
from mdmem.cli.main import every_command
from tests.helpers import git, make_repo, snapshot
from tests.test_secrets import (
    ANTHROPIC,
    AWS_ACCESS,
    AWS_SECRET,
    DB_PASSWORD,
    GITHUB_CLASSIC,
    GITLAB,
    GOOGLE,
    JWT,
    OPENAI_PROJECT,
    PASSWORD,
    PEM_BODY,
    SLACK,
    STRIPE,
)

BASE = Path(__file__).resolve().parent / "corpus" / "base"
CONTINUITY = "memory/continuity.md"

# category -> (the value that must never be printed, a one-line text that holds it)
PLANTED = {
    "aws-access-key": (AWS_ACCESS, f"the deploy key {AWS_ACCESS}"),
    "aws-secret-key": (AWS_SECRET, f"aws_secret_access_key = {AWS_SECRET}"),
    "github-token": (GITHUB_CLASSIC, f"GITHUB_TOKEN={GITHUB_CLASSIC}"),
    "gitlab-token": (GITLAB, f"CI token `{GITLAB}`"),
    "slack-token": (SLACK, f"alerts go to {SLACK}"),
    "stripe-key": (STRIPE, f"live key {STRIPE}"),
    "openai-key": (OPENAI_PROJECT, f"OPENAI_API_KEY={OPENAI_PROJECT}"),
    "anthropic-key": (ANTHROPIC, f"key {ANTHROPIC}"),
    "google-api-key": (GOOGLE, f"maps: {GOOGLE}."),
    "jwt": (JWT, f"Authorization: Bearer {JWT}"),
    "private-key": (
        PEM_BODY,
        "-----BEGIN RSA " + f"PRIVATE KEY-----\\n{PEM_BODY}\\n-----END RSA PRIVATE KEY-----",
    ),
    "connection-string": (DB_PASSWORD, f"postgres://app:{DB_PASSWORD}@db.internal:5432/app"),
    "password-assignment": (PASSWORD, f'password = "{PASSWORD}"'),
}
CATEGORIES = sorted(PLANTED)

# Every command, with how it is run on a memory holding secrets. `{repo}` is the repository.
COMMANDS = {
    "review": [["review"], ["review", "--json"], ["review", "--no-commit"]],
    "review-dry-run": [["review", "--dry-run"], ["review", "--dry-run", "--json"]],
    "lint": [["lint"], ["lint", "--json"], ["lint", "--strict"]],
    "hook-pre-commit": [["hook-pre-commit"]],
    "merge-driver": [["merge-driver", "{repo}/base.md", "{repo}/ours.md", "{repo}/theirs.md"]],
    "init": [["init"]],
    "hooks": [["hooks", "install"]],
    "backfill": [["backfill", "--dry-run"], ["backfill", "--json"], ["backfill"]],
    "migrate": [["migrate", "CLAUDE.md", "--dry-run"], ["migrate", "--json", "CLAUDE.md"]],
    "session": [["session"], ["session", "--json"]],
    "ref": [["ref", "post-only-mutations"], ["ref", "--json", "--helpful", "webhook-fire-forget"]],
    "add": [
        ["add", "Payouts batch nightly", "--section", "Key Decisions"],
        ["add", "--json", "Refund webhooks carry the refund id", "--section", "Key Decisions"],
    ],
    "supersede": [
        ["supersede", "post-only-mutations", "--invalidate"],
        ["supersede", "webhook-fire-forget", "--json", "--by-text", f"Webhooks use {STRIPE}"],
        ["supersede", "webhook-fire-forget", "--by-text", "Webhooks go through the outbox"],
    ],
    "restore": [["restore", "post-only-mutations"], ["restore", "--json", "leak-jwt"]],
    "forget": [
        ["forget", "leak-stripe-key", "--reason", "leaked"],
        ["forget", "post-only-mutations", "--reason", f"pasted {STRIPE}"],
        ["forget", "post-only-mutations", "--json", "--reason", "wrong"],
    ],
    "blocked": [["blocked"], ["blocked", "--json"]],
    "core": [["core", "leak-jwt"], ["core", "--json", "webhook-fire-forget"]],
    "thread": [["thread", f"Rotate {STRIPE}"], ["thread", "--json", "Rotate the leaked keys"]],
    "done": [["done", "retry-budget-open"], ["done", "--json", "leak-jwt"]],
    "health": [
        ["stats"],
        ["stats", "--json"],
        ["trend"],
        ["trend", "--json"],
        ["report", "--json", "--html", "{repo}/../report.html"],
    ],
    "lookup": [
        ["lookup", "use old"],
        ["lookup", "--json", "use old"],
        ["lookup", "--sessions", "pasted"],
    ],
    "show": [["show", "leak-jwt"], ["show", "--json", "leak-private-key"]],
    "context": [["context", "use"], ["context", "--format", "json"]],
    "status": [["status"], ["status", "--json"]],
    "diff": [["diff"], ["diff", "--json"]],
    "agent-hooks": [
        ["agent-hooks", "session-start"],
        ["agent-hooks", "session-start", "--json"],
        ["agent-hooks", "check"],
        ["agent-hooks", "check", "--json"],
        ["agent-hooks", "install", "claude", "--dry-run", "--json"],
    ],
    "export": [["export", "--format", "agents-md"], ["export", "--format", "cursor", "--json"]],
    # The server's own answers are checked in tests/test_mcp_server.py.
    "mcp": [
        ["mcp", "install", "claude"],
        ["mcp", "install", "--json", "vscode"],
        ["mcp", "--json"],
    ],
}
GATES = ["supersede", "restore", "forget", "blocked", "core", "thread", "done"]
NOT_ABOUT_MEMORY_TEXT = {"demo": "builds its own shipped example; it reads no user memory"}


def fact(text: str, fact_id: str, extra: str = "") -> str:
    return (
        f"- {text}\n  <!-- id: {fact_id} | created: 2026-01-06 | last_used: 2026-01-06 "
        f"| uses: 1 | tier: working{extra} -->\n"
    )


def with_facts(repo: Path, facts: str) -> None:
    path = repo / CONTINUITY
    text = path.read_text("utf-8")
    path.write_text(text.replace("## Open Threads\n", facts + "\n## Open Threads\n"), "utf-8")


def slug(category: str) -> str:
    return f"leak-{category}"


# How each place plants every category (or, for an error, the one category).
def in_facts(repo: Path) -> None:
    with_facts(repo, "".join(fact(f"Use {PLANTED[c][1]}", slug(c)) for c in CATEGORIES))


def in_footer_fields(repo: Path) -> None:
    facts = (fact("A rule", slug(c), f" | note: {PLANTED[c][1]}") for c in CATEGORIES)
    with_facts(repo, "".join(facts))


def in_archive(repo: Path) -> None:
    facts = "".join(
        fact(f"Old {PLANTED[c][1]}", slug(c)).replace("tier: working", "tier: archived")
        for c in CATEGORIES
    )
    path = repo / "memory/archive/2026-Q1.md"
    path.write_text(path.read_text("utf-8") + "\n### Faded\n\n" + facts, "utf-8")


def in_session(repo: Path) -> None:
    lines = "".join(f"Pasted {PLANTED[c][1]} by mistake.\n\n" for c in CATEGORIES)
    notes = ", ".join(f"post-only-mutations ({PLANTED[c][1]})" for c in CATEGORIES[:3])
    text = f"# Session: secrets pasted\n\n{lines}## Memory References\n- Referenced: {notes}\n"
    (repo / "memory/sessions/2026-01-07-100000.md").write_text(text, "utf-8")


PLACES = {
    "fact-text": (in_facts, "refused"),
    "footer-field": (in_footer_fields, "refused"),
    "archived-fact": (in_archive, "refused"),
    # A secret in a log is a lint error, and every lint error stops the review too.
    "session-log": (in_session, "refused"),
}


Plant = Callable[[Path], None]


def in_footer_value(category: str) -> Plant:
    def plant(repo: Path) -> None:
        with_facts(repo, fact("A rule", "leak-rule").replace("2026-01-06", PLANTED[category][1], 1))

    return plant


def in_policy_value(category: str) -> Plant:
    def plant(repo: Path) -> None:
        path = repo / "memory/decay-policy.md"
        text = path.read_text("utf-8").replace(
            "working_window: 3", f"working_window: {PLANTED[category][1]}"
        )
        path.write_text(text, "utf-8")

    return plant


def build(tmp_path: Path, plant: Plant) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(BASE, repo)
    plant(repo)
    for name in ("base", "ours", "theirs"):  # versions of continuity.md for the merge driver
        shutil.copyfile(repo / CONTINUITY, repo / f"{name}.md")
    make_repo(repo)
    git(repo, "add", "-A")  # what the pre-commit hook looks at: the staged memory files
    return repo


def run_all(repo: Path, monkeypatch: pytest.MonkeyPatch, groups: list[str]) -> dict[str, Result]:
    monkeypatch.chdir(repo)
    results = {}
    for group in groups:
        for args in COMMANDS[group]:
            argv = [arg.replace("{repo}", str(repo)) for arg in args]
            result = CliRunner().invoke(main, argv)
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                argv,
                result.exception,
            )
            results[" ".join(args)] = result
    return results


def assert_no_value(results: dict[str, Result], categories: list[str]) -> None:
    for name, result in results.items():
        printed = result.stdout + result.stderr
        for category in categories:
            value = PLANTED[category][0]
            middle = value[len(value) // 3 : len(value) // 3 + 12]
            assert value not in printed and middle not in printed, (name, category, printed)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_no_command_prints_a_planted_secret(
    place: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant, verdict = PLACES[place]
    repo = build(tmp_path, plant)
    before = snapshot(repo)
    results = run_all(repo, monkeypatch, ["review-dry-run", "lint", "hook-pre-commit"])
    results.update(run_all(repo, monkeypatch, ["review"]))
    assert_no_value(results, CATEGORIES)

    lint = results["lint"]
    assert lint.exit_code == 1
    for category in CATEGORIES:
        assert f"secret material ({category})" in lint.stdout
    review = results["review"]
    if verdict == "refused":
        assert review.exit_code == 3, review.output
        assert "secret material (" in review.stderr
        assert review.stderr.startswith("mdmem: memory/")
        assert snapshot(repo) == before  # nothing written, nothing committed
    else:
        assert review.exit_code == 0, review.output


def test_refusal_names_category_and_line_of_each_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = build(tmp_path, in_facts)
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(main, ["review"])
    assert result.exit_code == 3
    text = (repo / CONTINUITY).read_text("utf-8").splitlines()
    for category in CATEGORIES:
        line = next(n for n, li in enumerate(text, 1) if f"id: {slug(category)} " in li) - 1
        assert f"memory/continuity.md:{line}: E009 secret material ({category})" in (
            result.stderr
        ), (category, result.stderr)


def test_other_commands_print_nothing_of_the_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = build(tmp_path, in_facts)
    results = run_all(
        repo, monkeypatch, ["merge-driver", "init", "hooks", "health", "export", "mcp"]
    )
    assert_no_value(results, CATEGORIES)


@pytest.mark.parametrize("place", ["fact-text", "footer-field"])
def test_the_html_report_masks_every_secret(
    place: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = build(tmp_path, PLACES[place][0])
    results = run_all(repo, monkeypatch, ["health"])
    assert all(result.exit_code == 0 for result in results.values()), results
    page = (repo.parent / "report.html").read_text("utf-8")
    for category in CATEGORIES:
        value = PLANTED[category][0]
        assert value not in page and value[len(value) // 3 :][:12] not in page, category
        assert f"secret material ({category})" in page  # lint's finding, shown in the page


@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize(
    "where",
    [
        pytest.param(in_footer_value, id="footer-value"),
        pytest.param(in_policy_value, id="policy-value"),
    ],
)
def test_an_error_quoting_a_value_masks_the_secret(
    category: str,
    where: Callable[[str], Plant],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = build(tmp_path, where(category))
    # The review and lint refuse; the reading commands leave the item out and name it,
    # on stderr and under --json's `warnings`.
    reading = ["health", "lookup", "show", "context", "status", "diff", "agent-hooks", "export"]
    results = run_all(repo, monkeypatch, ["review", "review-dry-run", "lint", *reading])
    assert_no_value(results, [category])
    review = results["review"]
    assert review.exit_code == 3
    assert f"[REDACTED:{category}]" in review.stderr


def test_backfill_refuses_a_legacy_fact_holding_a_secret_and_prints_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    legacy = "".join(f"- Use {PLANTED[c][1]}\n\n" for c in CATEGORIES)
    repo = build(tmp_path, lambda repo: with_facts(repo, legacy))
    before = snapshot(repo)
    results = run_all(repo, monkeypatch, ["backfill"])
    assert_no_value(results, CATEGORIES)
    for result in results.values():
        assert result.exit_code == 3, result.output
        assert "secret material (" in result.stderr
    assert snapshot(repo) == before


def test_migrate_refuses_every_rule_holding_a_secret_and_copies_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = "".join(f"- Use {PLANTED[c][1]}\n" for c in CATEGORIES)

    def in_claude_md(repo: Path) -> None:
        text = f"# CLAUDE.md\n\n{rules}- Keep handlers thin\n"
        (repo / "CLAUDE.md").write_text(text, encoding="utf-8")

    repo = build(tmp_path, in_claude_md)
    results = run_all(repo, monkeypatch, ["migrate"])
    assert_no_value(results, CATEGORIES)
    dry, done = (results[" ".join(args)] for args in COMMANDS["migrate"])
    for category in CATEGORIES:
        assert f": refused: secret material ({category}" in dry.stdout, category
    assert dry.exit_code == done.exit_code == 0
    written = b"".join(snapshot(repo / "memory").values())
    for category in CATEGORIES:
        value = PLANTED[category][0]
        assert (
            value.encode() not in written and value[len(value) // 3 :][:12].encode() not in written
        )
    assert b"Keep handlers thin" in written


@pytest.mark.parametrize("place", sorted(PLACES))
def test_the_reading_commands_mask_every_secret_they_show(
    place: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant, _ = PLACES[place]
    repo = build(tmp_path, plant)
    results = run_all(repo, monkeypatch, ["lookup", "show", "context", "status", "agent-hooks"])
    assert_no_value(results, CATEGORIES)
    shown = "".join(result.stdout for result in results.values())
    assert "[REDACTED:" in shown  # the text around each secret is shown, the value masked


@pytest.mark.parametrize("place", sorted(PLACES))
def test_diff_masks_every_secret_a_change_brings(
    place: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = build(tmp_path, lambda repo: None)
    plant, _ = PLACES[place]
    plant(repo)
    results = run_all(repo, monkeypatch, ["diff"])
    assert_no_value(results, CATEGORIES)
    if place == "fact-text":  # the leads of the facts added: the text shown, the value masked
        assert "[REDACTED:" in results["diff"].stdout


def test_every_command_is_covered() -> None:
    covered = {args[0] for runs in COMMANDS.values() for args in runs}
    assert set(every_command()) <= covered | set(NOT_ABOUT_MEMORY_TEXT)


def test_the_write_commands_print_nothing_of_a_log_with_secrets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The current log holds every planted secret, and a password shaped like an id in
    its Memory References: `session` shows the log's ids, `ref` and `add` write to it,
    and none prints a secret."""
    repo = build(tmp_path, in_session)
    log = "memory/sessions/2026-01-07-100000.md"
    git(repo, "rm", "-q", "--cached", log)
    git(repo, "commit", "-q", "-m", "the log in progress is not committed yet")
    with (repo / log).open("a", encoding="utf-8") as handle:
        handle.write("- Helpful: post-only-mutations (password: tr0ub4dor-and-3)\n")
    results = run_all(repo, monkeypatch, ["session", "ref", "add", *GATES])
    for group in ("ref", "add"):
        assert all(results[" ".join(args)].exit_code == 0 for args in COMMANDS[group]), results
    printed = "".join(result.stdout + result.stderr for result in results.values())
    assert "tr0ub4dor-and-3" not in printed
    assert "post-only-mutations" in results["session"].stdout
    assert_no_value(results, CATEGORIES)


def test_the_gates_print_nothing_of_the_secrets_they_meet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Facts and blocked.md entries hold every planted secret, and some commands are given
    one: each gate refuses or works without printing any."""

    def plant(repo: Path) -> None:
        in_facts(repo)
        entries = "".join(
            f"- Never {PLANTED[c][1]}\n  <!-- id: gone-{c} | blocked: 2026-01-06 | reason: "
            f"{PLANTED[c][1].replace('|', '/')} -->\n"
            for c in CATEGORIES
        )
        (repo / "memory/blocked.md").write_text(f"# Blocked\n\n## Blocked\n\n{entries}", "utf-8")

    repo = build(tmp_path, plant)
    (repo / "memory/sessions/2026-01-08-100000.md").write_text(
        "# Session: gates\n\n## Memory References\n", "utf-8"
    )
    results = run_all(repo, monkeypatch, GATES)
    assert_no_value(results, CATEGORIES)
    assert results["blocked"].exit_code == 0
    assert "[REDACTED:stripe-key]" in results["blocked"].stdout
    assert (
        "secret material (stripe-key)" in results["forget leak-stripe-key --reason leaked"].stderr
    )


def test_add_refuses_every_category_and_prints_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A secret given to `mdmem add`, in the text or the scope: refused by its category,
    never printed, nothing written."""
    repo = build(tmp_path, lambda repo: None)
    log = "memory/sessions/2026-01-07-100000.md"
    (repo / log).write_text("# Session: in progress\n\n## Memory References\n", "utf-8")
    before = snapshot(repo)
    monkeypatch.chdir(repo)
    results = {}
    for category in CATEGORIES:
        planted = PLANTED[category][1]
        for where, args in (
            ("text", [f"Use {planted}"]),
            ("scope", ["A rule", "--scope", planted]),
        ):
            result = CliRunner().invoke(main, ["add", *args, "--section", "Notes"])
            assert result.exit_code == 3, (category, result.output)
            assert f"secret material ({category})" in result.stderr, (category, result.stderr)
            results[f"{category} {where}"] = result
    assert_no_value(results, CATEGORIES)
    assert snapshot(repo) == before
