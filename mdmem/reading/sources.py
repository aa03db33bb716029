"""The reading commands' I/O: each reads what it needs and no more, then asks the pure
modules (`ranking`, `history`, `context`, `status`).

- lookup reads no session log; context and status read only the few the last review
  has not read (`pending_names`); `lookup --sessions` reads each log once, and
  normalises only the lines that may match.
- show reads every log's bytes to find those that name the fact, and scans only those.
- lookup's index of `continuity.md` and of each archive file (`mdmem.reading.index`) is
  kept in a cache (`mdmem.store.cache`, kind `entries`) while the file keeps its size
  and modification time: after a review rewrote a file, the next lookup parses again
  the parts of it whose text changed. With the caches off (MDMEM_NO_CACHE), lookup
  builds no index: it scores each fact as it reads it, normalising only those that
  hold a query word's needle (`ranking.rank`).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mdmem.errors import MdmemError, ParseError
from mdmem.format.document import Document, parse_document
from mdmem.format.memory import ARCHIVE, CONTINUITY, POLICY, REVIEWS, SESSIONS, VISION
from mdmem.reading import ranking
from mdmem.reading.entries import Entry, entries_of
from mdmem.reading.index import (
    Index,
    Part,
    count,
    entry_at,
    from_payload,
    link_pairs,
    rank_indexes,
    reindex,
)
from mdmem.store import cache
from mdmem.store.files import read, read_all, read_bytes
from mdmem.store.folders import project_path

if TYPE_CHECKING:  # lookup parses no log, no policy and no blocked.md
    from mdmem.format.blocked import BlockedEntry
    from mdmem.format.sessionlog import Session, SessionName
    from mdmem.reading import history
    from mdmem.reading.context import Context
    from mdmem.reading.status import Status

ENTRIES_CACHE = "entries"


def documents(root: Path) -> list[Path]:
    """continuity.md, then the archive files by name (as the review reads them)."""
    from mdmem.store.files import archive_paths

    return [root / CONTINUITY, *archive_paths(root)]


def display(root: Path, path: Path) -> str:
    return f"{root.name}/{path.relative_to(root).as_posix()}"


def indexes(root: Path) -> list[Index]:
    """The search index of continuity and of each archive file, through the cache: a
    document is read again only when its size or modification time changed, and then
    only its changed parts are parsed (`mdmem.reading.index.reindex`)."""
    stored = cache.load(root, ENTRIES_CACHE).get("files")
    known: dict[str, Any] = stored if isinstance(stored, dict) else {}
    fresh: dict[str, Any] = {}
    found: dict[str, Index] = {}
    for path in documents(root):
        shown = display(root, path)
        stat = os.lstat(path)
        stamp = [stat.st_size, stat.st_mtime_ns]
        entry = known.get(shown)
        old = _cached(shown, entry)
        if old is not None and isinstance(entry, dict) and entry.get("stamp") == stamp:
            found[shown], fresh[shown] = old[0], entry
            continue
        # No helper process (mdmem.store.workers) here, nor for --sessions: on this shared
        # two-core machine, at 10,000 facts and logs, each was slower with one.
        index, parts = reindex(read(path, shown), *(old or (None, [])))
        found[shown] = index
        fresh[shown] = {"stamp": stamp, "index": index.payload(), "parts": parts}
    if fresh != known:
        cache.save(root, ENTRIES_CACHE, {"files": fresh})
    return list(found.values())


def _cached(shown: str, entry: Any) -> tuple[Index, list[Part]] | None:
    """A document's index and parts as the cache kept them, or None."""
    try:
        parts = [list(part) for part in entry["parts"]]
        index = from_payload(shown, entry["index"])
        facts = count(index)
        if all(first >= 0 and first + size <= facts for _, _, first, size in parts):
            return index, parts
    except (KeyError, TypeError, ValueError):
        pass
    return None


