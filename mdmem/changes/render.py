"""What a change did to a memory, as markdown for a pull request. Pure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from mdmem.changes import model as kinds
from mdmem.changes.model import Change, Changes

MARKER = "<!-- mdmem:diff -->"  # the first line, by which CI finds its comment to edit it
MOST_LINES = 100  # per list: a pull request's comment holds at most 65,536 characters
T = TypeVar("T")

_TITLES = {
    kinds.ADDED: "Added",
    kinds.REWORDED: "Reworded",
    kinds.SUPERSEDED: "Superseded (old → new)",
    kinds.INVALIDATED: "Invalidated",
    kinds.RESTORED: "Restored",
    kinds.FORGOTTEN: "Forgotten",
    kinds.THREAD_OPENED: "Threads opened",
    kinds.THREAD_CLOSED: "Threads closed",
    kinds.THREAD_REOPENED: "Threads reopened",
}
_MOVES = (kinds.ARCHIVED, kinds.REACTIVATED, kinds.TIER)


def markdown(changes: Changes) -> str:
    """The account a reviewer reads: what needs a person first, then each kind of change,
    the sessions added, the paths gone and lint's new findings."""
    lines = [MARKER, f"### Memory: {changes.base} → {changes.head}", ""]
    if changes.empty:
        return "\n".join([*lines, "No change to the memory.", ""])
    flagged = [change for change in changes.changes if change.flagged]
    logs = [*changes.sessions_rewritten, *changes.sessions_removed]
    if flagged or changes.unreadable_removed or logs:
        lines += ["**A person must approve:**", ""]
        lines += _capped(flagged, lambda c: f"- ⚠️ `{c.id}` {c.kind}{_about(c)}")
        lines += _capped(changes.unreadable_removed, _removed)
        lines += _capped(list(changes.sessions_rewritten), _rewritten)
        lines += _capped(list(changes.sessions_removed), _log_removed)
        lines.append("")
    title = "Left out: items that cannot be read (`mdmem lint` lists them)"
    lines += _section(title, list(changes.unreadable), _unreadable)
    for kind, title in _TITLES.items():
        chosen = [change for change in changes.changes if change.kind == kind]
        lines += _section(title, chosen, _line)
    moves = [change for change in changes.changes if change.kind in _MOVES]
    by = " (a review's)" if changes.reviewed else ""
    lines += _section(f"Tier moves{by}", moves, _move)
    lines += _section("Sessions added", list(changes.sessions), _session)
    lines += _section(
        "Facts that name a path this change deleted or renamed", list(changes.paths), _path
    )
    fixed = f"; {changes.findings_fixed} fixed" if changes.findings_fixed else ""
    title = f"Lint findings this change brings{fixed}"
    lines += _section(
        title, list(changes.findings), lambda f: f"- `{f.path}:{f.line}` {f.code} {f.message}"
    )
    if not changes.findings and changes.findings_fixed:
        lines += [f"Lint: {changes.findings_fixed} findings fixed, none new.", ""]
    return "\n".join(lines)


def _section(title: str, items: Sequence[T], line: Callable[[T], str]) -> list[str]:
    if not items:
        return []
    return [f"**{title}** ({len(items)})", "", *_capped(items, line), ""]


def _capped(items: Sequence[T], line: Callable[[T], str]) -> list[str]:
    shown = [line(item) for item in items[:MOST_LINES]]
    if len(items) > MOST_LINES:
        shown.append(f"- … and {len(items) - MOST_LINES} more (`mdmem diff --json` lists all)")
    return shown


def _about(change: Change) -> str:
    where = f" ({change.section})" if change.section else ""
    detail = f" — {change.detail}" if change.detail else ""
    return f"{where}: {change.lead}{detail}" if change.lead else f"{where}{detail}"


def _line(change: Change) -> str:
    if change.kind == kinds.SUPERSEDED:
        return f"- `{change.id}` {change.detail}: {change.lead}"
    if change.kind == kinds.FORGOTTEN:
        return f"- `{change.id}`: {change.lead} — reason: {change.detail}"
    if change.kind == kinds.REWORDED:
        return f"- `{change.id}` ({change.section}): {change.detail}"
    return f"- `{change.id}`{_about(change)}"


def _unreadable(item: kinds.Unreadable) -> str:
    held = ", ".join(f"`{fact_id}`" for fact_id in item.ids)
    holds = f" holds {held}, neither added nor removed" if held else ""
    return f"- ⚠️ `{item.path}:{item.line}` on {item.side}{holds}: {item.why}"


def _rewritten(stem: str) -> str:
    return (
        f"- ⚠️ session log `{stem}` rewritten: a committed log is the ledger and is never "
        "edited, but to redact a secret (restore it from the base unless that is the edit)"
    )


def _log_removed(stem: str) -> str:
    return f"- ⚠️ session log `{stem}` removed: the ledger loses every citation it made"


def _removed(item: kinds.Unreadable) -> str:
    held = ", ".join(f"`{fact_id}`" for fact_id in item.ids)
    holding = f" holding {held}" if held else ""
    return f"- ⚠️ unreadable item removed: `{item.path}:{item.line}` on base{holding} ({item.why})"


def _move(change: Change) -> str:
    return f"- `{change.id}` {change.kind}: {change.detail}"


def _session(session: kinds.SessionAdded) -> str:
    cited = ", ".join(f"`{fact_id}`" for fact_id in session.cited) or "nothing"
    events = "; " + "; ".join(session.events) if session.events else ""
    return f"- `{session.stem}`: cited {cited}{events}"


def _path(path: kinds.PathNamed) -> str:
    gone = f"renamed to `{path.renamed_to}`" if path.renamed_to else "deleted"
    return f"- `{path.id}` names `{path.path}`, {gone}"
