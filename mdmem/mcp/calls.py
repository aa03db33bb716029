"""How a tool call runs: in a worker thread after crash recovery, its refusal a tool (or
resource) error in the CLI's words and the tool's argument names, its answer masked.

One at a time: the memory's lock is re-entrant within a process (a command may lock and
call what locks again), so two calls in two threads of this one process would not keep
each other out; a process-wide mutex does, and mdmem's lock keeps other processes out.

One connection, one session: a server over stdio serves one client, so the log this
connection started (`start_session`) is the one its writes go to, whatever other agents
start meanwhile (`Connection`).
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import re
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

import anyio.to_thread
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent

from mdmem.errors import MdmemError
from mdmem.format.leftout import leaving_out, strictly
from mdmem.safety.secrets import redact, redact_all
from mdmem.safety.shown import shown
from mdmem.safety.shown import warnings as left_out_warnings
from mdmem.store.lock import finish_interrupted

SESSION_VARIABLE = "MDMEM_SESSION"
SESSION_ARGUMENT = "the session argument"
OWN_SESSION = "the session this connection started"
RESOURCE_NOT_FOUND = -32002  # the code MCP gives a resource that is not there

Answer = dict[str, Any]  # the CLI's --json, or {"markdown": text to read}

_one_at_a_time = threading.Lock()

# A command's name, as a refusal suggests it, and the tool that does the same here.
SAME_NAMES = ("supersede", "thread", "done", "lookup", "show", "context", "status", "lint")
COMMAND_TOOLS = {
    "mdmem ref": "reference",
    "mdmem add": "add_fact",
    "mdmem session start": "start_session",
    **{f"mdmem {name}": name for name in SAME_NAMES},
}
COMMAND = re.compile(r"[`'](mdmem [a-z-]+(?: start)?)(?: [^`']*)?[`']")
OPTION = re.compile(r"--([a-z][a-z-]*)(?: (?:[A-Z][A-Z-]*|\[[^\]]*\])(?:\.\.\.)?)?")


class Connection:
    """One client's connection to the server: the memory it serves and the session log it
    started (None until it starts one), which its writes then go to."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.own: str | None = None

    def named(self, session: str | None) -> tuple[str | None, str]:
        """(the log a call writes to, what named it): the `session` argument, else the log
        this connection started, else MDMEM_SESSION in the server's environment; None:
        the one log git has not committed (refused when there are several)."""
        if session:
            return session, SESSION_ARGUMENT
        if self.own is not None:
            return self.own, OWN_SESSION
        return os.environ.get(SESSION_VARIABLE) or None, SESSION_VARIABLE


def spoken(message: str, arguments: Iterable[str]) -> str:
    """A refusal the command line words, in a tool's words: a command it suggests named by
    the tool that does it, an option by the tool's argument (`--by NEW-ID` -> `by`)."""
    names = set(arguments)

    def command(match: re.Match[str]) -> str:
        tool = COMMAND_TOOLS.get(match.group(1))
        return match.group(0) if tool is None else f"the `{tool}` tool"

    def option(match: re.Match[str]) -> str:
        name = match.group(1).replace("-", "_")
        return f"`{name}`" if name in names else match.group(0)

    return OPTION.sub(option, COMMAND.sub(command, message))


class Tools:
    """Tools (or resources) over one connection's memory, each a call of the library in a
    worker thread."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def answer(
        self, tool: Callable[..., Any], call: Callable[[Path], Answer], *, reading: bool = False
    ) -> CallToolResult:
        """`call(root)`'s answer as a tool result: data as structured content and its JSON
        as text, or text alone; an MdmemError as an error result holding the CLI's line,
        worded with the arguments of `tool` (the method the client calls).

        `reading`: a reading tool, which leaves out an item it cannot read and names it
        (under `warnings`, and a closing line of a markdown answer), as the reading commands
        do (SPEC §2); any other call refuses such an item."""
        arguments = tuple(inspect.signature(tool).parameters)
        root = self.connection.root
        return await anyio.to_thread.run_sync(_answer, root, call, arguments, reading)

    async def contents(self, call: Callable[[Path], str], *, missing: bool = False) -> str:
        """`call(root)`'s text, masked, for a resource; an MdmemError as a resource error
        holding the CLI's line: with `missing`, MCP's "resource not found" (a session log
        or fact that is not there), else an internal error (a file that cannot be read)."""
        return await anyio.to_thread.run_sync(_contents, self.connection.root, call, missing)


def _answer(
    root: Path, call: Callable[[Path], Answer], arguments: tuple[str, ...], reading: bool
) -> Any:
    with _one_at_a_time, leaving_out() as left_out:
        try:
            finish_interrupted(root)
            with contextlib.nullcontext() if reading else strictly():
                payload = call(root)
        except MdmemError as exc:
            return CallToolResult(content=[_text(spoken(shown(exc), arguments))], is_error=True)
    warnings = left_out_warnings(left_out)
    masked = cast("dict[str, Any]", redact_all(payload))
    to_read = list(masked) == ["markdown"]
    if warnings:
        masked["warnings"] = redact_all(warnings)
    if to_read:  # the markdown, and each item left out named after it
        notes = "".join(f"\n\n(left out, unreadable: {item['path']}:{item['line']}: "
                        f"{item['message']})" for item in warnings)  # fmt: skip
        text = masked["markdown"] + redact(notes)
    else:
        text = json.dumps(masked, indent=2, ensure_ascii=False)
    return CallToolResult(content=[_text(text)], structured_content=masked)


def _contents(root: Path, call: Callable[[Path], str], missing: bool) -> str:
    with _one_at_a_time:
        try:
            finish_interrupted(root)
            return redact(call(root))
        except MdmemError as exc:
            message = spoken(shown(exc), ("session",))
            if missing:
                raise MCPError(RESOURCE_NOT_FOUND, message) from None
            raise ResourceError(message) from None


def _text(text: str) -> TextContent:
    return TextContent(type="text", text=text)
