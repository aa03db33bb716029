"""`mdmem mcp`, the MCP server, driven by the official SDK's own client over stdio: the
server runs as a subprocess on a committed memory in a real git repository, and the files
it leaves are read afterwards.

Skipped only where the SDK (the `mcp` extra) is missing outside CI; with CI=true a missing
SDK fails, so CI (which installs it, see the Makefile) always runs this.
"""

# ruff: noqa: E501  (footers are one line, as in a real memory)

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.format.footer import TIERS
from mdmem.writing.references import REFERENCE_KEYS
from tests.helpers import snapshot
from tests.test_write_commands import repo as repo  # the fixture: a committed memory

DOCS = Path(__file__).resolve().parent.parent / "docs" / "MCP.md"
READ_ONLY = ["context", "lookup", "show", "status", "lint"]
WRITING = ["start_session", "reference", "add_fact", "supersede", "thread", "done"]
# tool -> (destructive, idempotent), for the tools that write
WRITE_HINTS = {
    "start_session": (False, False),
    "reference": (False, True),
    "add_fact": (True, True),
    "supersede": (True, False),  # a repeat is refused: already superseded
    "thread": (False, True),
    "done": (False, False),  # a repeat is refused: checked off already
}
BLOCKED_RULE = "Mock the database in integration tests"


@pytest.fixture(autouse=True, scope="module")
def sdk() -> None:
    try:
        import mcp.client.stdio  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but the MCP SDK is missing: make installs '.[dev,mcp]'")
        pytest.skip("the MCP SDK is not installed: pip install -e '.[dev,mcp]'")


Session = Any  # mcp.ClientSession, imported once the SDK is known to be there


def drive(repo: Path, scenario: Callable[[Session], Awaitable[None]]) -> str:
    """Run `mdmem mcp` in `repo` as a subprocess and `scenario` with a client session
    connected to it over stdio; the server's stderr."""

    from mcp import StdioServerParameters

    errors = repo.parent / "server-stderr.txt"
    environment = {"XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"], "MDMEM_LOCK_TIMEOUT": "20"}
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "mdmem", "mcp"], env=environment, cwd=repo
    )
    over_stdio(server, errors, scenario)
    return errors.read_text("utf-8")


