"""Carrying out a review plan: the all-or-nothing write, then one git commit of those files."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from mdmem.errors import MdmemError, SecretError
from mdmem.format.memory import SESSIONS
from mdmem.git.plumbing import commit_files, repository, top_folder
from mdmem.git.revisions import names_in
from mdmem.reviewing.plan import ReviewPlan
from mdmem.reviewing.render import FileWrite
from mdmem.reviewing.summary import ReviewSummary, id_list
from mdmem.safety.secrets import find_secrets
from mdmem.store.files import read_text
from mdmem.store.folders import exists
from mdmem.store.lock import locked
from mdmem.store.writer import write_files


@dataclass(frozen=True)
class ApplyResult:
    written: tuple[str, ...]  # paths relative to the memory folder
    commit: str | None  # the review commit, when one was made
    notice: str | None  # why no commit was made, or what it leaves to do, when worth saying


MESSAGE_IDS = 200  # ids named per line of a commit message


def commit_message(summary: ReviewSummary) -> str:
    """A message built only from the review's inputs: counts and ids per change."""
    tiers = ", ".join(f"{tier} {count}" for tier, count in summary.tiers)
    lines = [
        f"mdmem review through {summary.through}",
        "",
        f"{summary.sessions} sessions; {tiers}; open threads {summary.open_threads}",
    ]
    details = [
        f"{label.capitalize()}: {id_list(ids, MESSAGE_IDS)}" for label, ids in summary.listed()
    ]
    if summary.tier_changes:
        changes = [f"{i} ({a} → {b})" for i, a, b in summary.tier_changes]
        details.append(f"Tier changes: {id_list(changes, MESSAGE_IDS)}")
    if summary.refreshed:
        details.append(f"Refreshed uses/last_used: {len(summary.refreshed)} facts")
    if summary.backfilled:
        details.append(f"Backfilled origin: {id_list(summary.backfilled, MESSAGE_IDS)}")
    if details:
        lines += ["", *details]
    return "\n".join(lines) + "\n"


def apply(plan: ReviewPlan, *, commit: bool = True) -> ApplyResult:
    """Write the plan's files all or nothing, then commit exactly them.

    If git refuses the commit, or it is interrupted (Ctrl-C) before git makes it, the
    files and git's index are put back as they were, so a review either lands whole
    (files and commit) or not at all.
    """
    if not plan.writes or plan.summary is None:
        return ApplyResult((), None, None)
    root = plan.root
    refuse_secrets(plan)
    with locked(root):
        for write in plan.writes:
            path = root / write.path
            current = read_text(path, f"{root.name}/{write.path}") if exists(path) else None
            if current != write.before:
                raise MdmemError(
                    f"{root.name}/{write.path} changed after the review was planned; run it again"
                )
        write_files(root, {write.path: write.after for write in plan.writes})
        written = tuple(write.path for write in plan.writes)
        if not commit:
            return ApplyResult(written, None, None)
        repo = repository(root)
        if repo is None:
            return ApplyResult(written, None, "not a git repository: files written, not committed")
        message = commit_message(plan.summary)
        sha = commit_files(repo, [root / p for p in written], message, lambda: _undo(root, plan))
        return ApplyResult(written, sha, _uncommitted_logs(root, top_folder(repo)))


def _uncommitted_logs(root: Path, top: Path) -> str | None:
    """What to say when the review counted session logs git does not hold: its commit
    names them (the stamp's through-session, origins), so they must be committed too."""
    folder = (root / SESSIONS).resolve().relative_to(top).as_posix()
    held = set(names_in(top, folder))
    logs = sorted(
        f"{root.name}/{SESSIONS}/{name}"
        for name in os.listdir(root / SESSIONS)
        if name.endswith(".md") and name not in held
    )
    if not logs:
        return None
    more = f" and {len(logs) - 1} more" if len(logs) > 1 else ""
    return (
        f"{logs[0]}{more} counted by this review {'is' if len(logs) == 1 else 'are'} not "
        "committed; commit the session logs too, since the review's commit names them"
    )


def _undo(root: Path, plan: ReviewPlan) -> None:
    # One journaled write: old texts back, new files deleted (None), all or nothing.
    # commit_files calls it once the index is back as it was, also on Ctrl-C.
    write_files(root, {w.path: w.before for w in plan.writes})


def _exposed(write: FileWrite, shown: bool) -> list[tuple[list[int], list[str]]]:
    """What a write puts on disk (the whole new text: a review commits the whole file, so a
    secret an agent left in it would be committed by the review's hand) and, when shown
    as a diff, the old side of every hunk too, each line with its number in its file.
    """
    after = (write.after or "").split("\n")
    regions = [(list(range(1, len(after) + 1)), after)]
    if not shown:
        return regions
    # A diff shows whole hunks: the old lines near a change are printed as well.
    before = (write.before or "").split("\n")
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for group in matcher.get_grouped_opcodes(3):
        old_from, old_to = group[0][1], group[-1][2]
        regions.append((list(range(old_from + 1, old_to + 1)), before[old_from:old_to]))
    return regions


def refuse_secrets(plan: ReviewPlan, *, shown: bool = False) -> None:
    """Refuse a plan whose files would hold secret material, naming where, never what.

    `shown`: the plan is about to be printed as a diff, so its old texts count too.
    """
    if not plan.writes:
        return
    found: list[str] = []
    first: tuple[str, int, str] | None = None
    for write in plan.writes:
        display = f"{plan.root.name}/{write.path}"
        hits: set[tuple[int, str]] = set()
        for numbers, lines in _exposed(write, shown):
            hits.update(
                (numbers[hit.line - 1], hit.category) for hit in find_secrets("\n".join(lines))
            )
        for line, category in sorted(hits):
            if first is None:
                first = (display, line, category)
            else:
                found.append(f"{display}:{line} ({category})")
    if first is None:
        return
    more = f"; also {', '.join(found)}" if found else ""
    raise SecretError(
        f"secret material ({first[2]}) in a file the review would "
        f"{'show' if shown else 'write'}: remove it from memory, rotate it, run again{more}",
        first[0],
        first[1],
    )
