"""Running lint on a memory folder: read each file once, ask git, hand it all to the checks.

Lint holds the memory's lock, so a review and a lint started together never
interleave. What does not parse becomes a finding, and lint goes on with the rest.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mdmem.errors import ParseError
from mdmem.format.blocked import BLOCKED, BlockedEntry, parse_blocked
from mdmem.format.document import Document
from mdmem.format.memory import ARCHIVE, SESSIONS, VISION, Memory
from mdmem.format.sessionlog import reference_lines
from mdmem.format.textfile import TextFile
from mdmem.format.vision import parse_vision
from mdmem.git.plumbing import blob_bytes, repository, session_log_changes, top_folder
from mdmem.linting.cache import TextCache, from_rows, history, to_rows
from mdmem.linting.checks import memory_findings
from mdmem.linting.findings import Finding, finish
from mdmem.linting.history import ChangedLog, history_findings, only_redacted
from mdmem.linting.nearest import Nearest
from mdmem.linting.sessions import known_ids, unknown_id_findings
from mdmem.linting.texts import parse_finding, text_findings
from mdmem.safety.secrets import redact
from mdmem.store import workers
from mdmem.store.files import read, read_bytes
from mdmem.store.load import Progress, bulk_allocation, load
from mdmem.store.lock import locked

if TYPE_CHECKING:
    import git


def lint(root: Path, progress: Progress | None = None) -> tuple[Finding, ...]:
    """Every finding for the memory folder `root`, sorted by path, line and code.

    `progress(done, total)` is called now and then while the session logs are read.
    """
    root = Path(root).resolve()
    with locked(root), bulk_allocation():
        return finish(_lint(root, progress))


def _lint(root: Path, progress: Progress | None) -> list[Finding]:
    label = root.name
    found: list[Finding] = []
    texts = TextCache(root)
    folder = root / SESSIONS
    logs = _logs(root, folder) if folder.is_dir() else []
    jobs: list[_Job] = []
    for job in [*logs, *_documents(root)]:
        cached = texts.cached(job[1], job[2], job[3])
        if cached is None:
            jobs.append(job)
        else:
            found += cached
    memory: Memory | None = None
    with workers.Shared(_scan_job, jobs, _HELPER_SHARE) as shared:
        try:
            memory = load(root, strict_ids=False, progress=progress, forward_layer=False)
        except ParseError as error:
            found.append(parse_finding(error, label))
        vision = _forward(root, VISION, parse_vision, None, found)
        no_entries: tuple[BlockedEntry, ...] = ()
        entries = _forward(root, BLOCKED, parse_blocked, no_entries, found)
        if memory is not None:
            found += memory_findings(memory, vision, entries)
        scanned = shared.results([_scan_job(job) for job in shared.own])
    for (_, display, size, mtime_ns, _), rows in zip(jobs, scanned, strict=True):
        texts.record(display, size, mtime_ns, rows)
        found += from_rows(display, rows)
    found += _unknown_ids(logs, memory, vision, entries)
    texts.save()
    found += _history(root)
    return found


T = TypeVar("T")


def _forward(
    root: Path, relative: str, parse: Callable[[TextFile], T], absent: T, found: list[Finding]
) -> T:
    """`parse` of a forward-layer file (vision.md, blocked.md), or `absent` when the file is
    missing or does not read; its error is a finding of its own."""
    path = root / relative
    if not path.is_file():
        return absent
    try:
        return parse(read(path, f"{root.name}/{relative}"))
    except ParseError as error:
        found.append(parse_finding(error, f"{root.name}/{relative}"))
        return absent


def _documents(root: Path) -> list[_Job]:
    """Every memory file but the session logs (regular files, links left out), by name."""
    paths = sorted(root.glob("*.md")) + sorted((root / ARCHIVE).glob("*.md"))
    documents = []
    for path in paths:
        if path.is_file() and not path.is_symlink():
            stat = path.stat()
            display = f"{root.name}/{path.relative_to(root).as_posix()}"
            documents.append((str(path), display, stat.st_size, stat.st_mtime_ns, True))
    return documents


def _logs(root: Path, folder: Path) -> list[_Job]:
    """Every session log (regular files, links left out) with its size and mtime, by name."""
    logs = []
    prefix = f"{root.name}/{SESSIONS}/"
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                stat = entry.stat(follow_symlinks=False)
                logs.append(
                    (entry.path, prefix + entry.name, stat.st_size, stat.st_mtime_ns, False)
                )
    return sorted(logs)


# A file to scan: its path, path as shown, size, mtime_ns, and whether facts live in it.
_Job = tuple[str, str, int, int, bool]
# On two cores a helper process, started at once, scans this share of the texts while
# this process loads and checks the memory, then scans the rest (see mdmem.store.workers).
# The documents come last, so that their poisoning scan, the slowest, is the helper's.
# Loading and checking take longer than all the scans: the helper takes most of the
# scans, not all, as a quicker load would then wait for it.
_HELPER_SHARE = 0.75


def _scan_job(job: _Job) -> list[list[Any]]:
    """One file's findings as cache rows: no state, so a helper process can run it."""
    path, display, _, _, facts = job
    return to_rows(_scan(Path(path), display, facts))


def _scan(path: Path, display: str, facts: bool) -> list[Finding]:
    try:
        text = read(path, display).text()
    except ParseError as error:
        return [parse_finding(error, display)]
    return text_findings(display, text, facts=facts)


def _unknown_ids(
    logs: list[_Job],
    memory: Memory | None,
    vision: Document | None,
    entries: tuple[BlockedEntry, ...],
) -> list[Finding]:
    """Ids a log cites that name no fact, with the nearest known one."""
    if memory is None:
        return []
    known = known_ids(memory, vision, entries)
    sessions = {s.path: s for s in memory.sessions}
    nearest = Nearest(known - {entry.fact_id for entry in entries})
    found: list[Finding] = []
    for path, display, _, _, _ in logs:
        session = sessions.get(display)
        if session is not None and not session.references <= known:
            tokens = reference_lines(read_bytes(Path(path), display), display, mask=redact)
            found += unknown_id_findings(display, tokens, session.references - known, nearest)
    return found


def _history(root: Path) -> list[Finding]:
    """Committed session logs that changed, from one pass over git's history."""
    repo = repository(root)
    folder = root / SESSIONS
    log_history = None if repo is None else history(root, repo, folder)
    if repo is None or log_history is None:
        return []
    top = top_folder(repo)
    changed = []
    for change in session_log_changes(repo, folder, log_history):
        path = top / change.path
        if path.parent != folder or not path.name.endswith(".md"):
            continue  # not a session log: mdmem reads only the folder's own .md files
        display = f"{root.name}/{SESSIONS}/{path.name}"
        if change.kind == "changed" and _only_redacted(repo, change.original, path, display):
            continue
        changed.append(ChangedLog(display, change.kind, change.since, change.path))
    return history_findings(changed)


def _only_redacted(repo: git.Repo, original: str, path: Path, display: str) -> bool:
    """Whether the log differs from the blob `original` only where a secret was redacted."""
    try:
        current = read_bytes(path, display)
    except ParseError:
        return False  # now a link, or unreadable: a change all the same
    return only_redacted(
        blob_bytes(repo, original).decode("utf-8", "replace"), current.decode("utf-8", "replace")
    )
