"""Checks of one file's text: parse errors, conflict markers, secrets, poisoning markers.

Each check reads the raw text alone, so its findings can be cached per file (see
`cache.py`; a cache written by other mdmem source is not trusted).
"""

from __future__ import annotations

from mdmem.errors import ParseError
from mdmem.format.textfile import conflict_marker_lines
from mdmem.linting.findings import Finding, finding
from mdmem.safety.poison import find_poison
from mdmem.safety.secrets import allowed_lines, find_secrets
from mdmem.safety.shown import masked


def parse_finding(error: ParseError, fallback_path: str) -> Finding:
    return finding(
        "E001",
        error.path or fallback_path,
        error.line or 1,
        masked(error.message, error.context),
        "fix the file at this line; mdmem reads nothing else of it until then",
    )


def text_findings(path: str, text: str, *, facts: bool) -> list[Finding]:
    """Conflict markers and secrets in any memory text; poisoning markers where facts live.

    A session log's line that carries `lint:allow-secret-material` quotes secret material on
    purpose: not reported (its value is still masked wherever mdmem shows the line)."""
    found = [
        finding(
            "E007",
            path,
            line,
            "merge-conflict marker",
            "resolve the conflict, keeping the facts of both sides, and delete the markers",
        )
        for line in conflict_marker_lines(text)
    ]
    allowed = frozenset() if facts else allowed_lines(text)  # only a log quotes examples
    for secret in find_secrets(text):
        if secret.line in allowed:
            continue
        found.append(
            finding(
                "E009",
                path,
                secret.line,
                f"secret material ({secret.category}) at column {secret.column}",
                "remove it and rotate the credential; in a committed session log, replace "
                "the value with [REDACTED], the one edit such a log allows",
            )
        )
    if facts:
        for hit in find_poison(text):
            found.append(
                finding(
                    "E010",
                    path,
                    hit.line,
                    f"{hit.kind} at column {hit.column}: {hit.detail}",
                    "memory must read the same to a person and to an agent: delete it",
                )
            )
    return found
