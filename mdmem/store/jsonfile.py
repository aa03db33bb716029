"""A JSON object in a file people keep too (an agent's settings, an MCP client's
configuration), which mdmem adds to: read strictly, written back as people write it.

A missing or blank file is an empty object. A symbolic link is refused, as mdmem writes
through none; text that is not JSON (comments and trailing commas included), or JSON that
is not an object, is refused naming the file and line, so nothing is written over it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mdmem.errors import ParseError, WriteError
from mdmem.store.files import read_text
from mdmem.store.folders import LINKED, exists

FIX = "fix it by hand, then run the command again; nothing written"


def refusal(what: str) -> str:
    """A refusal of the file's content: what is wrong, and what to do."""
    return f"{what}; {FIX}"


def read_object(path: Path, display: str) -> dict[str, Any]:
    """The object in the file at `path`, named `display` in a refusal; {} without one."""
    if path.is_symlink():
        raise WriteError(LINKED, display)
    if not exists(path):
        return {}
    text = read_text(path, display)
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        what = (
            f"is not valid JSON ({exc.msg}, column {exc.colno}; comments and trailing commas "
            "are not read either)"
        )
        raise ParseError(refusal(what), display, exc.lineno) from None
    if not isinstance(value, dict):
        raise ParseError(refusal("holds no JSON object"), display)
    return value


def render(value: dict[str, Any]) -> str:
    """The object as written: two-space JSON, keys in their order, a final newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
