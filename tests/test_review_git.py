"""The review against real git repositories: one commit of exactly the memory files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from tests.helpers import copy_tree, git, make_repo, snapshot

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose memory has work for a review (a fact fades, one is reactivated)."""
    work = copy_tree(GOLDEN / "reactivation" / "before", tmp_path / "repo")
    (work / "src").mkdir()
    (work / "src" / "app.py").write_text("print('hello')\n")
    return make_repo(work)


def review(repo: Path, *args: str) -> tuple[int, str, str]:
    runner = CliRunner()
    result = runner.invoke(main, ["review", "--root", str(repo / "memory"), *args])
    return result.exit_code, result.stdout, result.stderr


def test_commit_holds_only_memory_files_and_leaves_user_staging_alone(repo: Path) -> None:
    (repo / "src" / "app.py").write_text("print('staged change')\n")
    git(repo, "add", "src/app.py")
    (repo / "notes.txt").write_text("untracked\n")
    code, out, _ = review(repo)
    assert code == 0, out
    files = git(repo, "show", "--name-only", "--format=", "HEAD").split()
    assert files == [
        "memory/archive/2026-Q1.md",
        "memory/archive/INDEX.md",
        "memory/continuity.md",
        "memory/reviews.md",
    ]
    assert git(repo, "diff", "--cached", "--name-only").split() == ["src/app.py"]
    assert "?? notes.txt" in git(repo, "status", "--porcelain")
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "2"


@pytest.mark.parametrize("uncommitted", [0, 1, 2])
def test_the_review_says_when_logs_it_counted_are_not_committed(
    repo: Path, uncommitted: int
) -> None:
    logs = sorted((repo / "memory" / "sessions").glob("*.md"))
    for log in logs[len(logs) - uncommitted :]:
        git(repo, "rm", "-q", "--cached", str(log.relative_to(repo)))
    if uncommitted:
        git(repo, "commit", "-q", "-m", "the newest logs not committed")
    code, out, _ = review(repo, "--json")
    assert code == 0, out
    notice = json.loads(out)["notice"]
    if not uncommitted:
        assert notice is None
        return
    newest = f"memory/sessions/{logs[-uncommitted].name}"
    more = " and 1 more" if uncommitted == 2 else ""
    assert notice.startswith(f"{newest}{more} counted by this review ")
    assert "commit the session logs too" in notice


def test_commit_message_names_what_changed(repo: Path) -> None:
    review(repo)
    message = git(repo, "log", "-1", "--format=%B")
    assert message.startswith("mdmem review through 2026-03-08-090000\n")
    assert "Reactivated: stripe-test-clock-cleanup" in message
    assert "stripe-test-clock-cleanup (archived → active)" in message


def test_second_review_makes_no_commit(repo: Path) -> None:
    review(repo)
    head = git(repo, "rev-parse", "HEAD")
    before = snapshot(repo)
    code, out, _ = review(repo)
    assert code == 0
    assert "Nothing new since the last review" in out
    assert git(repo, "rev-parse", "HEAD") == head
    assert snapshot(repo) == before


def test_new_session_gives_new_commit(repo: Path) -> None:
    review(repo)
    log = repo / "memory" / "sessions" / "2026-03-09-090000.md"
    log.write_text("# S\n\n## Memory References\n- Referenced: webhook-raw-body\n")
    git(repo, "add", str(log))
    git(repo, "commit", "-q", "-m", "session")
    code, _, _ = review(repo)
    assert code == 0
    assert git(repo, "log", "-1", "--format=%s").strip() == (
        "mdmem review through 2026-03-09-090000"
    )


