"""Writing the decisions down: the exact texts of continuity, the thread files, the archive
files, INDEX.md, the Project State stamps and reviews.md after a review, each as a `FileWrite`.

Only the lines a review changes are rewritten; every other byte stays as it was read. A
thread file (the protocol's v4.39 layout, one Open Thread per `open-threads/thread-<id>.md`)
is edited as continuity is; one left with no item and nothing but headings and blank lines
is removed (the archive block holds its thread).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from mdmem.errors import MdmemError
from mdmem.format.document import Document, Fact, parse_document
from mdmem.format.edit import Edit, append_point, apply_edits, normalized, removal
from mdmem.format.footer import footer_ids
from mdmem.format.memory import ARCHIVE, CONTINUITY, INDEX, OPEN_THREADS, REVIEWS, Memory
from mdmem.format.sections import OPEN_THREADS_SECTION
from mdmem.format.textfile import BOM, TextFile, body, ending, split_lines
from mdmem.format.threads import thread_relative
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
from mdmem.reviewing.cadence import ThreadPlan
from mdmem.reviewing.decide import Decision, return_section
from mdmem.reviewing.rows import ReviewRow, appended
from mdmem.reviewing.stamps import stamp_edits, stamp_value

Outgoing = list[tuple[Document, Fact, Decision]]  # the facts moving out of live documents
Incoming = dict[str, list[list[str]]]  # section -> the items it receives, as lines


@dataclass(frozen=True)
class FileWrite:
    path: str  # relative to the memory folder
    before: str | None  # None when the file is new
    after: str | None  # None when the review removes the file (a thread file swept)


def render_documents(
    memory: Memory,
    decisions: dict[str, Decision],
    threads: ThreadPlan,
    through: str,
    date: str,
    dropped: Mapping[tuple[str, int], str],
) -> tuple[list[FileWrite], str | None]:
    """Every file the review changes, except the stamps and the reviews.md row, and the
    name of the archive file the facts moved out go to.

    `dropped`: the extra copies of a merged id, (path, first line) -> id; they go.
    """
    continuity = memory.continuity
    newline = continuity.file.newline
    edits, removed, outgoing = _live_edits(continuity, decisions, dropped)
    writes: list[FileWrite] = []
    for document in memory.threads:
        thread_edits, _, leaving = _live_edits(document, decisions, dropped)
        outgoing += leaving
        if thread_edits:
            writes.append(_thread_write(memory, document, thread_edits))
    incoming, archive_edits = _archive_edits(memory, decisions, through, dropped)
    home = continuity.spelled(OPEN_THREADS_SECTION)
    for thread in threads.opened:
        incoming.setdefault(home, []).append([line + newline for line in thread.lines])
    if memory.thread_layout:  # threads go where the memory keeps them: a file each
        writes += _new_thread_files(incoming.pop(home, []))
    edits.extend(_insertions(continuity, incoming, removed, newline))

    continuity_after = apply_edits(continuity.lines, edits, newline)
    if continuity_after != list(continuity.lines):
        writes.append(_write(CONTINUITY, continuity.file, continuity_after))
    archive_name = quarter_file(date) if outgoing else None
    writes += _archive_writes(memory, archive_edits, outgoing, archive_name, through, date)
    index = _index_write(memory, decisions, outgoing, archive_name, dropped)
    if index is not None:
        writes.append(index)
    opened = [thread.fact_id for thread in threads.opened]
    _check_conservation(memory, writes, opened, list(dropped.values()))
    return writes, archive_name


def stamped(
    memory: Memory, writes: list[FileWrite], threads: ThreadPlan, through: str, date: str
) -> list[FileWrite]:
    """Stamp Project State in the continuity text the review is about to write."""
    continuity = memory.continuity
    current = next((w for w in writes if w.path == CONTINUITY), None)
    if current is None or current.after is None:  # continuity is never removed
        document = continuity
    else:
        lines = split_lines(current.after.removeprefix(BOM))
        document = parse_document(continuity.file.with_lines(lines))
    stamps = {"last_review": stamp_value(date, through), **dict(threads.stamps)}
    edits = stamp_edits(document, stamps)
    if not edits:
        return writes
    after = _write(
        CONTINUITY, continuity.file, apply_edits(document.lines, edits, document.file.newline)
    )
    return [w for w in writes if w.path != CONTINUITY] + [after]


def reviews_write(memory: Memory, row: ReviewRow) -> FileWrite:
    """reviews.md with the review's row, made with its header when it is new."""
    before = None if memory.reviews is None else memory.reviews.text()
    return FileWrite(REVIEWS, before, appended(memory.reviews, row, memory.continuity.file.newline))


