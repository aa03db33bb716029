"""Lint: every check of a memory, each with a stable code, as pure functions over parsed data.

The checks read a loaded `Memory`, raw texts, and what git says about the session
logs (passed in as plain data); `lintrun.py` does the reading. The codes and the
finding value live in `findings.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from mdmem.errors import ParseError
from mdmem.format.document import INVARIANTS_SECTION, OPEN_THREADS_SECTION, Document, Fact
from mdmem.format.memory import Memory
from mdmem.format.serves import serves_targets
from mdmem.format.sessionlog import EVENT_KEYS, SessionName, parse_session_name
from mdmem.format.textfile import conflict_marker_lines
from mdmem.linting.findings import Finding, finding
from mdmem.reviewing.decide import Decision
from mdmem.reviewing.plan import plan_review
from mdmem.reviewing.stamps import last_review_through, read_stamps
from mdmem.safety.blocklist import BlockedEntry, blocked_facts
from mdmem.safety.poison import find_poison
from mdmem.safety.secrets import find_secrets, redact

# Sections whose items are facts by their very name: an item there without a footer is a
# fact someone forgot to close, even when no other item of the section has a footer yet.
FACT_SECTIONS = frozenset({INVARIANTS_SECTION, OPEN_THREADS_SECTION, "Key Decisions"})
PROSE_SECTIONS = frozenset({"Project State"})


# --- Texts: parse errors, conflict markers, secrets, poisoning ---------------------------


def parse_finding(error: ParseError, fallback_path: str) -> Finding:
    return finding(
        "E001",
        error.path or fallback_path,
        error.line or 1,
        error.message,
        "fix the file at this line; mdmem reads nothing else of it until then",
    )


def text_findings(path: str, text: str, *, facts: bool) -> list[Finding]:
    """Conflict markers and secrets in any memory text; poisoning markers where facts live."""
    found = [
        finding(
            "E007",
            path,
            line,
            "merge-conflict marker",
            "resolve the conflict, keeping the facts of both sides, and delete the markers",
        )
        for line in conflict_marker_lines(text)
    ]
    for secret in find_secrets(text):
        found.append(
            finding(
                "E009",
                path,
                secret.line,
                f"secret material ({secret.category}) at column {secret.column}",
                "remove it and rotate the credential; in a committed session log, replace "
                "the value with [REDACTED], the one edit such a log allows",
            )
        )
    if facts:
        for hit in find_poison(text):
            found.append(
                finding(
                    "E010",
                    path,
                    hit.line,
                    f"{hit.kind} at column {hit.column}: {hit.detail}",
                    "memory must read the same to a person and to an agent: delete it",
                )
            )
    return found


_REDACTION = re.compile(r"\[REDACTED(?::[a-z-]+)?\]")


def only_redacted(original: str, current: str) -> bool:
    """True when `current` differs from `original` only where secret values were masked."""

    def masked(text: str) -> str:
        return _REDACTION.sub("[REDACTED]", redact(text))

    return masked(original) == masked(current)


# --- Git history: committed session logs ---------------------------------------------------


@dataclass(frozen=True)
class ChangedLog:
    """A committed session log that no longer holds what it was committed with."""

    path: str  # display path
    kind: str  # "changed" or "deleted"
    since: str | None  # the first commit that changed it; None for an uncommitted change
    restore: str  # the repository path, for the hint


def history_findings(changes: Iterable[ChangedLog]) -> list[Finding]:
    found = []
    for change in changes:
        what = "edited" if change.kind == "changed" else "deleted or renamed"
        if change.since is None:
            message = f"a committed session log was {what} (not committed yet)"
            hint = f"session logs are immutable: git checkout HEAD -- {change.restore}"
        else:
            first = change.since[:12]
            message = f"a committed session log was {what} after the commit that added it ({first})"
            hint = f"session logs are immutable: git checkout {first}^ -- {change.restore}"
        found.append(finding("E006", change.path, 1, message, hint))
    return found


# --- The whole memory ------------------------------------------------------------------------


def memory_findings(
    memory: Memory, vision: Document | None, entries: tuple[BlockedEntry, ...]
) -> list[Finding]:
    """Every check that reads the parsed memory (texts and git history are checked apart).

    What a review would change is asked only when every id is unique: with two copies
    of a fact, which footer is "stale" depends on the copy the review keeps, so the
    duplicates are the finding to fix first.
    """
    found = structure_findings(memory, vision)
    found += blocked_findings(memory, entries)
    found += link_findings(memory, vision, entries)
    found += ledger_findings(memory)
    found += shape_findings(memory)
    if not has_duplicate_ids(memory):
        found += plan_findings(memory, plan_review(memory).decisions)
    return found


# --- Documents: footers, ids, blocked entries ----------------------------------------------


def _placed(memory: Memory, vision: Document | None) -> list[tuple[Document, Fact]]:
    documents = [memory.continuity, *memory.archives, *([vision] if vision is not None else [])]
    return [(document, fact) for document in documents for fact in document.facts]


def structure_findings(memory: Memory, vision: Document | None) -> list[Finding]:
    """Facts without a footer, and ids that appear more than once."""
    found: list[Finding] = []
    for document in (memory.continuity, *memory.archives, *([vision] if vision else [])):
        sections_with_facts = {fact.section for fact in document.facts}
        for item in document.footerless:
            fact_section = item.section in sections_with_facts or item.section in FACT_SECTIONS
            if item.section and item.section not in PROSE_SECTIONS and fact_section:
                found.append(
                    finding(
                        "E002",
                        document.path,
                        item.start + 1,
                        f"an item in ## {item.section} without a footer",
                        "close it with <!-- id: some-kebab-id | created: DATE --> on its own "
                        "indented line, or move it to a prose section",
                    )
                )
    archives = {document.path for document in memory.archives}
    first: dict[str, tuple[str, int]] = {}
    for document, fact in _placed(memory, vision):
        line = fact.footer_index + 1
        if fact.id not in first:
            first[fact.id] = (document.path, line)
            continue
        where, at = first[fact.id]
        archived = document.path in archives
        if where == memory.continuity.path and archived:
            code, message = "E004", f"id {fact.id} is also live at {where}:{at}"
        else:
            code, message = "E003", f"duplicate id {fact.id} (first at {where}:{at})"
        # Parallel reviews leave these after a merge; the next review keeps one copy.
        merged = archived and (code == "E004" or where in archives)
        hint = (
            "run `mdmem review`: it keeps one copy, the same on every machine, and opens "
            "a thread if the two texts differ"
            if merged
            else "give one of the two facts a new id, or merge them if they say the same"
        )
        found.append(finding(code, document.path, line, message, hint))
    return found


def has_duplicate_ids(memory: Memory) -> bool:
    ids = [fact.id for _, fact in _placed(memory, None)]
    return len(ids) != len(set(ids))


def blocked_findings(memory: Memory, entries: tuple[BlockedEntry, ...]) -> list[Finding]:
    """Live or archived facts whose words come near a forgotten one."""
    return [
        finding(
            "E008",
            document.path,
            fact.line,
            f"fact {fact.id} is near the blocked entry {entry.fact_id} "
            f"({entry.path}:{entry.line}, blocked {entry.blocked})",
            "it was forgotten on purpose: delete this fact, or lift the block by "
            "editing blocked.md by hand",
        )
        for document, fact, entry in blocked_facts((memory.continuity, *memory.archives), entries)
    ]


# --- What a review would do ----------------------------------------------------------------


def plan_findings(memory: Memory, decisions: Iterable[Decision]) -> list[Finding]:
    """Archived facts the ledger brought back, and footers a review would rewrite."""
    by_id = {decision.fact_id: decision for decision in decisions}
    found = []
    for document, fact in _placed(memory, None):
        decision = by_id.get(fact.id)
        if decision is None:
            continue
        archived = document is not memory.continuity
        if archived and decision.move == "in":
            last = decision.change("last_used") or fact.get("last_used") or "never"
            found.append(
                finding(
                    "E005",
                    document.path,
                    fact.line,
                    f"archived fact {fact.id} is still in use by the ledger (last used {last})",
                    "run `mdmem review`: it moves the fact back into continuity",
                )
            )
        elif decision.move is None:
            footer = fact.footer
            updated = footer.updated(dict(decision.changes))
            if updated is not footer and updated.render() != footer.render():
                changed = ", ".join(_changes(footer.as_dict(), updated.as_dict()))
                found.append(
                    finding(
                        "W001",
                        document.path,
                        fact.footer_index + 1,
                        f"footer of {fact.id} is stale: {changed}",
                        "run `mdmem review`; it recounts footers from the session logs",
                    )
                )
    return found


def _changes(before: dict[str, str], after: dict[str, str]) -> Iterator[str]:
    for key in dict.fromkeys([*before, *after]):
        old, new = before.get(key), after.get(key)
        if old != new:
            yield f"{key} {old if old is not None else '(none)'} → {new or '(removed)'}"


# --- Links: supersession and drift ---------------------------------------------------------


def link_findings(
    memory: Memory, vision: Document | None, entries: tuple[BlockedEntry, ...]
) -> list[Finding]:
    """Supersession links that name no fact, and `serves` links to nothing live."""
    placed = _placed(memory, vision)
    every = {fact.id: (document, fact) for document, fact in placed}
    forgotten = {entry.fact_id for entry in entries}
    archives = {document.path for document in memory.archives}
    found = []
    for document, fact in placed:
        footer_line = fact.footer_index + 1
        for key in ("supersedes", "superseded-by"):
            target = fact.get(key)
            if target and target not in every:
                found.append(
                    finding(
                        "W005",
                        document.path,
                        footer_line,
                        f"{fact.id}: {key} {target} names no fact",
                        "correct the id, or remove the link if that fact was forgotten",
                    )
                )
        if document.path in archives:
            continue
        for line, target in serves_targets(document, fact):
            state = _target_state(target, every, archives, forgotten)
            if state is not None:
                found.append(
                    finding(
                        "W006",
                        document.path,
                        line,
                        f"drift: {fact.id} serves {target}, which {state}",
                        "point it at a live fact, or close the item if its target is gone",
                    )
                )
    return found


def _target_state(
    target: str,
    every: dict[str, tuple[Document, Fact]],
    archives: set[str],
    forgotten: set[str],
) -> str | None:
    """Why a `serves` target is not live, or None when it is."""
    if target not in every:
        return "was forgotten" if target in forgotten else "names no fact"
    document, fact = every[target]
    if _superseded(fact):
        return "is superseded"
    if document.path in archives:
        return "is archived"
    return None


# --- The ledger ----------------------------------------------------------------------------


def ledger_findings(memory: Memory) -> list[Finding]:
    """Date-only log names and keys the ledger does not know."""
    found = []
    keys = ", ".join(key.capitalize() for key in EVENT_KEYS)
    for session in memory.sessions:
        if not session.name.time:
            found.append(
                finding(
                    "W004",
                    session.path,
                    1,
                    "date-only session log name",
                    "name new logs YYYY-MM-DD-HHMMSS[-slug].md, so a day's logs sort in time "
                    "order (a committed log keeps its name)",
                )
            )
        for line, key in session.unknown_keys:
            found.append(
                finding(
                    "W003",
                    session.path,
                    line,
                    f"unknown key {key!r} in ## Memory References (counted as Referenced)",
                    f"use one of: {keys}",
                )
            )
    return found


def known_ids(
    memory: Memory, vision: Document | None, entries: tuple[BlockedEntry, ...]
) -> frozenset[str]:
    """Every id a session may name: facts anywhere, and forgotten ones (old logs cite them)."""
    ids = {fact.id for _, fact in _placed(memory, vision)}
    return frozenset(ids | {entry.fact_id for entry in entries})


def unknown_id_findings(
    path: str,
    tokens: Iterable[tuple[str, int]],
    unknown: frozenset[str],
    nearest: Callable[[str], str | None],
) -> list[Finding]:
    """A finding per (token, line) of a log's references that names no known id."""
    found = []
    for token, line in dict.fromkeys(tokens):
        if token not in unknown:
            continue
        suggestion = nearest(token)
        message = f"unknown id {token}" + (
            f"; nearest known id: {suggestion}" if suggestion else ""
        )
        found.append(
            finding(
                "W002",
                path,
                line,
                message,
                "correct it while the log is uncommitted; after that, cite the right id in "
                "the next log",
            )
        )
    return found


