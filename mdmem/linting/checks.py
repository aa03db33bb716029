"""Every check of a parsed memory, in one call, as pure functions over parsed data.

The checks live by what they read: `texts.py` one file's raw text, `committed.py` git's
record, `facts.py` the facts across documents, `logs.py` the session logs, `upkeep.py` what
a review would change. `run.py` does the reading; the codes and the finding value live in
`findings.py`.
"""

from __future__ import annotations

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document
from mdmem.format.memory import Memory
from mdmem.linting.facts import (
    blocked_findings,
    footer_findings,
    has_duplicate_ids,
    link_findings,
    structure_findings,
)
from mdmem.linting.findings import Finding
from mdmem.linting.logs import ledger_findings
from mdmem.linting.upkeep import (
    closed_narrative_findings,
    footers_may_lag,
    plan_findings,
    shape_findings,
    unrecorded_findings,
)
from mdmem.reviewing.decide import Decision
from mdmem.reviewing.plan import review_decisions


def memory_findings(
    memory: Memory,
    vision: Document | None,
    entries: tuple[BlockedEntry, ...],
    decisions: tuple[Decision, ...] | None = None,
) -> list[Finding]:
    """Every check that reads the parsed memory (texts and git history are checked apart).

    What a review would change is asked only when every id is unique: with two copies
    of a fact, which footer is "stale" depends on the copy the review keeps, so the
    duplicates are the finding to fix first. Footers a review would merely recount are
    not reported while they may lag the ledger (`footers_may_lag`). `decisions` are the
    review's over this memory, when a review has just planned them.
    """
    found = structure_findings(memory, vision)
    found += blocked_findings(memory, entries)
    found += link_findings(memory, vision, entries)
    found += closed_narrative_findings(memory)
    found += ledger_findings(memory)
    found += shape_findings(memory)
    found += footer_findings(memory)
    found += unrecorded_findings(memory)
    if not has_duplicate_ids(memory):
        if decisions is None:
            decisions = review_decisions(memory)
        found += plan_findings(memory, decisions, stale=not footers_may_lag(memory))
    return found
