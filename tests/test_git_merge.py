"""Git distribution with real git: branches that each ran a review merge cleanly and converge.

The merge driver (`mdmem init` registers it) merges continuity.md fact by fact,
reviews.md and the archive merge as a union, and the review after the merge
repairs what parallel reviews left behind. Its result must equal a review of the
same session logs made on one branch.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.store.load import load
from mdmem.store.resources import templates_dir
from tests.helpers import git

POLICY = "working_window: 2\nactive_window: 3\narchive_window: 5\n"


def fact(fact_id: str, text: str, last_used: str, uses: int, tier: str, **extra: str) -> str:
    fields = {"id": fact_id, "created": "2026-09-01", "last_used": last_used, "uses": str(uses)}
    fields.update(tier=tier, **extra)
    footer = " | ".join(f"{key}: {value}" for key, value in fields.items())
    return f"- {text}\n  <!-- {footer} -->\n"


BASE_FACTS = {
    "Architectural Invariants": [
        fact("money-integer-cents", "Money is an integer count of cents.", "2026-09-01", 1, "core")
    ],
    "Key Decisions": [
        fact("alpha-rule", "Refunds go through the outbox.", "2026-09-21", 2, "active"),
        fact("beta-rule", "Webhooks are signed with HMAC.", "2026-09-22", 2, "active"),
        fact("gamma-rule", "Stripe's API version is pinned.", "2026-09-23", 2, "active"),
        fact("old-rule", "Payouts batch hourly.", "2026-09-21", 1, "active"),
        fact("dusty-rule", "Use the legacy ledger table.", "2026-09-01", 1, "active"),
        fact("stale-rule", "Cache merchant settings for 60 s.", "2026-09-05", 1, "active"),
    ],
}
BASE_SESSIONS = [
    ("2026-09-21-090000", ["alpha-rule", "old-rule"]),
    ("2026-09-22-090000", ["beta-rule"]),
    ("2026-09-23-090000", ["gamma-rule", "alpha-rule"]),
]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output + result.stderr
    return result.output


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with facts and three session logs, then `mdmem init` (which takes that
    memory as it is), and one review."""
    root = tmp_path / "repo"
    memory = root / "memory"
    (memory / "sessions").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (memory / "decay-policy.md").write_text(POLICY, "utf-8")
    text = (templates_dir() / "init" / "continuity.md").read_text("utf-8")
    for section, facts in BASE_FACTS.items():
        text = text.replace(f"## {section}\n", f"## {section}\n\n" + "".join(facts))
    (memory / "continuity.md").write_text(text, "utf-8")
    for name, refs in BASE_SESSIONS:
        session(root, name, refs)
    run("init", "--root", str(root))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "memory")
    review(root)
    return root


def session(root: Path, name: str, refs: list[str], created: tuple[str, ...] = ()) -> None:
    lines = ["# Session\n", "\n", "Work.\n", "\n", "## Memory References\n"]
    if refs:
        lines.append("- Referenced: " + ", ".join(refs) + "\n")
    lines.extend(f"- Created: {fact_id} (tier: working)\n" for fact_id in created)
    (root / "memory" / "sessions" / f"{name}.md").write_text("".join(lines), "utf-8")


def add_fact(root: Path, fact_id: str, session_name: str) -> None:
    """An agent adds a fact at the end of Key Decisions, as the format says a new one is born."""
    date = session_name[:10]
    line = fact(fact_id, f"New rule {fact_id}.", date, 1, "working", origin=session_name)
    path = root / "memory" / "continuity.md"
    text = path.read_text("utf-8").replace("\n## Open Threads", line + "\n## Open Threads", 1)
    path.write_text(text.replace("\n\n" + line, "\n" + line, 1), "utf-8")


def review(root: Path) -> None:
    run("review", "--root", str(root / "memory"))


Work = list[tuple[str, list[str], tuple[str, ...]]]

BRANCH_A: Work = [
    ("2026-10-06-100000-api", ["alpha-rule", "beta-rule"], ("api-new-rule",)),
    ("2026-10-08-100000-api", ["api-new-rule"], ()),
    ("2026-10-10-100000-api", ["alpha-rule"], ()),
]
BRANCH_A_EARLIER: Work = [  # the same work, done and reviewed while it was still Q3
    ("2026-09-24-100000-api", ["alpha-rule", "beta-rule"], ("api-new-rule",)),
    ("2026-09-26-100000-api", ["api-new-rule"], ()),
    ("2026-09-28-100000-api", ["alpha-rule"], ()),
]
BRANCH_B: Work = [
    ("2026-10-07-100000-web", ["gamma-rule", "beta-rule"], ("web-new-rule",)),
    ("2026-10-09-100000-web", ["beta-rule"], ()),
    ("2026-10-11-100000-web", ["web-new-rule"], ()),
]