class _Lines:
    """Each document's lines, read when a fact of it is first shown."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._read: dict[str, tuple[str, ...]] = {}

    def __call__(self, index: Index) -> tuple[str, ...]:
        if index.path not in self._read:
            relative = index.path.partition("/")[2]
            self._read[index.path] = read(self._root / relative, index.path).lines
        return self._read[index.path]


def lookup(
    root: Path,
    text: str,
    *,
    sessions: bool = False,
    tier: str | None = None,
    path: str | None = None,
    limit: int | None = None,
    cwd: Path | None = None,
) -> ranking.Found:
    """`cwd`: the working folder a relative `path` was given from (see `project_path`)."""
    path = None if path is None else project_path(root, path, cwd)
    query = ranking.make_query(text)
    if not query.words:
        raise MdmemError(f"the query {text!r} has no words to look for (only filler words)")
    if cache.enabled():
        found = indexes(root)
        ranked = rank_indexes(found, _Lines(root), query, tier_label=tier, path=path, limit=limit)
    else:  # no index would be kept: each fact scored as read, only those that may match
        facts = [
            entry
            for file in documents(root)
            for entry in entries_of(
                parse_document(read(file, display(root, file)), unique_ids=False)
            )
        ]
        ranked = ranking.rank(facts, query, tier=tier, path=path, limit=limit)
    lines = ranking.best_line_hits(_logs(root), query, limit) if sessions else []
    return ranking.Found(query, ranked, tuple(lines))


def _logs(root: Path) -> list[tuple[str, str, str]]:
    """(display path, stem, text) of every session log, in ledger order."""
    prefix = f"{root.name}/{SESSIONS}/"
    named = _log_names(root)
    read_in = read_all(root / SESSIONS, [file for _, file in named], prefix)
    return [
        (prefix + file, stem, data.decode("utf-8", "replace"))
        for (stem, file), data in zip(named, read_in, strict=True)
    ]


def _log_names(root: Path) -> list[tuple[str, str]]:
    """(stem, file name) of every session log, in ledger order; a bad name is an error."""
    folder = root / SESSIONS
    if not folder.is_dir():
        return []
    return [(stem, stem + ".md") for stem in _stems(folder)]


def _stems(folder: Path, after: str | None = None, names: list[str] | None = None) -> list[str]:
    """The stems of the folder's logs (those after `after`), sorted: ledger order;
    `names`: the folder's listing, when the caller has it."""
    listed = os.listdir(folder) if names is None else names
    stems = (name[:-3] for name in listed if name.endswith(".md"))
    return sorted(stems if after is None else (stem for stem in stems if stem > after))


def _names(root: Path) -> list[SessionName]:
    from mdmem.format.sessionlog import parse_session_names

    return parse_session_names([name for _, name in _log_names(root)], f"{root.name}/{SESSIONS}/")


def _session(root: Path, name: SessionName) -> tuple[Session, bytes]:
    from mdmem.format.sessionlog import scan_log, session_of

    shown = f"{root.name}/{SESSIONS}/{name.filename}"
    data = read_bytes(root / SESSIONS / name.filename, shown)
    return session_of(name, shown, scan_log(data, shown)), data


# --- show ------------------------------------------------------------------------------


def show(root: Path, fact_id: str, as_of: str | None = None) -> history.Shown:
    from mdmem.format.sessionlog import Session, reference_lines, scan_log, session_of
    from mdmem.reading import history  # the review's decision code: only show needs it

    found = indexes(root)
    lines_of = _Lines(root)
    copies = tuple(
        entry_at(index, lines_of(index), number)
        for index in found
        for number, known in enumerate(index.ids)
        if known == fact_id
    )
    if not copies:
        _refuse_forgotten(root, fact_id)
        from mdmem.linting.nearest import Nearest

        nearest = Nearest(known for index in found for known in index.ids).ranked(fact_id, 3)
        near = f"; nearest known: {', '.join(nearest)}" if nearest else ""
        raise MdmemError(f"no fact {fact_id!r} in continuity or the archive{near}")
    names = _names(root)
    needle = fact_id.encode("utf-8")
    sessions: list[Session] = []
    references: list[history.Reference] = []
    for name in names:
        shown = f"{root.name}/{SESSIONS}/{name.filename}"
        data = read_bytes(root / SESSIONS / name.filename, shown)
        if needle not in data:
            sessions.append(Session(name, shown, frozenset(), (), (), 0))
            continue
        session = session_of(name, shown, scan_log(data, shown))
        sessions.append(session)
        lines = [line for token, line, _ in reference_lines(data, shown) if token == fact_id]
        if lines:
            references.append(history.Reference(name.stem, shown, lines[0]))
    created, links, helpful, harmful = history.ledger_facts(fact_id, sessions)
    origin = copies[0].get("origin") or created
    before, after = history.chains(fact_id, link_pairs(found), links)
    point = None
    if as_of is not None:
        point = _as_of(root, copies, tuple(sessions), as_of, bool(links))
    return history.Shown(
        fact_id, copies, origin, tuple(reversed(references)), before, after, helpful, harmful, point
    )