def _live_edits(
    document: Document, decisions: dict[str, Decision], dropped: Mapping[tuple[str, int], str]
) -> tuple[list[Edit], set[int], Outgoing]:
    """The removals of facts that leave a live document (continuity or a thread file) and
    the rewritten footers of those that stay; the lines removed; the facts moving out, with
    their decisions."""
    edits: list[Edit] = []
    removed: set[int] = set()
    outgoing: Outgoing = []
    for fact in document.facts:
        decision = decisions[fact.id]
        duplicate = (document.path, fact.start) in dropped
        if duplicate or decision.move == "out":
            edit = removal(document.lines, fact.start, fact.end)
            edits.append(edit)
            removed.update(range(edit.start, edit.end))
            if not duplicate:
                outgoing.append((document, fact, decision))
        else:
            changed = _footer_edit(document, fact, decision)
            if changed is not None:
                edits.append(changed)
    return edits, removed, outgoing


def _thread_write(memory: Memory, document: Document, edits: list[Edit]) -> FileWrite:
    """A thread file's new text, or its removal when no item and no prose is left in it."""
    relative = document.path[len(memory.root.name) + 1 :]
    after = apply_edits(document.lines, edits, document.file.newline)
    left = [body(line).strip() for line in after]
    if all(not line or line.startswith("#") for line in left):
        return FileWrite(relative, document.file.text(), None)
    return _write(relative, document.file, after)


def _archive_edits(
    memory: Memory,
    decisions: dict[str, Decision],
    through: str,
    dropped: Mapping[tuple[str, int], str],
) -> tuple[Incoming, dict[str, list[Edit]]]:
    """The facts coming back, by the section they return to, and the edits of each archive
    file: a note where a fact left, a rewritten footer where one stays."""
    continuity = memory.continuity
    newline = continuity.file.newline
    incoming: Incoming = {}
    archive_edits: dict[str, list[Edit]] = {doc.path: [] for doc in memory.archives}
    for document in memory.archives:
        edits = archive_edits[document.path]
        for fact in document.facts:
            decision = decisions[fact.id]
            if (document.path, fact.start) in dropped:
                edits.append(removal(document.lines, fact.start, fact.end))
            elif decision.move != "in":
                changed = _footer_edit(document, fact, decision)
                if changed is not None:
                    edits.append(changed)
            else:
                target = return_section(continuity, fact)
                lines = _fact_lines(document, fact, decision, newline)
                incoming.setdefault(target, []).append(lines)
                note = reactivated_note(fact.id, target, through) + document.file.newline
                edits.append(Edit(fact.start, fact.end, (note,)))
    return incoming, archive_edits


def _archive_writes(
    memory: Memory,
    archive_edits: dict[str, list[Edit]],
    outgoing: Outgoing,
    archive_name: str | None,
    through: str,
    date: str,
) -> list[FileWrite]:
    """The archive files the review changes; the facts moved out go in one block at the
    end of `archive_name`, made when it is new."""
    continuity = memory.continuity
    writes: list[FileWrite] = []
    if archive_name is not None:
        existing = {_name(doc): doc for doc in memory.archives}.get(archive_name)
        if existing is None:
            newline = continuity.file.newline
            block = _archive_block(outgoing, newline, through, date)
            text = f"# Archive {archive_name[:-3]}{newline}" + "".join(block)
            writes.append(FileWrite(f"{ARCHIVE}/{archive_name}", None, text))
        else:
            lines = existing.lines
            block = _archive_block(outgoing, existing.file.newline, through, date)
            if lines and not body(lines[-1]).strip():
                block = block[1:]
            archive_edits[existing.path].append(Edit(len(lines), len(lines), tuple(block)))
    for document in memory.archives:
        after = apply_edits(document.lines, archive_edits[document.path], document.file.newline)
        if after != list(document.lines):
            writes.append(_write(f"{ARCHIVE}/{_name(document)}", document.file, after))
    return writes


def _new_thread_files(groups: list[list[str]]) -> list[FileWrite]:
    """A new thread file for each thread the review raises or brings back."""
    return [
        FileWrite(thread_relative(footer_ids("".join(lines))[0]), None, "".join(lines))
        for lines in groups
    ]


