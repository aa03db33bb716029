"""The review: a pure function from a loaded memory to the exact bytes it would write.

No file access, no git and no clock in here: the newest session log is "now", and
every decision is an integer comparison, so any machine on any day plans the same.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mdmem.errors import MdmemError, ParseError
from mdmem.format.document import (
    INVARIANTS_SECTION,
    OPEN_THREADS_SECTION,
    Document,
    Fact,
    parse_document,
)
from mdmem.format.edit import Edit, append_point, apply_edits, normalized, removal
from mdmem.format.footer import footer_ids
from mdmem.format.memory import ARCHIVE, CONTINUITY, INDEX, REVIEWS, Memory
from mdmem.format.policy import Policy
from mdmem.format.textfile import BOM, TextFile, body, ending, split_lines
from mdmem.reviewing.archive import (
    REASONS,
    IndexRow,
    block_heading,
    index_row,
    quarter_file,
    reactivated_note,
    reason_for,
    render_index,
    summary,
)
from mdmem.reviewing.cadence import ThreadPlan, plan_threads
from mdmem.reviewing.ledger import Ledger, build_ledger, maturity
from mdmem.reviewing.repair import Copy, copy_key, group_copies, kept_copy, merge_threads
from mdmem.reviewing.rows import TIER_COLUMNS, ReviewRow, appended, in_order
from mdmem.reviewing.stamps import last_review_through, stamp_edits
from mdmem.safety.blocklist import blocked_facts

REACTIVATED_SECTION = "Reactivated"
GONE = ("archived", "superseded")


@dataclass(frozen=True, slots=True)
class Decision:
    """What the review decided for one fact."""

    fact_id: str
    tier_before: str | None
    tier: str  # the tier it counts as; "open" for an open thread, which never decays
    changes: tuple[tuple[str, str | None], ...]  # footer fields to set (or drop, None)
    move: str | None  # "out" of continuity, "in" from the archive, or None
    reason: str | None  # why it moved out: faded, superseded, completed
    refreshed: bool  # uses or last_used changed

    def change(self, key: str) -> str | None:
        for changed, value in self.changes:
            if changed == key:
                return value
        return None

    def updated_footer_line(self, fact: Fact, newline: str | None = None) -> str:
        footer = fact.footer.updated(dict(self.changes))
        return footer.render() + (newline if newline is not None else "")


@dataclass(frozen=True)
class FileWrite:
    path: str  # relative to the memory folder
    before: str | None  # None when the file is new
    after: str


@dataclass(frozen=True)
class ReviewSummary:
    through: str
    ledger_date: str
    sessions: int
    tiers: tuple[tuple[str, int], ...]
    open_threads: int
    moved_out: tuple[tuple[str, str], ...]  # (id, reason)
    moved_in: tuple[str, ...]
    tier_changes: tuple[tuple[str, str, str], ...]  # (id, before, after)
    refreshed: tuple[str, ...]  # ids whose uses or last_used changed
    backfilled: tuple[str, ...]  # ids whose origin the review filled in
    opened: tuple[str, ...]  # ids of the Open Threads the review raised
    archive_file: str | None
    merged_duplicates: tuple[str, ...] = ()  # ids a merge left in two places, now in one

    def archived(self, reason: str) -> list[str]:
        """Ids moved out for one reason (faded, superseded, completed), in id order."""
        return [fact_id for fact_id, why in self.moved_out if why == reason]

    def listed(self) -> list[tuple[str, Sequence[str]]]:
        """(what happened, ids) for each kind of change that has ids, in a fixed order."""
        kinds: list[tuple[str, Sequence[str]]] = [
            *((f"archived ({reason})", self.archived(reason)) for reason in REASONS),
            ("reactivated", self.moved_in),
            ("opened", self.opened),
            ("one copy kept after a merge", self.merged_duplicates),
        ]
        return [(label, ids) for label, ids in kinds if ids]

    def as_dict(self) -> dict[str, object]:
        return {
            "through": self.through,
            "ledger_date": self.ledger_date,
            "sessions": self.sessions,
            "tiers": dict(self.tiers),
            "open_threads": self.open_threads,
            "moved_out": [{"id": i, "reason": r} for i, r in self.moved_out],
            "moved_in": list(self.moved_in),
            "tier_changes": [{"id": i, "from": a, "to": b} for i, a, b in self.tier_changes],
            "refreshed": list(self.refreshed),
            "backfilled": list(self.backfilled),
            "opened": list(self.opened),
            "archive_file": self.archive_file,
            "merged_duplicates": list(self.merged_duplicates),
        }


def id_list(ids: Sequence[str], most: int) -> str:
    """`a, b, c`; past `most` ids, the first ones and how many more (a review can move
    thousands: the archive's INDEX.md lists them all)."""
    if len(ids) <= most:
        return ", ".join(ids)
    return f"{', '.join(ids[:most])} and {len(ids) - most} more"


@dataclass(frozen=True)
class ReviewPlan:
    root: Path
    writes: tuple[FileWrite, ...]
    summary: ReviewSummary | None  # None when there is no session log yet
    decisions: tuple[Decision, ...] = field(default=(), repr=False)

    @property
    def changed(self) -> bool:
        return bool(self.writes)

    def diff(self) -> str:
        """The plan as a unified diff, paths named as in the repository."""
        label = self.root.name
        import difflib  # only a dry run prints a diff

        chunks: list[str] = []
        for write in self.writes:
            before = (write.before or "").splitlines(keepends=True)
            after = write.after.splitlines(keepends=True)
            source = f"a/{label}/{write.path}" if write.before is not None else "/dev/null"
            chunks.extend(
                difflib.unified_diff(before, after, source, f"b/{label}/{write.path}", n=3)
            )
        return "".join(line if line.endswith("\n") else line + "\n" for line in chunks)


def plan_review(memory: Memory) -> ReviewPlan:
    """Decide everything a review of `memory` changes, as whole-file texts."""
    if not memory.sessions:
        return ReviewPlan(memory.root, (), None)
    _refuse_blocked(memory)
    # Archive files in name (so quarter) order, whoever built the tuple: where several
    # facts return to one section, they come back in that order on every machine.
    archives = tuple(sorted(memory.archives, key=lambda document: document.path))
    if archives != memory.archives:
        memory = dataclasses.replace(memory, archives=archives)
    continuity = memory.continuity
    facts = [(continuity, fact) for fact in continuity.facts]
    facts += [(doc, fact) for doc in memory.archives for fact in doc.facts]
    ledger = build_ledger(memory.sessions, (fact.id for _, fact in facts))
    links = _link_changes(facts, ledger)
    decisions, duplicates = _decide_copies(memory, facts, ledger, links)
    through, date = ledger.newest, ledger.newest_date
    threads = plan_threads(memory, ledger, decisions_tiers(decisions), date, through)
    if duplicates:
        extra = merge_threads(duplicates, decisions, date)
        threads = ThreadPlan((*threads.opened, *extra), threads.stamps)
    dropped = {copy_key(c): c[1].id for _, copies in duplicates.values() for c in copies}
    writes, archive_name = _write_documents(memory, decisions, threads, through, date, dropped)
    last = last_review_through(continuity, memory.reviews)
    if not writes and last == through and in_order(memory.reviews):
        return ReviewPlan(
            memory.root, (), _summary(ledger, decisions, (), None), tuple(decisions.values())
        )
    writes = sorted(_stamp(memory, writes, threads, through, date), key=lambda w: w.path)
    summary_ = _summary(ledger, decisions, tuple(t.fact_id for t in threads.opened), archive_name)
    summary_ = dataclasses.replace(summary_, merged_duplicates=tuple(sorted(duplicates)))
    row = _row(summary_)
    newline = continuity.file.newline
    writes.append(
        FileWrite(
            REVIEWS,
            None if memory.reviews is None else memory.reviews.text(),
            appended(memory.reviews, row, newline),
        )
    )
    writes.sort(key=lambda w: w.path)
    return ReviewPlan(memory.root, tuple(writes), summary_, tuple(decisions.values()))


def _refuse_blocked(memory: Memory) -> None:
    """Text forgotten on purpose (SPEC §9) stops the review, naming the blocked entry."""
    documents = (memory.continuity, *memory.archives)
    for document, fact, entry in blocked_facts(documents, memory.blocked):
        raise ParseError(
            f"fact {fact.id} is near the blocked entry {entry.fact_id} ({entry.path}:"
            f"{entry.line}): it was forgotten on purpose; delete it, or edit blocked.md",
            document.path,
            fact.line,
        )


def _decide_copies(
    memory: Memory,
    facts: list[Copy],
    ledger: Ledger,
    links: dict[str, dict[str, str | None]],
) -> tuple[dict[str, Decision], dict[str, tuple[Copy, list[Copy]]]]:
    """One decision per id; where a merge left copies, the one kept and those dropped.

    The tier is decided on the first copy; `mdmem.reviewing.repair.kept_copy` names the copy
    that stays, and the decision is remade on it when it is another one.
    """
    continuity = memory.continuity
    decisions: dict[str, Decision] = {}
    duplicates: dict[str, tuple[Copy, list[Copy]]] = {}
    for fact_id, copies in group_copies(facts).items():
        change = links.get(fact_id, {})
        kept = copies[0]
        decision = _decide(
            kept[1], kept[0] is continuity, ledger, memory.policy, change, continuity
        )
        if len(copies) > 1:
            kept = kept_copy(copies, continuity, decision.tier in GONE)
            if kept is not copies[0]:
                decision = _decide(
                    kept[1], kept[0] is continuity, ledger, memory.policy, change, continuity
                )
            duplicates[fact_id] = (kept, [copy for copy in copies if copy is not kept])
        decisions[fact_id] = decision
    return decisions, duplicates


def decisions_tiers(decisions: dict[str, Decision]) -> dict[str, str]:
    return {fact_id: d.tier for fact_id, d in decisions.items()}


def _link_changes(
    facts: list[tuple[Document, Fact]], ledger: Ledger
) -> dict[str, dict[str, str | None]]:
    """`supersedes` as the ledger implies it, in one step (so a second review adds nothing).

    A successor without the link gets the first fact it still supersedes; a link to a
    fact since restored moves to another one it still supersedes, or is dropped.
    """
    still: dict[str, list[str]] = {}
    for old, state in sorted(ledger.supersession.items()):
        if state.superseded and state.by is not None:
            still.setdefault(state.by, []).append(old)
    changes: dict[str, dict[str, str | None]] = {}
    for _, fact in facts:
        current = fact.get("supersedes")
        linked = ledger.supersession.get(current) if current else None
        if current is None or (linked is not None and not linked.superseded):
            wanted = still[fact.id][0] if fact.id in still else None
            if wanted != current:
                changes.setdefault(fact.id, {})["supersedes"] = wanted
    return changes


def _decide(
    fact: Fact,
    live: bool,
    ledger: Ledger,
    policy: Policy,
    links: dict[str, str | None],
    continuity: Document,
) -> Decision:
    """Recompute one fact from the ledger and apply the tier rules, first match wins.

    An archived fact the rules bring back is decided again where it returns to, so that
    it lands with the tier it will keep (a restored invariant is core, an open thread open).
    """
    decision = _decide_at(fact, live, fact.section, ledger, policy, links)
    if decision.move != "in":
        return decision
    home = return_section(continuity, fact)
    back = _decide_at(fact, True, home, ledger, policy, links)
    changes = {**dict(back.changes), "section": None}
    return dataclasses.replace(back, changes=tuple(changes.items()), move="in", reason=None)


def return_section(continuity: Document, fact: Fact) -> str:
    """The section an archived fact goes back to: its own, or `## Reactivated`."""
    section = fact.get("section") or ""
    return section if section and continuity.section(section) is not None else REACTIVATED_SECTION


def _decide_at(
    fact: Fact,
    live: bool,
    section: str,
    ledger: Ledger,
    policy: Policy,
    links: dict[str, str | None],
) -> Decision:
    values = fact.footer.values  # read directly: this runs once per fact of the memory
    changes: dict[str, str | None] = dict(links)
    count = ledger.count
    refs = ledger.references.get(fact.id)
    if refs:
        uses = len(refs)
        changes["uses"] = str(uses)
        changes["last_used"] = ledger.dates[refs[-1]]
        sessions_since_last_used = count - 1 - refs[-1]
    else:
        uses = int(values.get("uses") or 0)
        anchor = values.get("last_used") or values.get("created")
        sessions_since_last_used = ledger.after_date(anchor) if anchor else count
    origin = values.get("origin")
    if origin is None and fact.id in ledger.created_in:
        origin = ledger.created_in[fact.id]
        changes["origin"] = origin
    origin_index = ledger.index_of(origin) if origin else None
    created = values.get("created")
    if origin_index is not None:
        sessions_since_created = count - 1 - origin_index
    elif created is not None:
        sessions_since_created = ledger.after_date(created)
    else:
        sessions_since_created = sessions_since_last_used

    tier_before = values.get("tier")
    superseded = tier_before == "superseded" or values.get("superseded-by") is not None
    state = ledger.supersession.get(fact.id)
    if state is not None:
        superseded = state.superseded
        if state.superseded and state.by is not None:
            changes["superseded-by"] = state.by
        if not state.superseded:
            changes["superseded-by"] = None

    helpful, harmful = ledger.helpful.get(fact.id, 0), ledger.harmful.get(fact.id, 0)
    if helpful or harmful:
        changes["helpful"] = str(helpful)
        changes["harmful"] = str(harmful)
        changes["maturity"] = maturity(helpful, harmful)

    label: str | None
    if superseded:
        tier = label = "superseded"
    elif tier_before == "core":
        tier, label = "core", None
    elif not live and fact.is_done_thread:
        tier = label = "archived"  # a completed thread stays done; only faded facts return
    elif live and section == INVARIANTS_SECTION:
        tier, label = "core", None  # treated as core; lint reports a wrong label
    elif live and fact.is_open_thread:
        tier, label = "open", None
    elif sessions_since_created <= policy.working_window and uses <= 1:
        tier = label = "working"
    elif sessions_since_last_used <= policy.active_window:
        tier = label = "active"
    elif sessions_since_last_used <= policy.archive_window:
        tier = label = "archive-candidate"
    else:
        tier = label = "archived"
    if label is not None:
        changes["tier"] = label

    move = reason = None
    if live and tier in GONE:
        move, reason = "out", reason_for(tier, fact.is_done_thread)
        changes["section"] = fact.section
    elif not live and tier not in GONE:
        move = "in"
        changes["section"] = None
    refreshed = bool(refs) and (
        changes["uses"] != values.get("uses") or changes["last_used"] != values.get("last_used")
    )
    return Decision(fact.id, tier_before, tier, tuple(changes.items()), move, reason, refreshed)


def _footer_edit(document: Document, fact: Fact, decision: Decision) -> Edit | None:
    footer = fact.footer.updated(dict(decision.changes))
    if footer is fact.footer:  # nothing changed: it renders as read (the usual fact)
        return None
    line = document.lines[fact.footer_index]
    new = footer.render() + ending(line)
    return None if new == line else Edit(fact.footer_index, fact.footer_index + 1, (new,))


def _fact_lines(document: Document, fact: Fact, decision: Decision, newline: str) -> list[str]:
    lines = list(normalized(document.fact_text(fact), newline))
    lines.append(decision.updated_footer_line(fact, newline))
    return lines


def _items(groups: list[list[str]], loose: bool, newline: str) -> list[str]:
    out: list[str] = []
    for index, lines in enumerate(groups):
        if loose and index:
            out.append(newline)
        out.extend(lines)
    return out


def _write_documents(
    memory: Memory,
    decisions: dict[str, Decision],
    threads: ThreadPlan,
    through: str,
    date: str,
    dropped: Mapping[tuple[str, int], str],
) -> tuple[list[FileWrite], str | None]:
    """Every file the review changes, except the stamps and the reviews.md row.

    `dropped`: the extra copies of a merged id, (path, first line) -> id; they go.
    """
    continuity = memory.continuity
    newline = continuity.file.newline
    edits: list[Edit] = []
    removed: set[int] = set()
    outgoing: list[tuple[Fact, Decision]] = []
    for fact in continuity.facts:
        decision = decisions[fact.id]
        if (continuity.path, fact.start) in dropped:
            edit = removal(continuity.lines, fact.start, fact.end)
            edits.append(edit)
            removed.update(range(edit.start, edit.end))
        elif decision.move == "out":
            edit = removal(continuity.lines, fact.start, fact.end)
            edits.append(edit)
            removed.update(range(edit.start, edit.end))
            outgoing.append((fact, decision))
        else:
            footer_edit = _footer_edit(continuity, fact, decision)
            if footer_edit is not None:
                edits.append(footer_edit)

    # Facts coming back, grouped by the section they return to, then the new threads.
    incoming: dict[str, list[list[str]]] = {}
    archive_edits: dict[str, list[Edit]] = {doc.path: [] for doc in memory.archives}
    for document in memory.archives:
        for fact in document.facts:
            decision = decisions[fact.id]
            if (document.path, fact.start) in dropped:
                archive_edits[document.path].append(removal(document.lines, fact.start, fact.end))
                continue
            if decision.move != "in":
                footer_edit = _footer_edit(document, fact, decision)
                if footer_edit is not None:
                    archive_edits[document.path].append(footer_edit)
                continue
            target = return_section(continuity, fact)
            incoming.setdefault(target, []).append(_fact_lines(document, fact, decision, newline))
            note = reactivated_note(fact.id, target, through) + document.file.newline
            archive_edits[document.path].append(Edit(fact.start, fact.end, (note,)))
    for thread in threads.opened:
        incoming.setdefault(OPEN_THREADS_SECTION, []).append(
            [line + newline for line in thread.lines]
        )
    edits.extend(_insertions(continuity, incoming, removed, newline))

    writes: list[FileWrite] = []
    continuity_after = apply_edits(continuity.lines, edits, newline)
    if continuity_after != list(continuity.lines):
        writes.append(_write(CONTINUITY, continuity.file, continuity_after))

    archive_name = quarter_file(date) if outgoing else None
    by_name = {_name(doc): doc for doc in memory.archives}
    if archive_name is not None:
        target_doc = by_name.get(archive_name)
        if target_doc is None:
            block = _archive_block(continuity, outgoing, newline, through, date)
            text = f"# Archive {archive_name[:-3]}{newline}" + "".join(block)
            writes.append(FileWrite(f"{ARCHIVE}/{archive_name}", None, text))
        else:
            lines = target_doc.lines
            block = _archive_block(continuity, outgoing, target_doc.file.newline, through, date)
            if lines and not body(lines[-1]).strip():
                block = block[1:]
            archive_edits[target_doc.path].append(Edit(len(lines), len(lines), tuple(block)))
    for document in memory.archives:
        after = apply_edits(document.lines, archive_edits[document.path], document.file.newline)
        if after != list(document.lines):
            writes.append(_write(f"{ARCHIVE}/{_name(document)}", document.file, after))

    index_text = _index(memory, decisions, outgoing, archive_name, dropped)
    old_index = None if memory.index is None else memory.index.text()
    has_entries = bool(memory.archives) or archive_name is not None
    if index_text != old_index and (old_index is not None or has_entries):
        writes.append(FileWrite(f"{ARCHIVE}/{INDEX}", old_index, index_text))
    opened = [thread.fact_id for thread in threads.opened]
    _check_conservation(memory, writes, opened, list(dropped.values()))
    return writes, archive_name


def _name(document: Document) -> str:
    return document.path.rsplit("/", 1)[-1]


def _insertions(
    continuity: Document, incoming: dict[str, list[list[str]]], removed: set[int], newline: str
) -> list[Edit]:
    """Items appended at the end of their sections; missing sections are added at the end."""
    edits: list[Edit] = []
    tail: list[str] = []
    for title, groups in incoming.items():
        section = continuity.section(title)
        if section is None:
            if tail or (continuity.lines and body(continuity.lines[-1]).strip()):
                tail.append(newline)
            tail.extend([f"## {title}{newline}", newline, *_items(groups, False, newline)])
            continue
        point, loose = append_point(continuity, section, removed)
        lines = _items(groups, loose, newline)
        if loose or point == section.start + 1:
            lines.insert(0, newline)
        edits.append(Edit(point, point, tuple(lines)))
    if tail:
        end = len(continuity.lines)
        edits.append(Edit(end, end, tuple(tail)))
    return edits


def _archive_block(
    continuity: Document,
    outgoing: list[tuple[Fact, Decision]],
    newline: str,
    through: str,
    date: str,
) -> list[str]:
    block = [newline, block_heading(date, through) + newline]
    for reason in REASONS:
        group = [(f, d) for f, d in outgoing if d.reason == reason]
        if not group:
            continue
        block.extend([newline, f"### {reason.capitalize()}{newline}", newline])
        for fact, decision in group:
            block.extend(_fact_lines(continuity, fact, decision, newline))
    return block


def _write(path: str, file: TextFile, lines: list[str]) -> FileWrite:
    return FileWrite(path, file.text(), file.with_lines(lines).text())


def _index(
    memory: Memory,
    decisions: dict[str, Decision],
    outgoing: list[tuple[Fact, Decision]],
    archive_name: str | None,
    dropped: Mapping[tuple[str, int], str],
) -> str:
    entries: list[IndexRow] = []
    for document in memory.archives:
        name, lines, path = _name(document), document.lines, document.path
        for fact in document.facts:
            decision = decisions[fact.id]
            if decision.move == "in" or (dropped and (path, fact.start) in dropped):
                continue
            reason = reason_for(decision.tier, fact.is_done_thread)
            entries.append(index_row(fact.id, summary(lines[fact.start]), reason, name))
    for fact, decision in outgoing:
        assert archive_name is not None and decision.reason is not None
        text = summary(memory.continuity.lines[fact.start])
        entries.append(index_row(fact.id, text, decision.reason, archive_name))
    newline = (memory.index or memory.continuity.file).newline
    return render_index(entries, newline)


def _check_conservation(
    memory: Memory, writes: list[FileWrite], opened: list[str], collapsed: list[str]
) -> None:
    """Refuse a plan that would lose or duplicate a fact: a bug, never a user error.

    Every footer line of the files the review rewrites is counted before and after,
    by id, with the same scanner on both sides; the moves must balance exactly, the
    only new ids are the Open Threads the review raises, and the only copies that go
    are the extra copies of a merged id (`collapsed`, one entry per copy removed).
    """
    documents = {CONTINUITY: memory.continuity.file.text()}
    documents.update((f"{ARCHIVE}/{_name(doc)}", doc.file.text()) for doc in memory.archives)
    before: Counter[str] = Counter(opened)
    before.subtract(collapsed)
    after: Counter[str] = Counter()
    for write in writes:
        if write.path == CONTINUITY or (
            write.path.startswith(f"{ARCHIVE}/") and write.path != f"{ARCHIVE}/{INDEX}"
        ):
            before.update(footer_ids(documents.get(write.path, "")))
            after.update(footer_ids(write.after))
    if before != after:
        lost = sorted((before - after).elements())
        doubled = sorted((after - before).elements())
        raise MdmemError(f"internal error: the review would lose {lost} or duplicate {doubled}")


def _stamp(
    memory: Memory, writes: list[FileWrite], threads: ThreadPlan, through: str, date: str
) -> list[FileWrite]:
    """Stamp Project State in the continuity text the review is about to write."""
    continuity = memory.continuity
    current = next((w for w in writes if w.path == CONTINUITY), None)
    if current is None:
        document = continuity
    else:
        lines = split_lines(current.after.removeprefix(BOM))
        document = parse_document(continuity.file.with_lines(lines))
    stamps = {"last_review": f"{date} | through {through}", **dict(threads.stamps)}
    edits = stamp_edits(document, stamps)
    if not edits:
        return writes
    after = _write(
        CONTINUITY, continuity.file, apply_edits(document.lines, edits, document.file.newline)
    )
    return [w for w in writes if w.path != CONTINUITY] + [after]


def _summary(
    ledger: Ledger,
    decisions: dict[str, Decision],
    opened: tuple[str, ...],
    archive_name: str | None,
) -> ReviewSummary:
    counts = dict.fromkeys(TIER_COLUMNS, 0)
    open_threads = len(opened)
    moved_out: list[tuple[str, str]] = []
    moved_in: list[str] = []
    tier_changes: list[tuple[str, str, str]] = []
    refreshed: list[str] = []
    backfilled: list[str] = []
    for decision in sorted(decisions.values(), key=lambda d: d.fact_id):
        fact_id, tier, origin = decision.fact_id, None, None
        for key, value in decision.changes:
            if key == "tier":
                tier = value
            elif key == "origin":
                origin = value
        if decision.tier == "open":
            open_threads += 1
        else:
            counts[decision.tier] += 1
        if decision.move == "out":
            moved_out.append((fact_id, decision.reason or ""))
        elif decision.move == "in":
            moved_in.append(fact_id)
        if tier is not None and tier != decision.tier_before:
            tier_changes.append((fact_id, decision.tier_before or "-", tier))
        if decision.refreshed:
            refreshed.append(fact_id)
        if origin is not None:
            backfilled.append(fact_id)
    return ReviewSummary(
        through=ledger.newest,
        ledger_date=ledger.newest_date,
        sessions=ledger.count,
        tiers=tuple(counts.items()),
        open_threads=open_threads,
        moved_out=tuple(moved_out),
        moved_in=tuple(moved_in),
        tier_changes=tuple(tier_changes),
        refreshed=tuple(refreshed),
        backfilled=tuple(backfilled),
        opened=opened,
        archive_file=archive_name,
    )


def _row(summary_: ReviewSummary) -> ReviewRow:
    return ReviewRow(
        ledger_date=summary_.ledger_date,
        through=summary_.through,
        sessions=summary_.sessions,
        tiers=tuple(n for _, n in summary_.tiers),
        open_threads=summary_.open_threads,
        moved_out=len(summary_.moved_out),
        moved_in=len(summary_.moved_in),
    )
