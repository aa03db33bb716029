"""Derived caches for lint, beside the review memo, outside the tracked tree.

- Findings per file (secrets, conflict markers, poisoning): scanning every session
  log costs more than a review, and committed logs never change, so a file whose
  size and modification time (ns) match what was cached keeps its findings.
- The history of the session logs (`git.plumbing.LogHistory`) up to a few recent commits:
  reading history diffs the flat sessions tree once per commit, so it is read once
  and then only extended by the commits after a known one. Commits never change,
  so these entries never go stale.

Both follow the rule of every cache (`mdmem.store.cache`): made by other code, or
missing or unreadable, a cache is empty and rebuilt; MDMEM_NO_CACHE=1 bypasses both.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from mdmem.git.plumbing import FirstChange, LogHistory, log_history
from mdmem.linting.findings import Finding, finding
from mdmem.store import cache

if TYPE_CHECKING:
    import git

HISTORIES_KEPT = 4


class TextCache:
    """Findings per display path, each kept with the stamp of the file it came from."""

    def __init__(self, root: Path) -> None:
        self._root = root
        entries = cache.load(root, "lint").get("entries")
        self._entries: dict[str, Any] = entries if isinstance(entries, dict) else {}
        self._fresh: dict[str, Any] = {}

    def cached(self, display: str, size: int, mtime_ns: int) -> list[Finding] | None:
        """The findings kept for a file of this size and mtime (recorded again), else None."""
        entry = self._entries.get(display)
        if not isinstance(entry, dict) or entry.get("stamp") != [size, mtime_ns]:
            return None
        found = _decode(display, entry.get("findings"))
        if found is not None:
            self._fresh[display] = entry
        return found

    def record(self, display: str, size: int, mtime_ns: int, rows: list[list[Any]]) -> None:
        """Keep a file's findings (as `to_rows`), from a scan begun after the stat was taken."""
        self._fresh[display] = {"stamp": [size, mtime_ns], "findings": rows}

    def save(self) -> None:
        if self._fresh != self._entries:
            cache.save(self._root, "lint", {"entries": self._fresh})


def history(root: Path, repo: git.Repo, folder: Path) -> LogHistory | None:
    """The session logs' history up to HEAD, read through the cache and kept in it."""
    known = _histories(cache.load(root, "history").get("histories"))
    found = log_history(repo, folder, known)
    if found is None or (known and known[0] == found):
        return found
    kept = [found, *(item for item in known if item.head != found.head)][:HISTORIES_KEPT]
    rows = [
        {"head": item.head, "first": {p: [c.commit, c.original] for p, c in item.first.items()}}
        for item in kept
    ]
    cache.save(root, "history", {"histories": rows})
    return found


def _histories(rows: Any) -> tuple[LogHistory, ...]:
    """The cached histories, most recent first; a malformed cache counts as empty."""
    try:
        return tuple(
            LogHistory(
                str(row["head"]),
                {str(p): FirstChange(str(c), str(o)) for p, (c, o) in row["first"].items()},
            )
            for row in rows
        )
    except (TypeError, ValueError, KeyError, AttributeError):
        return ()


def to_rows(found: list[Finding]) -> list[list[Any]]:
    """Findings as the cache keeps them (plain lists, which marshal and JSON both carry)."""
    return [[f.code, f.line, f.message, f.hint] for f in found]


def from_rows(display: str, rows: list[list[Any]]) -> list[Finding]:
    """The findings of `to_rows` rows."""
    return [finding(str(code), display, int(line), str(m), str(h)) for code, line, m, h in rows]


def _decode(display: str, rows: Any) -> list[Finding] | None:
    """The cached findings, or None when the entry is malformed (then the file is scanned)."""
    try:
        return from_rows(display, rows)
    except (TypeError, ValueError, KeyError):
        return None