def _footer_edit(document: Document, fact: Fact, decision: Decision) -> Edit | None:
    footer = decision.footer(fact)
    if footer is fact.footer:  # nothing changed: it renders as read (the usual fact)
        return None
    line = document.lines[fact.footer_index]
    new = footer.render() + ending(line)
    return None if new == line else Edit(fact.footer_index, fact.footer_index + 1, (new,))


def _fact_lines(document: Document, fact: Fact, decision: Decision, newline: str) -> list[str]:
    lines = list(normalized(document.fact_text(fact), newline))
    lines.append(decision.footer(fact).render() + newline)
    lines += normalized(document.fact_notes(fact), newline)
    return lines


def _items(groups: list[list[str]], loose: bool, newline: str) -> list[str]:
    out: list[str] = []
    for index, lines in enumerate(groups):
        if loose and index:
            out.append(newline)
        out.extend(lines)
    return out


def _name(document: Document) -> str:
    return document.path.rsplit("/", 1)[-1]


def _insertions(
    continuity: Document, incoming: Incoming, removed: set[int], newline: str
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
        # Right under an item without a footer, a fact would take that item into its group.
        after_legacy = any(item.end == point for item in continuity.footerless)
        if loose or point == section.start + 1 or after_legacy:
            lines.insert(0, newline)
        edits.append(Edit(point, point, tuple(lines)))
    if tail:
        end = len(continuity.lines)
        edits.append(Edit(end, end, tuple(tail)))
    return edits


def _archive_block(outgoing: Outgoing, newline: str, through: str, date: str) -> list[str]:
    block = [newline, block_heading(date, through) + newline]
    for reason in REASONS:
        group = [(doc, f, d) for doc, f, d in outgoing if d.reason == reason]
        if not group:
            continue
        block.extend([newline, f"### {reason.capitalize()}{newline}", newline])
        for document, fact, decision in group:
            block.extend(_fact_lines(document, fact, decision, newline))
    return block


def _write(path: str, file: TextFile, lines: list[str]) -> FileWrite:
    return FileWrite(path, file.text(), file.with_lines(lines).text())


def _index_write(
    memory: Memory,
    decisions: dict[str, Decision],
    outgoing: Outgoing,
    archive_name: str | None,
    dropped: Mapping[tuple[str, int], str],
) -> FileWrite | None:
    """INDEX.md regenerated, when its text changes and there is an archive to list."""
    entries: list[IndexRow] = []
    for document in memory.archives:
        name, lines, path = _name(document), document.lines, document.path
        for fact in document.facts:
            decision = decisions[fact.id]
            if decision.move == "in" or (path, fact.start) in dropped:
                continue
            reason = reason_for(decision.tier, fact.is_done_thread)
            entries.append(index_row(fact.id, summary(lines[fact.start]), reason, name))
    for document, fact, decision in outgoing:
        assert archive_name is not None and decision.reason is not None
        first_line = document.lines[fact.start]
        entries.append(index_row(fact.id, summary(first_line), decision.reason, archive_name))
    text = render_index(entries, (memory.index or memory.continuity.file).newline)
    old = None if memory.index is None else memory.index.text()
    has_entries = bool(memory.archives) or archive_name is not None
    if text != old and (old is not None or has_entries):
        return FileWrite(f"{ARCHIVE}/{INDEX}", old, text)
    return None


def _check_conservation(
    memory: Memory, writes: list[FileWrite], opened: list[str], collapsed: list[str]
) -> None:
    """Refuse a plan that would lose or duplicate a fact: a bug, never a user error.

    Every footer line of the files the review rewrites is counted before and after,
    by id, with the same scanner on both sides; the moves must balance exactly, the
    only new ids are the Open Threads the review raises, and the only copies that go
    are the extra copies of a merged id (`collapsed`, one entry per copy removed).
    """
    before: Counter[str] = Counter(opened)
    before.subtract(collapsed)
    after: Counter[str] = Counter()
    for write in writes:
        if write.path in (CONTINUITY, f"{ARCHIVE}/{INDEX}"):
            counted = write.path == CONTINUITY
        else:
            counted = write.path.startswith((f"{ARCHIVE}/", f"{OPEN_THREADS}/"))
        if counted:
            before.update(footer_ids(write.before or ""))
            after.update(footer_ids(write.after or ""))
    if before != after:
        lost = sorted((before - after).elements())
        doubled = sorted((after - before).elements())
        raise MdmemError(f"internal error: the review would lose {lost} or duplicate {doubled}")
