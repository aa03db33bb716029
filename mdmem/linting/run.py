"""Running lint on a memory folder: read each file once, ask git, hand it all to the checks.

Lint holds the memory's lock, so a review and a lint started together never
interleave. What does not parse becomes a finding, and lint goes on with the rest.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mdmem.errors import ParseError
from mdmem.format.blocked import BlockedEntry, parse_blocked
from mdmem.format.document import Document
from mdmem.format.leftout import leaving_out
from mdmem.format.memory import ARCHIVE, BLOCKED, OPEN_THREADS, SESSIONS, VISION, Memory
from mdmem.format.sessionlog import Session, parse_session_name, reference_lines, section_lines
from mdmem.format.textfile import TextFile
from mdmem.format.vision import parse_vision
from mdmem.git.plumbing import repository
from mdmem.linting.checks import memory_findings
from mdmem.linting.committed import changed_logs, committed_state
from mdmem.linting.findings import (
    CHECKS,
    MEND_BEFORE_COMMIT,
    NAMES_A_MISSING_FACT,
    Finding,
    before_commit,
    finish,
    tally,
)
from mdmem.linting.gone import gone_in_working_tree
from mdmem.linting.handedits import Committed, hand_edit_findings, near_superseded_findings
from mdmem.linting.logs import (
    future_findings,
    heading_findings,
    retired_citation_findings,
    stray_file_findings,
    supersession_findings,
    unknown_id_findings,
)
from mdmem.linting.paths import path_findings
from mdmem.linting.texts import mark_findings, parse_finding, text_findings
from mdmem.reviewing.decide import Decision
from mdmem.safety.secrets import redact
from mdmem.store import cache
from mdmem.store.files import read, read_bytes, text_of
from mdmem.store.load import LogRead, Logs, Progress, bulk_allocation, load, read_logs
from mdmem.store.lock import locked


def lint(
    root: Path,
    progress: Progress | None = None,
    *,
    loaded: Loaded | None = None,
    base: str | None = None,
) -> tuple[Finding, ...]:
    """Every finding for the memory folder `root`, sorted by path, line and code.

    `progress(done, total)` is called now and then while the session logs are read.
    `loaded` is the memory as a review just read it (with its forward layer), the review's
    decisions and the logs it read, so that the review's own check reads and plans nothing
    twice. `base`: the commit a pull request starts from; a committed log its commits
    edited is an error, as one edited in the working tree is.
    """
    root = Path(root).resolve()
    with locked(root), bulk_allocation():
        before = cache.recent_fingerprint(root)
        found = finish(_lint(root, progress, loaded, base))
        counted = tally(found)
        if base is None:  # the counts status shows are those of a plain lint
            counts = (counted.errors, counted.warnings, counted.committed)
            cache.save_lint_counts(root, before, counts)
        return found


# A memory read with its forward layer, the review's decisions over it, and its logs.
Loaded = tuple[Memory, tuple[Decision, ...], Logs]


def _lint(
    root: Path, progress: Progress | None, loaded: Loaded | None, base: str | None = None
) -> list[Finding]:
    label = root.name
    logs = read_logs(root, progress) if loaded is None else loaded[2]
    found = stray_file_findings(f"{label}/{SESSIONS}", list(logs.strays))
    for log in logs.reads:
        found += _text_findings(log)
    found += _document_findings(root)
    memory: Memory | None = None
    unread = False  # items left unread (each an E001 finding)
    if loaded is not None:
        memory, decisions, _ = loaded
        vision, entries = memory.vision, memory.blocked
        found += memory_findings(memory, vision, entries, decisions)
    else:
        with leaving_out() as left_out:  # every item that cannot be read, each a finding
            try:
                memory = load(root, strict_ids=False, forward_layer=False, logs=logs)
            except ParseError as error:
                found.append(parse_finding(error, label))
            vision = _forward(root, VISION, parse_vision, None, found)
            no_entries: tuple[BlockedEntry, ...] = ()
            entries = _forward(root, BLOCKED, parse_blocked, no_entries, found)
        found += [parse_finding(error, label) for error in left_out]
        unread = bool(left_out)
        if memory is not None:
            found += memory_findings(memory, vision, entries)
    if memory is not None:
        found += _log_findings(root, memory, vision, entries, unread)
        found += path_findings(gone_in_working_tree(root, memory.live))
    repo = repository(root)
    committed: frozenset[str] | None = None  # outside git nothing is committed
    head = None if repo is None else committed_state(root, repo)
    if repo is not None:
        history_found, committed = changed_logs(root, repo, base)
        found += history_found
    if memory is not None:
        found += hand_edit_findings(memory, vision, entries, head)
        found += _near_superseded(root, memory, head)
    if unread:  # a fact "missing" may be an item left unread, its id not known
        found = [item for item in found if item.code not in NAMES_A_MISSING_FACT]
    live = {} if memory is None else {document.path: document for document in memory.live}
    return [_settled(item, committed, head, live) for item in found]


def _text_findings(log: LogRead) -> list[Finding]:
    """A log's conflict markers and secrets, as it yielded them; dot files are no logs."""
    if log.file.startswith("."):
        return []
    if log.marks is not None:
        return mark_findings(log.display, *log.marks)
    return [] if log.text_error is None else [parse_finding(log.text_error, log.display)]


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


