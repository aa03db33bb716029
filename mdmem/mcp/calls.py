"""How a tool call runs: one at a time, in a worker thread, after any write a crash cut
short is finished, with a refusal returned as a tool (or resource) error that says what the
CLI says, and every string of the answer masked as the CLI masks what it prints.

One at a time: the memory's lock is re-entrant within a process (a command may lock and
call what locks again), so two calls in two threads of this one process would not keep
each other out; a process-wide mutex does, and mdmem's lock keeps other processes out.
"""

from __future__ import annotations

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
from mdmem.safety.secrets import redact, redact_all
from mdmem.store.journal import finish_interrupted

SESSION_VARIABLE = "MDMEM_SESSION"
SESSION_ARGUMENT = "the session argument"

Answer = dict[str, Any] | str  # data (the CLI's --json), or text to read (markdown)

_one_at_a_time = threading.Lock()


async def answer(root: Path, call: Callable[[Path], Answer]) -> CallToolResult:
    """`call(root)`'s answer as a tool result: data as structured content and its JSON as
    text, or text alone; an MdmemError as an error result holding the CLI's line."""
    return await anyio.to_thread.run_sync(_answer, root, call)


def _answer(root: Path, call: Callable[[Path], Answer]) -> CallToolResult:
    with _one_at_a_time:
        try:
            finish_interrupted(root)
            payload = call(root)
        except MdmemError as exc:
            return CallToolResult(content=[_text(shown(exc))], is_error=True)
    if isinstance(payload, str):
        return CallToolResult(content=[_text(redact(payload))])
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