def work(root: Path, branch: str, sessions: Work, *, reviewed: bool = True) -> None:
    git(root, "checkout", "-q", branch)
    for name, refs, created in sessions:
        session(root, name, refs, created)
        for fact_id in created:
            add_fact(root, fact_id, name)
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"session {name}")
    if reviewed:
        review(root)


def places(root: Path) -> dict[str, list[tuple[str, str | None, str | None, str | None]]]:
    """id -> every copy as (file, tier, uses, last_used), in reading order."""
    memory = load(root / "memory")
    found: dict[str, list[tuple[str, str | None, str | None, str | None]]] = {}
    for document in (memory.continuity, *memory.archives):
        name = document.path.split("/", 1)[1]
        for item in document.facts:
            row = (name, item.get("tier"), item.get("uses"), item.get("last_used"))
            found.setdefault(item.id, []).append(row)
    return found


def converge(repo: Path, a: Work, b: Work) -> tuple[dict[str, list[tuple[str, ...]]], ...]:
    """Review on two branches, merge, review; and the same logs reviewed on one branch."""
    git(repo, "branch", "web")
    git(repo, "branch", "single")
    work(repo, "main", a)
    work(repo, "web", b)
    work(repo, "single", a, reviewed=False)
    work(repo, "single", b)
    single = places(repo)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "web")  # raises on a conflict
    assert "<<<<<<<" not in (repo / "memory" / "continuity.md").read_text("utf-8")
    review(repo)
    return places(repo), single  # type: ignore[return-value]


def test_branches_that_each_reviewed_merge_without_conflict_and_converge(repo: Path) -> None:
    merged, single = converge(repo, BRANCH_A, BRANCH_B)
    assert merged == single
    assert all(len(copies) == 1 for copies in merged.values())
    # What the branches' reviews did in parallel, and the one review after the merge:
    assert single["old-rule"] == [("archive/2026-Q4.md", "archived", "1", "2026-09-21")]
    assert single["beta-rule"] == [("continuity.md", "active", "4", "2026-10-09")]
    assert single["web-new-rule"][0][:3] == ("continuity.md", "active", "2")


def test_same_fact_archived_on_both_branches_is_kept_once(repo: Path) -> None:
    merged, single = converge(repo, BRANCH_A_EARLIER, BRANCH_B)
    # One branch archived into 2026-Q3.md, the other into 2026-Q4.md; the merge held both.
    message = git(repo, "log", "-1", "--format=%B")
    assert "One copy kept after a merge: dusty-rule, stale-rule" in message
    assert merged["dusty-rule"] == [("archive/2026-Q3.md", "archived", "1", "2026-09-01")]
    assert single["dusty-rule"] == [("archive/2026-Q4.md", "archived", "1", "2026-09-01")]
    index = (repo / "memory" / "archive" / "INDEX.md").read_text("utf-8")
    assert index.count("- dusty-rule — ") == 1
    assert "- [ ] Merge duplicate" not in (repo / "memory" / "continuity.md").read_text("utf-8")
    # The earliest quarter keeps the fact; every tier and count is what one branch gives.
    assert {i: [c[1:] for c in cs] for i, cs in merged.items()} == {
        i: [c[1:] for c in cs] for i, cs in single.items()
    }


def test_fact_archived_on_one_branch_and_used_on_the_other_ends_in_one_place(repo: Path) -> None:
    used = [(name, [*refs, "stale-rule"], new) for name, refs, new in BRANCH_B]
    merged, single = converge(repo, BRANCH_A, used)
    assert merged["stale-rule"] == [("continuity.md", "active", "3", "2026-10-11")]
    assert merged == single


def test_fact_archived_on_one_branch_and_rewritten_on_the_other_keeps_both_texts(
    repo: Path,
) -> None:
    git(repo, "branch", "web")
    work(repo, "main", BRANCH_A)  # archives stale-rule (faded)
    git(repo, "checkout", "-q", "web")
    path = repo / "memory" / "continuity.md"
    text = path.read_text("utf-8")
    path.write_text(text.replace("for 60 s.", "for 30 s (60 s broke refunds)."), "utf-8")
    used = [(name, [*refs, "stale-rule"], new) for name, refs, new in BRANCH_B]
    work(repo, "web", used)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "web")
    assert [p[0] for p in places(repo)["stale-rule"]] == ["continuity.md", "archive/2026-Q4.md"]
    review(repo)
    after = places(repo)
    assert after["stale-rule"] == [("continuity.md", "active", "3", "2026-10-11")]
    continuity = path.read_text("utf-8")
    assert "- Cache merchant settings for 30 s (60 s broke refunds).\n" in continuity
    thread = (
        "- [ ] Merge duplicate: stale-rule has two texts; the review kept the one in "
        "continuity.md and quotes the other (archive/2026-Q4.md) here: fold it in by hand\n"
        "    - Cache merchant settings for 60 s.\n"
        "  <!-- id: merge-duplicate-stale-rule | created: 2026-10-11 | "
    )
    assert thread in continuity
    assert after["merge-duplicate-stale-rule"][0][:2] == ("continuity.md", "working")


