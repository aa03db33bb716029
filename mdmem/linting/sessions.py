"""Checks of the session logs as the ledger reads them: log names, reference keys, and
ids a log cites that name no fact (with the nearest known id, from `nearest.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document
from mdmem.format.memory import Memory
from mdmem.format.sessionlog import EVENT_KEYS
from mdmem.linting.facts import placed
from mdmem.linting.findings import Finding, finding


def ledger_findings(memory: Memory) -> list[Finding]:
    """Date-only log names and keys the ledger does not know."""
    found = []
    keys = ", ".join(key.capitalize() for key in EVENT_KEYS)
    for session in memory.sessions:
        if not session.name.time:
            found.append(finding("W004", session.path, 1, "date-only session log name"))
        for line, key in session.unknown_keys:
            found.append(
                finding(
                    "W003",
                    session.path,
                    line,
                    f"unknown key {key!r} in ## Memory References (counted as Referenced)",
                    f"use one of: {keys}",
                )
            )
    return found


def known_ids(
    memory: Memory, vision: Document | None, entries: tuple[BlockedEntry, ...]
) -> frozenset[str]:
    """Every id a session may name: facts anywhere, and forgotten ones (old logs cite them)."""
    ids = {fact.id for _, fact in placed(memory, vision)}
    return frozenset(ids | {entry.fact_id for entry in entries})


def unknown_id_findings(
    path: str,
    tokens: Iterable[tuple[str, int, bool]],
    unknown: frozenset[str],
    nearest: Callable[[str], str | None],
) -> list[Finding]:
    """A finding per (token, line) of a log's references that names no known id: a listed
    one, or one in a `(...)` note that is a near miss of a known id. A note's other
    hyphenated words are prose."""
    found = []
    for token, line, listed in dict.fromkeys(tokens):
        if token not in unknown:
            continue
        suggestion = nearest(token)
        if not listed and suggestion is None:
            continue
        message = f"unknown id {token}" + (
            f"; nearest known id: {suggestion}" if suggestion else ""
        )
        found.append(finding("W002", path, line, message))
    return found