def test_no_commit_writes_files_only(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    code, _, _ = review(repo, "--no-commit")
    assert code == 0
    assert git(repo, "rev-parse", "HEAD") == head
    assert " M memory/continuity.md" in git(repo, "status", "--porcelain")


def test_dry_run_prints_a_diff_and_writes_nothing(repo: Path) -> None:
    before = snapshot(repo)
    code, out, _ = review(repo, "--dry-run")
    assert code == 0
    assert "--- a/memory/continuity.md\n+++ b/memory/continuity.md\n" in out
    assert "+*Reactivated stripe-test-clock-cleanup → Gotchas" in out
    assert "--- /dev/null\n+++ b/memory/reviews.md\n" in out
    assert snapshot(repo) == before
    assert git(repo, "rev-list", "--count", "HEAD").strip() == "1"


def test_json_summary(repo: Path) -> None:
    code, out, _ = review(repo, "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["changed"] is True
    assert payload["summary"]["moved_in"] == ["stripe-test-clock-cleanup"]
    assert payload["summary"]["tiers"]["active"] == 2
    assert payload["commit"] == git(repo, "rev-parse", "HEAD").strip()


def test_outside_git_writes_and_says_so(tmp_path: Path) -> None:
    work = copy_tree(GOLDEN / "rule-8-faded" / "before", tmp_path / "plain")
    code, out, _ = review(work)
    assert code == 0
    assert "not a git repository: files written, not committed" in out
    assert (work / "memory" / "archive" / "2026-Q1.md").is_file()


def test_git_refusal_restores_every_file(repo: Path) -> None:
    before = snapshot(repo)
    (repo / ".git" / "index.lock").write_text("")  # another git process, as far as git knows
    code, _, err = review(repo)
    assert code == 4
    assert "git refused the review commit" in err
    (repo / ".git" / "index.lock").unlink()
    assert snapshot(repo) == before


def test_memory_in_a_subfolder_of_the_repository(tmp_path: Path) -> None:
    work = tmp_path / "mono"
    copy_tree(GOLDEN / "rule-8-faded" / "before", work / "services" / "api")
    make_repo(work)
    code, out, _ = review(work / "services" / "api")
    assert code == 0, out
    files = git(work, "show", "--name-only", "--format=", "HEAD").split()
    assert "services/api/memory/continuity.md" in files


def test_root_is_found_from_a_subfolder(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo / "src")
    result = CliRunner().invoke(main, ["review", "--dry-run"])
    assert result.exit_code == 0
    assert "Dry run: 4 files would change" in result.stdout


BAD_INPUTS = [
    pytest.param(
        "continuity.md",
        "## Key Decisions\n\n- A fact\n  <!-- id: a-fact | created: 2026-03-01\n",
        "memory/continuity.md:4: unclosed footer",
        id="unclosed-footer",
    ),
    pytest.param(
        "continuity.md",
        "## Key Decisions\n\n- A\n  <!-- id: same-id | created: 2026-03-01 -->\n"
        "- B\n  <!-- id: same-id | created: 2026-03-01 -->\n",
        "memory/continuity.md:6: duplicate id 'same-id' (first at line 4)",
        id="duplicate-id",
    ),
    pytest.param(
        "continuity.md",
        "## Key Decisions\n\n- A\n  <!-- id: a-fact | note: x --> y -->\n",
        "memory/continuity.md:4: a footer value contains '-->'",
        id="arrow-in-value",
    ),
    pytest.param(
        "continuity.md",
        "## Key Decisions\n\n- A caf\xe9\n  <!-- id: a-fact | created: 2026-03-01 -->\n",
        "memory/continuity.md:3: not valid UTF-8",
        id="not-utf8",
    ),
    pytest.param(
        "decay-policy.md",
        "# Policy\n\n- active_window: eight\n",
        "memory/decay-policy.md:3: active_window must be a whole number, not 'eight'",
        id="malformed-policy",
    ),
    pytest.param(
        "continuity.md",
        "## Key Decisions\n\n<<<<<<< HEAD\n- A\n  <!-- id: a-fact | created: 2026-03-01 -->\n"
        "=======\n>>>>>>> other\n",
        "memory/continuity.md:3: merge-conflict marker",
        id="conflict-markers",
    ),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_INPUTS)
def test_bad_input_names_file_and_line_and_changes_nothing(
    repo: Path, name: str, text: str, message: str
) -> None:
    target = repo / "memory" / name
    data = text.encode("latin-1") if "\xe9" in text else text.encode("utf-8")
    target.write_bytes(data)
    before = snapshot(repo)
    head = git(repo, "rev-parse", "HEAD")
    code, _, err = review(repo)
    assert code == 3
    assert err.startswith(f"mdmem: {message}")
    assert snapshot(repo) == before
    assert git(repo, "rev-parse", "HEAD") == head


def test_a_large_review_names_a_few_ids_and_counts_the_rest(tmp_path: Path) -> None:
    """Thousands of moved facts: the terminal shows a dozen per line, the commit 200."""
    memory = tmp_path / "memory"
    (memory / "sessions").mkdir(parents=True)
    facts = "".join(
        f"- Fact {n}\n  <!-- id: old-fact-{n:03d} | created: 2026-01-01 | last_used: 2026-01-01"
        " | uses: 1 | tier: active -->\n"
        for n in range(250)
    )
    (memory / "continuity.md").write_text("## Key Decisions\n\n" + facts)
    for day in range(1, 23):
        (memory / "sessions" / f"2026-03-{day:02d}-090000.md").write_text("# S\n")
    make_repo(tmp_path)
    code, out, _ = review(tmp_path)
    assert code == 0
    assert "old-fact-011 and 238 more" in out
    message = git(tmp_path, "log", "-1", "--format=%B")
    assert "old-fact-199 and 50 more" in message
