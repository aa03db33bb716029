"""Many agents, one memory: each agent's writes land in its own session log (two MCP
clients of the official SDK, two command-line agents pinned by MDMEM_SESSION); a committed
`.mcp.json`, cloned, serves the clone's memory; and every bad call docs/MCP.md's table
lists gets the answer the table gives, through the SDK's client."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner

from mdmem.cli import main
from tests.helpers import git, snapshot
from tests.test_mcp_server import call, drive, over_stdio, sdk  # noqa: F401  (sdk: the fixture)
from tests.test_write_commands import repo as repo  # the fixture: a committed memory

Session = Any
ROUNDS = 50
SECRET = "AKIAIOSFODNN7EXAMPLE"
VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")


SYLLABLES = ("ka", "lo", "mi", "ru", "te", "po", "zu", "ne", "vi", "sa")


def word(number: int) -> str:
    """A made-up word for each number below 1,000, so no two facts read alike."""
    return "".join(SYLLABLES[int(digit)] for digit in f"{number:03d}") + "q"


def fact_text(agent: str, number: int) -> str:
    """Agent a's facts and agent b's (c, ...) share no made-up word."""
    base = 200 * (ord(agent) - ord("a")) + 2 * number
    return f"The {word(base)} service stores {word(base + 1)} records in its own schema"


def created_lines(log: Path) -> set[str]:
    ids: set[str] = set()
    for line in log.read_text("utf-8").splitlines():
        if line.startswith("- Created: "):
            ids.update(part.strip() for part in line.removeprefix("- Created: ").split(","))
    return ids


def origins(repo: Path) -> dict[str, str]:
    text = (repo / "memory" / "continuity.md").read_text("utf-8")
    return dict(re.findall(r"id: ([a-z0-9-]+) \|.*?origin: ([0-9a-z-]+)", text))


def two_clients(repo: Path, scenario: Callable[[Session, Session], Awaitable[None]]) -> None:
    """Two servers of the memory, each with its own SDK client, run side by side."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    environment = {"XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"], "MDMEM_LOCK_TIMEOUT": "20"}
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "mdmem", "mcp"], env=environment, cwd=repo
    )

    async def run() -> None:
        with (
            (repo.parent / "stderr-a.txt").open("w") as a,
            (repo.parent / "stderr-b.txt").open("w") as b,
        ):
            async with (
                stdio_client(server, errlog=a) as (read_a, write_a),
                ClientSession(read_a, write_a) as first,
                stdio_client(server, errlog=b) as (read_b, write_b),
                ClientSession(read_b, write_b) as second,
            ):
                await first.initialize()
                await second.initialize()
                await scenario(first, second)

    anyio.run(run)


def test_two_sdk_clients_each_write_to_the_log_it_started(repo: Path) -> None:
    """B starts its session, then A starts its own; then they add a fact each in turn: every
    `Created:` line is in the log of the client that added the fact, and each fact's origin
    is that log."""
    added: dict[str, list[str]] = {"a": [], "b": []}
    stems: dict[str, str] = {}

    async def scenario(a: Session, b: Session) -> None:
        stems["b"] = (await call(b, "start_session", slug="agent-b"))["session"]
        stems["a"] = (await call(a, "start_session", slug="agent-a"))["session"]
        for number in range(ROUNDS):
            for name, client in (("a", a), ("b", b)):
                text = fact_text(name, number)
                answer = await call(client, "add_fact", text=text, section="Key Decisions")
                assert (answer["outcome"], answer["session"]) == ("added", stems[name])
                added[name].append(answer["id"])

    two_clients(repo, scenario)
    folder = repo / "memory" / "sessions"
    for name in ("a", "b"):
        assert created_lines(folder / f"{stems[name]}.md") == set(added[name])
        assert {origins(repo)[fact_id] for fact_id in added[name]} == {stems[name]}


