"""From two parsed memories to what changed between them, fact by fact. Pure.

An id is followed wherever it lives (continuity, a thread file, the archive, vision.md,
blocked.md), so a fact a review moved to the archive is archived, not removed and added,
and a fact `mdmem forget` moved to blocked.md is forgotten, with its reason.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Mapping

from mdmem.changes import model as kinds
from mdmem.changes.model import (
    Change,
    Changes,
    FactState,
    PathNamed,
    SessionAdded,
    Unreadable,
)
from mdmem.format.document import Document, Fact
from mdmem.format.memory import SESSIONS, Memory
from mdmem.format.scope import globs, normalised
from mdmem.format.sessionlog import Session, session_stem
from mdmem.linting.findings import Finding
from mdmem.linting.paths import named_paths
from mdmem.reading.leads import lead

_MARKER = re.compile(r"^\s*[-*+]\s+(?:\[[ xX]\]\s+)?")
MOST_WORDS = 12  # words of a reworded run shown before an ellipsis


def states(memory: Memory) -> dict[str, FactState]:
    """id -> the fact as this memory holds it: live first, then archived, then the vision."""
    found: dict[str, FactState] = {}
    places = [(kinds.LIVE, document) for document in memory.live]
    places += [(kinds.ARCHIVE, document) for document in memory.archives]
    if memory.vision is not None:
        places.append((kinds.VISION, memory.vision))
    for place, document in places:
        for fact in document.facts:
            if fact.id not in found:
                found[fact.id] = _state(place, document, fact)
    return found


def _state(place: str, document: Document, fact: Fact) -> FactState:
    words = " ".join(line.strip() for line in document.fact_words(fact) if line.strip())
    section = fact.get("section") if place == kinds.ARCHIVE else None
    return FactState(
        fact.id, section or fact.section, place, _MARKER.sub("", words, count=1), fact.get("tier"),
        fact.is_core or place == kinds.VISION, fact.is_superseded, fact.get("superseded-by"),
        fact.checkbox,
    )  # fmt: skip


def compare(
    base: Memory,
    head: Memory,
    names: tuple[str, str],
    findings: tuple[Iterable[Finding], Iterable[Finding]],
    moved: Mapping[str, str | None],
    unreadable: tuple[Unreadable, ...] = (),
    rewritten: tuple[str, ...] = (),
) -> Changes:
    """What changed from `base` to `head` (`names`: how each side is called): each fact's
    changes, the session logs added, the paths the change `moved` (old path -> new path,
    None when deleted) that head's live facts still name, and lint's new findings. A fact
    or a log that one side holds in an item it cannot read (`unreadable`) is neither added
    nor removed by the side that cannot read it (the item is listed as unreadable); an
    item both sides hold alike is no part of the change, and not listed; an item base
    holds that head does not is removed. `rewritten`: the committed session logs the
    change edited (git's modified paths), which the ledger forbids."""
    before, after = states(base), states(head)
    held = {
        side: {i for item in unreadable if item.side == side for i in item.ids} for side in SIDES
    }
    blocked = {entry.fact_id: entry for entry in head.blocked}
    was_blocked = {entry.fact_id for entry in base.blocked}
    changes: list[Change] = []
    for fact_id in sorted(before.keys() | after.keys()):
        old, new = before.get(fact_id), after.get(fact_id)
        if (old is None and fact_id in held["base"]) or (new is None and fact_id in held["head"]):
            continue  # that side holds it, unread
        if new is None and old is not None:
            entry = blocked.get(fact_id)
            if entry is not None and fact_id not in was_blocked:
                changes.append(_change(kinds.FORGOTTEN, old, entry.reason))
            else:
                changes.append(_change(kinds.REMOVED, old, "neither archived nor forgotten"))
        elif new is not None:
            changes += fact_changes(old, new)
    unread = {side: {_log(i.path) for i in unreadable if i.side == side} - {""} for side in SIDES}
    base_stems = {session.stem for session in base.sessions} | unread["base"]
    head_stems = {session.stem for session in head.sessions} | unread["head"]
    added = [session for session in head.sessions if session.stem not in base_stems]
    changes += _ledger_changes(added, {c.id for c in changes}, before, after)
    new_findings, fixed = _findings_delta(*findings)
    listed, gone = _changed(unreadable, after.keys() | held["head"])
    return Changes(
        base=names[0],
        head=names[1],
        changes=tuple(sorted(changes, key=lambda c: (kinds.KINDS.index(c.kind), c.id))),
        sessions=tuple(_session(session) for session in added),
        sessions_removed=tuple(sorted(base_stems - head_stems)),
        sessions_rewritten=rewritten,
        paths=tuple(_paths_named(head, moved)),
        findings=new_findings,
        findings_fixed=fixed,
        reviewed=_rows(base) != _rows(head),
        unreadable=listed,
        unreadable_removed=gone,
    )


def _changed(
    unreadable: tuple[Unreadable, ...], head_ids: Iterable[str]
) -> tuple[tuple[Unreadable, ...], tuple[Unreadable, ...]]:
    """The unreadable items but those both sides hold alike (the same file, ids and why),
    and apart from them the base's items the change removed: head holds none of its ids.
    One that names no id stays listed: nothing tells its repair from its deletion. A log
    is followed as a session."""

    def key(item: Unreadable) -> tuple[str, tuple[str, ...], str]:
        return (item.path, item.ids, item.why)

    alike = {key(i) for i in unreadable if i.side == "base"}
    alike &= {key(i) for i in unreadable if i.side == "head"}
    held = set(head_ids)
    listed: list[Unreadable] = []
    gone: list[Unreadable] = []
    for item in unreadable:
        if key(item) in alike:
            continue
        removed = item.side == "base" and item.ids and not held & set(item.ids)
        removed = removed and not _log(item.path)
        (gone if removed else listed).append(item)
    return tuple(listed), tuple(gone)


SIDES = ("base", "head")


def _log(path: str) -> str:
    """The stem of the session log at `path` (as shown), or "" for another file."""
    return session_stem(path) if path.rpartition("/")[0].endswith(f"/{SESSIONS}") else ""


def fact_changes(old: FactState | None, new: FactState) -> list[Change]:
    """What happened to one fact that `new` holds (`old`: as it was, None when new)."""
    if old is None:
        kind = kinds.THREAD_OPENED if new.checkbox is not None else kinds.ADDED
        found = [_change(kind, new, f"tier {new.tier}" if new.tier else "")]
        if new.core:
            found.append(_change(kinds.MADE_CORE, new, "added as core"))
        if new.superseded:
            found.append(_superseded(new))
        return found
    found = []
    if old.text != new.text:
        found.append(_change(kinds.REWORDED, new, reworded(old.text, new.text)))
    if new.superseded and not old.superseded:
        found.append(_superseded(new))
    elif old.superseded and not new.superseded:
        found.append(
            _change(
                kinds.RESTORED,
                new,
                f"was superseded by {old.superseded_by}" if old.superseded_by else "",
            )
        )
    if new.core != old.core:
        found.append(_change(kinds.MADE_CORE if new.core else kinds.NO_LONGER_CORE, new))
    found += _thread_changes(old, new)
    found += _tier_moves(old, new)
    return found


def _thread_changes(old: FactState, new: FactState) -> list[Change]:
    if old.checkbox == " " and new.checkbox == "x":
        return [_change(kinds.THREAD_CLOSED, new)]
    if old.checkbox == "x" and new.checkbox == " ":
        return [_change(kinds.THREAD_REOPENED, new)]
    return []


def _tier_moves(old: FactState, new: FactState) -> list[Change]:
    """Moves between continuity and the archive, and tier labels a review changed (core and
    superseded are reported as their own kinds)."""
    tiers = f"{old.tier or '-'} → {new.tier or '-'}"
    if old.place == kinds.LIVE and new.place == kinds.ARCHIVE:
        return [_change(kinds.ARCHIVED, new, tiers)]
    if old.place == kinds.ARCHIVE and new.place == kinds.LIVE:
        return [_change(kinds.REACTIVATED, new, tiers)]
    shown_apart = {"core", "superseded"}
    if old.tier != new.tier and not {old.tier, new.tier} & shown_apart:
        return [_change(kinds.TIER, new, tiers)]
    return []


def _superseded(state: FactState) -> Change:
    if state.superseded_by:
        return _change(kinds.SUPERSEDED, state, f"→ {state.superseded_by}")
    return _change(kinds.INVALIDATED, state)


def _change(kind: str, state: FactState, detail: str = "") -> Change:
    return Change(kind, state.id, state.section, lead(state.text), detail)


def _ledger_changes(
    added: Iterable[Session],
    reported: set[str],
    before: Mapping[str, FactState],
    after: Mapping[str, FactState],
) -> list[Change]:
    """`Superseded:` and `Restored:` lines of the added logs whose footers do not show them
    yet (the next review applies them, SPEC §8)."""
    found: list[Change] = []
    for session in added:
        for event in session.events:
            for fact_id in event.ids:
                state = after.get(fact_id) or before.get(fact_id)
                if state is None or fact_id in reported:
                    continue
                note = f"logged in {session.stem}; the next review writes it"
                if event.kind == "superseded":
                    kind = kinds.SUPERSEDED if event.new_id else kinds.INVALIDATED
                    detail = f"→ {event.new_id} ({note})" if event.new_id else note
                elif event.kind == "restored":
                    kind, detail = kinds.RESTORED, note
                else:
                    continue
                reported.add(fact_id)
                found.append(_change(kind, state, detail))
    return found


def reworded(old: str, new: str) -> str:
    """The words that changed, as a reader scans them: `"old words" → "new words"` per
    run that differs (at most three runs), `+"words"` added, `-"words"` dropped."""
    a, b = old.split(), new.split()
    runs = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace":
            runs.append(f'"{_words(a[i1:i2])}" → "{_words(b[j1:j2])}"')
        elif op == "delete":
            runs.append(f'-"{_words(a[i1:i2])}"')
        elif op == "insert":
            runs.append(f'+"{_words(b[j1:j2])}"')
    if not runs:
        return "spacing only"
    more = f"; and {len(runs) - 3} more" if len(runs) > 3 else ""
    return "; ".join(runs[:3]) + more


def _words(words: list[str]) -> str:
    if len(words) <= MOST_WORDS:
        return " ".join(words)
    return " ".join(words[:MOST_WORDS]) + " …"


def _session(session: Session) -> SessionAdded:
    events = tuple(
        f"{event.kind.capitalize()}: {', '.join(event.ids)}"
        + (f" → {event.new_id}" if event.new_id else "")
        for event in session.events
        if event.kind != "referenced"
    )
    return SessionAdded(session.stem, session.path, tuple(sorted(session.references)), events)


def _paths_named(head: Memory, moved: Mapping[str, str | None]) -> list[PathNamed]:
    """Head's live facts that name a path the change deleted or renamed (or a folder or a
    bare file name of one)."""
    tops = frozenset(path.split("/", 1)[0] for path in moved if "/" in path)
    found: dict[tuple[str, str], PathNamed] = {}
    for document in head.live:
        for fact in document.facts:
            if fact.is_superseded or fact.is_done_thread:
                continue
            named = named_paths(document.fact_words(fact), tops)
            named += [normalised(glob) for glob in globs(fact.get("scope") or "")]
            for path in named:
                for old, new in _hits(path, moved):
                    found.setdefault((fact.id, path), PathNamed(fact.id, old, new))
    return sorted(found.values(), key=lambda p: (p.id, p.path))


def _hits(path: str, moved: Mapping[str, str | None]) -> list[tuple[str, str | None]]:
    """The moved paths `path` names: itself, or the files of that name when it is bare."""
    path = path.rstrip("/")
    if path in moved:
        return [(path, moved[path])]
    if "/" not in path:
        return [(old, new) for old, new in sorted(moved.items()) if old.rsplit("/", 1)[-1] == path]
    return []


def _findings_delta(
    base: Iterable[Finding], head: Iterable[Finding]
) -> tuple[tuple[Finding, ...], int]:
    """Head's findings base did not have, by code, path and message (lines move as text
    is added above them); and the number of base's that head no longer has."""

    def key(item: Finding) -> tuple[str, str, str]:
        return (item.code, item.path, item.message)

    base, head = list(base), list(head)
    before, after = Counter(map(key, base)), Counter(map(key, head))
    # As many of each as there are (two facts broken alike are two E001s); those at the
    # line a base finding had are the old ones, the rest are matched in line order.
    at_old_line = {(*key(item), item.line) for item in base}
    ordered = sorted(head, key=lambda item: ((*key(item), item.line) not in at_old_line, item.line))
    new: list[Finding] = []
    seen: Counter[tuple[str, str, str]] = Counter()
    for item in ordered:
        seen[key(item)] += 1
        if seen[key(item)] > before[key(item)]:
            new.append(item)
    return tuple(sorted(new, key=lambda item: (key(item), item.line))), (before - after).total()


def _rows(memory: Memory) -> int:
    return 0 if memory.reviews is None else len(memory.reviews.lines)
