"""`mdmem migrate`: the rules of other agents' files brought in as facts."""

from __future__ import annotations

from pathlib import Path

import click

from mdmem.cli.main import main
from mdmem.cli.options import echo_json, memory_options, resolve_root
from mdmem.migrating.migrate import migrate as run_migrate
from mdmem.migrating.plan import describe


@main.command()
@click.argument("sources", nargs=-1, required=True, type=click.Path(path_type=Path))
@memory_options
@click.option("--dry-run", is_flag=True, help="Print what each rule would become; write nothing.")
def migrate(sources: tuple[Path, ...], root: Path | None, as_json: bool, dry_run: bool) -> None:
    """Import the rules of CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, Cursor .mdc
    rules, Copilot and Windsurf rule files, or a CASS playbook and blocked.log, as facts
    of continuity.md, created by one new session log. A folder (.cursor/rules) gives its
    files of those kinds. The files are only read.

    Duplicates fold, contradictions become Open Threads, secrets are refused and
    reported; running it again imports nothing new. Run `mdmem review` next, then commit.

    Example: mdmem migrate CLAUDE.md .cursor/rules --dry-run
    """
    plan = run_migrate(resolve_root(root), sources, dry_run=dry_run)
    if as_json:
        echo_json({**plan.as_dict(), "dry_run": dry_run})
    else:
        click.echo(describe(plan, dry_run))
