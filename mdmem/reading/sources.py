"""The reading commands' I/O: each reads what it needs and no more, then asks the pure
modules. Here: what the four share, `context` (asking `mdmem.reading.context`) and
`status` (`mdmem.reading.status`); lookup's and show's own (the index, the logs
searched, a fact's history) are in `mdmem.reading.search`, which `context` and `status`
never import.

- context and status read only the few logs the last review has not read
  (`pending_names`); neither reads the archive.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mdmem.format.memory import BLOCKED, CONTINUITY, POLICY, REVIEWS, SESSIONS, VISION
from mdmem.reading.entries import Entry, entries_of
from mdmem.store.files import read, read_bytes, thread_documents
from mdmem.store.folders import project_path

if TYPE_CHECKING:  # status parses no blocked.md, lookup no log
    from mdmem.format.blocked import BlockedEntry
    from mdmem.format.document import Document
    from mdmem.format.sessionlog import Session, SessionName
    from mdmem.reading.context import Context
    from mdmem.reading.status import Status


def display(root: Path, path: Path) -> str:
    return f"{root.name}/{path.relative_to(root).as_posix()}"


def _stems(folder: Path, after: str | None = None, names: list[str] | None = None) -> list[str]:
    """The stems of the folder's logs (those after `after`), sorted: ledger order;
    `names`: the folder's listing, when the caller has it."""
    listed = os.listdir(folder) if names is None else names
    later = listed if after is None else filter(after.__lt__, listed)  # a later stem's name too
    return sorted(n[:-3] for n in later if n.endswith(".md") and (after is None or n[:-3] > after))


def session_names(root: Path) -> list[SessionName]:
    """Every session log's name, in ledger order; a bad name is an error."""
    from mdmem.format.sessionlog import parse_session_names  # not lookup's: 8 ms of its start

    folder = root / SESSIONS
    stems = _stems(folder) if folder.is_dir() else []
    return parse_session_names([stem + ".md" for stem in stems], f"{root.name}/{SESSIONS}/")


def _session(root: Path, name: SessionName) -> tuple[Session, bytes]:
    from mdmem.format.sessionlog import scan_log, session_of  # see `session_names`

    shown = f"{root.name}/{SESSIONS}/{name.filename}"
    data = read_bytes(root / SESSIONS / name.filename, shown)
    return session_of(name, shown, scan_log(data, shown)), data


def read_continuity(root: Path) -> Document:
    """continuity.md, parsed once per command (an id twice is lint's to report)."""
    from mdmem.format.document import parse_document  # not lookup's: 12 ms of its start

    path = root / CONTINUITY
    return parse_document(read(path, f"{root.name}/{CONTINUITY}"), unique_ids=False)


def live_entries(continuity: Document, threads: tuple[Document, ...]) -> list[Entry]:
    """The live facts: continuity's, then each thread file's."""
    return [entry for document in (continuity, *threads) for entry in entries_of(document)]


def optional(root: Path, relative: str) -> Any:
    path = root / relative
    return read(path, f"{root.name}/{relative}") if path.is_file() else None


# --- context ---------------------------------------------------------------------------


def context(
    root: Path,
    task: str | None,
    *,
    path: str | None = None,
    budget: int | None = None,
    cwd: Path | None = None,
) -> Context:
    """`cwd`: the working folder a relative `path` was given from (see `project_path`)."""
    from mdmem.reading.context import plan_context  # not lookup's nor status's: 11 ms

    path = None if path is None else project_path(root, path, cwd)
    continuity = read_continuity(root)
    threads = thread_documents(root)  # the protocol's v4.39 layout: none without the folder
    live = live_entries(continuity, threads)
    vision = optional(root, VISION)
    if vision is not None:
        from mdmem.format.vision import parse_vision  # context's only

        live += [_as_core(entry) for entry in entries_of(parse_vision(vision))]
    excluded, votes = _pending(root, continuity)
    excluded |= _blocked(root, (continuity, *threads))
    options: dict[str, Any] = {} if budget is None else {"budget": budget}
    gone = _gone(root, (continuity, *threads))
    return plan_context(
        live, task=task, path=path, excluded=excluded, votes=votes, gone=gone, **options
    )


def _gone(root: Path, documents: tuple[Document, ...]) -> dict[str, tuple[str, ...]]:
    """id -> the paths the fact names that the repository no longer holds (lint's W028)."""
    from mdmem.linting.gone import gone_in_working_tree  # context's only: git's file list

    found: dict[str, tuple[str, ...]] = {}
    for item in gone_in_working_tree(root, documents, with_renames=False):  # marked only
        found[item.fact_id] = (*found.get(item.fact_id, ()), item.path)
    return found


