"""A rule file's frontmatter (Cursor `.mdc`, Copilot `.instructions.md`, Windsurf rules),
split off and read with python-frontmatter, and what its fields mean for the rules
(docs/MIGRATE.md, "The formats") (pure).

Cursor writes globs unquoted (`globs: **/*.ts`), which YAML reads as an alias and
refuses, so a `globs` or `applyTo` value that is not quoted, a list or a block is read as
the plain text it is, as Cursor itself reads it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml
from frontmatter.default_handlers import YAMLHandler

from mdmem.errors import ParseError
from mdmem.migrating.sources import COPILOT, CURSOR, WINDSURF

_RAW_GLOBS = re.compile(
    r"^(?P<key>globs|applyTo)(?P<colon>[ \t]*:[ \t]*)(?P<value>[^\s\"'\[{|>#].*?)[ \t]*$",
    re.MULTILINE,
)
_Refuse = Callable[[str, str], ParseError]
EVERY_FILE = frozenset({"**", "**/*", "*", "./**"})
NOT_IN_FOOTER = ("|", "<!--", "-->")


class _CursorYAML(YAMLHandler):
    """YAML frontmatter whose `globs`/`applyTo` may be unquoted glob text."""

    def load(self, fm: str, **kwargs: object) -> Any:
        quoted = _RAW_GLOBS.sub(lambda m: m["key"] + m["colon"] + json.dumps(m["value"]), fm)
        return super().load(quoted, **kwargs)


@dataclass(frozen=True)
class Header:
    """What a frontmatter says about the rules below it, and where the body starts."""

    body: int  # index of the first line of the body in the file's lines
    scope: str | None = None
    core_reason: str | None = None


def read_header(text: str, kind: str, path: str) -> Header:
    """The frontmatter of a rule file of `kind` (none: the whole text is the body)."""
    handler = _CursorYAML()
    if not handler.detect(text):
        return Header(0)
    try:
        fm, content = handler.split(text)
    except ValueError:
        raise ParseError("frontmatter opened here is never closed with '---'", path, 1) from None
    before = text[: len(text) - len(content)]
    body = before.count("\n") + (0 if before.endswith("\n") else 1)
    start = text[: text.index(fm)].count("\n")  # the line (0-based) `fm` starts on
    try:
        fields = handler.load(fm)
    except yaml.YAMLError as exc:
        error = yaml_error(exc, path, start)
        raise ParseError(f"frontmatter is {error.message}", path, error.line) from None
    if fields is None:
        return Header(body)
    if not isinstance(fields, dict):
        raise ParseError("frontmatter must be `key: value` lines", path, start + 1)

    def refuse(key: str, message: str) -> ParseError:
        """The error of a field's value, at the field's line."""
        found = [
            n for n, line in enumerate(fm.split("\n")) if line.startswith((f"{key}:", f"{key} "))
        ]
        return ParseError(f"{key}: {message}", path, start + found[0] + 1 if found else None)

    return _header(fields, kind, body, refuse)


def yaml_error(exc: yaml.YAMLError, path: str, start: int = 0) -> ParseError:
    """A YAML error as a ParseError at its line (`start`: the line, 0-based, the YAML text
    starts on in its file), with YAML's own words for what is wrong."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = None if mark is None else start + mark.line + 1
    words = [getattr(exc, "context", None), getattr(exc, "problem", None)]
    problem = ", ".join(word for word in words if word) or str(exc).splitlines()[0]
    return ParseError(f"not valid YAML: {problem}", path, line)


def _header(fields: Mapping[str, Any], kind: str, body: int, refuse: _Refuse) -> Header:
    if kind == CURSOR:
        always = _flag(fields.get("alwaysApply"), "alwaysApply", refuse)
        reason = "alwaysApply: true" if always else None
        return Header(body, _scope(fields.get("globs"), "globs", refuse), reason)
    if kind == COPILOT:
        return Header(body, _scope(fields.get("applyTo"), "applyTo", refuse))
    if kind == WINDSURF:
        trigger = fields.get("trigger")
        if trigger == "always_on":
            return Header(body, None, "trigger: always_on")
        if trigger == "glob":
            return Header(body, _scope(fields.get("globs"), "globs", refuse))
    return Header(body)


def _flag(value: object, key: str, refuse: _Refuse) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise refuse(key, f"must be true or false, not {value!r}")


def _scope(value: object, key: str, refuse: _Refuse) -> str | None:
    """A glob list as a footer's `scope`: comma-separated, none for every file."""
    if value is None:
        return None
    if isinstance(value, str):
        parts = value.split(",")
    elif isinstance(value, list) and all(isinstance(part, str) for part in value):
        parts = [piece for part in value for piece in part.split(",")]
    else:
        raise refuse(key, "must be a glob, a comma-separated list of globs, or a YAML list")
    globs = list(dict.fromkeys(part.strip() for part in parts if part.strip()))
    if any(mark in glob for glob in globs for mark in NOT_IN_FOOTER):
        raise refuse(key, "a glob must not hold '|', '<!--' or '-->': it goes in a footer")
    if not globs or EVERY_FILE & set(globs):
        return None
    return ",".join(globs)
