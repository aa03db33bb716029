"""`mdmem init`: the memory skeleton, the shipped documents, git attributes and config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.adopting.init import ATTRIBUTES, IGNORED
from mdmem.cli import main
from mdmem.format.policy import Policy
from mdmem.reviewing.apply import review
from mdmem.store.load import load
from mdmem.store.resources import shipped, templates_dir
from tests.helpers import git, snapshot

SKELETON = [
    ".gitattributes",
    ".gitignore",
    "DECAY.md",
    "REVIEW.md",
    "memory/continuity.md",
    "memory/decay-policy.md",
    "memory/sessions/.gitkeep",
]


def init(root: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["init", "--root", str(root), *args])
    assert result.exit_code == 0, result.output + result.stderr
    return result.output


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    return root


def test_creates_the_skeleton(repo: Path) -> None:
    out = init(repo)
    assert sorted(snapshot(repo)) == SKELETON
    assert [line.split()[1] for line in out.splitlines() if line.startswith("created")] == SKELETON
    assert (repo / "DECAY.md").read_bytes() == shipped("DECAY.md").read_bytes()
    assert (repo / "REVIEW.md").read_bytes() == shipped("REVIEW.md").read_bytes()
    memory = load(repo / "memory")
    titles = [section.title for section in memory.continuity.sections]
    assert titles == [
        "",
        "Project State",
        "Architectural Invariants",
        "Key Decisions",
        "Open Threads",
    ]
    assert memory.policy == Policy()  # the commented defaults are exactly the built-in ones
    assert memory.sessions == ()


def test_registers_the_merge_driver(repo: Path) -> None:
    init(repo)
    attributes = (repo / ".gitattributes").read_text("utf-8").splitlines()
    assert attributes[1:] == list(ATTRIBUTES)
    assert (repo / ".gitignore").read_text("utf-8").splitlines()[1:] == list(IGNORED)
    assert git(repo, "config", "--local", "merge.mdmem.driver").strip() == (
        "mdmem merge-driver %O %A %B %P"
    )
    assert git(repo, "config", "--local", "merge.mdmem.name").strip()
    checked = git(repo, "check-attr", "merge", "--", "memory/continuity.md", "memory/reviews.md")
    assert checked.splitlines() == [
        "memory/continuity.md: merge: mdmem",
        "memory/reviews.md: merge: union",
    ]
    archived = git(repo, "check-attr", "merge", "--", "memory/archive/2026-Q4.md")
    assert archived.strip() == "memory/archive/2026-Q4.md: merge: mdmem-archive"
    assert git(repo, "config", "--local", "merge.mdmem-archive.driver").strip() == (
        "mdmem merge-driver --union %O %A %B %P"
    )
    (repo / "memory" / ".mdmem.lock").write_text("1 host\n")
    (repo / "memory" / "continuity.md.mdmem-tmp").write_text("x")
    status = git(repo, "status", "--porcelain", "--untracked-files=all").splitlines()
    assert not [line for line in status if "mdmem.lock" in line or "mdmem-tmp" in line]


def test_running_twice_changes_nothing(repo: Path) -> None:
    init(repo, "--ci")
    before = snapshot(repo)
    config = (repo / ".git" / "config").read_bytes()
    out = init(repo, "--ci")
    assert out == "Already set up: nothing changed.\n"
    assert snapshot(repo) == before
    assert (repo / ".git" / "config").read_bytes() == config


def test_never_overwrites_and_extends_existing_git_files(repo: Path) -> None:
    (repo / "memory" / "sessions").mkdir(parents=True)
    mine = {
        "memory/continuity.md": "# Our memory\n\n## Key Decisions\n",
        "memory/decay-policy.md": "archive_window: 40\n",
        "DECAY.md": "our rules\n",
        ".gitignore": "*.log\r\nbuild/",
        ".gitattributes": "memory/continuity.md merge=mdmem\n",
    }
    for relative, text in mine.items():
        (repo / relative).write_bytes(text.encode("utf-8"))
    result = CliRunner().invoke(main, ["init", "--root", str(repo), "--json"])
    assert result.exit_code == 0
    payload = json.loads(result.output)
    assert payload["created"] == ["REVIEW.md"]
    assert payload["extended"] == [".gitattributes", ".gitignore"]
    for relative in ("memory/continuity.md", "memory/decay-policy.md", "DECAY.md"):
        assert (repo / relative).read_text("utf-8") == mine[relative]
    assert not (repo / "memory" / "sessions" / ".gitkeep").exists()
    ignore = (repo / ".gitignore").read_bytes().decode("utf-8")
    assert ignore.startswith("*.log\r\nbuild/\r\n\r\n# mdmem:")  # their line endings kept
    assert ignore.endswith("\r\n".join(IGNORED) + "\r\n")
    attributes = (repo / ".gitattributes").read_text("utf-8").splitlines()
    assert attributes.count("memory/continuity.md merge=mdmem") == 1
    assert attributes[-2:] == list(ATTRIBUTES[1:])


def test_ci_installs_the_workflow(repo: Path) -> None:
    init(repo, "--ci")
    workflow = repo / ".github" / "workflows" / "mdmem.yml"
    assert workflow.read_bytes() == (templates_dir() / "ci" / "mdmem.yml").read_bytes()
    text = workflow.read_text("utf-8")
    assert "pull_request:" in text and "schedule:" in text and "workflow_dispatch:" in text
    assert "mdmem lint" in text and "mdmem review" in text
    assert "peter-evans/create-pull-request" in text


def test_outside_git_sets_up_files_and_says_the_driver_is_not_registered(
    tmp_path: Path,
) -> None:
    out = init(tmp_path)
    assert "Note: not a git repository: the merge driver is not registered" in out
    assert (tmp_path / "memory" / "continuity.md").is_file()


def test_root_may_name_the_memory_folder(repo: Path) -> None:
    init(repo)
    assert init(repo / "memory") == "Already set up: nothing changed.\n"
    assert not (repo / "memory" / "memory").exists()


def test_default_root_is_the_top_of_the_repository(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "src").mkdir()
    monkeypatch.chdir(repo / "src")
    result = CliRunner().invoke(main, ["init"])
    assert result.exit_code == 0
    assert (repo / "memory" / "continuity.md").is_file()
    assert not (repo / "src" / "memory").exists()


def test_a_fresh_memory_reviews_its_first_session(repo: Path) -> None:
    init(repo)
    memory = repo / "memory"
    text = (memory / "continuity.md").read_text("utf-8")
    new = "- Mutations use POST only.\n  <!-- id: post-only-mutations | created: 2026-05-02 -->\n"
    (memory / "continuity.md").write_text(
        text.replace("## Key Decisions\n", f"## Key Decisions\n\n{new}")
    )
    log = "# S\n\n## Memory References\n- Created: post-only-mutations\n"
    (memory / "sessions" / "2026-05-02-100000.md").write_text(log)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    _, result = review(memory)
    assert result.commit is not None
    after = (memory / "continuity.md").read_text("utf-8")
    assert (
        "## Project State\n\n- **last_review:** 2026-05-02 | through 2026-05-02-100000\n" in after
    )
    assert "| tier: working | origin: 2026-05-02-100000 -->" in after
