"""What each tool answers, as the `outputSchema` a client checks its structured content
against: the same keys the command prints with --json. Written by hand, in a short
notation (`"string|null"`, `["object"]` for a list of objects), so that a change of an
answer's shape is a change here too; `tests/test_mcp_server.py` checks every answer
against its schema through the SDK's client, which validates it."""

from __future__ import annotations

from typing import Any

Shape = dict[str, Any]

LOG = {"session": "string", "log": "string", "path": "string", "file": "string"}
LOG |= {"source": "string"}
HIT = {"path": "string", "line": "integer", "id": "string", "tier": "string|null"}
HIT |= {"score": "integer", "text": "string"}
THREAD = {"id": "string", "path": "string", "line": "integer", "text": "string"}
CONTEXT_ITEM = {"id": "string", "text": "string", "whole": "boolean", "path": "string"}
CONTEXT_ITEM |= {"line": "integer", "tier": "string|null", "score": "integer"}
CONTEXT_LISTS = ("core", "rules", "threads", "pitfalls")


def schema(fields: dict[str, Any], *, closed: bool = True) -> Shape:
    """An object schema from the notation: each key required; `closed`: no other key."""
    shaped: Shape = {
        "type": "object",
        "properties": {key: _field(value) for key, value in fields.items()},
        "required": list(fields),
    }
    return {**shaped, "additionalProperties": False} if closed else shaped


def _field(value: Any) -> Shape:
    if isinstance(value, dict):
        return schema(value, closed=False)
    if isinstance(value, list):
        item = value[0]
        return {"type": "array", "items": _field(item) if item != "object" else {"type": "object"}}
    kinds = value.split("|")
    return {"type": kinds[0] if len(kinds) == 1 else kinds}


SHAPES: dict[str, Shape] = {
    # its markdown always, and with format json the same as data too
    "context": schema(
        {
            "markdown": "string",
            "task": "string|null",
            "path": "string|null",
            "budget": "integer",
            "tokens": "integer",
            "dropped": "integer",
            "left_out": ["string"],
            **{name: [CONTEXT_ITEM] for name in CONTEXT_LISTS},
            "warnings": ["object"],
            "cite": "string",
        }
    )
    | {"required": ["markdown"]},
    "lookup": schema(
        {
            "query": "string",
            "words": ["string"],
            "hits": [HIT],
            "total": "integer",
            "superseded": ["object"],
            "sessions": ["object"],
        }
    ),
    "show": schema(
        {
            "id": "string",
            "copies": ["object"],
            "origin": "string|null",
            "supersedes": ["string"],
            "superseded_by": ["string"],
            "forgotten": ["string"],
            "helpful": "integer",
            "harmful": "integer",
            "maturity": "string|null",
            "as_of": "object|null",
            "references": ["object"],
        }
    ),
    "status": schema(
        {
            "session": "string|null",
            "log": "string|null",
            "session_source": "string|null",
            "uncommitted": ["string"],
            "last_review": "string|null",
            "since_review": "integer",
            "review_every": "integer",
            "review_due": "boolean",
            "lint": "object",
            "open_threads": [THREAD],
        }
    ),
    "lint": schema(
        {
            "findings": ["object"],
            "errors": "integer",
            "warnings": "integer",
            "committed_log_warnings": "integer",
            "passed": "boolean",
        }
    ),
    "start_session": schema(
        {**LOG, "earlier_uncommitted": "string|null", "note": "string|null", "pin": "string"}
    ),
    "reference": schema({**LOG, "key": "string", "added": ["string"], "already": ["string"]}),
    "add_fact": schema(
        {
            "outcome": "string",
            "id": "string",
            "path": "string",
            "line": "integer",
            "section": "string",
            "tier": "string|null",
            "supersedes": "string|null",
            "threads": ["object"],
            "session": "string",
            "log": "string",
            "log_lines": ["string"],
            "note": "string|null",
            "extra_words": ["string"],
        }
    ),
    "supersede": schema(
        {
            "old": "string",
            "new": "string|null",
            "created": "boolean",
            "linked": "boolean",
            "session": "string",
            "log": "string",
        }
    ),
    "thread": schema({"id": "string", "created": "boolean", "file": "string|null"}),
    "done": schema({"id": "string", "where": "string", "session": "string|null"}),
}
