"""`plan_migration`: the files one migration writes, decided and rendered, and what it
says it did (pure).

The texts: facts appended to their sections of `continuity.md` (a new section goes before
`## Open Threads`), entries appended to `blocked.md`, and the session log that creates
them. Every line already there stays byte for byte.

Every fact and Open Thread it makes is born in one new session log (docs/MIGRATE.md, "The
log"), with one `Helpful:` or `Harmful:` vote for what its source counted, as one session
gives one vote per fact (SPEC §7). A migration that makes nothing writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mdmem.errors import MdmemError
from mdmem.format.document import Document, parse_document
from mdmem.format.memory import BLOCKED, CONTINUITY, SESSIONS, Memory
from mdmem.format.sections import OPEN_THREADS_SECTION
from mdmem.format.sessionlog import REFERENCES_HEADING
from mdmem.format.textfile import TextFile, decode
from mdmem.migrating.decide import (
    FOLDED,
    IMPORTED,
    OUTCOMES,
    REFUSED,
    Decided,
    Outcome,
    Pending,
    decide,
    fact_lines,
)
from mdmem.migrating.sources import Source, Tombstone
from mdmem.reviewing.cadence import INVERT_PREFIX, PROMOTE_PREFIX, inverts
from mdmem.writing.backfill import WRAP, newest_log_name
from mdmem.writing.facts import born_footer, thread_lines, with_item, with_tombstone
from mdmem.writing.ids import free_id
from mdmem.writing.references import record, record_event

SLUG = "migrate"


@dataclass(frozen=True)
class Thread:
    """An Open Thread the migration opens: a core candidate, or two facts in conflict."""

    fact_id: str
    text: str


@dataclass(frozen=True)
class MigrationPlan:
    root_label: str
    log: str | None  # the new session log, relative to the memory folder; None: no change
    sources: tuple[tuple[str, str], ...]  # (file as shown, its kind)
    outcomes: tuple[Outcome, ...]  # one per rule and tombstone, in source order
    threads: tuple[Thread, ...]
    writes: Mapping[str, str]  # relative path -> new text (written unless a dry run)

    def count(self, outcome: str) -> int:
        return sum(1 for found in self.outcomes if found.outcome == outcome)

    def as_dict(self) -> dict[str, object]:
        return {
            "log": None if self.log is None else f"{self.root_label}/{self.log}",
            "sources": [{"path": path, "kind": kind} for path, kind in self.sources],
            "rules": [
                {
                    "source": o.source,
                    "line": o.line,
                    "outcome": o.outcome,
                    "id": o.fact_id,
                    "section": o.section,
                    "detail": o.detail,
                }
                for o in self.outcomes
            ],
            "threads": [{"id": thread.fact_id, "text": thread.text} for thread in self.threads],
            "writes": sorted(f"{self.root_label}/{path}" for path in self.writes),
        }


def plan_migration(
    memory: Memory, sources: Sequence[Source], stamp: str, blocked: TextFile | None = None
) -> MigrationPlan:
    """What migrating `sources` into `memory` at `stamp` (`YYYY-MM-DD-HHMMSS`, UTC) writes;
    `blocked` is `blocked.md`'s text (None when there is none)."""
    decided = decide(memory, sources)
    shown = tuple((source.path, source.kind) for source in sources)
    pending = list(decided.pending.values())
    if not pending and not decided.tombstones:
        return MigrationPlan(memory.label, None, shown, tuple(decided.outcomes), (), {})
    name = newest_log_name(memory, stamp, SLUG)
    successors = _successors(decided)
    groups: dict[str, list[str]] = {}
    for made in pending:
        supersedes = [old for old, new in successors.items() if new == made.fact_id]
        successor = successors.get(made.fact_id)
        fields = footer_fields(made, name.date, name.stem, successor, supersedes)
        checkbox = " " if made.rule.thread else None
        groups.setdefault(made.rule.section, []).extend(
            fact_lines(made.rule.lines, fields, checkbox)
        )
    threads = _threads(decided)
    for thread in threads:  # last, so that new sections go before them
        lines = thread_lines(thread.text, thread.fact_id, name.date, name.stem)
        groups.setdefault(OPEN_THREADS_SECTION, []).extend(lines)
    if OPEN_THREADS_SECTION in groups:
        groups[OPEN_THREADS_SECTION] = groups.pop(OPEN_THREADS_SECTION)
    created = [*(p.fact_id for p in pending), *(t.fact_id for t in threads)]
    writes = {}
    if groups:
        text = continuity_text(memory.continuity, groups)
        writes[CONTINUITY] = _checked(text, memory, created)
    if decided.tombstones:
        label, tombstones = memory.display(BLOCKED), decided.tombstones
        writes[BLOCKED] = blocked_text(blocked, label, tombstones, name.date, name.stem)
    ledger = {
        "created": created,
        "helpful": [p.fact_id for p in pending if p.helpful],
        "harmful": [p.fact_id for p in pending if p.harmful],
        "forgotten": [fact_id for fact_id, _ in decided.tombstones],
    }
    log = f"{SESSIONS}/{name.filename}"
    writes[log] = log_text(shown, decided.outcomes, ledger, list(successors.items()))
    return MigrationPlan(memory.label, log, shown, tuple(decided.outcomes), tuple(threads), writes)


