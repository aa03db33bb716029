"""`mdmem backfill`: footers for the legacy facts a memory kept before footers."""

from __future__ import annotations

from pathlib import Path

import click

from mdmem import backfill as run_backfill
from mdmem.cli.main import main
from mdmem.cli.options import echo_json, memory_options, resolve_root
from mdmem.writing.backfill import BackfillPlan


@main.command()
@memory_options
@click.option(
    "--dry-run", is_flag=True, help="List the ids and the log it would write; write nothing."
)
def backfill(root: Path | None, as_json: bool, dry_run: bool) -> None:
    """Give each legacy fact (an item without a footer in a fact section of continuity.md)
    the footer a new fact is born with, created by one new session log.

    Ids come from each fact's first words. Run `mdmem review` next, then commit.

    Example: mdmem backfill --dry-run
    """
    plan = run_backfill(resolve_root(root), dry_run=dry_run)
    if as_json:
        echo_json({**plan.as_dict(), "dry_run": dry_run})
    else:
        click.echo(describe(plan, dry_run))


def describe(plan: BackfillPlan, dry_run: bool) -> str:
    """What a backfill did, or would do."""
    if not plan.facts:
        return "Nothing to backfill: every item in continuity.md's fact sections has a footer."
    lines = [f"  line {f.line} (## {f.section}): {f.id} ({f.tier})" for f in plan.facts]
    count = f"{len(plan.facts)} fact{'' if len(plan.facts) == 1 else 's'}"
    log = f"{plan.root_label}/{plan.log}"
    if dry_run:
        return "\n".join([*lines, f"Dry run: would give {count} a footer, created by {log}."])
    lines.append(f"Gave {count} a footer in {plan.root_label}/continuity.md, created by {log}.")
    return "\n".join([*lines, "Next: commit continuity.md and the log, then run `mdmem review`."])