# --- Size and cadence ----------------------------------------------------------------------


def shape_findings(memory: Memory) -> list[Finding]:
    """Review overdue, continuity bloated, invariants not labelled core."""
    continuity = memory.continuity
    policy = memory.policy
    found = []
    since, line = _sessions_since_review(memory)
    if since > policy.review_every:
        found.append(
            finding(
                "W007",
                continuity.path,
                line,
                f"review overdue: {since} session logs since the last review "
                f"(review_every: {policy.review_every})",
                "run `mdmem review`",
            )
        )
    decaying = [fact for fact in continuity.facts if _decays(fact)]
    if len(decaying) > policy.continuity_max_facts:
        found.append(
            finding(
                "W008",
                continuity.path,
                1,
                f"continuity bloated: {len(decaying)} decaying facts "
                f"(continuity_max_facts: {policy.continuity_max_facts})",
                "merge or supersede overlapping facts, or lower the windows in decay-policy.md",
            )
        )
    if len(continuity.lines) > policy.continuity_max_lines:
        found.append(
            finding(
                "W008",
                continuity.path,
                1,
                f"continuity bloated: {len(continuity.lines)} lines "
                f"(continuity_max_lines: {policy.continuity_max_lines})",
                "shorten long facts, or move prose out of continuity.md",
            )
        )
    for fact in continuity.facts:
        tier = fact.get("tier")
        if fact.section == INVARIANTS_SECTION and tier != "core" and not _superseded(fact):
            found.append(
                finding(
                    "W009",
                    continuity.path,
                    fact.footer_index + 1,
                    f"architectural invariant {fact.id} is labelled "
                    f"{'tier ' + tier if tier else 'with no tier'}, not core",
                    "set tier: core, or move the fact to another section if it may decay",
                )
            )
    return found


def _superseded(fact: Fact) -> bool:
    return fact.get("tier") == "superseded" or fact.get("superseded-by") is not None


def _decays(fact: Fact) -> bool:
    if fact.get("tier") == "core" or fact.section == INVARIANTS_SECTION:
        return False
    return not fact.is_open_thread and not _superseded(fact)


def _sessions_since_review(memory: Memory) -> tuple[int, int]:
    """(session logs after the last review's through-session, the line of its stamp)."""
    stamp = read_stamps(memory.continuity).get("last_review")
    line = stamp[0] + 1 if stamp is not None else 1
    through = last_review_through(memory.continuity, memory.reviews)
    last: SessionName | None = None
    if through is not None:
        try:
            last = parse_session_name(through + ".md", memory.continuity.path)
        except ParseError:
            last = None
    if last is None:
        return len(memory.sessions), line
    return sum(1 for session in memory.sessions if session.name > last), line
