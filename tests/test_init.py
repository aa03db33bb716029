"""`mdmem init`: the memory laid out, the shipped documents, the usage block, and only
what is missing added: on an empty repository, beside each vendor file, twice, dry, and
over memories already kept in this format."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.adopting import init as init_module
from mdmem.adopting.init import ATTRIBUTES, IGNORED
from mdmem.adopting.skeleton import VISION_THREAD, usage_text
from mdmem.adopting.summary import NOTHING_TO_DO
from mdmem.cli import main
from mdmem.cli.main import every_command
from mdmem.format.blocks import begin, block_body, end
from mdmem.format.policy import Policy
from mdmem.format.textfile import TextFile, split_lines
from mdmem.linting.gate import review
from mdmem.linting.run import lint
from mdmem.store.load import load
from mdmem.store.resources import shipped, templates_dir
from tests.helpers import git, git_init, snapshot

NOW = dt.datetime(2026, 5, 2, 9, 30, tzinfo=dt.timezone.utc)
FIRST_LOG = "memory/sessions/2026-05-02-093000-init.md"
SKELETON = [
    ".gitattributes",
    ".gitignore",
    "AGENTS.md",
    "DECAY.md",
    "REVIEW.md",
    "memory/archive/INDEX.md",
    "memory/blocked.md",
    "memory/continuity.md",
    "memory/decay-policy.md",
    "memory/reviews.md",
    FIRST_LOG,
    "memory/vision.md",
]
REALSHAPED = Path(__file__).resolve().parent / "realshaped"


def init(root: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["init", str(root), *args])
    assert result.exit_code == 0, result.output + result.stderr
    return result.output


def init_at(root: Path, **options: object) -> init_module.InitResult:
    """The library call, at a fixed clock."""
    return init_module.init(root, now=NOW, **options)  # type: ignore[arg-type]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    return root


def state(repo: Path) -> dict[str, object]:
    """Everything init may write: the tree with mtimes, the git config, the hooks."""
    hooks = repo / ".git" / "hooks"
    return {
        "tree": snapshot(repo),
        "mtimes": {
            str(path.relative_to(repo)): path.stat().st_mtime_ns
            for path in sorted(repo.rglob("*"))
            if ".git" not in path.relative_to(repo).parts
        },
        "config": (repo / ".git" / "config").read_bytes(),
        "hooks": {path.name: path.read_bytes() for path in sorted(hooks.iterdir())},
    }


def test_an_empty_repository_gets_the_whole_layout(repo: Path) -> None:
    result = init_at(repo)
    assert sorted(snapshot(repo)) == SKELETON
    assert list(result.created) == SKELETON
    assert (result.session, result.facts, result.fresh) == (
        FIRST_LOG[16:-3],
        (VISION_THREAD,),
        True,
    )
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
    assert [session.stem for session in memory.sessions] == ["2026-05-02-093000-init"]
    assert memory.blocked == ()
    assert memory.vision is not None and memory.vision.facts == ()  # a draft: no statement yet
    (thread,) = memory.continuity.facts
    assert (thread.id, thread.section, thread.is_open_thread) == (
        VISION_THREAD,
        "Open Threads",
        True,
    )
    assert thread.get("origin") == "2026-05-02-093000-init"
    assert thread.get("created") == "2026-05-02"
    log = (repo / FIRST_LOG).read_text("utf-8")
    assert f"## Memory References\n- Created: {VISION_THREAD}\n" in log


def test_lint_passes_on_a_fresh_init_and_the_first_review_agrees(repo: Path) -> None:
    init_at(repo)
    assert lint(repo / "memory") == ()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "mdmem init")  # through the hook init installed
    _, result = review(repo / "memory")
    assert result.commit is not None
    after = (repo / "memory" / "continuity.md").read_text("utf-8")
    assert "**last_review:**" in after
    assert f"| tier: working | origin: {FIRST_LOG[16:-3]} -->" in after  # the thread kept
    assert lint(repo / "memory") == ()


def test_the_usage_block_says_how_to_use_the_memory_in_commands(repo: Path) -> None:
    init(repo)
    agents = (repo / "AGENTS.md").read_text("utf-8")
    assert agents.startswith("# Agent instructions\n\n" + begin("usage") + "\n")
    text = block_body(TextFile("AGENTS.md", split_lines(agents)), "usage")
    assert text == usage_text()
    for command in ('mdmem context "TASK"', "mdmem session start", "mdmem ref ID", "mdmem add"):
        assert command in text, command
    assert "mdmem lint" in text
    for name in ("CLAUDE.md", "GEMINI.md", ".github/copilot-instructions.md"):
        assert not (repo / name).exists()  # made only where they were


def test_every_command_the_usage_block_names_exists() -> None:
    words = usage_text().replace("`", " ").split()
    named = {words[i + 1] for i, word in enumerate(words[:-1]) if word == "mdmem"}
    assert named <= set(every_command()), named - set(every_command())
    assert len(named) >= 6


VENDOR = [
    pytest.param("AGENTS.md", "# Agents\r\n\r\nRun `make test` before pushing.", id="agents"),
    pytest.param("CLAUDE.md", "# Claude\n\n- Use pnpm, not npm\n", id="claude"),
    pytest.param("GEMINI.md", "\ufeff# Gemini\n\nBe brief.\n\n", id="gemini-bom"),
    pytest.param(".github/copilot-instructions.md", "Prefer small PRs.\n", id="copilot"),
]


@pytest.mark.parametrize(("name", "original"), VENDOR)
def test_a_vendor_file_gains_the_block_and_nothing_else_changes(
    repo: Path, name: str, original: str
) -> None:
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(original.encode("utf-8"))
    result = init_at(repo)
    assert name in result.extended and name not in result.created
    data = path.read_bytes()
    kept = original.encode("utf-8")
    newline = b"\r\n" if b"\r\n" in kept else b"\n"
    assert data.startswith(kept.rstrip(b"\r\n"))
    rest = data[len(kept.rstrip(b"\r\n")) :].lstrip(b"\r\n")
    assert rest.startswith(begin("usage").encode() + newline)
    assert data.endswith(end("usage").encode() + newline)
    assert block_body(load_text(path), "usage") == usage_text()
    before = path.read_bytes()
    assert init_at(repo).changed is False
    assert path.read_bytes() == before


def load_text(path: Path) -> TextFile:
    return TextFile(path.name, split_lines(path.read_bytes().decode("utf-8")))


def test_an_outdated_block_is_rewritten_between_its_markers_only(repo: Path) -> None:
    mine = f"# Claude\n\n{begin('usage')}\nold words\n{end('usage')}\n\nMy own rules.\n"
    (repo / "CLAUDE.md").write_text(mine, "utf-8")
    init_at(repo)
    result = init_at(repo)
    assert result.changed is False
    (repo / "CLAUDE.md").write_text(mine, "utf-8")
    result = init_at(repo)
    assert result.updated == ("CLAUDE.md",)
    text = (repo / "CLAUDE.md").read_text("utf-8")
    assert text == mine.replace("old words\n", usage_text())


def test_a_vendor_file_linked_to_agents_md_is_left_a_link(repo: Path) -> None:
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    os.symlink("../elsewhere.md", repo / "GEMINI.md")
    result = init_at(repo)
    assert (repo / "CLAUDE.md").is_symlink() and (repo / "GEMINI.md").is_symlink()
    assert "CLAUDE.md" not in result.extended
    assert [notice.split()[0] for notice in result.notices] == ["GEMINI.md"]
    assert block_body(load_text(repo / "CLAUDE.md"), "usage") == usage_text()


def test_a_second_init_changes_nothing_and_says_so(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# Claude\n", "utf-8")
    init(repo, "--ci")
    before = state(repo)
    assert init(repo, "--ci") == NOTHING_TO_DO + "\n"
    payload = json.loads(init(repo, "--ci", "--json"))
    assert payload["changed"] is False and payload["created"] == []
    assert state(repo) == before


def test_dry_run_plans_the_same_and_writes_nothing(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# Claude\n", "utf-8")
    before = state(repo)
    planned = init_at(repo, dry_run=True)
    assert state(repo) == before  # no file, no folder, no git config, no hook
    assert not (repo / "memory").exists()
    done = init_at(repo)
    assert planned.dry_run and not done.dry_run
    assert {**planned.as_dict(), "dry_run": False, "next": None} == {
        **done.as_dict(),
        "next": None,
    }
    out = CliRunner().invoke(main, ["init", str(repo), "--dry-run"]).output
    assert out == NOTHING_TO_DO + "\n"


def test_dry_run_prints_the_plan(repo: Path) -> None:
    out = init(repo, "--dry-run").splitlines()
    assert out[0] == "Dry run: nothing written. mdmem init would:"
    assert "create memory/continuity.md" in out
    assert (
        "extend" not in " ".join(out) and "install the pre-commit hook .git/hooks/pre-commit" in out
    )
    assert "set git config merge.mdmem.driver" in out
    assert out[-1].endswith("run the same command without --dry-run to do it")
    assert sorted(snapshot(repo)) == []


def test_registers_the_merge_driver_and_the_attributes(repo: Path) -> None:
    init(repo)
    attributes = (repo / ".gitattributes").read_text("utf-8").splitlines()
    assert attributes[1:] == list(ATTRIBUTES)
    assert (repo / ".gitignore").read_text("utf-8").splitlines()[1:] == list(IGNORED)
    checked = git(repo, "check-attr", "merge", "--", "memory/continuity.md", "memory/reviews.md")
    assert checked.splitlines() == [
        "memory/continuity.md: merge: mdmem",
        "memory/reviews.md: merge: union",
    ]
    archived = git(repo, "check-attr", "merge", "--", "memory/archive/2026-Q4.md")
    assert archived.strip() == "memory/archive/2026-Q4.md: merge: mdmem-archive"
    (repo / "memory" / ".mdmem.lock").write_text("1 host\n")
    (repo / "memory" / "continuity.md.mdmem-tmp").write_text("x")
    status = git(repo, "status", "--porcelain", "--untracked-files=all").splitlines()
    assert not [line for line in status if "mdmem.lock" in line or "mdmem-tmp" in line]


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
    assert payload["created"] == [
        "AGENTS.md",
        "REVIEW.md",
        "memory/archive/INDEX.md",
        "memory/blocked.md",
        "memory/reviews.md",
    ]
    assert payload["extended"] == [".gitattributes", ".gitignore"]
    assert (payload["fresh"], payload["session"], payload["facts"]) == (False, None, [])
    for relative in ("memory/continuity.md", "memory/decay-policy.md", "DECAY.md"):
        assert (repo / relative).read_text("utf-8") == mine[relative]
    assert not (repo / "memory" / "sessions" / ".gitkeep").exists()
    ignore = (repo / ".gitignore").read_bytes().decode("utf-8")
    assert ignore.startswith("*.log\r\nbuild/\r\n\r\n# mdmem:")  # their line endings kept
    assert ignore.endswith("\r\n".join(IGNORED) + "\r\n")
    attributes = (repo / ".gitattributes").read_text("utf-8").splitlines()
    assert attributes.count("memory/continuity.md merge=mdmem") == 1
    assert attributes[-2:] == list(ATTRIBUTES[1:])


@pytest.mark.parametrize("name", sorted(path.name for path in REALSHAPED.iterdir()))
def test_a_memory_kept_in_this_format_is_taken_as_it_is(tmp_path: Path, name: str) -> None:
    repo = tmp_path / name
    shutil.copytree(REALSHAPED / name, repo)
    git_init(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the memory as it was kept")
    before = snapshot(repo)
    findings = lint(repo / "memory")
    result = init_at(repo)
    after = snapshot(repo)
    assert {path: after[path] for path in before} == before  # every existing byte unchanged
    new = sorted(set(after) - set(before))
    assert new == list(result.created)
    assert not [path for path in new if path.startswith("memory/sessions/")]  # no log
    assert "memory/vision.md" not in new and result.facts == ()
    archived = (REALSHAPED / name / "memory" / "archive").is_dir()
    assert ("memory/archive/INDEX.md" in new) is not archived
    assert lint(repo / "memory") == findings  # nothing init adds changes what lint says
    assert init_at(repo).changed is False


def test_outside_git_lays_out_the_files_and_says_to_run_git_init(tmp_path: Path) -> None:
    out = init(tmp_path)
    assert "Note: project is" not in out
    assert f"Note: {tmp_path.name} is not a git repository: no pre-commit hook and no " in out
    assert "run `git init`, then `mdmem init` again." in out
    assert (tmp_path / "memory" / "continuity.md").is_file()
    git(tmp_path, "init", "-q", "-b", "main")
    payload = json.loads(init(tmp_path, "--json"))
    assert payload["created"] == [] and payload["notices"] == []
    assert payload["hook"]["action"] == "install"
    assert "merge.mdmem.driver" in payload["configured"]


def test_path_may_name_the_memory_folder_and_root_is_its_alias(repo: Path) -> None:
    init(repo)
    assert init(repo / "memory") == NOTHING_TO_DO + "\n"
    result = CliRunner().invoke(main, ["init", "--root", str(repo)])
    assert result.output == NOTHING_TO_DO + "\n"
    assert not (repo / "memory" / "memory").exists()
    other = repo / "memory"
    result = CliRunner().invoke(
        main, ["init", str(repo / "memory" / "sessions"), "--root", str(other)]
    )
    assert result.exit_code == 2
    assert "not both" in result.output


def test_default_root_is_the_top_of_the_repository(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "src").mkdir()
    monkeypatch.chdir(repo / "src")
    result = CliRunner().invoke(main, ["init"])
    assert result.exit_code == 0
    assert (repo / "memory" / "continuity.md").is_file()
    assert not (repo / "src" / "memory").exists()


def test_ci_installs_the_workflow(repo: Path) -> None:
    init(repo, "--ci")
    workflow = repo / ".github" / "workflows" / "mdmem.yml"
    assert workflow.read_bytes() == (templates_dir() / "ci" / "mdmem.yml").read_bytes()
    text = workflow.read_text("utf-8")
    assert "pull_request:" in text and "schedule:" in text and "workflow_dispatch:" in text
    assert "mdmem lint" in text and "mdmem review" in text


def test_the_output_says_what_to_do_next(repo: Path) -> None:
    out = init(repo)
    assert f"created {FIRST_LOG[:16]}" in out and "(the first session log; Created: " in out
    assert "created AGENTS.md (the usage block)\n" in out
    assert "installed the pre-commit hook .git/hooks/pre-commit\n" in out
    assert "\nNext:\n" in out
    assert f"`mdmem done {VISION_THREAD}`" in out
    assert "mdmem migrate" not in out  # the project kept no rules for its agents


def test_the_rules_a_project_kept_for_its_agents_are_named_for_migrate(repo: Path) -> None:
    """AGENTS.md, which init extends, and CLAUDE.md held rules before: the next steps name
    `migrate` for both, and only the files the project has."""
    (repo / "CLAUDE.md").write_text("# Rules\n\n- Use pytest for tests\n", "utf-8")
    (repo / "AGENTS.md").write_text("# Agents\n\n- Run the linter first\n", "utf-8")
    (repo / ".cursor" / "rules").mkdir(parents=True)
    data = json.loads(init(repo, "--json"))
    assert data["rules"] == ["CLAUDE.md", "AGENTS.md", ".cursor/rules"]
    assert (
        "import the rules CLAUDE.md AGENTS.md .cursor/rules hold as facts: `mdmem migrate "
        "CLAUDE.md AGENTS.md .cursor/rules --dry-run` shows what each becomes, then the same "
        "without --dry-run"
    ) in data["next"]


def test_one_rule_file_is_named_in_the_singular(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# Rules\n\n- Use pytest for tests\n", "utf-8")
    assert "import the rules CLAUDE.md holds as facts: `mdmem migrate CLAUDE.md" in init(repo)


def test_a_vendor_file_with_an_unpaired_marker_stops_init_before_any_write(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(f"# Claude\n\n{begin('usage')}\nmine\n", "utf-8")
    before = state(repo)
    result = CliRunner().invoke(main, ["init", str(repo)])
    assert result.exit_code == 3
    assert "CLAUDE.md:3: mdmem's 'usage' block has a begin marker without its end" in result.stderr
    assert state(repo) == before
