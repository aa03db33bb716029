"""Checks of one file's text: parse errors, conflict markers, secrets, poisoning markers.

Each check reads the raw text alone, so a session log's marks are kept with the rest of
what it yields (`store.load.read_logs`).
"""

from __future__ import annotations

from typing import Any

from mdmem.errors import ParseError
from mdmem.format.textfile import conflict_marker_lines
from mdmem.linting.findings import Finding, finding
from mdmem.safety.poison import find_poison
from mdmem.safety.secrets import reported_secrets
from mdmem.safety.shown import masked


def parse_finding(error: ParseError, fallback_path: str) -> Finding:
    message = masked(error.message, error.context)
    return finding("E001", error.path or fallback_path, error.line or 1, message)


def text_findings(path: str, text: str, *, facts: bool) -> list[Finding]:
    """Conflict markers and secrets in any memory text; poisoning markers where facts live.

    A session log's line that carries `lint:allow-secret-material` quotes secret material on
    purpose: not reported (its value is still masked wherever mdmem shows the line)."""
    secrets = [
        [hit.line, hit.column, hit.category] for hit in reported_secrets(text, quoted=not facts)
    ]
    found = mark_findings(path, conflict_marker_lines(text), secrets)
    if facts:
        for hit in find_poison(text):
            message = f"{hit.kind} at column {hit.column}: {hit.detail}"
            found.append(finding("E010", path, hit.line, message))
    return found


def mark_findings(path: str, conflicts: list[int], secrets: list[list[Any]]) -> list[Finding]:
    """A text's conflict markers (their lines) and secrets ([line, column, category]) as
    findings."""
    found = [finding("E007", path, line, "merge-conflict marker") for line in conflicts]
    for line, column, category in secrets:
        message = f"secret material ({category}) at column {column}"
        found.append(finding("E009", path, line, message))
    return found