def _as_core(entry: Entry) -> Entry:
    """A vision statement: live and core, whatever its footer says (SPEC §10)."""
    fields = (*(pair for pair in entry.fields if pair[0] != "tier"), ("tier", "core"))
    return dataclasses.replace(entry, fields=fields)


def pending_names(
    root: Path, continuity: Document, names: list[str] | None = None
) -> tuple[str | None, list[SessionName]]:
    """(the last review's through-session, the logs after it): what the footers do not
    count yet. `names`: the sessions folder's listing, when the caller has it."""
    from mdmem.format.sessionlog import parse_session_names
    from mdmem.reviewing.stamps import last_review_through  # not lookup's: 12 to 16 ms

    through = last_review_through(continuity, optional(root, REVIEWS))
    folder = root / SESSIONS
    stems = _stems(folder, through, names) if folder.is_dir() else []
    later = parse_session_names([stem + ".md" for stem in stems], f"{root.name}/{SESSIONS}/")
    return through, later


def _pending(root: Path, continuity: Document) -> tuple[frozenset[str], dict[str, tuple[int, int]]]:
    """(ids a log after the last review superseded, still so at its end; the feedback votes
    of those logs), which the footers do not show yet."""
    _, names = pending_names(root, continuity)
    superseded: dict[str, bool] = {}
    votes: dict[str, tuple[int, int]] = {}
    for name in names:
        session, _ = _session(root, name)
        for event in session.events:
            if event.kind == "superseded":
                superseded[event.ids[0]] = True
            elif event.kind == "restored":
                superseded.update(dict.fromkeys(event.ids, False))
        for kind in ("helpful", "harmful"):
            voted = {i for e in session.events if e.kind == kind for i in e.ids}
            for fact_id in voted:
                helpful, harmful = votes.get(fact_id, (0, 0))
                votes[fact_id] = (helpful + (kind == "helpful"), harmful + (kind == "harmful"))
    return frozenset(i for i, gone in superseded.items() if gone), votes


def _blocked(root: Path, live: tuple[Document, ...]) -> frozenset[str]:
    """The ids of live facts near an entry of blocked.md, and the entries' own."""
    blocked = blocked_entries(root)
    if not blocked:
        return frozenset()
    from mdmem.safety.blocklist import blocked_facts  # context's, with entries: 10 ms

    near = {fact.id for _, fact, _ in blocked_facts(live, blocked)}
    return frozenset(near | {entry.fact_id for entry in blocked})


def blocked_entries(root: Path) -> tuple[BlockedEntry, ...]:
    """The entries of blocked.md (none without the file); lookup never reads it."""
    file = optional(root, BLOCKED)
    if file is None:
        return ()
    from mdmem.format.blocked import parse_blocked  # only for a blocked.md: 1 to 8 ms

    return parse_blocked(file)


# --- status ------------------------------------------------------------------------------


def status(
    root: Path,
    session: str | None,
    session_source: str | None,
    uncommitted: tuple[str, ...] = (),
    *,
    run_lint: bool = False,
) -> Status:
    """The memory's state for `mdmem status`; the current session is the write path's to
    find (`mdmem.writing.logs.current_or_none`), and is given, with the uncommitted logs'
    stems when none could be chosen. `run_lint`: lint now."""
    from mdmem.format.policy import parse_policy  # status's: 2 to 6 ms of lookup's start
    from mdmem.reading.status import Status  # not lookup's nor context's: 10 ms

    continuity = read_continuity(root)
    folder = root / SESSIONS
    names = os.listdir(folder) if folder.is_dir() else []  # listed once: 100,000 names
    through, later = pending_names(root, continuity, names)
    policy = parse_policy(optional(root, POLICY))
    from mdmem.linting.tally import Tally  # status's: lookup and context import no lint code

    counted: Tally | None
    if run_lint:  # lint's code only for `status --lint`: 137 ms
        from mdmem.linting.findings import tally
        from mdmem.linting.run import lint

        counted = tally(lint(root))
    else:
        from mdmem.store import cache  # status's: context keeps no cache

        kept = cache.lint_counts(root, names)
        counted = None if kept is None else Tally(*kept)
    live = live_entries(continuity, thread_documents(root))
    threads = tuple(entry for entry in live if entry.open_thread)
    return Status(
        session,
        session_source,
        through,
        len(later),
        policy.review_every,
        threads,
        counted,
        uncommitted,
    )
