"""What git has committed, for lint: the committed session logs that no longer hold what
they were committed with (the one edit allowed is masking a secret), and what HEAD holds
of the live files, for the checks of hand edits (`handedits.py`) and for lint's one rule on
changes not committed yet (`findings.MEND_BEFORE_COMMIT`).

I/O. Reading the logs' history diffs the flat sessions tree once per commit, so the
history up to a few recent commits is kept outside the tracked tree and then only extended
by the commits after a known one; commits never change, so these entries never go stale.
It follows the rule of every cache (`mdmem.store.cache`): made by other code, or missing,
unreadable or damaged, it is empty and rebuilt; MDMEM_NO_CACHE=1 bypasses it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mdmem.errors import MdmemError, ParseError
from mdmem.format.document import parse_document
from mdmem.format.leftout import leaving_out
from mdmem.format.memory import CONTINUITY, OPEN_THREADS, SESSIONS, is_thread_name
from mdmem.format.textfile import body, decode
from mdmem.format.threads import parse_thread
from mdmem.git.plumbing import (
    FirstChange,
    LogHistory,
    blob_bytes,
    has_head,
    head_blobs,
    log_history,
    relative_path,
    session_log_changes,
    top_folder,
)
from mdmem.git.revisions import names_in
from mdmem.linting.findings import Finding, finding
from mdmem.linting.handedits import Committed
from mdmem.safety.secrets import redact
from mdmem.store import cache
from mdmem.store.files import read_bytes

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


def changed_logs(
    root: Path, repo: git.Repo, base: str | None = None
) -> tuple[list[Finding], frozenset[str]]:
    """Committed session logs that changed, from one pass over git's history, and the logs
    git holds at HEAD, as shown. `base`: a pull request's first commit's parent; a change
    `base` does not hold is the pull request's own, an error as in the working tree."""
    base_commit = None if base is None else _commit(repo, base)
    folder = root / SESSIONS
    found_history = history(root, repo, folder)
    if found_history is None:
        return [], frozenset()
    top = top_folder(repo)
    found = []
    for change in session_log_changes(repo, folder, found_history):
        path = top / change.path
        if path.parent != folder or not path.name.endswith(".md"):
            continue  # not a session log: mdmem reads only the folder's own .md files
        display = f"{root.name}/{SESSIONS}/{path.name}"
        edited = 1  # the line that changed, where one can be named
        if change.kind == "changed":
            edited = _edited_line(repo, change.original, path, display)
            if not edited:
                continue
        what = "edited" if change.kind == "changed" else "deleted or renamed"
        if change.since is None:
            message = f"a committed session log was {what} (not committed yet)"
            hint = f"session logs are immutable: git checkout HEAD -- {change.path}"
            found.append(finding("E006", display, edited, message, hint))
        elif base_commit is not None and not _holds(repo, base_commit, change.since):
            first = change.since[:12]
            message = f"a committed session log was {what} by this change ({first})"
            hint = (  # as the log was before that commit: in BASE, or born in the change
                f"session logs are immutable: git checkout {first}^ -- {change.path}, and "
                "commit that"
            )
            found.append(finding("E006", display, edited, message, hint))
        else:  # history now: the review reads the log as it is, nothing left to mend
            first = change.since[:12]
            message = f"a committed session log was {what} in a later commit ({first})"
            hint = f"nothing to mend now; `git show {first} -- {change.path}` shows the edit"
            found.append(finding("W024", display, 1, message, hint))
    pathspec = relative_path(repo, folder)
    held = names_in(top, pathspec) if pathspec is not None else []
    return found, frozenset(f"{root.name}/{SESSIONS}/{name}" for name in held if name)


def _holds(repo: git.Repo, base: git.Commit, commit: str) -> bool:
    """Whether `base`'s history holds `commit`."""
    return repo.is_ancestor(repo.commit(commit), base)


def _commit(repo: git.Repo, revision: str) -> git.Commit:
    """The commit `revision` names, or a refusal naming it."""
    from git.exc import BadName, GitCommandError  # GitPython is already imported: git.Repo

    try:
        return repo.commit(revision)
    except (BadName, GitCommandError, ValueError):
        raise MdmemError(f"--base: git knows no commit {revision!r}") from None


def _edited_line(repo: git.Repo, original: str, path: Path, display: str) -> int:
    """The first line where the log differs from the blob `original` (1 when it cannot be
    read now), or 0 when it differs only where a secret was redacted."""
    try:
        current = read_bytes(path, display)
    except ParseError:
        return 1  # now a link, or unreadable: a change all the same
    return edited_line(
        blob_bytes(repo, original).decode("utf-8", "replace"), current.decode("utf-8", "replace")
    )


_REDACTION = re.compile(r"\[REDACTED(?::[a-z-]+)?\]")


def edited_line(original: str, current: str) -> int:
    """The 1-based line of `current` that first differs from `original` other than where
    secret values were masked (its last when text was cut from its end), or 0 when it
    differs only there."""
    if only_redacted(original, current):
        return 0
    before, after = original.splitlines(), current.splitlines()
    for number, (old, new) in enumerate(zip(before, after, strict=False), start=1):
        if old != new and not only_redacted(old, new):
            return number
    return min(len(before) + 1, len(after)) or 1


def only_redacted(original: str, current: str) -> bool:
    """True when `current` differs from `original` only where secret values were masked."""

    def masked(text: str) -> str:
        return _REDACTION.sub("[REDACTED]", redact(text))

    return masked(original) == masked(current)


def committed_state(root: Path, repo: git.Repo) -> Committed | None:
    """HEAD's continuity and thread files, as facts and lines; None when HEAD holds no
    continuity (a memory not committed yet: nothing in it is a hand edit of a commit). A
    file HEAD holds that does not parse gives its lines and no facts: nothing is reported
    as deleted from it."""
    continuity = relative_path(repo, root / CONTINUITY)
    if continuity is None or not has_head(repo):
        return None
    top = top_folder(repo)
    threads = relative_path(repo, root / OPEN_THREADS)
    paths = [continuity]
    if threads is not None:
        paths += sorted(f"{threads}/{n}" for n in names_in(top, threads) if is_thread_name(n))
    blobs = head_blobs(repo, paths)
    if continuity not in blobs:
        return None
    facts: dict[str, dict[str, str]] = {}
    lines: dict[str, frozenset[str]] = {}
    items: dict[str, tuple[str, ...]] = {}
    for path, blob in blobs.items():
        shown = f"{root.name}/{(top / path).relative_to(root).as_posix()}"
        try:
            file = decode(blob_bytes(repo, blob), shown)
        except ParseError:
            continue
        lines[shown] = frozenset(body(line) for line in file.lines)
        parse = parse_document if path == continuity else parse_thread
        try:
            with leaving_out():
                document = parse(file)
        except ParseError:
            continue
        for fact in document.facts:
            facts.setdefault(fact.id, fact.footer.as_dict())
            items.setdefault(
                fact.id, tuple(body(line) for line in file.lines[fact.start : fact.end])
            )
    return Committed(facts, lines, items)
