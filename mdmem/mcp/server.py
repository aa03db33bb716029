"""The MCP server over stdio (the official SDK's `MCPServer`): the tools of `reads` and
`writes` and the `resources`, for one memory folder, with what it serves as data for
`mdmem mcp --json`."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool

from mdmem.mcp import reads, writes
from mdmem.mcp.calls import Connection
from mdmem.mcp.prompts import PROMPTS
from mdmem.mcp.resources import RESOURCES, Resources
from mdmem.mcp.shapes import SHAPES
from mdmem.mcp.strict import strict_tool

NAME = "mdmem"
INSTRUCTIONS = """\
mdmem keeps this project's long-term memory as markdown in git: facts in
memory/continuity.md, one log per agent session in memory/sessions/.
At the start of your work call start_session (unless a session-start hook named a log
to you): this connection's writes go to that log, whatever other agents start; until
then they go to the one log git has not committed, which may be another agent's.
Before a task call context; look a fact up with lookup, its story with show.
Cite the facts you relied on with reference (helpful or harmful to vote on them).
Record durable knowledge with add_fact; retire a fact that became false with supersede;
leave a question for later with thread, and check off one you finished with done. Core
facts are a person's: no tool makes, changes or retires one; propose it with a thread
("Promote to core: ID?"). Reviews, forgetting and promotions to core are for humans,
through the mdmem command line."""


def build(root: Path) -> MCPServer:
    """The server for the memory folder `root`, for one connection: its tools in a fixed
    order (each refusing arguments it does not name), its resources and templates, and its
    prompts."""
    connection = Connection(root)
    server: MCPServer = MCPServer(
        NAME,
        version=version("mdmem"),
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        tools=_tools(connection),
    )
    resources = Resources(connection)
    for name, uri in RESOURCES.items():
        read = getattr(resources, name)
        described = _described(read)
        server.resource(uri, name=name, description=described, mime_type="text/markdown")(read)
    for name, (title, prompt) in PROMPTS.items():
        server.prompt(name, title=title, description=_described(prompt))(prompt)
    return server


def _tools(connection: Connection) -> list[Tool]:
    built: list[Tool] = []
    for tools, table in (
        (reads.Reads(connection), reads.TOOLS),
        (writes.Writes(connection), writes.TOOLS),
    ):
        for name, (title, hints) in table.items():
            tool = getattr(tools, name)
            built.append(strict_tool(tool, name, title, _described(tool), hints, SHAPES[name]))
    return built


def serve(root: Path) -> None:
    """Serve the memory over stdin and stdout until the client closes them."""
    build(root).run("stdio")


def manifest(root: Path) -> dict[str, Any]:
    """What the server offers, as a client lists it: tools (with their hints, input and
    output schemas), resources, resource templates and prompts."""

    async def offered() -> dict[str, Any]:
        server = build(root)
        listed = (
            [*await server.list_tools()],
            [*await server.list_resources()],
            [*await server.list_resource_templates()],
            [*await server.list_prompts()],
        )
        tools, resources, templates, prompts = (
            [item.model_dump(by_alias=True, exclude_none=True, mode="json") for item in items]
            for items in listed
        )
        return {
            "name": NAME,
            "tools": tools,
            "resources": resources,
            "resource_templates": templates,
            "prompts": prompts,
        }

    return anyio.run(offered)


def _described(function: Any) -> str:
    """A docstring as one paragraph: clients show a description as it is."""
    return " ".join((function.__doc__ or "").split())
