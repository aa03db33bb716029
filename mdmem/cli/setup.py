"""Git distribution: `mdmem init` and the merge driver git runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from mdmem.cli.main import main
from mdmem.cli.options import (
    handles_errors,
    json_option,
)
from mdmem.errors import EXIT_FINDINGS, EXIT_OK


@main.command()
@click.option(
    "--root",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="The project folder to set up (memory/ goes inside). Default: the git repository here.",
)
@click.option("--ci", is_flag=True, help="Also install .github/workflows/mdmem.yml.")
@json_option
@handles_errors
def init(root: Path | None, ci: bool, as_json: bool) -> None:
    """Create memory/, install DECAY.md and REVIEW.md, and register the merge driver.

    Never overwrites a file; running it twice changes nothing.

    Example: mdmem init --ci
    """
    from mdmem.adopting import init as init_module

    result = init_module.init(init_module.project_folder(Path.cwd(), root), ci=ci)
    if as_json:
        click.echo(json.dumps(result.as_dict(), indent=2, sort_keys=True))
        return
    for relative in result.created:
        click.echo(f"created {relative}")
    for relative in result.extended:
        click.echo(f"extended {relative}")
    for key in result.configured:
        click.echo(f"git config {key}")
    if result.notice:
        click.echo(f"Note: {result.notice}.")
    done = "Set up; commit the new files." if result.changed else "Already set up: nothing changed."
    click.echo(done)


@main.command("merge-driver")
@click.argument("base", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.argument("ours", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.argument("theirs", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.argument("path", required=False)
@click.option(
    "--union",
    is_flag=True,
    help="For archive files: keep what both sides wrote (a clashing fact twice); no conflict.",
)
@json_option
@handles_errors
def merge_driver(
    base: Path, ours: Path, theirs: Path, path: str | None, union: bool, as_json: bool
) -> None:
    """Merge two versions of continuity.md fact by fact; git runs it (see mdmem init).

    Writes the result over OURS; exits 0 on a clean merge, 1 when conflict markers
    remain around a fact (or prose) both sides rewrote differently.

    Example: git config merge.mdmem.driver 'mdmem merge-driver %O %A %B %P'
    """
    from mdmem.merging import driver as merge_module

    merged = merge_module.merge_files(base, ours, theirs, path, union=union)
    if as_json:
        payload = {
            "clean": merged.clean,
            "conflicts": list(merged.conflicts),
            "fallback": merged.fallback,
        }
        click.echo(json.dumps(payload, indent=2, sort_keys=True))
    if merged.clean:
        sys.exit(EXIT_OK)
    where = path or "continuity.md"
    if merged.fallback:
        click.echo(f"mdmem: {where}: merged line by line: {merged.fallback}", err=True)
    click.echo(f"mdmem: {where}: conflicts to resolve: {', '.join(merged.conflicts)}", err=True)
    sys.exit(EXIT_FINDINGS)