def _as_of(
    root: Path, copies: tuple[Entry, ...], sessions: tuple[Session, ...], asked: str, linked: bool
) -> history.AsOf:
    from mdmem.format.policy import parse_policy
    from mdmem.reading import history

    count = history.cut_index([session.name for session in sessions], asked)
    if count == 0:
        if (copies[0].get("created") or "") > asked:
            return history.AsOf(asked, "", None)
        raise MdmemError(f"--as-of {asked}: no session log is that old; the ledger starts later")
    continuity = _continuity(root)
    document = continuity
    if copies[0].path != continuity.path:
        path = root / ARCHIVE / copies[0].path.rpartition("/")[2]
        document = parse_document(read(path, copies[0].path), unique_ids=False)
    fact = next(fact for fact in document.facts if fact.id == copies[0].id)
    policy = parse_policy(_optional(root, POLICY))
    cut = sessions[:count]
    tier = history.tier_as_of(continuity, policy, [(document, fact)], cut, linked)
    return history.AsOf(asked, cut[-1].stem, tier)


def _continuity(root: Path) -> Document:
    """continuity.md, parsed once per command (an id twice is lint's to report)."""
    path = root / CONTINUITY
    return parse_document(read(path, f"{root.name}/{CONTINUITY}"), unique_ids=False)


def _optional(root: Path, relative: str) -> Any:
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
    from mdmem.reading.context import plan_context  # lookup and status never plan one

    path = None if path is None else project_path(root, path, cwd)
    continuity = _continuity(root)
    live = list(entries_of(continuity))
    vision = _optional(root, VISION)
    if vision is not None:
        from mdmem.format.vision import parse_vision

        live += [_as_core(entry) for entry in entries_of(parse_vision(vision))]
    excluded, votes = _pending(root, continuity)
    excluded |= _blocked(root, continuity)
    options: dict[str, Any] = {} if budget is None else {"budget": budget}
    return plan_context(live, task=task, path=path, excluded=excluded, votes=votes, **options)


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
    from mdmem.reviewing.stamps import last_review_through  # lookup never needs it

    through = last_review_through(continuity, _optional(root, REVIEWS))
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


def _refuse_forgotten(root: Path, fact_id: str) -> None:
    """Refuse to show a forgotten fact as if it were unknown: say where its tombstone is."""
    try:
        entries = _blocked_entries(root)
    except ParseError:
        return  # lint names what is wrong with blocked.md; here, the nearest ids serve
    for entry in entries:
        if entry.fact_id == fact_id:
            raise MdmemError(
                f"{fact_id!r} was forgotten on {entry.blocked} ({entry.reason}); its text is "
                f"kept at {entry.path}:{entry.line} so that it never comes back"
            )


def _blocked(root: Path, continuity: Document) -> frozenset[str]:
    """The ids of continuity's facts near an entry of blocked.md, and the entries' own."""
    blocked = _blocked_entries(root)
    if not blocked:
        return frozenset()
    from mdmem.safety.blocklist import blocked_facts  # context's only, and with entries

    near = {fact.id for _, fact, _ in blocked_facts([continuity], blocked)}
    return frozenset(near | {entry.fact_id for entry in blocked})


def _blocked_entries(root: Path) -> tuple[BlockedEntry, ...]:
    """The entries of blocked.md (none without the file); lookup never reads it."""
    from mdmem.format.blocked import BLOCKED, parse_blocked

    return () if (file := _optional(root, BLOCKED)) is None else parse_blocked(file)


# --- status ------------------------------------------------------------------------------


def status(
    root: Path, session: str | None, session_source: str | None, *, run_lint: bool = False
) -> Status:
    """The memory's state for `mdmem status`; the current session is the write path's to
    find (`mdmem.writing.apply.current_session`), and is given. `run_lint`: lint now."""
    from mdmem.format.policy import parse_policy
    from mdmem.reading.status import Status

    continuity = _continuity(root)
    folder = root / SESSIONS
    names = os.listdir(folder) if folder.is_dir() else []  # listed once: 100,000 names
    through, later = pending_names(root, continuity, names)
    policy = parse_policy(_optional(root, POLICY))
    if run_lint:
        from mdmem.linting.run import lint

        found = lint(root)
        errors = sum(1 for item in found if item.is_error)
        counts: tuple[int, int] | None = (errors, len(found) - errors)
    else:
        counts = cache.lint_counts(root, names)
    threads = tuple(entry for entry in entries_of(continuity) if entry.open_thread)
    return Status(
        session, session_source, through, len(later), policy.review_every, threads, counts
    )
