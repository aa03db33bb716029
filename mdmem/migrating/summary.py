"""What `mdmem migrate` says it did (or, dry, would do): a line per rule and Open Thread,
then the sum and what comes next (pure)."""

from __future__ import annotations

from mdmem.migrating import render
from mdmem.migrating.decide import BLOCKED, FOLDED, IMPORTED, REFUSED
from mdmem.migrating.plan import MigrationPlan


def describe(plan: MigrationPlan, dry_run: bool) -> str:
    """What a migration did, or would do: a line per rule and thread, then the sum."""
    lines = [render.describe(outcome) for outcome in plan.outcomes]
    lines += [f"opened {thread.fact_id}: {thread.text}" for thread in plan.threads]
    counts = {kind: plan.count(kind) for kind in (IMPORTED, FOLDED, REFUSED, BLOCKED)}
    tally = ", ".join(f"{number} {kind}" for kind, number in counts.items() if number)
    if plan.log is None:
        if counts[FOLDED] and counts[FOLDED] == len(plan.outcomes):
            rules = "rule is" if counts[FOLDED] == 1 else f"{counts[FOLDED]} rules are"
            lines.append(f"Nothing new to import: all {rules} in memory already; nothing written.")
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
        "then run `mdmem review`."
    )
    return "\n".join(lines)