def test_second_review_after_the_repair_changes_nothing(repo: Path) -> None:
    converge(repo, BRANCH_A, BRANCH_B)
    head = git(repo, "rev-parse", "HEAD")
    review(repo)
    assert git(repo, "rev-parse", "HEAD") == head


def test_review_rows_of_both_branches_are_kept_in_ledger_order(repo: Path) -> None:
    converge(repo, BRANCH_A, BRANCH_B)
    reviews = (repo / "memory" / "reviews.md").read_text("utf-8")
    throughs = [line.split("|")[2].strip() for line in reviews.splitlines() if "| 2026-" in line]
    assert throughs == [
        "2026-09-23-090000",
        "2026-10-10-100000-api",
        "2026-10-11-100000-web",
        "2026-10-11-100000-web",
    ]
    rows = [line for line in reviews.splitlines() if "| 2026-10-11-100000-web |" in line]
    assert len(set(rows)) == 2  # the web branch's review and the one after the merge differ


def test_both_branches_rewrote_one_fact_conflict_marks_it_alone(repo: Path) -> None:
    path = repo / "memory" / "continuity.md"

    def rewrite(branch: str, text: str, new: str | None = None) -> None:
        git(repo, "checkout", "-q", "-b", branch, "main")
        body = path.read_text("utf-8").replace("Refunds go through the outbox.", text)
        path.write_text(body, "utf-8")
        if new is not None:
            add_fact(repo, new, "2026-10-06-100000-" + branch)
        git(repo, "commit", "-q", "-am", f"{branch} rewrites alpha-rule")

    rewrite("api", "Refunds go through the outbox, always.", "api-new-rule")
    rewrite("web", "Refunds go through the outbox table.")
    done = subprocess.run(["git", "merge", "--no-edit", "api"], cwd=repo, capture_output=True)
    assert done.returncode != 0
    text = path.read_text("utf-8")
    assert text.count("<<<<<<< ours\n") == 1 and text.count(">>>>>>> theirs\n") == 1
    block = text.split("<<<<<<< ours\n", 1)[1].split(">>>>>>> theirs\n", 1)[0]
    ours, theirs = block.split("=======\n")
    assert ours.startswith("- Refunds go through the outbox table.\n  <!-- id: alpha-rule")
    assert theirs.startswith("- Refunds go through the outbox, always.\n  <!-- id: alpha-rule")
    assert "api-new-rule" in text.split(">>>>>>> theirs\n", 1)[1]  # merged, outside the markers
    assert git(repo, "diff", "--name-only", "--diff-filter=U").split() == ["memory/continuity.md"]


def test_fact_archived_on_both_branches_with_different_footers_merges_into_one(
    repo: Path,
) -> None:
    """One branch superseded stale-rule, the other saw it fade: both archived it in Q4.

    Git's own union merge keeps two copies here, and where the lines align, one text
    with both footers, which no review can read; the archive driver keeps one copy
    with the footers merged.
    """
    git(repo, "branch", "web")
    git(repo, "branch", "single")
    git(repo, "checkout", "-q", "main")
    session(repo, "2026-10-05-100000-api", [], ())
    log = repo / "memory" / "sessions" / "2026-10-05-100000-api.md"
    log.write_text(log.read_text("utf-8") + "- Superseded: stale-rule (invalidated)\n", "utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "supersede")
    work(repo, "main", BRANCH_A)
    work(repo, "web", BRANCH_B)
    archived = {
        branch: git(repo, "show", f"{branch}:memory/archive/2026-Q4.md")
        for branch in ("main", "web")
    }
    assert "tier: superseded" in archived["main"] and "tier: superseded" not in archived["web"]
    git(repo, "checkout", "-q", "single")
    git(repo, "checkout", "main", "--", "memory/sessions/2026-10-05-100000-api.md")
    work(repo, "single", BRANCH_A, reviewed=False)
    work(repo, "single", BRANCH_B)
    single = places(repo)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "web")
    assert places(repo)["stale-rule"] == [("archive/2026-Q4.md", "superseded", "1", "2026-10-05")]
    review(repo)
    assert places(repo) == single
