"""Running lint on a memory folder: read each file once, ask git, hand it all to the checks.

Lint holds the memory's lock, so a review and a lint started together never
interleave. What does not parse becomes a finding, and lint goes on with the rest.
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

from mdmem import workers
from mdmem.blocked import BLOCKED, BlockedEntry, parse_blocked
from mdmem.document import Document, parse_document
from mdmem.errors import ParseError
from mdmem.findings import Finding, finish
from mdmem.gitio import blob_bytes, repository, session_log_changes, top_folder
from mdmem.ledger import reference_lines
from mdmem.lint import (
    ChangedLog,
    history_findings,
    known_ids,
    memory_findings,
    only_redacted,
    parse_finding,
    text_findings,
    unknown_id_findings,
)
from mdmem.lintcache import TextCache, from_rows, history, to_rows
from mdmem.memory import ARCHIVE, SESSIONS, VISION, Memory, Progress, bulk_allocation, load
from mdmem.nearest import Nearest
from mdmem.secrets import redact
from mdmem.textfile import read
from mdmem.writer import locked


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
    memory: Memory | None = None
    try:
        memory = load(root, strict_ids=False, progress=progress, forward_layer=False)
    except ParseError as error:
        found.append(parse_finding(error, label))
    vision = _optional_document(root, VISION, found)
    entries = _blocked(root, found)
    texts = TextCache(root)
    found += _file_findings(root, texts)
    found += _session_findings(root, memory, vision, entries, texts)
    texts.save()
    found += _history(root)
    if memory is not None:
        found += memory_findings(memory, vision, entries)
    return found


def _optional_document(root: Path, relative: str, found: list[Finding]) -> Document | None:
    path = root / relative
    if not path.is_file():
        return None
    try:
        return parse_document(read(path, f"{root.name}/{relative}"))
    except ParseError as error:
        found.append(parse_finding(error, f"{root.name}/{relative}"))
        return None


def _blocked(root: Path, found: list[Finding]) -> tuple[BlockedEntry, ...]:
    path = root / BLOCKED
    if not path.is_file():
        return ()
    try:
        return parse_blocked(read(path, f"{root.name}/{BLOCKED}"))
    except ParseError as error:
        found.append(parse_finding(error, f"{root.name}/{BLOCKED}"))
        return ()


def _file_findings(root: Path, texts: TextCache) -> list[Finding]:
    """Conflict markers, secrets and poisoning in every memory file but the session logs."""
    paths = sorted(root.glob("*.md")) + sorted((root / ARCHIVE).glob("*.md"))
    found: list[Finding] = []
    for path in paths:
        if path.is_file() and not path.is_symlink():
            display = f"{root.name}/{path.relative_to(root).as_posix()}"
            found += texts.findings(display, path.stat(), partial(_scan, path, display, True))
    return found


def _scan(path: Path, display: str, facts: bool) -> list[Finding]:
    try:
        text = read(path, display).text()
    except ParseError as error:
        return [parse_finding(error, display)]
    return text_findings(display, text, facts=facts)


def _session_findings(
    root: Path,
    memory: Memory | None,
    vision: Document | None,
    entries: tuple[BlockedEntry, ...],
    texts: TextCache,
) -> list[Finding]:
    """Secrets and conflict markers in every log; unknown ids in those that cite one.

    Logs the cache does not hold are scanned here and, on two cores, half by a helper
    process (mdmem.workers), as the review reads them.
    """
    folder = root / SESSIONS
    if not folder.is_dir():
        return []
    known = known_ids(memory, vision, entries) if memory is not None else frozenset()
    sessions = {s.path: s for s in memory.sessions} if memory is not None else {}
    nearest = Nearest(known - {entry.fact_id for entry in entries})
    found: list[Finding] = []
    jobs: list[_LintJob] = []
    logs = _logs(root, folder)
    for path, display, size, mtime_ns in logs:
        cached = texts.cached(display, size, mtime_ns)
        if cached is None:
            jobs.append((path, display, size, mtime_ns))
        else:
            found += cached
    with workers.Shared(_scan_log, jobs, _HELPER_SHARE) as shared:
        scanned = shared.results([_scan_log(job) for job in shared.own])
    for (_, display, size, mtime_ns), rows in zip(jobs, scanned, strict=True):
        texts.record(display, size, mtime_ns, rows)
        found += from_rows(display, rows)
    for path, display, _, _ in logs:
        session = sessions.get(display)
        unknown = session.references - known if session is not None else frozenset()
        if unknown:
            tokens = reference_lines(Path(path).read_bytes(), display, mask=redact)
            found += unknown_id_findings(display, tokens, unknown, nearest)
    return found


# A log to scan for lint: its path, path as shown, size and mtime_ns.
_LintJob = tuple[str, str, int, int]
# Lint has nothing else to do meanwhile, so its helper takes half the logs.
_HELPER_SHARE = 0.5


def _logs(root: Path, folder: Path) -> list[_LintJob]:
    """Every session log (regular files, links left out) with its size and mtime, by name."""
    logs = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                stat = entry.stat(follow_symlinks=False)
                display = f"{root.name}/{SESSIONS}/{entry.name}"
                logs.append((entry.path, display, stat.st_size, stat.st_mtime_ns))
    return sorted(logs)


def _scan_log(job: _LintJob) -> list[list[Any]]:
    """One log's findings as cache rows: no state, so a helper process can run it."""
    path, display, _, _ = job
    return to_rows(_scan(Path(path), display, False))


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
        if change.kind == "changed":
            original = blob_bytes(repo, change.original).decode("utf-8", "replace")
            current = path.read_bytes().decode("utf-8", "replace")
            if only_redacted(original, current):
                continue
        display = f"{root.name}/{SESSIONS}/{path.name}"
        changed.append(ChangedLog(display, change.kind, change.since, change.path))
    return history_findings(changed)
