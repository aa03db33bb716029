"""How a tool call runs: one at a time, in a worker thread, after any write a crash cut
short is finished, with a refusal returned as a tool (or resource) error that says what the
CLI says, and every string of the answer masked as the CLI masks what it prints.

One at a time: the memory's lock is re-entrant within a process (a command may lock and
call what locks again), so two calls in two threads of this one process would not keep
each other out; a process-wide mutex does, and mdmem's lock keeps other processes out.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import anyio.to_thread
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.types import CallToolResult, TextContent

from mdmem.errors import MdmemError, shown
from mdmem.format.leftout import leaving_out, strictly
from mdmem.safety.secrets import redact, redact_all
from mdmem.store.journal import finish_interrupted

SESSION_VARIABLE = "MDMEM_SESSION"
SESSION_ARGUMENT = "the session argument"

Answer = dict[str, Any] | str  # data (the CLI's --json), or text to read (markdown)

_one_at_a_time = threading.Lock()


async def answer(
    root: Path, call: Callable[[Path], Answer], *, reading: bool = False
) -> CallToolResult:
    """`call(root)`'s answer as a tool result: data as structured content and its JSON as
    text, or text alone; an MdmemError as an error result holding the CLI's line.

    `reading`: a reading tool, which leaves out an item it cannot read and names it (under
    `warnings`, or a closing line of the text), as the reading commands do (SPEC §2)."""
    return await anyio.to_thread.run_sync(_answer, root, call, reading)


def _answer(root: Path, call: Callable[[Path], Answer], reading: bool) -> CallToolResult:
    with _one_at_a_time, leaving_out() as left_out:
        try:
            finish_interrupted(root)
            with contextlib.nullcontext() if reading else strictly():
                payload = call(root)
        except MdmemError as exc:
            return CallToolResult(content=[_text(shown(exc))], is_error=True)
    warnings = [
        {"path": error.path, "line": error.line, "message": error.message}
        for error in {str(error): error for error in left_out}.values()
    ]
    if isinstance(payload, str):
        notes = "".join(f"\n\n(left out, unreadable: {item['path']}:{item['line']}: "
                        f"{item['message']})" for item in warnings)  # fmt: skip
        return CallToolResult(content=[_text(redact(payload + notes))])
    if warnings:
        payload = {**payload, "warnings": warnings}
    masked = cast("dict[str, Any]", redact_all(payload))
    return CallToolResult(
        content=[_text(json.dumps(masked, indent=2, ensure_ascii=False))],
        structured_content=masked,
    )


async def contents(root: Path, call: Callable[[Path], str]) -> str:
    """`call(root)`'s text, masked, for a resource; an MdmemError as a resource error
    holding the CLI's line."""
    return await anyio.to_thread.run_sync(_contents, root, call)


def _contents(root: Path, call: Callable[[Path], str]) -> str:
    with _one_at_a_time:
        try:
            finish_interrupted(root)
            return redact(call(root))
        except MdmemError as exc:
            raise ResourceError(shown(exc)) from None


def _text(text: str) -> TextContent:
    return TextContent(type="text", text=text)


def named_session(session: str | None) -> tuple[str | None, str]:
    """(the log a call names, what named it): the `session` argument, else MDMEM_SESSION
    in the server's environment, as the CLI's --session and its variable; None: the
    newest log git has not committed."""
    if session:
        return session, SESSION_ARGUMENT
    return os.environ.get(SESSION_VARIABLE) or None, SESSION_VARIABLE
