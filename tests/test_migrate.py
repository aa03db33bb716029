"""`mdmem migrate`: the readers (table-driven), and the command on real projects: a second
run, a dry run, bad input, secrets, and the review that follows. The formats' golden
files are in tests/test_migrate_golden.py."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path, PurePosixPath

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.errors import MdmemError, ParseError
from mdmem.migrating.cass import read_blocked_log, read_playbook
from mdmem.migrating.markdown import placed, read_markdown
from mdmem.migrating.metadata import read_header
from mdmem.migrating.migrate import migrate
from mdmem.migrating.sources import kind_of
from tests.helpers import git_init, snapshot
from tests.test_migrate_golden import BASE_MEMORY, STAMP, project
from tests.test_secrets import AWS_ACCESS, DB_PASSWORD

# -- reading markdown -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "- parent\n  - child\n    - grandchild\n- next\n",
            [(1, ("parent", "- child", "  - grandchild")), (4, ("next",))],
            id="nested_bullets_stay_in_their_parent",
        ),
        pytest.param(
            "- a rule that\nwraps lazily\n\nprose after it\n",
            [(1, ("a rule that", "wraps lazily"))],
            id="lazy_continuation_then_prose",
        ),
        pytest.param(
            "```\n- not a rule\n```\n- a rule\n",
            [(4, ("a rule",))],
            id="code_block_is_not_read",
        ),
        pytest.param(
            "<!--\n- commented out\n-->\n- kept\n",
            [(4, ("kept",))],
            id="html_comment_is_not_read",
        ),
        pytest.param(
            "- mine\n<!-- mdmem:begin usage -->\n1. **Start**: mdmem session start\n"
            "<!-- mdmem:end usage -->\n<!-- mdmem:begin export -->\n- core [id]\n"
            "<!-- mdmem:end export -->\n- also mine\n",
            [(1, ("mine",)), (8, ("also mine",))],
            id="mdmem_own_blocks_are_not_read",
        ),
        pytest.param(
            "- [x] done\n- [ ] open\n- \n",
            [(2, ("open",))],
            id="done_task_and_empty_item_left_out",
        ),
        pytest.param(
            "* * *\n> - quoted\n| - | table |\n1. first\n2) second\n",
            [(4, ("first",)), (5, ("second",))],
            id="break_quote_and_table_are_not_rules",
        ),
        pytest.param(
            "- build:\n\n  ```sh\n  make\n  ```\n",
            [(1, ("build:", "", "```sh", "make", "```"))],
            id="code_inside_an_item_is_its_text",
        ),
        pytest.param(
            "-   wide\n    continued\n  - sibling\n",
            [(1, ("wide", "continued")), (3, ("sibling",))],
            id="content_column_after_a_wide_marker",
        ),
    ],
)
def test_markdown_rules(text: str, expected: list[tuple[int, tuple[str, ...]]]) -> None:
    rules = read_markdown(text.split("\n"), 1, "CLAUDE.md")
    assert [(rule.line, rule.lines) for rule in rules] == expected


def test_headings_place_rules_and_tasks_are_threads() -> None:
    text = "# T\n## Build\n- a\n### Don'ts\n- b\n\nSetext\n======\n- c\n- [ ] d\n"
    rules = read_markdown(text.split("\n"), 10, "X")
    assert [(r.line, r.section, r.anti_pattern, r.thread) for r in rules] == [
        (12, "Commands", False, False),
        (14, "Pitfalls", True, False),
        (18, "Conventions", False, False),
        (19, "Open Threads", False, True),
    ]


@pytest.mark.parametrize(
    ("headings", "expected"),
    [
        pytest.param([], ("Conventions", False), id="no_heading"),
        pytest.param(["Things to avoid"], ("Pitfalls", True), id="avoid"),
        pytest.param(["Do NOT"], ("Pitfalls", True), id="do_not"),
        pytest.param(["Don'ts"], ("Pitfalls", True), id="donts"),
        pytest.param(["Don't"], ("Pitfalls", True), id="dont"),
        pytest.param(["Anti-patterns"], ("Pitfalls", True), id="anti_patterns"),
        pytest.param(["Common mistakes"], ("Pitfalls", True), id="mistakes"),
        pytest.param(["Never"], ("Pitfalls", True), id="never_alone"),
        pytest.param(["Never do"], ("Pitfalls", True), id="never_do"),
        pytest.param(["Things not to forget, and to avoid"], ("Pitfalls", True), id="both"),
        pytest.param(["Don't forget"], ("Conventions", False), id="dont_forget"),
        pytest.param(["Never skip"], ("Conventions", False), id="never_skip"),
        pytest.param(["Do not miss"], ("Conventions", False), id="do_not_miss"),
        pytest.param(["Never forget"], ("Conventions", False), id="never_forget"),
        pytest.param(["Don't overlook"], ("Conventions", False), id="dont_overlook"),
        pytest.param(["Never neglect"], ("Conventions", False), id="never_neglect"),
        pytest.param(["Never skip the build"], ("Commands", False), id="reminder_other_words"),
        pytest.param(["Build", "Don't forget"], ("Commands", False), id="reminder_then_outer"),
        pytest.param(["Build & Test commands"], ("Commands", False), id="commands"),
        pytest.param(["Tech stack"], ("Key Decisions", False), id="stack"),
        pytest.param(["Known issues"], ("Gotchas", False), id="gotchas"),
        pytest.param(["Don'ts", "Build"], ("Commands", False), id="innermost_decides"),
        pytest.param(
            ["Architecture", "Naming"], ("Key Decisions", False), id="outer_when_inner_says_nothing"
        ),
    ],
)
def test_sections_from_headings(headings: list[str], expected: tuple[str, bool]) -> None:
    assert placed(headings) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("## Don'ts\n- Editing files by hand\n", ("Pitfalls", True), id="practice"),
        pytest.param(
            "## Don'ts\n- Tests with no assertions\n",
            ("Pitfalls", True),
            id="practice_holding_a_negator",
        ),
        pytest.param(
            "## Don'ts\n- Endpoints that never validate input\n",
            ("Pitfalls", True),
            id="practice_with_a_negated_clause",
        ),
        pytest.param(
            "## Don'ts\n- Don't use print for logging; use the logging module\n",
            ("Conventions", False),
            id="dont_rule",
        ),
        pytest.param("## Don'ts\n- Never commit .env files\n", ("Conventions", False), id="never"),
        pytest.param("## Avoid\n- No default exports\n", ("Conventions", False), id="no"),
        pytest.param(
            "## Never\n- Do not call the database from views\n",
            ("Conventions", False),
            id="do_not",
        ),
        pytest.param(
            "## Build\n### Don'ts\n- Never skip the type check\n",
            ("Commands", False),
            id="next_heading_out",
        ),
        pytest.param(
            "## Build don'ts\n- Never run two builds at once\n",
            ("Commands", False),
            id="heading_other_words",
        ),
        pytest.param(
            "## Don'ts\n- Mocking the database\n  - it does not catch a broken migration\n",
            ("Pitfalls", True),
            id="nested_note_is_not_the_rule",
        ),
        pytest.param(
            "## Git\n- Never commit .env files\n", ("Conventions", False), id="not_a_pitfall"
        ),
    ],
)
def test_a_prohibition_under_a_prohibition_heading_is_a_rule(
    text: str, expected: tuple[str, bool]
) -> None:
    """A rule that says "don't" is a rule: as a pitfall it would read "do not: never..."."""
    [rule] = read_markdown(text.split("\n"), 1, "CLAUDE.md")
    assert (rule.section, rule.anti_pattern) == expected


# -- frontmatter, playbooks, kinds --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        pytest.param(
            "---\nglobs: **/*.ts, src/**\nalwaysApply: true\n---\n- x\n",
            "cursor",
            (4, "**/*.ts,src/**", "alwaysApply: true"),
            id="cursor_unquoted_globs",
        ),
        pytest.param(
            "---\nglobs: ['a/**', 'b/**']\nalwaysApply: false\n---\n- x\n",
            "cursor",
            (4, "a/**,b/**", None),
            id="cursor_glob_list",
        ),
        pytest.param(
            '---\napplyTo: "**"\n---\n- x\n',
            "copilot",
            (3, None, None),
            id="every_file_is_no_scope",
        ),
        pytest.param(
            "---\ntrigger: model_decision\ndescription: when\n---\n- x\n",
            "windsurf",
            (4, None, None),
            id="windsurf_model_decision",
        ),
        pytest.param("- no frontmatter\n", "cursor", (0, None, None), id="none"),
    ],
)
def test_frontmatter(text: str, kind: str, expected: tuple[int, str | None, str | None]) -> None:
    header = read_header(text, kind, "r.mdc")
    assert (header.body, header.scope, header.core_reason) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "---\nglobs: x\nalwaysApply: [a\n---\n",
            "r.mdc:4: frontmatter is not valid YAML",
            id="yaml",
        ),
        pytest.param(
            "---\nglobs: x\n", "r.mdc:1: frontmatter opened here is never closed", id="unclosed"
        ),
        pytest.param(
            "---\nalwaysApply: maybe\n---\n",
            "r.mdc:2: alwaysApply: must be true or false",
            id="flag",
        ),
        pytest.param(
            "---\nglobs: a|b\n---\n", "r.mdc:2: globs: a glob must not hold '|'", id="pipe"
        ),
        pytest.param("---\nglobs: {a: 1}\n---\n", "r.mdc:2: globs: must be a glob", id="mapping"),
    ],
)
def test_bad_frontmatter_names_file_and_line(text: str, message: str) -> None:
    with pytest.raises(ParseError) as raised:
        read_header(text, "cursor", "r.mdc")
    assert str(raised.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("bullets:\n  - content: [x\n", "p.yaml:3: not valid YAML", id="yaml"),
        pytest.param(
            "bullets:\n  - id: b-1\n    category: x\n", "p.yaml:2: a bullet needs", id="content"
        ),
        pytest.param("bullets: 3\n", "p.yaml:1: `bullets` must be a list", id="not_a_list"),
        pytest.param(
            "bullets:\n  - content: x\n    helpfulCount: many\n",
            "p.yaml:2: `helpfulCount` must be a whole number",
            id="count",
        ),
        pytest.param("- a\n- b\n", "p.yaml:1: a playbook is a YAML mapping", id="list"),
        pytest.param(
            "bullets:\n  - id: b-1\n    content: x\n    tags: retries\n",
            "p.yaml:3: `tags` must be a list of strings",
            id="tags_string",
        ),
        pytest.param(
            "bullets:\n  - id: b-1\n    content: x\n    tags: 5\n",
            "p.yaml:3: `tags` must be a list of strings",
            id="tags_number",
        ),
        pytest.param(
            "bullets:\n  - id: b-1\n    content: x\n    tags: [ok, 5]\n",
            "p.yaml:3: `tags` must be a list of strings",
            id="tags_item",
        ),
        pytest.param(
            "bullets:\n  - id: b-1\n    content: x\n    feedbackEvents: 3\n",
            "p.yaml:3: `feedbackEvents` must be a list of mappings",
            id="events_number",
        ),
        pytest.param(
            "bullets:\n  - id: b-1\n    content: x\n    feedbackEvents: [helpful]\n",
            "p.yaml:3: `feedbackEvents` must be a list of mappings",
            id="events_item",
        ),
        pytest.param(
            "bullets:\n  - id: b-1\n    content: x\n    harmfulEvents: {type: harmful}\n",
            "p.yaml:3: `harmfulEvents` must be a list of mappings",
            id="events_map",
        ),
    ],
)
def test_bad_playbook_names_file_and_line(text: str, message: str) -> None:
    with pytest.raises(ParseError) as raised:
        read_playbook(text, "p.yaml")
    assert str(raised.value).startswith(message)


def test_blocked_log_reads_json_lines_and_refuses_a_bad_one() -> None:
    good = (
        '{"id":"b-1","content":"Use sudo","reason":"a | b","forgottenAt":"2026-01-02T03:04:05Z"}\n'
    )
    [entry] = read_blocked_log("\n" + good, "blocked.log")
    assert (entry.line, entry.text, entry.reason, entry.date) == (
        2,
        "Use sudo",
        "a / b",
        "2026-01-02",
    )
    with pytest.raises(ParseError, match=r"^blocked.log:2: not a JSON object"):
        read_blocked_log(good + "{oops\n", "blocked.log")


@pytest.mark.parametrize(
    ("path", "reader"),
    [
        ("/p/CLAUDE.md", "markdown"),
        ("/p/sub/agents.md", "markdown"),
        ("/p/.github/copilot-instructions.md", "markdown"),
        ("/p/.cursor/rules/api.mdc", "cursor"),
        ("/p/.github/instructions/ts.instructions.md", "copilot"),
        ("/p/.windsurf/rules/ts.md", "windsurf"),
        ("/p/.cass/playbook.yaml", "cass-playbook"),
        ("/p/.cass/blocked.log", "cass-blocked"),
        ("/p/README.md", None),
        ("/p/docker-compose.yml", None),
    ],
)
def test_kinds(path: str, reader: str | None) -> None:
    kind = kind_of(PurePosixPath(path))
    assert (kind.reader if kind else None) == reader


# -- the command ----------------------------------------------------------------------------


def run(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["migrate", "--root", str(root / "memory"), *args])
    return result.exit_code, result.output


@pytest.fixture
def realistic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = git_init(project("claude-md-realistic", tmp_path / "project"))
    monkeypatch.chdir(root)
    return root


def test_second_run_imports_nothing_and_says_so(realistic: Path) -> None:
    code, first = run(realistic, "CLAUDE.md")
    assert code == 0 and "18 imported" in first
    after_first = snapshot(realistic)
    code, second = run(realistic, "CLAUDE.md")
    assert code == 0
    assert second.splitlines()[-1] == (
        "Nothing new to import: all 18 rules are in memory already; nothing written."
    )
    assert snapshot(realistic) == after_first


def _archive_first_fact(root: Path) -> tuple[str, str]:
    """Migrate CLAUDE.md, then move its first fact to the archive as a review fades one:
    (its id, its text)."""
    run(root, "CLAUDE.md")
    continuity = root / "memory" / "continuity.md"
    lines = continuity.read_text("utf-8").splitlines(keepends=True)
    first = next(
        i for i, line in enumerate(lines) if line.startswith("- ") and "<!--" in lines[i + 1]
    )
    item, footer = lines[first], lines[first + 1].replace("tier: working", "tier: archived")
    continuity.write_text("".join(lines[:first] + lines[first + 2 :]), "utf-8")
    archive = root / "memory" / "archive" / "2026-Q3.md"
    archive.parent.mkdir(exist_ok=True)
    archive.write_text(
        "# Archive 2026-Q3\n\n## Archived 2026-07-02 (review through 2026-07-02-090000)\n\n"
        f"### Faded\n\n{item}{footer.replace(' -->', ' | section: Conventions -->')}",
        "utf-8",
    )
    return footer.split("id: ", 1)[1].split(" ", 1)[0], item[2:].strip()


def test_a_rule_whose_fact_faded_into_the_archive_is_not_imported_again(realistic: Path) -> None:
    """A second run after the review archived one of the first run's facts: no `-2` copy,
    and the outcome says how the archived fact comes back."""
    fact_id, _ = _archive_first_fact(realistic)
    code, second = run(realistic, "CLAUDE.md", "--dry-run")
    assert code == 0 and f"{fact_id}-2" not in second
    assert (
        f"folded into {fact_id}: archived (memory/archive/2026-Q3.md:7): faded, not false: a "
        f"session that cites it (`mdmem ref --reactivated {fact_id}`) brings it back at the "
        "next review"
    ) in second
    assert second.splitlines()[-1] == (
        "Nothing new to import: all 18 rules are in memory already (1 of them archived: a "
        "session that cites one brings it back); nothing written."
    )


def test_a_rule_that_says_more_than_an_archived_fact_is_a_fact_of_its_own(
    realistic: Path,
) -> None:
    """As beside a live fact: folding it into the archived one would lose its clause."""
    fact_id, text = _archive_first_fact(realistic)
    more = f"{text.rstrip('.')}, and say so in the pull request's description"
    (realistic / "AGENTS.md").write_text(f"# Agents\n\n- {more}\n", "utf-8")
    code, output = run(realistic, "AGENTS.md", "--dry-run")
    assert code == 0 and "AGENTS.md:3: imported as " in output, output
    assert f"folded into {fact_id}" not in output


def test_dry_run_writes_nothing(realistic: Path) -> None:
    before = snapshot(realistic)
    code, output = run(realistic, "CLAUDE.md", "--dry-run")
    assert code == 0 and "Dry run: 18 imported" in output and "nothing written" in output
    assert snapshot(realistic) == before


def test_json_output(realistic: Path) -> None:
    code, output = run(realistic, "CLAUDE.md", "--json", "--dry-run")
    shown = json.loads(output)
    assert code == 0 and shown["dry_run"] is True
    assert shown["writes"] == ["memory/continuity.md", shown["log"]]
    assert shown["sources"] == [{"kind": "Claude Code memory", "path": "CLAUDE.md"}]
    first = shown["rules"][0]
    assert first == {
        "source": "CLAUDE.md",
        "line": 16,
        "outcome": "imported",
        "id": "use-pnpm-everything-never-npm",
        "section": "Commands",
        "detail": "",
    }
    assert not (realistic / shown["log"]).exists()


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        pytest.param(
            ".cursor/rules/bad.mdc",
            "---\nglobs: [src\n---\n- x\n",
            ".cursor/rules/bad.mdc:3: frontmatter is not valid YAML",
            id="frontmatter",
        ),
        pytest.param(
            ".cass/playbook.yaml",
            "bullets:\n  - content: fine\n  - content: 'unclosed\n",
            ".cass/playbook.yaml:4: not valid YAML",
            id="playbook",
        ),
        pytest.param(
            ".cass/blocked.log",
            '{"content": "x"}\nnot json\n',
            ".cass/blocked.log:2: not a JSON object",
            id="blocked_log",
        ),
        pytest.param(
            ".cass/playbook.yaml",
            "bullets:\n  - content: fine\n  - content: retry twice\n    tags: retries\n",
            ".cass/playbook.yaml:3: `tags` must be a list of strings",
            id="playbook_tags",
        ),
        pytest.param(
            ".cass/playbook.yaml",
            "bullets:\n  - content: fine\n    feedbackEvents: 3\n",
            ".cass/playbook.yaml:2: `feedbackEvents` must be a list of mappings",
            id="playbook_events",
        ),
    ],
)
def test_bad_source_refuses_the_whole_migration(
    realistic: Path, name: str, text: str, message: str
) -> None:
    (realistic / name).parent.mkdir(parents=True, exist_ok=True)
    (realistic / name).write_text(text, encoding="utf-8")
    before = snapshot(realistic)
    code, output = run(realistic, "CLAUDE.md", name)
    assert code == 3
    assert f"mdmem: {message}" in output
    assert snapshot(realistic) == before


def test_unknown_kind_empty_folder_and_missing_file(realistic: Path) -> None:
    (realistic / "README.md").write_text("- a\n", encoding="utf-8")
    (realistic / "docs").mkdir()
    code, output = run(realistic, "README.md")
    assert code == 3 and "README.md: not a kind of file migrate reads; it reads CLAUDE.md" in output
    assert ".cursor/rules/*.mdc" in output and "CASS playbook" in output
    code, output = run(realistic, "docs")
    assert code == 3 and "docs: holds no file of a kind migrate reads" in output
    code, output = run(realistic, "GONE.md")
    assert code == 3 and "GONE.md: no such file or folder" in output


def test_no_memory_says_to_run_init(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "CLAUDE.md").write_text("- a rule\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["migrate", "CLAUDE.md"])
    assert result.exit_code == 3 and "run 'mdmem init'" in result.output


def test_a_folder_takes_its_files_of_known_kinds(realistic: Path) -> None:
    shutil.copytree(
        Path(__file__).parent / "migrate" / "cursor-mdc" / "before" / ".cursor",
        realistic / ".cursor",
    )
    (realistic / ".cursor" / "rules" / "notes.txt").write_text("- not read\n", encoding="utf-8")
    code, output = run(realistic, ".", "--dry-run")
    assert code == 0
    rules = [line for line in output.splitlines() if re.match(r"^\S+:\d+: ", line)]
    sources = sorted({line.split(":")[0] for line in rules})
    assert sources == [
        ".cursor/rules/api.mdc",
        ".cursor/rules/base.mdc",
        ".cursor/rules/tests.mdc",
        "CLAUDE.md",
    ]


@pytest.mark.parametrize(
    ("home", "source", "given", "shown"),
    [
        pytest.param(
            "home", "home/.claude/CLAUDE.md", None, "~/.claude/CLAUDE.md", id="under_home"
        ),
        pytest.param(
            "home",
            "elsewhere/CLAUDE.md",
            None,
            "CLAUDE.md (outside the project)",
            id="outside_home",
        ),
        pytest.param("", "code/project/CLAUDE.md", None, "CLAUDE.md", id="inside_in_home"),
        pytest.param("", "code/CLAUDE.md", "../CLAUDE.md", "~/code/CLAUDE.md", id="relative_up"),
    ],
)
def test_a_source_outside_the_project_is_never_named_by_its_absolute_path(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    home: str,
    source: str,
    given: str | None,
    shown: str,
) -> None:
    root = tmp_path / "code" / "project"
    shutil.copytree(BASE_MEMORY, root / "memory")
    (tmp_path / source).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / source).write_text("- Run migrations before every deploy\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / home))
    monkeypatch.chdir(root)
    code, output = run(root, given or str(tmp_path / source))
    assert code == 0, output
    assert f"{shown}:1: imported as run-migrations-every-deploy" in output
    [log] = (root / "memory" / "sessions").glob("*-migrate.md")
    assert f"- {shown} (Claude Code memory): 1 imported" in log.read_text(encoding="utf-8")
    assert str(tmp_path) not in output + log.read_text(encoding="utf-8")


def test_secrets_are_refused_by_category_and_line_never_copied(realistic: Path) -> None:
    text = (
        "# Deploy\n\n- Deploy with `make deploy`\n"
        f"- The staging key is {AWS_ACCESS}\n"
        f"- Connect with postgres://deploy:{DB_PASSWORD}@db.internal:5432/app\n"
    )
    (realistic / "AGENTS.md").write_text(text, encoding="utf-8")
    code, output = run(realistic, "AGENTS.md")
    assert code == 0
    assert "AGENTS.md:4: refused: secret material (aws-access-key): never copied" in output
    assert "AGENTS.md:5: refused: secret material (connection-string): never copied" in output
    assert "AGENTS.md:3: imported as deploy-make-deploy" in output
    written = b"".join(snapshot(realistic / "memory").values()) + output.encode()
    for secret in (AWS_ACCESS, DB_PASSWORD):
        assert secret.encode() not in written


def test_crlf_source_and_nothing_new_in_a_tombstone_near_a_live_fact(
    realistic: Path,
) -> None:
    (realistic / "AGENTS.md").write_bytes(b"# Rules\r\n\r\n- Tag releases from main\r\n")
    cass = realistic / ".cass"
    cass.mkdir()
    (cass / "blocked.log").write_text(
        '{"id": "b-1", "content": "Use pnpm for everything, never npm or yarn"}\n',
        encoding="utf-8",
    )
    code, output = run(realistic, "CLAUDE.md", "AGENTS.md")
    assert code == 0
    continuity = (realistic / "memory" / "continuity.md").read_bytes()
    assert b"- Tag releases from main\n  <!-- id: tag-releases-main |" in continuity
    code, output = run(realistic, ".cass/blocked.log")
    assert code == 0
    assert (
        ".cass/blocked.log:1: refused: a fact the memory keeps is near it (memory/continuity.md:"
        in output
    )
    assert "`mdmem forget use-pnpm-everything-never-npm --reason TEXT`" in output


def test_the_migration_log_must_be_the_newest(realistic: Path) -> None:
    future = realistic / "memory" / "sessions" / "2099-01-01-000000.md"
    future.write_text("# Session\n\n## Memory References\n", encoding="utf-8")
    with pytest.raises(MdmemError, match="must be the newest of the ledger"):
        migrate(realistic / "memory", [Path("CLAUDE.md")], stamp=STAMP, cwd=realistic)


def test_review_after_a_migration_archives_what_the_source_deprecated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_init(project("cass-playbook", tmp_path / "project"))
    monkeypatch.chdir(root)
    assert run(root, ".cass")[0] == 0
    result = CliRunner().invoke(main, ["review", "--root", str(root / "memory"), "--no-commit"])
    assert result.exit_code == 0, result.output
    archived = "".join(
        path.read_text(encoding="utf-8") for path in (root / "memory" / "archive").glob("*.md")
    )
    assert "id: use-moment-js-date-arithmetic" in archived
    continuity = (root / "memory" / "continuity.md").read_text(encoding="utf-8")
    assert "id: use-moment-js-date-arithmetic" not in continuity
    footer = next(line for line in continuity.splitlines() if "id: run-vitest-pool-forks" in line)
    assert "helpful: 1 | harmful: 0 | maturity: candidate" in footer
    lint = CliRunner().invoke(main, ["lint", "--root", str(root / "memory")])
    assert lint.exit_code == 0, lint.output


def test_a_crlf_continuity_keeps_its_line_endings(realistic: Path) -> None:
    path = realistic / "memory" / "continuity.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    before = path.read_bytes()
    assert run(realistic, "CLAUDE.md")[0] == 0
    after = path.read_bytes()
    assert after.startswith(before[: before.index(b"## Open Threads")])
    assert after.count(b"\n") == after.count(b"\r\n") > before.count(b"\n")