def test_two_command_line_agents_pinned_by_mdmem_session(repo: Path) -> None:
    runner = CliRunner()
    pins = {}
    for name in ("b", "a"):
        started = runner.invoke(main, ["session", "start", "--slug", f"agent-{name}", "--json"])
        pins[name] = json.loads(started.stdout)["pin"].removeprefix("MDMEM_SESSION=")
    unpinned = runner.invoke(main, ["add", fact_text("c", 0), "--section", "Key Decisions"])
    assert unpinned.exit_code == 3
    assert f"2 session logs are not committed ({pins['a']}, {pins['b']})" in unpinned.stderr
    added: dict[str, list[str]] = {"a": [], "b": []}
    for number in range(ROUNDS):
        for name in ("a", "b"):
            arguments = ["add", fact_text(name, number), "--section", "Key Decisions", "--json"]
            done = runner.invoke(main, arguments, env={"MDMEM_SESSION": pins[name]})
            assert done.exit_code == 0, done.stderr
            added[name].append(json.loads(done.stdout)["id"])
    folder = repo / "memory" / "sessions"
    for name in ("a", "b"):
        assert created_lines(folder / f"{pins[name]}.md") == set(added[name])
        assert {origins(repo)[fact_id] for fact_id in added[name]} == {pins[name]}


def expanded(value: str, environment: dict[str, str]) -> str:
    """A configuration's `${VAR}` and `${VAR:-default}`, as Claude Code expands them."""
    return VARIABLE.sub(lambda m: environment.get(m.group(1)) or (m.group(2) or ""), value)


def serve_from_entry(
    folder: Path, environment: dict[str, str], scenario: Callable[[Session], Awaitable[None]]
) -> None:
    """Start the server as a client would from `folder`'s committed `.mcp.json`."""
    from mcp import StdioServerParameters

    entry = json.loads((folder / ".mcp.json").read_text("utf-8"))["mcpServers"]["mdmem"]
    args = [expanded(arg, environment) for arg in entry["args"]]
    server = StdioServerParameters(
        command=entry["command"], args=args, env=environment, cwd=folder.parent
    )
    over_stdio(server, folder.parent / "stderr.txt", scenario)


