"""The decay policy: integer windows and switches read from `decay-policy.md`."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from mdmem.errors import PolicyError
from mdmem.format.fences import Fences
from mdmem.format.textfile import TextFile, body

MAX_VALUE = 1_000_000
_LINE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|`)?(?P<key>[A-Za-z_]+)(?:\*\*|`)?\s*:\s*(?P<value>.*?)\s*$"
)
_INTEGER = re.compile(r"^(?P<number>[+-]?\d+)(?:\s+.*)?$")
_SWITCH = {
    "true": True,
    "yes": True,
    "on": True,
    "1": True,
    "false": False,
    "no": False,
    "off": False,
    "0": False,
}


@dataclass(frozen=True)
class Policy:
    working_window: int = 3
    active_window: int = 8
    archive_window: int = 20
    review_every: int = 10
    continuity_max_facts: int = 30
    continuity_max_lines: int = 600
    verify_invariants_every: int = 40
    auto_core: bool = False
    core_min_uses: int = 12
    core_min_reviews: int = 5
    thread_stale_window: int = 40  # the protocol's knob (v4.39): read and kept, not acted on
    closed_narrative_max_lines: int = 150  # non-empty lines of a done thread before lint hints


_INT_KEYS = frozenset(f.name for f in dataclasses.fields(Policy) if f.type in ("int", int))
_ALIASES = {"auto_core_enabled": "auto_core", "enabled": "auto_core"}


def parse_policy(file: TextFile | None) -> Policy:
    """Known `key: value` lines set the policy; every other line is commentary."""
    if file is None:
        return Policy()
    values: dict[str, int | bool] = {}
    where: dict[str, int] = {}
    fences = Fences()
    for number, raw in enumerate(file.lines, 1):
        line = body(raw)
        match = None if fences.step(line) else _LINE.match(line)
        if match is None:
            continue
        key = _ALIASES.get(match["key"].lower(), match["key"].lower())
        if key != "auto_core" and key not in _INT_KEYS:
            continue
        if key in values:
            raise PolicyError(f"{key} is set twice (first at line {where[key]})", file.path, number)
        values[key] = _value(key, match["value"], file.path, number, line)
        where[key] = number
    policy = Policy(**values)  # type: ignore[arg-type]
    _check(policy, file.path, where)
    return policy


def _value(key: str, text: str, path: str, line: int, context: str) -> int | bool:
    if key == "auto_core":
        switch = _SWITCH.get(text.strip("`*").lower())
        if switch is None:
            message = f"auto_core must be true or false, not {text!r}"
            raise PolicyError(message, path, line, context=context)
        return switch
    match = _INTEGER.match(text.strip("`*"))
    if match is None:
        message = f"{key} must be a whole number, not {text!r}"
        raise PolicyError(message, path, line, context=context)
    number = int(match["number"])
    if number < 0 or number > MAX_VALUE:
        raise PolicyError(f"{key} must be between 0 and {MAX_VALUE}, not {number}", path, line)
    return number


def _check(policy: Policy, path: str, where: dict[str, int]) -> None:
    if policy.active_window < 1:
        raise PolicyError("active_window must be at least 1", path, where.get("active_window"))
    if policy.archive_window <= policy.active_window:
        line = where.get("archive_window", where.get("active_window"))
        raise PolicyError(
            f"archive_window ({policy.archive_window}) must be greater than active_window "
            f"({policy.active_window})",
            path,
            line,
        )
