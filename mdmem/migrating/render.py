"""The texts a migration writes (pure): facts appended to their sections of
`continuity.md` (a new section goes before `## Open Threads`), entries appended to
`blocked.md`, and the session log that creates them. Every line already there stays
byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mdmem.format.document import Document, parse_document
from mdmem.format.sessionlog import REFERENCES_HEADING
from mdmem.format.textfile import TextFile, decode
from mdmem.migrating.decide import FOLDED, IMPORTED, OUTCOMES, REFUSED, Outcome, Pending, fact_lines
from mdmem.migrating.sources import Tombstone
from mdmem.writing.backfill import WRAP
from mdmem.writing.facts import born_footer, with_item
from mdmem.writing.references import record, record_event
from mdmem.writing.tombstones import with_tombstone


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


def describe(outcome: Outcome) -> str:
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
        *(f"- {describe(outcome)}" for outcome in outcomes),
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
