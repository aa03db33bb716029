"""Checks of the session logs a person writes: date-only names, reference keys the ledger
does not know, ids cited that name no fact (with the nearest known one), the references
heading, stray files in `sessions/`, names in the future, `Superseded:` lines without a
successor, and citations of facts that were superseded or forgotten before the log was
written.

Pure: `run.py` hands in the few texts these checks quote, through `SectionLines`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document
from mdmem.format.memory import Memory
from mdmem.format.sessionlog import EVENT_KEYS, REFERENCES_HEADING, Session, SessionName
from mdmem.linting.facts import known_ids
from mdmem.linting.findings import Finding, finding
from mdmem.linting.nearest import Nearest

# The `## Memory References` section of a log by line number, read on demand.
SectionLines = Callable[[Session], Mapping[int, str]]
# Every id token of a log's section: (token, line, listed outside a `(...)` note).
ListedTokens = Callable[[Session], Iterable[tuple[str, int, bool]]]

# A heading a person meant as the ledger: another level or another case.
_NEAR_HEADING = re.compile(r"^#{1,6}[ \t]*memory[ \t]+references?[ \t]*:?[ \t]*$", re.IGNORECASE)
_INVALIDATED = re.compile(r"invalidat", re.IGNORECASE)


def ledger_findings(memory: Memory) -> list[Finding]:
    """Date-only log names and keys the ledger does not know."""
    found = []
    keys = ", ".join(key.capitalize() for key in EVENT_KEYS)
    for session in memory.sessions:
        if not session.name.time:
            found.append(finding("W004", session.path, 1, "date-only session log name"))
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


def unknown_id_findings(
    memory: Memory,
    vision: Document | None,
    entries: tuple[BlockedEntry, ...],
    listed_tokens: ListedTokens,
) -> list[Finding]:
    """A finding per (token, line) of a log's references that names no known id
    (`known_ids`), with the nearest one: a listed one, or one in a `(...)` note that is a
    near miss of a known id. A note's other hyphenated words are prose."""
    known = known_ids(memory, vision, entries)
    nearest = Nearest(known - {entry.fact_id for entry in entries})
    found = []
    for session in memory.sessions:
        unknown = session.references - known
        if not unknown:  # the log is read only when it may hold such a token
            continue
        for token, line, listed in dict.fromkeys(listed_tokens(session)):
            if token not in unknown:
                continue
            suggestion = nearest(token)
            if not listed and suggestion is None:
                continue
            message = f"unknown id {token}" + (
                f"; nearest known id: {suggestion}" if suggestion else ""
            )
            found.append(finding("W002", session.path, line, message))
    return found


def heading_findings(session: Session, lines: Iterable[str]) -> list[Finding]:
    """A log without the `## Memory References` section: named at the heading a person
    meant as that section (another level or case), else at its first line."""
    for number, line in enumerate(lines, 1):
        if _NEAR_HEADING.match(line.strip()):
            return [
                finding(
                    "W014",
                    session.path,
                    number,
                    f"{line.strip()!r} is not read as the ledger: only a line that is "
                    f"exactly {REFERENCES_HEADING!r} is, so the ids under it count for nothing",
                    f"write the heading as {REFERENCES_HEADING!r} while the log is "
                    "uncommitted; after that, cite the ids again in the next log",
                )
            ]
    return [
        finding(
            "W014",
            session.path,
            1,
            f"no {REFERENCES_HEADING!r} section: this session cites no fact",
            f"add a {REFERENCES_HEADING!r} section listing the facts the session used "
            "(`- Referenced: (none)` when it used none)",
        )
    ]


def stray_file_findings(folder: str, names: Iterable[str]) -> list[Finding]:
    """Files in `sessions/` that are not session logs (only `.md` files are read)."""
    return [
        finding(
            "W015",
            f"{folder}/{name}",
            1,
            f"{name} is not a session log: only .md files in sessions/ are read",
        )
        for name in sorted(names)
    ]


def future_findings(memory: Memory, now: SessionName, latest: SessionName) -> list[Finding]:
    """Logs named for a time after `latest` (UTC; `now` and the little ahead of it that
    `session start` may take): they would sort after every log written later today, and
    take the review's ledger date with them."""
    return [
        finding(
            "W016",
            session.path,
            1,
            f"session log named for a time in the future ({session.stem}; now is {now.stem} UTC)",
        )
        for session in memory.sessions
        if (session.name.date, session.name.time or "000000") > (latest.date, latest.time)
    ]


def supersession_findings(memory: Memory, section_lines: SectionLines) -> list[Finding]:
    """`Superseded:` lines that give neither a successor nor `(invalidated)`: the old fact
    is retired with nothing in its place. (A successor that names no fact is an unknown
    id, W002, like any other.)"""
    found = []
    for session in memory.sessions:
        lines: Mapping[int, str] | None = None
        for event in session.events:
            if event.kind != "superseded" or event.new_id is not None:
                continue
            lines = section_lines(session) if lines is None else lines
            if _INVALIDATED.search(lines.get(event.line, "")):
                continue
            old = event.ids[0]
            found.append(
                finding(
                    "W017",
                    session.path,
                    event.line,
                    f"Superseded: {old} names no successor and does not say (invalidated): "
                    "the fact is retired with nothing in its place",
                    f"write `Superseded: {old} → NEW-ID`, or `Superseded: {old} "
                    "(invalidated)` when nothing replaces it",
                )
            )
    return found


@dataclass(frozen=True)
class _Retired:
    since: SessionName  # citations in logs after this one are mistakes
    why: str


def retired_citation_findings(
    memory: Memory, entries: tuple[BlockedEntry, ...], listed_tokens: ListedTokens
) -> list[Finding]:
    """Logs that cite a fact superseded (by an earlier log's `Superseded:` line) or
    forgotten (before the log's date) as if it were still true."""
    retired = _retired(memory, entries)
    if not retired:
        return []
    found = []
    for session in memory.sessions:
        cited = [i for i in session.references if i in retired and session.name > retired[i].since]
        if not cited:  # the log is read only when it may hold such a citation
            continue
        exempt = {
            event.line for event in session.events if event.kind in {"superseded", "restored"}
        }
        for token, line, listed in dict.fromkeys(listed_tokens(session)):
            item = retired.get(token)
            if item is None or not listed or line in exempt or session.name <= item.since:
                continue
            found.append(finding("W018", session.path, line, f"cites {token}, which {item.why}"))
    return found


def _retired(memory: Memory, entries: tuple[BlockedEntry, ...]) -> dict[str, _Retired]:
    """Superseded ids (by the ledger, in order; `Restored:` undoes) and forgotten ones."""
    retired: dict[str, _Retired] = {}
    for session in memory.sessions:
        for event in session.events:
            if event.kind == "superseded":
                successor = f"; cite {event.new_id}" if event.new_id else ""
                why = f"was superseded in {session.stem}{successor}"
                retired[event.ids[0]] = _Retired(session.name, why)
            elif event.kind == "restored":
                for fact_id in event.ids:
                    retired.pop(fact_id, None)
    for entry in entries:
        # A log of the day a fact was forgotten may predate it: only later days count.
        day_end = SessionName(entry.blocked, "235959", "\uffff", "")
        why = f"was forgotten on {entry.blocked} ({entry.reason})"
        retired[entry.fact_id] = _Retired(day_end, why)
    return retired
