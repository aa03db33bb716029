"""`mdmem export`: the core facts in a vendor's file, inside the `export` block only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from tests.helpers import make_repo, snapshot

CONTINUITY = """\
# Continuity

## Architectural Invariants

- Money is an integer count of cents everywhere
  <!-- id: money-in-cents | created: 2026-03-01 | tier: core -->

## Key Decisions

- Mutations use POST only; no PUT or PATCH
  <!-- id: post-only-mutations | created: 2026-03-01 | tier: core | scope: src/api/** -->
- Use Redis for the job queue
  <!-- id: redis-job-queue | created: 2026-03-01 | tier: active -->
- Version the API in the URI
  <!-- id: version-in-uri | created: 2026-03-01 | tier: core | superseded-by: header-version -->
- Version the API in the Accept header
  <!-- id: header-version | created: 2026-03-02 | tier: core | supersedes: version-in-uri -->

## Conventions

- Mocking the database in integration tests hid a broken migration
  <!-- id: mock-the-database | created: 2026-03-01 | tier: core | type: anti-pattern -->
"""
SESSION = "# Session\n\n## Memory References\n- Created: money-in-cents\n"

BODY = """\
## Core facts and invariants (project memory)

Exported from `memory/` by `mdmem export --format {fmt}`: change the memory, then run \
that command again, rather than editing between these markers. Each line ends with its \
fact's id (`mdmem show ID` tells its story).

- Money is an integer count of cents everywhere [money-in-cents]
- Mutations use POST only; no PUT or PATCH (applies to src/api/**) [post-only-mutations]
- Version the API in the Accept header [header-version]

### Pitfalls (what went wrong before)

- Do not: Mocking the database in integration tests hid a broken migration [mock-the-database]
"""
FRONTMATTER = """\
---
description: Core facts and invariants from this project's memory, exported by mdmem
alwaysApply: true
---

"""
FILES = {
    "agents-md": "AGENTS.md",
    "claude-md": "CLAUDE.md",
    "cursor": ".cursor/rules/mdmem.mdc",
    "copilot": ".github/copilot-instructions.md",
}


def block(fmt: str) -> str:
    return f"<!-- mdmem:begin export -->\n{BODY.format(fmt=fmt)}<!-- mdmem:end export -->\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    work = tmp_path / "project"
    (work / "memory" / "sessions").mkdir(parents=True)
    (work / "memory" / "continuity.md").write_text(CONTINUITY, "utf-8")
    (work / "memory" / "sessions" / "2026-03-01-090000.md").write_text(SESSION, "utf-8")
    return make_repo(work)


def export(project: Path, fmt: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        main, ["export", "--format", fmt, "--root", str(project / "memory"), *args]
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_a_new_file_holds_the_block_and_a_second_export_changes_nothing(
    project: Path, fmt: str
) -> None:
    code, out, _ = export(project, fmt)
    path = project / FILES[fmt]
    expected = (FRONTMATTER if fmt == "cursor" else "") + block(fmt)
    assert (code, out) == (0, f"{FILES[fmt]}: created, 4 core facts.\n")
    assert path.read_bytes() == expected.encode("utf-8")
    before = snapshot(project)
    code, out, _ = export(project, fmt)
    assert (code, out) == (0, f"{FILES[fmt]}: 4 core facts, already up to date: nothing changed.\n")
    assert snapshot(project) == before


@pytest.mark.parametrize(
    ("head", "tail", "newline"),
    [
        pytest.param(b"# Agents\n\nRun `make test`.\n\n", b"\n## More\n\nkeep\n", "\n", id="lf"),
        pytest.param(b"# Agents\r\n\r\n", b"trailing\r\n", "\r\n", id="crlf"),
        pytest.param(b"\xef\xbb\xbf# Agents\n", b"no final newline", "\n", id="bom"),
        pytest.param(b"", b"", "\n", id="only-the-block"),
    ],
)
def test_the_text_around_the_block_stays_byte_for_byte(
    project: Path, head: bytes, tail: bytes, newline: str
) -> None:
    old = f"<!-- mdmem:begin export -->{newline}old{newline}<!-- mdmem:end export -->{newline}"
    path = project / "AGENTS.md"
    path.write_bytes(head + old.encode() + tail)
    assert export(project, "agents-md")[0] == 0
    new = block("agents-md").replace("\n", newline).encode("utf-8")
    assert path.read_bytes() == head + new + tail


def test_a_file_without_the_block_gains_it_at_its_end(project: Path) -> None:
    mine = "# Claude\n\n<!-- mdmem:begin usage -->\nuse mdmem\n<!-- mdmem:end usage -->\n"
    (project / "CLAUDE.md").write_text(mine, "utf-8")
    assert export(project, "claude-md")[0] == 0
    assert (project / "CLAUDE.md").read_text("utf-8") == mine + "\n" + block("claude-md")


def test_a_changed_memory_changes_only_the_block(project: Path) -> None:
    (project / "AGENTS.md").write_text("# Agents\n\nKeep this.\n", "utf-8")
    export(project, "agents-md")
    continuity = project / "memory" / "continuity.md"
    continuity.write_text(
        continuity.read_text("utf-8").replace("tier: active", "tier: core"), "utf-8"
    )
    code, out, _ = export(project, "agents-md", "--dry-run")
    assert code == 0
    assert out.splitlines()[:2] == ["--- a/AGENTS.md", "+++ b/AGENTS.md"]
    assert [line for line in out.splitlines() if line[:1] in "+-" and line[:3] not in "---+++"] == [
        "+- Use Redis for the job queue [redis-job-queue]"
    ]
    assert "[redis-job-queue]" not in (project / "AGENTS.md").read_text("utf-8")
    assert export(project, "agents-md")[1] == "AGENTS.md: updated, 5 core facts.\n"
    text = (project / "AGENTS.md").read_text("utf-8")
    assert text.startswith("# Agents\n\nKeep this.\n\n<!-- mdmem:begin export -->\n")
    assert "- Use Redis for the job queue [redis-job-queue]\n" in text


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("# A\n<!-- mdmem:begin export -->\nx\n", 2, "a begin marker without its end"),
        ("# A\nx\n<!-- mdmem:end export -->\n", 3, "an end marker before its begin"),
        (
            "<!-- mdmem:begin export -->\n<!-- mdmem:begin export -->\n<!-- mdmem:end export -->\n",
            2,
            "a second begin marker",
        ),
    ],
)
def test_unpaired_markers_are_refused_with_file_and_line(
    project: Path, text: str, line: int, what: str
) -> None:
    path = project / ".github" / "copilot-instructions.md"
    path.parent.mkdir()
    path.write_text(text, "utf-8")
    code, _, err = export(project, "copilot")
    assert code == 3
    assert err.startswith(f"mdmem: .github/copilot-instructions.md:{line}: mdmem's 'export' block")
    assert what in err
    assert path.read_text("utf-8") == text


def test_an_existing_cursor_rule_keeps_its_own_frontmatter(project: Path) -> None:
    rule = project / ".cursor" / "rules" / "mdmem.mdc"
    rule.parent.mkdir(parents=True)
    rule.write_text("---\ndescription: ours\nglobs: src/**\n---\n\nBe brief.\n", "utf-8")
    export(project, "cursor")
    assert rule.read_text("utf-8") == (
        "---\ndescription: ours\nglobs: src/**\n---\n\nBe brief.\n\n" + block("cursor")
    )


def test_dry_run_and_json_write_nothing(project: Path) -> None:
    before = snapshot(project)
    code, out, _ = export(project, "cursor", "--dry-run", "--json")
    shown = json.loads(out)
    assert code == 0 and snapshot(project) == before
    assert shown["ids"] == ["money-in-cents", "post-only-mutations", "header-version",
                            "mock-the-database"]  # fmt: skip
    assert (shown["created"], shown["changed"], shown["dry_run"]) == (True, True, True)
    assert shown["diff"].startswith("--- /dev/null\n+++ b/.cursor/rules/mdmem.mdc\n")


def test_a_core_fact_with_a_secret_is_refused(project: Path) -> None:
    continuity = project / "memory" / "continuity.md"
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    continuity.write_text(
        continuity.read_text("utf-8").replace("cents everywhere", f"cents; deploy key {token}"),
        "utf-8",
    )
    code, _, err = export(project, "agents-md")
    assert code == 3
    assert err.startswith("mdmem: memory/continuity.md:5: money-in-cents holds secret material")
    assert token not in err
    assert not (project / "AGENTS.md").exists()


def test_a_core_fact_that_poisons_is_refused(project: Path) -> None:
    continuity = project / "memory" / "continuity.md"
    continuity.write_text(
        continuity.read_text("utf-8").replace("cents everywhere", "cents\u202e everywhere"),
        "utf-8",
    )
    code, _, err = export(project, "agents-md")
    assert (code, err) == (
        3,
        "mdmem: memory/continuity.md:5: money-in-cents holds possible poisoning (bidi-control: "
        "U+202E RIGHT-TO-LEFT OVERRIDE); run `mdmem lint`; nothing exported\n",
    )
    assert not (project / "AGENTS.md").exists()


def test_a_memory_without_core_facts_says_how_to_make_one(tmp_path: Path) -> None:
    work = tmp_path / "project"
    (work / "memory").mkdir(parents=True)
    (work / "memory" / "continuity.md").write_text(
        "# Continuity\n\n## Key Decisions\n\n- Use Redis\n"
        "  <!-- id: use-redis | created: 2026-03-01 | tier: active -->\n",
        "utf-8",
    )
    assert export(work, "agents-md")[0] == 0
    text = (work / "AGENTS.md").read_text("utf-8")
    assert "- (no core facts yet: `mdmem core ID` makes a fact core)\n" in text
    assert "use-redis" not in text


CORE_ANTI_PATTERN = "tier: core | type: anti-pattern"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        pytest.param("Never commit .env files", "Never commit .env files", id="negative"),
        pytest.param(
            "Don't use print for logging; use the logging module",
            "Don't use print for logging; use the logging module",
            id="dont",
        ),
        pytest.param(
            "Mock the database in integration tests",
            "Do not: Mock the database in integration tests",
            id="positive",
        ),
    ],
)
def test_a_pitfall_is_exported_as_context_shows_it(tmp_path: Path, text: str, shown: str) -> None:
    """Beside a positive pitfall, a negative one is shown as written, never after a
    heading's "do NOT"; export and context share the one rendering."""
    work = tmp_path / "project"
    (work / "memory").mkdir(parents=True)
    (work / "memory" / "continuity.md").write_text(
        "# Continuity\n\n## Pitfalls\n\n"
        f"- {text}\n  <!-- id: the-pitfall | created: 2026-03-01 | {CORE_ANTI_PATTERN} -->\n"
        "- Editing generated files by hand\n"
        f"  <!-- id: generated-by-hand | created: 2026-03-01 | {CORE_ANTI_PATTERN} -->\n",
        "utf-8",
    )
    assert export(work, "agents-md")[0] == 0
    exported = (work / "AGENTS.md").read_text("utf-8")
    pitfalls = exported.split("### Pitfalls (what went wrong before)\n\n")[1]
    lines = pitfalls.split("\n<!-- mdmem:end export -->")[0].splitlines()
    assert lines == [
        f"- {shown} [the-pitfall]",
        "- Do not: Editing generated files by hand [generated-by-hand]",
    ]
    context = CliRunner().invoke(main, ["context", "--root", str(work / "memory")]).output
    assert all(line in context.splitlines() for line in lines)
    assert "do NOT" not in exported + context
