"""The history of the session logs (`git.plumbing.LogHistory`) up to a few recent commits,
kept outside the tracked tree: reading history diffs the flat sessions tree once per
commit, so it is read once and then only extended by the commits after a known one.
Commits never change, so these entries never go stale.

It follows the rule of every cache (`mdmem.store.cache`): made by other code, or missing,
unreadable or damaged, it is empty and rebuilt; MDMEM_NO_CACHE=1 bypasses it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from mdmem.git.plumbing import FirstChange, LogHistory, log_history
from mdmem.store import cache

if TYPE_CHECKING:
    import git

HISTORIES_KEPT = 4


def history(root: Path, repo: git.Repo, folder: Path) -> LogHistory | None:
    """The session logs' history up to HEAD, read through the cache and kept in it."""
    known = _histories(cache.load(root, "history").get("histories", []))
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


def _histories(rows: list[dict[str, Any]]) -> tuple[LogHistory, ...]:
    """The cached histories, most recent first, as `history` kept them."""
    return tuple(
        LogHistory(row["head"], {p: FirstChange(c, o) for p, (c, o) in row["first"].items()})
        for row in rows
    )
