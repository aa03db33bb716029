"""The MCP server over stdio (the official SDK's `MCPServer`): the tools of `reads` and
`writes` and the `resources`, for one memory folder, with what it serves as data for
`mdmem mcp --json`."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer

from mdmem.mcp import reads, writes
from mdmem.mcp.resources import RESOURCES, Resources

NAME = "mdmem"
INSTRUCTIONS = """\
mdmem keeps this project's long-term memory as markdown in git: facts in
memory/continuity.md, one log per agent session in memory/sessions/.
At the start of your work call start_session (status tells whether one is current).
Before a task call context; look a fact up with lookup, its story with show.
Cite the facts you relied on with reference (helpful or harmful to vote on them).
Record durable knowledge with add_fact; retire a fact that became false with supersede;
leave a question for later with thread. Reviews, forgetting and promotions to core are
for humans, through the mdmem command line."""


def build(root: Path) -> MCPServer:
    """The server for the memory folder `root`: its tools in a fixed order, its resources."""
    server: MCPServer = MCPServer(
        NAME, version=version("mdmem"), instructions=INSTRUCTIONS, log_level="WARNING"
    )
    for tools, table in ((reads.Reads(root), reads.TOOLS), (writes.Writes(root), writes.TOOLS)):
        for name, (title, hints) in table.items():
            tool = getattr(tools, name)
            server.add_tool(
                tool,
                name=name,
                title=title,
                description=_described(tool),
                annotations=hints,
                structured_output=False,
            )
    resources = Resources(root)
    for name, (uri, mime_type) in RESOURCES.items():
        read = getattr(resources, name)
        description = _described(read)
        server.resource(uri, name=name, description=description, mime_type=mime_type)(read)
    return server


def serve(root: Path) -> None:
    """Serve the memory over stdin and stdout until the client closes them."""
    build(root).run("stdio")


def manifest(root: Path) -> dict[str, Any]:
    """What the server offers, as a client lists it: tools (with their hints and input
    schemas) and resources."""

    async def offered() -> dict[str, Any]:
        server = build(root)
        listed = [*await server.list_tools()], [*await server.list_resources()]
        tools, resources = (
            [item.model_dump(by_alias=True, exclude_none=True, mode="json") for item in items]
            for items in listed
        )
        return {"name": NAME, "tools": tools, "resources": resources}

    return anyio.run(offered)


def _described(function: Any) -> str:
    """A docstring as one paragraph: clients show a description as it is."""
    return " ".join((function.__doc__ or "").split())