def _document_findings(root: Path) -> list[Finding]:
    """The text findings of every memory file but the session logs (regular files, links
    left out), each scanned only when its bytes are new: kept by the digest of the bytes,
    not by the file's stamp, so that what a review writes is kept however soon after it
    lint scans it (the files are few, and read whole)."""
    paths = sorted(root.glob("*.md")) + sorted((root / ARCHIVE).glob("*.md"))
    paths += sorted((root / OPEN_THREADS).glob("*.md"))
    held = cache.load(root, "texts").get("files", {}) if cache.enabled() else None
    kept: dict[str, Any] = {}
    found: list[Finding] = []
    for path in paths:
        if not path.is_file() or path.is_symlink():
            continue
        display = f"{root.name}/{path.relative_to(root).as_posix()}"
        try:
            data = read_bytes(path, display)
        except ParseError as error:
            found.append(parse_finding(error, display))
            continue
        key = cache.digest([data])
        entry = held.get(display) if held is not None else None
        rows = _kept_findings(entry[1]) if entry and entry[0] == key else None
        if rows is None:
            rows = _scan(data, display)
        if all(item.code != "E001" for item in rows):
            kept[display] = [key, [_row(item) for item in rows]]
        found += rows
    if held is not None and kept != held:
        cache.save(root, "texts", {"files": kept})
    return found


def _row(item: Finding) -> list[Any]:
    return [item.code, item.path, item.line, item.message, item.hint]


def _kept_findings(rows: list[list[Any]]) -> list[Finding]:
    """Findings kept as `_row`s, their texts made safe when found (`findings.finding`)."""
    return [Finding(code, CHECKS[code].severity, *rest) for code, *rest in rows]


def _near_superseded(root: Path, memory: Memory, head: Committed | None) -> list[Finding]:
    """`near_superseded_findings`, the dearest check (every live fact new since HEAD against
    every superseded fact), kept against the digest of all it reads: the live and archived
    documents, and what HEAD holds of the live ones."""
    if not cache.enabled():
        return near_superseded_findings(memory, head)
    documents = (*memory.live, *memory.archives)
    parts = [str(len(documents))]
    for document in documents:
        parts += [document.path, "\n".join(document.lines)]
    if head is not None:
        held = {path: sorted(lines) for path, lines in head.lines.items()}
        facts = {fact_id: dict(fields) for fact_id, fields in head.facts.items()}
        parts.append(json.dumps([facts, held, head.items], sort_keys=True))
    key = cache.digest(parts)
    kept = cache.load(root, "near")
    if kept.get("digest") == key:
        return _kept_findings(kept["found"])
    found = near_superseded_findings(memory, head)
    cache.save(root, "near", {"digest": key, "found": [_row(item) for item in found]})
    return found


def _scan(data: bytes, display: str) -> list[Finding]:
    try:
        text = text_of(data, display)
    except ParseError as error:
        return [parse_finding(error, display)]
    return text_findings(display, text, facts=True)


def _log_findings(
    root: Path,
    memory: Memory,
    vision: Document | None,
    entries: tuple[BlockedEntry, ...],
    unread: bool,
) -> list[Finding]:
    """The checks of the logs (`linting.logs`), each log read only when quoted."""
    label = root.name

    def data(session: Session) -> bytes:
        return read_bytes(root / SESSIONS / session.name.filename, session.path)

    def tokens(session: Session) -> tuple[tuple[str, int, bool], ...]:
        return reference_lines(data(session), session.path, mask=redact)

    found: list[Finding] = []
    if not unread:  # an id cited may be one of the items left unread: not decidable
        found += unknown_id_findings(memory, vision, entries, tokens)
    for session in memory.sessions:
        if not session.section_line:
            found += heading_findings(session, data(session).decode("utf-8", "replace").split("\n"))
    now, latest = (parse_session_name(_now(ahead) + ".md", label) for ahead in (0, AHEAD))
    found += future_findings(memory, now, latest)
    found += supersession_findings(memory, lambda s: section_lines(data(s), s.path))
    found += retired_citation_findings(memory, entries, tokens)
    return found


# How far ahead of the clock a log may be named: `session start` takes the next second no
# log has, so logs started in a burst are named a few seconds ahead (at most a minute).
AHEAD = 60


def _now(ahead: int = 0) -> str:
    """The UTC time now (and `ahead` seconds) as a session log names it; SOURCE_DATE_EPOCH
    (the reproducible-builds convention) sets it, so that lint's output can be made
    independent of the day."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    moment = (
        datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
        if epoch.isdigit()
        else datetime.datetime.now(datetime.timezone.utc)
    )
    return (moment + datetime.timedelta(seconds=ahead)).strftime("%Y-%m-%d-%H%M%S")


def _settled(
    item: Finding,
    committed: frozenset[str] | None,
    head: Committed | None,
    live: dict[str, Document],
) -> Finding:
    """`item` as a person must act on it: marked when it is a warning about a committed log,
    which nobody can fix; an error (E011) when it is a mistake that could never be mended
    once committed, in a change not committed yet (a log git does not hold, a line of a
    live file HEAD does not hold). Outside git nothing is committed, and nothing changes."""
    if item.is_error or committed is None:
        return item
    if item.path in committed:
        return dataclasses.replace(item, committed=True)
    if item.code not in MEND_BEFORE_COMMIT:
        return item
    document = live.get(item.path)
    if document is not None:  # a retiring link in a live file: its line new since HEAD?
        if ": superseded-by " not in item.message:
            return item  # a `supersedes` typo retires nothing
        fresh = head is None or head.is_new(document, item.line - 1)
        return before_commit(item) if fresh else item
    if "/" + SESSIONS + "/" not in item.path:
        return item
    if item.code == "W014" and "is not read as the ledger" not in item.message:
        return item  # a log with no references at all may be a session that used none
    return before_commit(item)
