"""A reading command never refuses a whole memory for one item it cannot read (SPEC §2):
it leaves that item out, names its `file:line` on stderr and under `warnings` in --json,
and serves the rest. Lint reports every such item; the review refuses, naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.errors import ParseError
from mdmem.format.document import parse_document
from mdmem.format.leftout import leaving_out
from mdmem.format.textfile import TextFile, split_lines
from tests.helpers import git
from tests.test_read_only_tree import committed_memory

BROKEN_FOOTER = "footer field 'uses' appears twice"


def broken(folder: Path) -> tuple[Path, int]:
    """The reading memory with one fact's footer made unreadable (a field twice), committed;
    the 1-based line of that footer."""
    memory = committed_memory(folder)
    path = memory / "continuity.md"
    lines = path.read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "id: webhook-backoff |" in line)
    lines[at] = lines[at].replace("| uses: 4 |", "| uses: 4 | uses: 5 |")
    path.write_text("".join(lines), "utf-8")
    git(folder, "commit", "-q", "-am", "a typo in a footer")
    return memory, at + 1


SERVING = [
    pytest.param(["status"], id="status"),
    pytest.param(["context", "export", "csv"], id="context"),
    pytest.param(["lookup", "export", "csv"], id="lookup"),
    pytest.param(["show", "export-csv-tenant"], id="show"),
    pytest.param(["stats"], id="stats"),
    pytest.param(["export", "--dry-run", "--format", "agents-md"], id="export"),
]


@pytest.mark.parametrize("arguments", SERVING)
def test_a_reading_command_serves_the_rest_and_names_what_it_left_out(
    tmp_path: Path, arguments: list[str]
) -> None:
    memory, line = broken(tmp_path)
    runner = CliRunner()
    for twice in range(2):  # the second run through lookup's kept index names it again
        result = runner.invoke(main, [*arguments, "--root", str(memory)])
        assert result.exit_code == 0, (twice, result.output)
        assert result.stdout.strip()
        warning = f"mdmem: warning: memory/continuity.md:{line}: {BROKEN_FOOTER}"
        assert warning in result.stderr, (twice, result.stderr)
        assert result.stderr.count(warning) == 1
        assert "webhook-backoff" not in result.stdout  # left out, not half-read


@pytest.mark.parametrize("arguments", SERVING)
def test_json_answers_carry_the_warning(tmp_path: Path, arguments: list[str]) -> None:
    memory, line = broken(tmp_path)
    result = CliRunner().invoke(main, [*arguments, "--json", "--root", str(memory)])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["warnings"] == [
        {"path": "memory/continuity.md", "line": line, "message": BROKEN_FOOTER}
    ]


def test_the_served_facts_are_the_others(tmp_path: Path) -> None:
    memory, _ = broken(tmp_path)
    result = CliRunner().invoke(main, ["lookup", "export", "--json", "--root", str(memory)])
    ids = {hit["id"] for hit in json.loads(result.stdout)["hits"]}
    assert "export-csv-tenant" in ids


def test_lint_reports_it_and_the_review_refuses_naming_it(tmp_path: Path) -> None:
    memory, line = broken(tmp_path)
    before = (memory / "continuity.md").read_bytes()
    linted = CliRunner().invoke(main, ["lint", "--json", "--root", str(memory)])
    found = [(f["code"], f["path"], f["line"]) for f in json.loads(linted.stdout)]
    assert ("E001", "memory/continuity.md", line) in found
    assert linted.exit_code == 1
    reviewed = CliRunner().invoke(main, ["review", "--root", str(memory)])
    assert reviewed.exit_code == 3
    assert f"memory/continuity.md:{line}: {BROKEN_FOOTER}" in reviewed.stderr
    assert (memory / "continuity.md").read_bytes() == before


def test_outside_a_reading_command_the_parser_refuses() -> None:
    text = "## S\n\n- a\n  <!-- id: aa-bb | uses: 1 | uses: 2 -->\n- b\n  <!-- id: cc-dd -->\n"
    file = TextFile("memory/continuity.md", split_lines(text))
    with pytest.raises(ParseError, match="appears twice"):
        parse_document(file)
    with leaving_out() as left_out:
        document = parse_document(file)
    assert [fact.id for fact in document.facts] == ["cc-dd"]
    assert [(error.line, error.message) for error in left_out] == [
        (4, "footer field 'uses' appears twice")
    ]
    with pytest.raises(ParseError):  # the collection ended with its block
        parse_document(file)


def test_the_mcp_reading_tools_serve_the_rest_and_name_it(tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="the MCP SDK (the `mcp` extra) is not installed")
    import anyio

    from mdmem.mcp.server import build as server_for

    memory, line = broken(tmp_path)
    server = server_for(memory)
    answers: dict[str, object] = {}

    async def ask() -> None:
        for name, arguments in [
            ("lookup", {"query": "export csv"}),
            ("status", {}),
            ("context", {"task": "export csv"}),
            ("context", {"task": "export csv", "format": "json"}),
        ]:
            result = await server.call_tool(name, arguments)
            assert not result.is_error, result.content
            key = f"{name}-{arguments.get('format', 'text')}"
            answers[key] = result.structured_content
            answers[f"{key}-shown"] = result.content[0].text

    anyio.run(ask)
    warning = {"path": "memory/continuity.md", "line": line, "message": BROKEN_FOOTER}
    for key in ("lookup-text", "status-text", "context-text", "context-json"):
        assert isinstance(answers[key], dict) and answers[key]["warnings"] == [warning], key
    # a markdown answer names it in its text too, where an agent reads it
    assert f"memory/continuity.md:{line}: {BROKEN_FOOTER}" in str(answers["context-text-shown"])


def test_a_file_with_conflict_markers_is_left_out_whole(tmp_path: Path) -> None:
    """Which side of a conflict is the memory? Neither can be read: a reading command
    serves the other files and names the marker; the review refuses."""
    memory, _ = broken(tmp_path)
    archive = memory / "archive" / "2026-Q1.md"
    archive.parent.mkdir(exist_ok=True)
    archive.write_text("# Archive\n\n## Archived\n\n<<<<<<< HEAD\n", "utf-8")
    result = CliRunner().invoke(main, ["lookup", "export", "--root", str(memory)])
    assert result.exit_code == 0, result.output
    assert "export-csv-tenant" in result.stdout
    assert "memory/archive/2026-Q1.md:5: merge-conflict marker" in result.stderr
