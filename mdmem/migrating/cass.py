"""A CASS (cass-memory) playbook and its `blocked.log`, read into rules and tombstones
(pure); what each field becomes is docs/MIGRATE.md's table ("What a CASS playbook
becomes"). A field of the wrong type refuses the playbook, naming its file and the
bullet's line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import yaml

from mdmem.errors import ParseError
from mdmem.format.footer import valid_date
from mdmem.migrating.markdown import PITFALLS, placed
from mdmem.migrating.metadata import yaml_error
from mdmem.migrating.sources import Rule, Tombstone

_TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
BLOCKED_REASON = "blocked in the CASS playbook"


def read_playbook(text: str, path: str) -> tuple[Rule, ...]:
    """The playbook's bullets and deprecated patterns, as rules in file order."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise yaml_error(exc, path) from None
    finally:
        loader.dispose()
    if node is None or data is None:
        return ()
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        raise ParseError("a playbook is a YAML mapping with `bullets`", path, 1)
    nodes = {key.value: value for key, value in node.value if isinstance(key, yaml.ScalarNode)}
    rules = [
        _bullet(item, _line(item_node, "content"), path)
        for item, item_node in _entries(data, nodes, "bullets", path)
    ]
    rules += [
        _deprecated_pattern(item, _line(item_node), path)
        for item, item_node in _entries(data, nodes, "deprecatedPatterns", path)
    ]
    return tuple(rules)


def _entries(
    data: Mapping[str, Any], nodes: Mapping[str, yaml.Node], key: str, path: str
) -> list[tuple[Mapping[str, Any], yaml.Node]]:
    """The mappings of a top-level list, each with its node (for its line)."""
    items, node = data.get(key), nodes.get(key)
    if items is None or node is None:
        return []
    if not isinstance(items, list) or not isinstance(node, yaml.SequenceNode):
        raise ParseError(f"`{key}` must be a list", path, _line(node))
    for item, item_node in zip(items, node.value, strict=True):
        if not isinstance(item, dict):
            raise ParseError(f"an entry of `{key}` must be a mapping", path, _line(item_node))
    return list(zip(items, node.value, strict=True))


def _line(node: yaml.Node, field: str | None = None) -> int:
    """The 1-based line of a node, or of its `field`'s value when it is a mapping."""
    if field is not None and isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == field:
                return int(value.start_mark.line) + 1
    return int(node.start_mark.line) + 1


def _bullet(bullet: Mapping[str, Any], line: int, path: str) -> Rule:
    content = bullet.get("content")
    if not isinstance(content, str) or not content.strip():
        raise ParseError("a bullet needs its `content` text", path, line)
    category = bullet.get("category")
    category = category if isinstance(category, str) else ""
    anti_pattern = bullet.get("type") == "anti-pattern" or bullet.get("kind") == "anti_pattern"
    section = PITFALLS if anti_pattern else placed([category])[0]
    tags = [category, *_listed(bullet, "tags", str, path, line)]
    key, successor = bullet.get("id"), bullet.get("replacedBy")
    return Rule(
        path,
        line,
        _lines(content),
        section,
        anti_pattern=anti_pattern,
        core_reason="pinned: true" if bullet.get("pinned") is True else None,
        tags=tuple(dict.fromkeys(tag for tag in tags if _TAG.match(tag))),
        helpful=_count(bullet, "helpful", path, line),
        harmful=_count(bullet, "harmful", path, line),
        retired=bullet.get("deprecated") is True or bullet.get("state") == "retired",
        key=key if isinstance(key, str) else None,
        successor=successor if isinstance(successor, str) else None,
    )


def _count(bullet: Mapping[str, Any], kind: str, path: str, line: int) -> int:
    """`helpfulCount` / `harmfulCount`, or the feedback events of that type when they are
    more (playbook versions keep one, the other or both)."""
    value = bullet.get(f"{kind}Count", 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ParseError(f"`{kind}Count` must be a whole number, not {value!r}", path, line)
    events = [
        *_listed(bullet, "feedbackEvents", dict, path, line),
        *_listed(bullet, f"{kind}Events", dict, path, line),
    ]
    return max(value, sum(1 for event in events if event.get("type") == kind))


_SHAPES: dict[type, str] = {
    str: "a list of strings",
    dict: "a list of mappings (`type: helpful`, ...)",
}


def _listed(bullet: Mapping[str, Any], field: str, shape: type, path: str, line: int) -> list[Any]:
    """A bullet's list `field` (none when it is missing), each item of type `shape`."""
    value = bullet.get(field)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, shape) for item in value):
        raise ParseError(f"`{field}` must be {_SHAPES[shape]}", path, line)
    return value


def _deprecated_pattern(entry: Mapping[str, Any], line: int, path: str) -> Rule:
    pattern = entry.get("pattern")
    if not isinstance(pattern, str) or not pattern.strip():
        raise ParseError("a deprecated pattern needs its `pattern` text", path, line)
    notes = [f"deprecated: {entry['reason']}"] if isinstance(entry.get("reason"), str) else []
    if isinstance(entry.get("replacement"), str):
        notes.append(f"use {entry['replacement']} instead")
    text = pattern.strip() + (f" ({'; '.join(notes)})" if notes else "")
    return Rule(path, line, _lines(text), PITFALLS, anti_pattern=True)


def _lines(text: str) -> tuple[str, ...]:
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return (lines[0].strip(), *lines[1:])


def read_blocked_log(text: str, path: str) -> tuple[Tombstone, ...]:
    """`blocked.log`'s entries: one JSON object a line, blank lines passed over."""
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ParseError(f"not a JSON object: {exc.msg}", path, number) from None
        content = entry.get("content") if isinstance(entry, dict) else None
        if not isinstance(content, str) or not content.strip():
            raise ParseError("a blocked entry needs its `content` text", path, number)
        reason = entry.get("reason")
        # One line with no `|`: it is written in a footer.
        reason = " ".join(reason.split()).replace("|", "/") if isinstance(reason, str) else ""
        date = str(entry.get("forgottenAt") or "")[:10]
        when = date if valid_date(date) else None
        found.append(Tombstone(path, number, content.strip(), reason or BLOCKED_REASON, when))
    return tuple(found)
