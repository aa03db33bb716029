"""`mdmem review` and `mdmem demo`, which shows one."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import click

from mdmem.adopting import demo as demo_module
from mdmem.cli.main import main
from mdmem.cli.options import (
    echo_json,
    json_option,
    memory_options,
    reading_logs,
    resolve_root,
)
from mdmem.errors import EXIT_OK
from mdmem.linting.gate import review
from mdmem.reading.search import refresh_index
from mdmem.reviewing.apply import ApplyResult
from mdmem.reviewing.plan import ReviewPlan
from mdmem.reviewing.summary import id_list


@main.command("review")
@memory_options
@click.option("--dry-run", is_flag=True, help="Print the change as a unified diff; write nothing.")
@click.option("--no-commit", is_flag=True, help="Write the files but make no git commit.")
def review_command(root: Path | None, as_json: bool, dry_run: bool, no_commit: bool) -> None:
    """Recompute uses, tiers and archive moves from the session logs, then commit.

    Example: mdmem review --dry-run
    """
    with reading_logs() as progress:
        found = resolve_root(root)
        plan, result = review(found, dry_run=dry_run, commit=not no_commit, progress=progress)
    if result.written:
        refresh_index(found)
    if as_json:
        summary = None if plan.summary is None else plan.summary.as_dict()
        payload = {"changed": plan.changed, "summary": summary, "written": list(result.written)}
        echo_json(payload | {"commit": result.commit, "notice": result.notice, "dry_run": dry_run})
        return
    if dry_run:
        click.echo(plan.diff(), nl=False)
    click.echo(describe(plan, result, dry_run))
    sys.exit(EXIT_OK)


SHOWN_IDS = 12  # ids named per line on the terminal; --json and the commit have more


def describe(plan: ReviewPlan, result: ApplyResult, dry_run: bool) -> str:
    """The human-readable account of a review."""
    summary = plan.summary
    if summary is None:
        return "No session logs yet: nothing to review."
    lines = [f"Reviewed {summary.sessions} sessions through {summary.through}."]
    lines.append(
        "  "
        + ", ".join(f"{tier} {count}" for tier, count in summary.tiers)
        + f", open threads {summary.open_threads}"
    )
    lines += [f"  {label}: {id_list(ids, SHOWN_IDS)}" for label, ids in summary.listed()]
    for fact_id, before, after in summary.tier_changes[:SHOWN_IDS]:
        lines.append(f"  {fact_id}: {before} → {after}")
    if len(summary.tier_changes) > SHOWN_IDS:
        lines.append(f"  and {len(summary.tier_changes) - SHOWN_IDS} more tier changes")
    if not plan.changed:
        lines.append("Nothing new since the last review: no file written, no commit.")
    elif dry_run:
        lines.append(f"Dry run: {len(plan.writes)} files would change; nothing written.")
    else:
        label = plan.root.name
        lines.append("Wrote " + ", ".join(f"{label}/{p}" for p in result.written) + ".")
        if result.commit:
            lines.append(f"Committed {result.commit[:12]}.")
        if result.notice:
            lines.append(f"Note: {result.notice}.")
    return "\n".join(lines)


@main.command()
@click.option(
    "--keep",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Build the example repository here (a new folder) instead of a temporary one.",
)
@json_option
def demo(keep: Path | None, as_json: bool) -> None:
    """Build an example repository (30 sessions), review it, and show the commit.

    Example: mdmem demo --keep paygate-example
    """
    with tempfile.TemporaryDirectory(prefix="mdmem-demo-") as scratch:
        target = keep if keep is not None else Path(scratch) / "paygate"
        run = demo_module.run(target)
        if as_json:
            summary = None if run.plan.summary is None else run.plan.summary.as_dict()
            repository = str(target) if keep else None
            written = list(run.result.written)
            payload = {"repository": repository, "summary": summary, "written": written}
            echo_json({**payload, "commit": run.result.commit})
            return
        click.echo(f"Example repository: {target if keep else 'a temporary folder'}")
        click.echo("$ mdmem review")
        click.echo(describe(run.plan, run.result, dry_run=False))
        click.echo("")
        click.echo("$ git show --stat HEAD")
        click.echo(run.commit_text.rstrip())
