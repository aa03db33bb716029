"""The items a reading command leaves out of its answer.

SPEC §2: a reading command never refuses a whole memory for one item it cannot read; it
leaves the item out and names it. The parser asks here whether it is inside such a
command (`leaving_out`), and otherwise refuses, as the review and the write commands need.
A context variable, so that a command's answer and its warnings stay its own (a thread of
the MCP server, a test) without every reader passing the list down.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar

from mdmem.errors import ParseError
from mdmem.format.fences import Fences
from mdmem.format.footer import footer_ids
from mdmem.format.textfile import body

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


def holders(
    lines_of: Callable[[str], Sequence[str] | None], errors: Iterable[ParseError] | None = None
) -> dict[str, ParseError]:
    """id -> the item left out that holds it, so that a fact left out is named as such,
    never as missing: each footer-shaped line of a file the `errors` (by default, the items
    left out so far) name, `lines_of(path)` (None when it cannot be read), read for its id
    as a person reads it, and given to the error of that file at or above it (else to the
    file's first). A line in a fenced block is text, not a footer, as the document reader
    reads it (a fence never closed holds what the reader left out). The ids the parser
    did read are the caller's to set aside."""
    by_path: dict[str, list[ParseError]] = {}
    for error in left_out(None if errors is None else list(errors)):
        by_path.setdefault(error.path or "", []).append(error)
    held: dict[str, ParseError] = {}
    for path, found in by_path.items():
        found.sort(key=lambda error: error.line or 0)
        for number, line in _commented(lines_of(path) or ()):
            above = [error for error in found if (error.line or 0) <= number] or found[:1]
            for fact_id in filter(None, footer_ids(line)):
                held.setdefault(fact_id, above[-1])
    return held


def _commented(lines: Sequence[str]) -> list[tuple[int, str]]:
    """(1-based number, line) of each line that holds a comment outside a closed fence."""
    found: list[tuple[int, str]] = []
    fenced: list[tuple[int, str]] = []
    fences = Fences()
    for number, line in enumerate(lines, start=1):
        inside = fences.step(body(line))
        if "<!--" in line:
            (fenced if inside else found).append((number, line))
        elif inside and fences.open is None:
            fenced = []  # the fence closed: what it held was code
    return sorted(found + fenced)
