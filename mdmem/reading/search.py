"""lookup's and show's I/O: the index of the documents, the session logs searched, a
fact's history.

- lookup reads no session log; `lookup --sessions` reads each log once, and normalises
  only the lines that may match.
- show reads every log's bytes to find those that name the fact, and scans only those.
- lookup's index of `continuity.md` and of each archive file (`mdmem.reading.index`) is
  kept in a cache (`mdmem.store.cache`, kind `entries`) while the file keeps its size
  and modification time: after a review rewrote a file, the next lookup parses again
  the parts of it whose text changed. With the caches off (MDMEM_NO_CACHE), lookup
  builds no index: it scores each fact as it reads it, normalising only those that
  hold a query word's needle (`ranking.rank`).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mdmem.errors import MdmemError, ParseError
from mdmem.format.leftout import holders, left_out_so_far
from mdmem.format.memory import ARCHIVE, CONTINUITY, OPEN_THREADS, POLICY, SESSIONS
from mdmem.reading import ranking
from mdmem.reading.entries import Entry, entries_of
from mdmem.reading.index import (
    Index,
    Part,
    count,
    entry_at,
    from_payload,
    index_of,
    link_pairs,
    rank_indexes,
    reindex,
)
from mdmem.reading.scoring import make_query
from mdmem.reading.sources import (
    blocked_entries,
    display,
    optional,
    read_continuity,
    session_names,
)
from mdmem.store import cache
from mdmem.store.files import archive_paths, read, read_all, read_bytes, thread_paths
from mdmem.store.folders import project_path

if TYPE_CHECKING:  # only show parses the logs, and lookup no document through its index
    from mdmem.format.blocked import BlockedEntry
    from mdmem.format.document import Document
    from mdmem.format.sessionlog import Session
    from mdmem.reading import history

ENTRIES_CACHE = "entries"


def documents(root: Path) -> list[Path]:
    """continuity.md, the thread files, then the archive files by name (as the review reads
    them)."""
    return [root / CONTINUITY, *thread_paths(root), *archive_paths(root)]


def _is_thread(path: Path) -> bool:
    return path.parent.name == OPEN_THREADS


def _parsed(root: Path, path: Path) -> Document:
    """One document of `documents`, parsed whole (a thread file as one, SPEC §2)."""
    # The parsers only where a document is parsed: a lookup through its kept index imports
    # neither (12 and 17 ms, the 1.5x start-up target of benchmarks/read.py).
    from mdmem.format.document import parse_document
    from mdmem.format.threads import parse_thread

    file = read(path, display(root, path))
    return parse_thread(file) if _is_thread(path) else parse_document(file, unique_ids=False)


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
        parts: list[Part]
        before = left_out_so_far()
        if _is_thread(path):  # one small file: parsed whole, never in parts
            index, parts = index_of(_parsed(root, path)), []
        else:
            index, parts = reindex(read(path, shown), *(old or (None, [])))
        found[shown] = index
        if left_out_so_far() == before:  # else read again next time, to name what it leaves out
            fresh[shown] = {"stamp": stamp, "index": index.payload(), "parts": parts}
    if fresh != known:
        cache.save(root, ENTRIES_CACHE, {"files": fresh})
    return list(found.values())


def refresh_index(root: Path) -> None:
    """Bring lookup's kept index up to the documents as they are, when one is kept: `mdmem
    review` runs it after rewriting them, so that the next lookup finds it current instead
    of reading the rewritten files again. Best effort: a document that does not parse is
    lookup's to report. A memory never looked up gets no index here."""
    kept = cache.location(root, ENTRIES_CACHE)
    if kept is not None and kept.is_file():
        with contextlib.suppress(MdmemError, OSError):
            indexes(root)


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
    query = make_query(text)
    if not query.words:
        raise MdmemError(f"the query {text!r} has no words to look for (only filler words)")
    if cache.enabled():
        found = indexes(root)
        ranked = rank_indexes(found, _Lines(root), query, tier_label=tier, path=path, limit=limit)
    else:  # no index would be kept: each fact scored as read, only those that may match
        facts = [entry for file in documents(root) for entry in entries_of(_parsed(root, file))]
        ranked = ranking.rank(facts, query, tier=tier, path=path, limit=limit)
    shown = f"{root.name}/{SESSIONS}/"
    lines = ranking.best_line_hits(_logs(root, shown), shown, query, limit) if sessions else []
    successors = {hit.entry.get("superseded-by") or "" for hit in ranked.superseded} - {""}
    return ranking.Found(query, ranked, tuple(lines), _forgotten(root, successors))


def _forgotten(root: Path, ids: set[str]) -> frozenset[str]:
    """Those of `ids` that were forgotten: a superseded fact still names a successor
    forgotten since. blocked.md is read only when there are ids to ask about."""
    if not ids:
        return frozenset()
    return frozenset(ids & {entry.fact_id for entry in _tombstones(root)})


def _tombstones(root: Path) -> tuple[BlockedEntry, ...]:
    """blocked.md's entries; none when it does not parse (lint names what is wrong with
    it; lookup and show still answer)."""
    try:
        return blocked_entries(root)
    except ParseError:
        return ()


def _logs(root: Path, shown: str) -> list[tuple[str, bytes]]:
    """(file name, bytes) of every session log, in the folder's order: `best_line_hits`
    answers the same in any order, so the names are neither sorted nor parsed; `shown`:
    the folder as shown."""
    folder = root / SESSIONS
    if not folder.is_dir():
        return []
    names = [name for name in os.listdir(folder) if name.endswith(".md")]
    return list(zip(names, read_all(folder, names, shown), strict=True))


# --- show ------------------------------------------------------------------------------


def show(root: Path, fact_id: str, as_of: str | None = None) -> history.Shown:
    # show's only: the log scanner (8 ms) and the review's decision code (42 ms), which
    # lookup, under its 1.5x start-up target, must not import.
    from mdmem.format.sessionlog import Session, reference_lines, scan_log, session_of
    from mdmem.reading import history

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
        _refuse_unreadable(root, fact_id)
        from mdmem.linting.nearest import Nearest  # a reading command imports no lint code

        nearest = Nearest(known for index in found for known in index.ids).ranked(fact_id, 3)
        near = f"; nearest known: {', '.join(nearest)}" if nearest else ""
        raise MdmemError(f"no fact {fact_id!r} in continuity or the archive{near}")
    names = session_names(root)
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
    newest_first = tuple(reversed(references))
    forgotten = _forgotten(root, {*before, *after})
    return history.Shown(
        fact_id, copies, origin, newest_first, before, after, helpful, harmful, point, forgotten
    )


def _as_of(
    root: Path, copies: tuple[Entry, ...], sessions: tuple[Session, ...], asked: str, linked: bool
) -> history.AsOf:
    from mdmem.format.policy import parse_policy  # with history: see `show`
    from mdmem.reading import history
    from mdmem.reviewing import archive

    count = history.cut_index([session.name for session in sessions], asked)
    if count == 0:
        if (copies[0].get("created") or "") > asked:
            return history.AsOf(asked, "", None)
        raise MdmemError(f"--as-of {asked}: no session log is that old; the ledger starts later")
    continuity = read_continuity(root)
    document = continuity
    if copies[0].path != continuity.path:
        folder = OPEN_THREADS if copies[0].path.split("/")[-2] == OPEN_THREADS else ARCHIVE
        document = _parsed(root, root / folder / copies[0].path.rpartition("/")[2])
    fact = next(fact for fact in document.facts if fact.id == copies[0].id)
    policy = parse_policy(optional(root, POLICY))
    cut = sessions[:count]
    # Its stays in the archive: the block each copy there sits in, and each note of a return
    # (only the files that name it in one are read line by line).
    note = f"*Reactivated {fact.id} ".encode()
    stays: list[tuple[str, str | None]] = [
        (out, None) for copy in copies if (out := archive.moved_out_by(copy.section)) is not None
    ]
    for path in archive_paths(root):
        shown = display(root, path)
        if note in read_bytes(path, shown):
            stays += archive.returns(fact.id, read(path, shown).lines)
    archived = sorted(stays, key=lambda stay: (stay[0], stay[1] or "~"))  # by when it left
    tier = history.tier_as_of(continuity, policy, [(document, fact)], cut, linked, archived)
    return history.AsOf(asked, cut[-1].stem, tier)


def _refuse_unreadable(root: Path, fact_id: str) -> None:
    """Refuse to call a fact unknown when an item left out holds it: say where and why."""

    def lines_of(shown: str) -> tuple[str, ...] | None:
        with contextlib.suppress(ParseError):
            return read(root / shown.partition("/")[2], shown).lines if shown else None
        return None

    error = holders(lines_of).get(fact_id)
    if error is not None:
        raise MdmemError(
            f"fact {fact_id!r} is here but cannot be read: {error.message} (fix the item;"
            " `mdmem lint` lists it)",
            error.path,
            error.line,
            context=error.context,
        )


def _refuse_forgotten(root: Path, fact_id: str) -> None:
    """Refuse to show a forgotten fact as if it were unknown: say where its tombstone is."""
    for entry in _tombstones(root):  # none readable: the nearest ids serve
        if entry.fact_id == fact_id:
            raise MdmemError(
                f"{fact_id!r} was forgotten on {entry.blocked} ({entry.reason}); its text is "
                f"kept at {entry.path}:{entry.line} so that it never comes back"
            )