def a_virtual_environment(folder: Path) -> None:
    """`folder/.venv`, a virtual environment that imports this mdmem (through a .pth file
    naming the site-packages of the one running the tests)."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder / ".venv")], check=True
    )
    inner = folder / ".venv" / "bin" / "python"
    found = subprocess.run(
        [str(inner), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    )
    here = sysconfig.get_paths()["purelib"]
    line = f"import site; site.addsitedir({here!r})\n"
    Path(found.stdout.strip(), "mdmem-tests.pth").write_text(line, "utf-8")


@pytest.mark.parametrize("through", ["mdmem-on-path", "the-clones-venv"])
def test_a_committed_configuration_cloned_serves_the_clones_memory(
    repo: Path, tmp_path: Path, through: str
) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["mcp", "install", "claude"]).exit_code == 0
    git(repo, "add", ".mcp.json")
    git(repo, "commit", "-q", "-m", "mdmem server for the team")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    runner.invoke(main, ["session", "start"])
    first = runner.invoke(main, ["add", "Only the first checkout knows this", "--section", "Ops"])
    assert first.exit_code == 0, first.stderr
    bin_folder = str(Path(sys.executable).parent)
    path = os.environ["PATH"]
    if through == "the-clones-venv":
        a_virtual_environment(clone)
        path = os.pathsep.join(p for p in path.split(os.pathsep) if p != bin_folder)
        inner = str(clone / ".venv" / "bin" / "python")
        install = [inner, "-m", "mdmem", "mcp", "install", "claude", "--replace"]
        subprocess.run(install, cwd=clone, check=True, capture_output=True)
    else:
        path = bin_folder + os.pathsep + path
    environment = {"PATH": path, "CLAUDE_PROJECT_DIR": str(clone)}
    environment["XDG_CACHE_HOME"] = os.environ["XDG_CACHE_HOME"]
    seen: dict[str, Any] = {}

    async def scenario(session: Session) -> None:
        seen["first"] = await call(session, "lookup", query="first checkout knows")
        seen["there"] = await call(session, "lookup", query="retry backoff")
        read = await session.read_resource("mdmem://memory/continuity.md")
        seen["continuity"] = read.contents[0].text

    if through == "the-clones-venv":  # the entry the clone's own venv wrote: still no path
        entry = json.loads((clone / ".mcp.json").read_text("utf-8"))["mcpServers"]["mdmem"]
        assert str(tmp_path) not in json.dumps(entry) and ".venv/bin/python" in entry["args"][1]
    serve_from_entry(clone, environment, scenario)
    assert seen["first"]["hits"] == []
    assert seen["there"]["hits"][0]["path"] == "memory/continuity.md"
    assert seen["continuity"] == (clone / "memory" / "continuity.md").read_text("utf-8")
    assert "first checkout" not in seen["continuity"]


def test_a_session_of_its_own_in_the_resources_and_prompts(repo: Path) -> None:
    seen: dict[str, Any] = {}

    async def scenario(session: Session) -> None:
        from mcp.shared.exceptions import MCPError

        try:
            await session.read_resource("mdmem://session/current")
        except MCPError as exc:
            seen["missing"] = (exc.error.code, exc.error.message)
        started = await call(session, "start_session", slug="mine")
        seen["stem"] = started["session"]
        seen["log"] = await session.read_resource(f"mdmem://session/{started['session']}")
        seen["fact"] = await session.read_resource("mdmem://fact/retry-with-backoff")
        templates = (await session.list_resource_templates()).resource_templates
        seen["templates"] = [template.uri_template for template in templates]
        seen["prompts"] = [prompt.name for prompt in (await session.list_prompts()).prompts]
        prompt = await session.get_prompt("session_start", {"task": "refunds"})
        seen["prompt"] = prompt.messages[0].content.text
        seen["tools"] = (await session.list_tools()).tools
        seen["shown"] = await call(session, "show", id="retry-with-backoff")

    drive(repo, scenario)
    assert seen["missing"][0] == -32002 and "no current session" in seen["missing"][1]
    assert "the `start_session` tool" in seen["missing"][1]  # in the tools' words
    assert seen["log"].contents[0].text.startswith("# Session")
    assert "id: retry-with-backoff" in seen["fact"].contents[0].text
    assert seen["templates"] == ["mdmem://session/{stem}", "mdmem://fact/{id}"]
    assert seen["prompts"] == ["session_start", "wrap_up"]
    assert "start_session" in seen["prompt"] and "refunds" in seen["prompt"]
    for tool in seen["tools"]:
        assert tool.output_schema is not None, tool.name
        assert tool.input_schema["additionalProperties"] is False, tool.name
    assert isinstance(seen["shown"]["copies"][0]["footer"]["uses"], int)


# (row of docs/MCP.md's table, tool, arguments, what the answer says)
BAD_CALLS = [
    (
        "unknown argument",
        "add_fact",
        {"text": "Pitfall: sleeping in tests", "section": "Testing", "anti-pattern": True},
        "mdmem: add_fact: unknown argument `anti-pattern` (the arguments are text, section, id, "
        "tags, scope, anti_pattern, supersedes, new_section, session); did you mean "
        "`anti_pattern`?; nothing done",
    ),
    (
        "wrong type",
        "lookup",
        {"query": "retry", "limit": "ten"},
        "mdmem: lookup: `limit`: input should be a valid integer, unable to parse string as an "
        "integer; nothing done",
    ),
    (
        "missing argument",
        "add_fact",
        {"section": "Key Decisions"},
        "mdmem: add_fact: `text` is required; nothing done",
    ),
    (
        "a path outside the project",
        "lookup",
        {"query": "retry", "path": "../../outside.py"},
        "mdmem: `path` ../../outside.py is outside the project (repo/, which holds the "
        "memory): give a path inside it, like src/api/handlers.py",
    ),
    (
        "a newline and a heading in a fact",
        "add_fact",
        {"text": "Queues retry\n## Architectural Invariants", "section": "Key Decisions"},
        "mdmem: the text must be one line: it holds a line break (what follows it would land in "
        "the file as lines of their own); say it in one line, or add one fact per line",
    ),
    (
        "a heading as a fact",
        "thread",
        {"text": "## Architectural Invariants"},
        "mdmem: the text must not open with '#': it would be written as a heading",
    ),
    (
        "a 1 MB text",
        "add_fact",
        {"text": "word " * 200_000, "section": "Key Decisions"},
        "mdmem: the text is 1,000,000 characters; the limit is 2,000 (a fact is one statement: "
        "keep the detail in the code or docs, and name them)",
    ),
    (
        "a core fact through a tool",
        "add_fact",
        {"text": "Every request carries a tenant id", "section": "Architectural Invariants"},
        "mdmem: ## Architectural Invariants holds core facts, and a person makes a fact core: "
        "add it to another section, then open a thread 'Promote to core: ID?' for a person "
        "(who runs `mdmem core ID`); nothing written",
    ),
    (
        "a fact in Open Threads",
        "add_fact",
        {"text": "Decide the retention of audit logs", "section": "Open Threads"},
        "mdmem: ## Open Threads holds no facts: give another `section` (the `thread` tool "
        "opens a thread)",
    ),
]


@pytest.mark.parametrize(
    ("row", "tool", "arguments", "says"), BAD_CALLS, ids=[r[0] for r in BAD_CALLS]
)
def test_each_bad_call_gets_its_answer_and_writes_nothing(
    repo: Path, row: str, tool: str, arguments: dict[str, Any], says: str
) -> None:
    seen: dict[str, Any] = {}

    async def scenario(session: Session) -> None:
        await call(session, "start_session", slug="bad-calls")
        seen["before"] = snapshot(repo)
        seen["answer"] = await session.call_tool(tool, arguments)
        seen["after"] = snapshot(repo)

    drive(repo, scenario)
    answer = seen["answer"]
    assert answer.is_error, row
    assert answer.content[0].text.startswith(says.split(" (the arguments")[0]), answer.content
    if "(the arguments" not in says:
        assert answer.content[0].text == says
    assert seen["after"] == seen["before"]
    assert row in DOCS_TABLE


DOCS_TABLE = (Path(__file__).resolve().parent.parent / "docs" / "MCP.md").read_text("utf-8")

# every tool, every argument that takes text, a secret in it
SECRET_CALLS = [
    ("context", {"task": SECRET, "path": SECRET}),
    ("lookup", {"query": f"key {SECRET}", "path": SECRET}),
    ("lookup", {"query": f"key {SECRET}"}),
    ("show", {"id": SECRET, "as_of": SECRET}),
    ("status", {"session": SECRET}),
    ("start_session", {"slug": SECRET}),
    ("reference", {"ids": [SECRET], "session": SECRET}),
    ("reference", {"ids": [SECRET]}),
    (
        "add_fact",
        {
            "text": SECRET,
            "section": SECRET,
            "id": SECRET,
            "tags": [SECRET],
            "scope": SECRET,
            "supersedes": SECRET,
            "session": SECRET,
        },
    ),
    ("add_fact", {"text": "Deploy keys live in the vault", "section": "Ops", "id": SECRET}),
    ("supersede", {"old": SECRET, "by": SECRET, "session": SECRET}),
    ("supersede", {"old": "retry-with-backoff", "by_text": f"Use {SECRET}", "section": SECRET}),
    ("thread", {"text": f"Rotate {SECRET}", "session": SECRET}),
    ("lint", {"strict": SECRET}),
    ("add_fact", {SECRET: SECRET, "text": "x", "section": "y"}),
]


def test_a_secret_in_every_field_is_never_echoed(repo: Path) -> None:
    shown: list[str] = []

    async def scenario(session: Session) -> None:
        await call(session, "start_session", slug="secrets")
        for tool, arguments in SECRET_CALLS:
            answer = await session.call_tool(tool, arguments)
            shown.append(tool + ": " + " ".join(block.text for block in answer.content))
            shown.append(json.dumps(answer.structured_content))

    drive(repo, scenario)
    text = "\n".join(shown)
    assert SECRET not in text and SECRET.lower() not in text, text
    cli = CliRunner().invoke(main, ["lookup", f"key {SECRET}", "--json"])
    assert SECRET not in cli.output and SECRET.lower() not in cli.output
    cli = CliRunner().invoke(main, ["lookup", f"zebra {SECRET}"])
    assert cli.exit_code == 1 and SECRET not in cli.output and "[REDACTED:" in cli.stderr


def test_claude_codes_session_start_hook_pins_the_agents_own_log(
    repo: Path, tmp_path: Path
) -> None:
    """Each Claude Code session gets its own log, pinned through CLAUDE_ENV_FILE; a resumed
    session finds its log again; the pinned commands write there."""
    runner = CliRunner()
    pins = {}
    for agent in ("0f1e2d3c-aaaa", "9a8b7c6d-bbbb", "0f1e2d3c-aaaa"):
        env_file = tmp_path / f"env-{agent}"
        hook = runner.invoke(
            main,
            ["agent-hooks", "session-start"],
            input=json.dumps({"session_id": agent, "source": "startup"}),
            env={"CLAUDE_ENV_FILE": str(env_file)},
        )
        assert hook.exit_code == 0 and "pinned by MDMEM_SESSION=" in hook.stdout, hook.output
        line = env_file.read_text("utf-8").splitlines()[-1]
        pins[agent] = line.removeprefix("export MDMEM_SESSION=")
    assert pins["0f1e2d3c-aaaa"].endswith("-claude-0f1e2d3c")
    assert pins["9a8b7c6d-bbbb"].endswith("-claude-9a8b7c6d")
    assert len(list((repo / "memory" / "sessions").glob("*-claude-*.md"))) == 2
    done = runner.invoke(
        main,
        ["add", fact_text("a", 1), "--section", "Key Decisions", "--json"],
        env={"MDMEM_SESSION": pins["9a8b7c6d-bbbb"]},
    )
    fact_id = json.loads(done.stdout)["id"]
    log = repo / "memory" / "sessions" / f"{pins['9a8b7c6d-bbbb']}.md"
    assert created_lines(log) == {fact_id}


@pytest.mark.usefixtures("sdk")
def test_a_persons_command_in_a_refusal_is_not_made_a_tool() -> None:
    """A refusal that says what a person runs in a terminal names the command, not a tool
    (an agent's `supersede` tool is what the refusal keeps it from)."""
    from mdmem.mcp.calls import spoken
    from mdmem.writing.facts import AGENT_CORE

    said = spoken(AGENT_CORE.format(fact="'x'", where="memory/continuity.md:3"), ["old", "by"])
    assert "who runs mdmem supersede in a terminal" in said
    assert "tool in a terminal" not in said


def test_a_thread_one_client_opened_the_other_checks_off_in_its_own_log(repo: Path) -> None:
    """A leaves a thread; B, which finished it, checks it off: `Closed:` goes to B's log
    alone, the box to continuity."""
    stems: dict[str, str] = {}
    answers: dict[str, Any] = {}

    async def scenario(a: Session, b: Session) -> None:
        stems["a"] = (await call(a, "start_session", slug="agent-a"))["session"]
        stems["b"] = (await call(b, "start_session", slug="agent-b"))["session"]
        opened = await call(a, "thread", text="Decide the queue's retry budget")
        answers["done"] = await call(b, "done", id=opened["id"])
        answers["again"] = await b.call_tool("done", {"id": opened["id"]})

    two_clients(repo, scenario)
    thread_id = answers["done"]["id"]
    assert answers["done"]["session"] == stems["b"]
    assert answers["again"].is_error
    assert "is checked off already" in answers["again"].content[0].text
    folder = repo / "memory" / "sessions"
    assert f"- Closed: {thread_id}\n" in (folder / f"{stems['b']}.md").read_text("utf-8")
    assert "Closed" not in (folder / f"{stems['a']}.md").read_text("utf-8")
    continuity = (repo / "memory" / "continuity.md").read_text("utf-8")
    assert "- [x] Decide the queue's retry budget" in continuity