def _successors(decided: Decided) -> dict[str, str | None]:
    """Each fact its source deprecated -> the fact that replaced it (None: invalidated)."""
    found: dict[str, str | None] = {}
    for pending in decided.pending.values():
        rule = pending.rule
        if rule.retired:
            new = decided.keys.get(rule.successor) if rule.successor is not None else None
            found[pending.fact_id] = None if new == pending.fact_id else new
    return found


def _threads(decided: Decided) -> list[Thread]:
    """Core candidates (`mdmem core ID` accepts one) and conflicts, each an Open Thread."""
    wanted = []  # (the thread's id, or the start of it, its text)
    for pending in decided.pending.values():
        if pending.core and not pending.rule.retired:
            why = "; ".join(dict.fromkeys(pending.core))
            accept = f"accept with `mdmem core {pending.fact_id}`"
            text = f"Promote to core: {pending.fact_id}? ({why}; {accept})"
            wanted.append((PROMOTE_PREFIX + pending.fact_id, text))
    for pending in decided.pending.values():
        rule = pending.rule
        if not rule.anti_pattern and not rule.retired and inverts(rule.helpful, rule.harmful):
            counts = f"its source counted helpful {rule.helpful}, harmful {rule.harmful}"
            text = f"Invert to anti-pattern: {pending.fact_id}? ({counts})"
            wanted.append((INVERT_PREFIX + pending.fact_id, text))
    taken = set(decided.taken)
    threads = []
    for prefix, text in [*wanted, *decided.conflicts]:
        threads.append(Thread(free_id(prefix, taken), text))
        taken.add(threads[-1].fact_id)
    return threads


def _checked(text: str, memory: Memory, made: Sequence[str]) -> str:
    """The new continuity, read back: every fact made is there, once."""
    after = parse_document(decode(text.encode("utf-8"), memory.continuity.path))
    ids = [fact.id for fact in after.facts]
    missing = [fact_id for fact_id in made if ids.count(fact_id) != 1]
    if missing:
        raise MdmemError(
            f"migrate would not leave {missing[0]!r} as one fact; nothing written",
            memory.continuity.path,
        )
    return text


def describe(plan: MigrationPlan, dry_run: bool) -> str:
    """What a migration did, or would do: a line per rule and thread, then the sum."""
    lines = [describe_outcome(outcome) for outcome in plan.outcomes]
    lines += [f"opened {thread.fact_id}: {thread.text}" for thread in plan.threads]
    counts = {kind: plan.count(kind) for kind in OUTCOMES}
    tally = ", ".join(f"{number} {kind}" for kind, number in counts.items() if number)
    if plan.log is None:
        if counts[FOLDED] and counts[FOLDED] == len(plan.outcomes):
            rules = "rule is" if counts[FOLDED] == 1 else f"{counts[FOLDED]} rules are"
            faded = sum(1 for outcome in plan.outcomes if outcome.detail.startswith("archived ("))
            of = f" ({faded} of them archived: a session that cites one brings it back)"
            lines.append(
                f"Nothing new to import: all {rules} in memory already{of if faded else ''}; "
                "nothing written."
            )
        else:
            lines.append(f"Nothing new to import ({tally or 'no rules found'}); nothing written.")
        return "\n".join(lines)
    log = f"{plan.root_label}/{plan.log}"
    if dry_run:
        lines.append(f"Dry run: {tally}, to be created by {log}; nothing written.")
        return "\n".join(lines)
    lines.append(f"Migrated: {tally}; created by {log}. The source files are unchanged.")
    lines.append(
        "Next: read the new facts and Open Threads, commit them with the migration log, "
        "then run `mdmem review`. Like every fact, each fades into the archive once "
        "`archive_window` sessions pass with none citing it: a rule agents follow without "
        "citing it, which must always hold, is a person's to make core (`mdmem core ID`)."
    )
    return "\n".join(lines)