def over_stdio(server: Any, errors: Path, scenario: Callable[[Session], Awaitable[None]]) -> None:
    """Start `server` (StdioServerParameters), its stderr to `errors`, and run `scenario`
    with a client session connected to it."""
    from mcp import ClientSession, stdio_client

    async def run() -> None:
        with errors.open("w", encoding="utf-8") as log:
            async with (
                stdio_client(server, errlog=log) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await scenario(session)

    anyio.run(run)


async def call(session: Session, name: str, **arguments: Any) -> Any:
    """A tool's structured answer (its text when it has none); a tool error fails."""
    result = await session.call_tool(name, arguments)
    assert not result.is_error, result.content[0].text
    return result.structured_content or result.content[0].text


def test_an_agent_session_through_the_server(repo: Path) -> None:
    seen: dict[str, Any] = {}

    async def scenario(session: Session) -> None:
        tools = (await session.list_tools()).tools
        seen["tools"] = {tool.name: tool for tool in tools}
        seen["status"] = await call(session, "status")
        seen["started"] = await call(session, "start_session", slug="mcp-run")
        seen["added"] = await call(
            session,
            "add_fact",
            text="Access tokens expire after fifteen minutes",
            section="Key Decisions",
            tags=["auth"],
        )
        new_id = seen["added"]["id"]
        seen["cited"] = await call(session, "reference", ids=[new_id, "retry-with-backoff"])
        seen["lookup"] = await call(session, "lookup", query="token expiry", limit=3)
        seen["explained"] = await call(
            session, "lookup", query="token expiry", limit=3, explain=True
        )
        seen["context"] = await call(session, "context", task="token expiry", budget=800)
        seen["before_refusal"] = snapshot(repo)
        seen["refused"] = await session.call_tool(
            "add_fact", {"text": BLOCKED_RULE, "section": "Testing"}
        )
        seen["after_refusal"] = snapshot(repo)
        seen["resources"] = [str(r.uri) for r in (await session.list_resources()).resources]
        read = await session.read_resource("mdmem://session/current")
        seen["log_resource"] = read.contents[0].text
        read = await session.read_resource("mdmem://memory/continuity.md")
        seen["continuity_resource"] = read.contents[0].text
        seen["lint"] = await call(session, "lint")

    stderr = drive(repo, scenario)

    tools = seen["tools"]
    assert list(tools) == READ_ONLY + WRITING, stderr
    for name in READ_ONLY:
        hints = tools[name].annotations
        assert (hints.read_only_hint, hints.idempotent_hint, hints.open_world_hint) == (
            True,
            True,
            False,
        )
    for name, (destructive, idempotent) in WRITE_HINTS.items():
        hints = tools[name].annotations
        assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (
            False,
            destructive,
            idempotent,
        )
    for tool in tools.values():  # a description to act on: when to call it, what it returns
        assert len(tool.description) > 150 and "Returns" in tool.description, tool.name
    schema = tools["add_fact"].input_schema
    assert schema["required"] == ["text", "section"]
    assert schema["properties"]["tags"]["anyOf"][0] == {
        "items": {"type": "string"},
        "type": "array",
    }
    assert tools["reference"].input_schema["properties"]["key"]["enum"] == list(REFERENCE_KEYS)
    assert tools["reference"].input_schema["properties"]["ids"]["minItems"] == 1
    assert tools["lookup"].input_schema["properties"]["tier"]["anyOf"][0]["enum"] == list(TIERS)

    assert seen["status"]["session"] is None  # every log is committed: none is current
    assert seen["status"]["uncommitted"] == []  # nor several for the agent to choose from
    stem = seen["started"]["session"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-\d{6}-mcp-run", stem)
    assert seen["started"]["path"] == f"memory/sessions/{stem}.md"
    assert seen["started"]["log"] == seen["started"]["path"]  # `log` in every answer
    added = seen["added"]
    new_id = added["id"]
    assert (added["outcome"], added["section"], added["tier"], added["session"]) == (
        "added",
        "Key Decisions",
        "working",
        stem,
    )
    # Created: counts as this session's reference already; the other id is added.
    assert (seen["cited"]["added"], seen["cited"]["already"]) == (["retry-with-backoff"], [new_id])
    assert seen["lookup"]["hits"][0]["id"] == new_id
    # explain: each hit says how it scored, as `lookup --explain --json` says it.
    cli = CliRunner().invoke(
        main, ["lookup", "token", "expiry", "--limit", "3", "--explain", "--json"]
    )
    assert cli.exit_code == 0, cli.output
    assert seen["explained"]["hits"] == json.loads(cli.stdout)["hits"]
    explained = [hit.pop("explain") for hit in seen["explained"]["hits"]]
    assert explained[0].endswith(f"= {seen['lookup']['hits'][0]['score']}")
    assert seen["explained"]["hits"] == seen["lookup"]["hits"]
    assert new_id in seen["context"]["markdown"]
    assert seen["context"]["markdown"].startswith("Reference data from this project's memory")
    # An agent here cites and reads facts through the tools, so the answer names them.
    assert seen["context"]["markdown"].endswith("the `reference` tool, with their ids\n")
    assert "the `show` tool gives the whole" in seen["context"]["markdown"]
    assert "mdmem ref" not in seen["context"]["markdown"]

    # The refusal: a tool error that says what the command line says, and nothing written.
    refused = seen["refused"]
    assert refused.is_error
    cli = CliRunner().invoke(main, ["add", BLOCKED_RULE, "--section", "Testing"])
    assert cli.exit_code == 3
    assert refused.content[0].text == cli.stderr.rstrip("\n")
    assert "mock-the-database" in refused.content[0].text
    assert seen["after_refusal"] == seen["before_refusal"]

    assert seen["resources"] == [
        "mdmem://memory/continuity.md",
        "mdmem://memory/archive/INDEX.md",
        "mdmem://session/current",
    ]
    assert f"- Created: {new_id}" in seen["log_resource"]
    assert "Access tokens expire after fifteen minutes" in seen["continuity_resource"]
    assert (seen["lint"]["errors"], seen["lint"]["passed"]) == (0, True)

    # The files on disk: the fact with its born footer, the ledger lines in the log.
    continuity = (repo / "memory" / "continuity.md").read_text("utf-8")
    date = stem[:10]
    assert (
        "- Access tokens expire after fifteen minutes\n"
        f"  <!-- id: {new_id} | created: {date} | last_used: {date} | uses: 1 | tier: working | origin: {stem} | tags: auth -->\n"
    ) in continuity
    log = (repo / "memory" / "sessions" / f"{stem}.md").read_text("utf-8")
    references = log.split("## Memory References\n", 1)[1].split("\n\n", 1)[0]
    assert references == f"- Created: {new_id}\n- Referenced: retry-with-backoff"


def test_the_hints_hold_a_second_call_writes_nothing_more(repo: Path) -> None:
    """Each writing tool said idempotent leaves the files as its first call left them, and
    each read-only tool leaves them as they were; start_session, not idempotent, does not."""
    calls = [
        ("start_session", {"slug": "first"}),
        ("reference", {"ids": ["post-only-mutations"], "key": "helpful"}),
        ("add_fact", {"text": "Queues retry five times", "section": "Key Decisions"}),
        (
            "add_fact",
            {
                "text": "Retries stop after one minute",
                "section": "Key Decisions",
                "supersedes": "retry-with-backoff",
            },
        ),
        ("supersede", {"old": "webhook-fire-forget", "by_text": "Webhooks go through the outbox"}),
        ("thread", {"text": "Decide how refresh tokens rotate"}),
        ("done", {"id": "decide-refresh-tokens-rotate"}),
        *((name, {}) for name in ("context", "status", "lint")),
        ("lookup", {"query": "retry"}),
        ("show", {"id": "post-only-mutations"}),
        ("start_session", {"slug": "second"}),
    ]
    changes: list[tuple[str, bool, bool]] = []

    async def scenario(session: Session) -> None:
        for name, arguments in calls:
            before = snapshot(repo)
            first = await session.call_tool(name, arguments)
            once = snapshot(repo)
            second = await session.call_tool(name, arguments)
            assert not first.is_error, (name, first.content[0].text)
            changes.append((name, once != before, snapshot(repo) != once))
            del second  # an answer or a refusal: either way, what it wrote is what counts

    drive(repo, scenario)
    assert changes == [
        ("start_session", True, True),
        ("reference", True, False),
        ("add_fact", True, False),
        ("add_fact", True, False),
        ("supersede", True, False),
        ("thread", True, False),
        ("done", True, False),
        ("context", False, False),
        ("status", False, False),
        ("lint", False, False),
        ("lookup", False, False),
        ("show", False, False),
        ("start_session", True, True),
    ]


def test_usage_and_lookups_that_find_nothing(repo: Path) -> None:
    seen: dict[str, Any] = {}

    async def scenario(session: Session) -> None:
        seen["usage"] = await session.call_tool("supersede", {"old": "retry-with-backoff"})
        seen["nothing"] = await call(session, "lookup", query="zebra")
        seen["no_session"] = await session.call_tool("reference", {"ids": ["retry-with-backoff"]})
        seen["bad_tier"] = await session.call_tool("lookup", {"query": "x", "tier": "gold"})

    drive(repo, scenario)
    assert seen["usage"].is_error
    assert seen["usage"].content[0].text == "mdmem: give one of `by`, `by_text`, `invalidate`"
    cli = CliRunner().invoke(main, ["supersede", "retry-with-backoff"])
    assert (
        cli.exit_code == 2 and "give one of --by NEW-ID, --by-text TEXT, --invalidate" in cli.stderr
    )
    assert (seen["nothing"]["hits"], seen["nothing"]["superseded"]) == ([], [])
    cli = CliRunner().invoke(main, ["ref", "retry-with-backoff"])
    assert seen["no_session"].is_error and cli.exit_code == 3
    assert seen["no_session"].content[0].text == (
        "mdmem: no current session: every session log is committed, or there is none; start "
        "one with the `start_session` tool, or name one with `session` or MDMEM_SESSION"
    )
    assert seen["bad_tier"].is_error
    assert seen["bad_tier"].content[0].text.startswith("mdmem: lookup: `tier`: input should be")
    assert "gold" not in seen["bad_tier"].content[0].text  # a value given is never echoed


def test_manifest_and_docs_agree(repo: Path) -> None:
    """`mdmem mcp --json` lists what the server serves; docs/MCP.md's table says the same."""
    result = CliRunner().invoke(main, ["mcp", "--json"])
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.stdout)
    rows = {}
    for line in DOCS.read_text("utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"`\w+`", cells[0]):
            rows[cells[0].strip("`")] = tuple(cells[1:4])
    served = {}
    for tool in manifest["tools"]:
        hints = tool["annotations"]
        read_only = hints["readOnlyHint"]
        served[tool["name"]] = (
            "yes" if read_only else "no",
            "—" if read_only else ("yes" if hints["destructiveHint"] else "no"),
            "yes" if hints["idempotentHint"] else "no",
        )
    assert rows == served
    text = DOCS.read_text("utf-8")
    for resource in manifest["resources"]:
        assert f"`{resource['uri']}`" in text


@pytest.mark.parametrize("place", ["fact-text", "footer-field", "archived-fact", "session-log"])
def test_the_answers_mask_every_secret_the_memory_holds(place: str, tmp_path: Path) -> None:
    """What the tools and resources show of a memory holding a planted secret of every
    category, the current session log included: the text around each, the value masked."""
    from mdmem.mcp.server import build as server_for
    from tests.test_leaks import CATEGORIES, PLACES, PLANTED, build

    repo = build(tmp_path, PLACES[place][0])
    log = repo / "memory" / "sessions" / "2026-01-08-100000.md"
    log.write_text(f"# Session\n\nPasted {PLANTED['jwt'][1]}.\n\n## Memory References\n", "utf-8")
    server = server_for(repo / "memory")
    shown: list[str] = []

    async def ask() -> None:
        for name, arguments in [
            ("lookup", {"query": "use old pasted", "sessions": True}),
            ("show", {"id": "leak-jwt"}),
            ("context", {"task": "use"}),
            ("context", {"format": "json"}),
            ("status", {}),
            ("lint", {}),
            ("add_fact", {"text": f"Deploys use {PLANTED['stripe-key'][1]}", "section": "Ops"}),
        ]:
            result = await server.call_tool(name, arguments)
            shown.extend(block.text for block in result.content)
            shown.append(json.dumps(result.structured_content))
        for uri in ("mdmem://memory/continuity.md", "mdmem://session/current"):
            shown.extend(str(item.content) for item in await server.read_resource(uri))

    anyio.run(ask)
    text = "\n".join(shown)
    for category in CATEGORIES:
        value = PLANTED[category][0]
        assert value not in text and value[len(value) // 3 :][:12] not in text, category
    assert "[REDACTED:" in text
    assert "mdmem: the text holds secret material (stripe-key): keep secrets out" in text


def test_a_write_waits_for_the_memorys_lock_as_the_command_does(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the lock: the tool gives up after the same wait, with the
    command's message (exit 4 there), and writes nothing."""
    import subprocess

    from mdmem.mcp.server import build as server_for
    from mdmem.store import lock
    from tests.test_lock import HOLD

    assert CliRunner().invoke(main, ["session", "start"]).exit_code == 0
    monkeypatch.setattr(lock, "TIMEOUT", 0.2)
    server = server_for(repo / "memory")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(repo / "memory")], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        before = snapshot(repo)
        arguments = {"text": "Queues retry five times", "section": "Key Decisions"}
        result = anyio.run(server.call_tool, "add_fact", arguments)
        cli = CliRunner().invoke(
            main, ["--lock-timeout", "0.2", "add", arguments["text"], "--section", "Key Decisions"]
        )
    finally:
        holder.kill()
        holder.wait()
    assert cli.exit_code == 4
    assert result.is_error and result.content[0].text == cli.stderr.rstrip("\n")
    assert "another mdmem command holds this memory's lock (waited 0.2 s)" in cli.stderr
    assert snapshot(repo) == before
