"""`mdmem migrate`: the rules of other agents' files brought in as facts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mdmem.cli.main import main
from mdmem.cli.options import handles_errors, json_option, resolve_root, root_option

if TYPE_CHECKING:
    from mdmem.migrating.plan import MigrationPlan


@main.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path(path_type=Path))
@root_option
@json_option
@click.option("--dry-run", is_flag=True, help="Print what each rule would become; write nothing.")
@handles_errors
def migrate(sources: tuple[Path, ...], root: Path | None, as_json: bool, dry_run: bool) -> None:
    """Import the rules of CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, Cursor .mdc
    rules, Copilot and Windsurf rule files, or a CASS playbook and blocked.log, as facts
    of continuity.md, created by one new session log. A folder (.cursor/rules) gives its
    files of those kinds. The files are only read.

    Duplicates fold, contradictions become Open Threads, secrets are refused and
    reported; running it again imports nothing new. Run `mdmem review` next, then commit.

    Example: mdmem migrate CLAUDE.md .cursor/rules --dry-run
    """
    from mdmem import migrate as run_migrate

    plan = run_migrate(resolve_root(root), sources, dry_run=dry_run)
    if as_json:
        click.echo(json.dumps({**plan.as_dict(), "dry_run": dry_run}, indent=2, sort_keys=True))
    else:
        click.echo(describe(plan, dry_run))


def describe(plan: MigrationPlan, dry_run: bool) -> str:
    """What a migration did, or would do: a line per rule and thread, then the sum."""
    from mdmem.migrating import render
    from mdmem.migrating.decide import BLOCKED, FOLDED, IMPORTED, REFUSED

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