def footer_fields(
    pending: Pending, date: str, origin: str, successor: str | None, supersedes: Sequence[str]
) -> dict[str, str]:
    """The footer a migrated fact is born with (superseded when its source deprecated it)."""
    extra: dict[str, str] = {}
    if supersedes:
        extra["supersedes"] = ",".join(supersedes)
    if successor is not None:
        extra["superseded-by"] = successor
    if pending.scope is not None:
        extra["scope"] = pending.scope
    if pending.rule.anti_pattern:
        extra["type"] = "anti-pattern"
    if pending.rule.tags:
        extra["tags"] = ",".join(pending.rule.tags)
    fields = born_footer(pending.fact_id, pending.rule.section, date, origin, extra)
    if pending.rule.retired:
        fields["tier"] = "superseded"
    return fields


def continuity_text(document: Document, groups: Mapping[str, Sequence[str]]) -> str:
    """`document`'s text with each section's new items (`groups`: section -> lines, in
    order) at the end of the section; a section it lacks is made before Open Threads."""
    text = document.file.text()
    for section, lines in groups.items():
        text = with_item(document, section, lines)
        document = parse_document(decode(text.encode("utf-8"), document.path), unique_ids=False)
    return text


def blocked_text(
    file: TextFile | None,
    label: str,
    tombstones: Sequence[tuple[str, Tombstone]],
    date: str,
    origin: str,
) -> str:
    """`blocked.md` with an entry for each tombstone (the file made when it is missing)."""
    lines: list[str] = []
    for fact_id, tombstone in tombstones:
        fields = {
            "id": fact_id,
            "blocked": tombstone.date or date,
            "reason": tombstone.reason,
            "origin": origin,
        }
        lines += fact_lines(tombstone.text.split("\n"), fields)
    return with_tombstone(file, label, lines)


def describe_outcome(outcome: Outcome) -> str:
    """One line for a rule's outcome: `SOURCE:LINE: what became of it`."""
    if outcome.outcome == IMPORTED:
        place = f"## {outcome.section}" + (f"; {outcome.detail}" if outcome.detail else "")
        return f"{outcome.where}: imported as {outcome.fact_id} ({place})"
    if outcome.outcome == FOLDED:
        return f"{outcome.where}: folded into {outcome.fact_id}: {outcome.detail}"
    if outcome.outcome == REFUSED:
        return f"{outcome.where}: refused: {outcome.detail}"
    return f"{outcome.where}: blocked as {outcome.fact_id} (blocked.md)"


def log_text(
    sources: Sequence[tuple[str, str]],
    outcomes: Sequence[Outcome],
    ledger: Mapping[str, Sequence[str]],
    superseded: Sequence[tuple[str, str | None]],
) -> str:
    """The migration's session log: what it read, what each rule became, and the ledger
    (`ledger`: key -> ids, for created, helpful, harmful; then supersessions, forgettings)."""
    made = sum(1 for outcome in outcomes if outcome.outcome == IMPORTED)
    files = "1 file" if len(sources) == 1 else f"{len(sources)} files"
    lines = [
        "# Session: migrate",
        "",
        f"`mdmem migrate` read the rules of {files} (under Sources) and made {made} facts of",
        "`continuity.md`; the files were left as they were. This log creates those facts, so",
        "that from here on the ledger counts their use. Each line under Rules names the file",
        "and line a rule came from and what became of it.",
        "",
        "## Sources",
        "",
        *(f"- {path} ({kind}): {_counts(outcomes, path)}" for path, kind in sources),
        "",
        "## Rules",
        "",
        *(f"- {describe_outcome(outcome)}" for outcome in outcomes),
        "",
        REFERENCES_HEADING,
    ]
    text = "\n".join(lines) + "\n"
    for key, ids in ledger.items():
        if ids and key != "forgotten":
            text = record(text, key, ids, width=WRAP).text
    for old, new in superseded:
        text = record_event(text, "superseded", old, new).text
    for fact_id in ledger.get("forgotten", ()):
        text = record_event(text, "forgotten", fact_id).text
    return text


def _counts(outcomes: Sequence[Outcome], path: str) -> str:
    mine = [outcome.outcome for outcome in outcomes if outcome.source == path]
    said = [f"{mine.count(kind)} {kind}" for kind in OUTCOMES if kind in mine]
    return ", ".join(said) or "no rules"
