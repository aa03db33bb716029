"""The items a reading command leaves out of its answer.

SPEC §2: a reading command never refuses a whole memory for one item it cannot read; it
leaves the item out and names it. The parser asks here whether it is inside such a
command (`leaving_out`), and otherwise refuses, as the review and the write commands need.
A context variable, so that a command's answer and its warnings stay its own (a thread of
the MCP server, a test) without every reader passing the list down.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from mdmem.errors import ParseError

# None, the default: an item that cannot be read is refused.
_LEFT_OUT: ContextVar[list[ParseError] | None] = ContextVar("mdmem_left_out", default=None)


@contextlib.contextmanager
def leaving_out() -> Iterator[list[ParseError]]:
    """Within: an item the parser cannot read is left out of the document, its error added
    to the list yielded (in the order met), instead of refusing the whole file."""
    collected: list[ParseError] = []
    token = _LEFT_OUT.set(collected)
    try:
        yield collected
    finally:
        _LEFT_OUT.reset(token)


@contextlib.contextmanager
def strictly() -> Iterator[None]:
    """Within: every item must be read, even inside `leaving_out` (a part of a document
    read alone, whose line numbers are not the file's)."""
    token = _LEFT_OUT.set(None)
    try:
        yield
    finally:
        _LEFT_OUT.reset(token)


def left_out_so_far() -> int:
    """How many items have been left out in the current `leaving_out` (0 outside one)."""
    collected = _LEFT_OUT.get()
    return 0 if collected is None else len(collected)


def leave_out(error: ParseError) -> None:
    """Collect `error` when a reading command leaves unreadable items out; else raise it."""
    collected = _LEFT_OUT.get()
    if collected is None:
        raise error
    collected.append(error)


def left_out(errors: list[ParseError] | None = None) -> list[ParseError]:
    """`errors` (by default, those of the items left out so far), once each, in the order
    met: what a JSON answer's `warnings` name, masked where shown (`safety.shown`)."""
    collected = _LEFT_OUT.get() if errors is None else errors
    return list({str(error): error for error in collected or []}.values())
