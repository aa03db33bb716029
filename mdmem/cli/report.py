"""`mdmem stats`, `mdmem trend` and `mdmem report`: the memory's health, read-only."""

from __future__ import annotations

from pathlib import Path

import click

from mdmem.cli.main import main
from mdmem.cli.options import (
    echo_json,
    memory_options,
    reading_logs,
    resolve_root,
    serves_what_it_can,
)
from mdmem.report.build import stats as run_stats
from mdmem.report.build import trend as run_trend
from mdmem.report.build import write_report
from mdmem.report.stats import render_stats


@main.command()
@memory_options
@serves_what_it_can
def stats(root: Path | None, as_json: bool) -> None:
    """Count the memory as a review run now would: facts per tier and per maturity, the
    largest sections, the facts closest to archival (archive_window minus the sessions
    since their last use), the review and invariant cadences, and the facts most used in
    the last active_window sessions. Writes nothing.

    Example: mdmem stats --json
    """
    with reading_logs() as progress:
        found = run_stats(resolve_root(root), progress)
    if as_json:
        echo_json(found.as_dict())
    else:
        click.echo(render_stats(found))


@main.command()
@memory_options
@serves_what_it_can
def trend(root: Path | None, as_json: bool) -> None:
    """Say whether the memory is IMPROVING, DECLINING or STABLE, from reviews.md's rows.

    The balance of a review is (active - archive-candidate) / live facts; the first and
    the last of the last 5 reviews are compared, and a change of 5 points or more either
    way is a trend. With fewer than two reviews there is no verdict (exit 0 all the same).

    Example: mdmem trend --json
    """
    found = run_trend(resolve_root(root))
    if as_json:
        echo_json(found.as_dict())
    else:
        click.echo(found.render())


@main.command()
@memory_options
@click.option(
    "--html",
    "out",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False, writable=True),
    help="Write the report to this file (replaced whole).",
)
@serves_what_it_can
def report(root: Path | None, as_json: bool, out: Path) -> None:
    """Write a self-contained HTML page of the memory: live facts by section and tier,
    pitfalls apart, a chart of the tiers over the reviews, the trend, open threads, lint
    findings and the archive index. Nothing in it is fetched or run when it is viewed.

    Example: mdmem report --html memory-report.html
    """
    with reading_logs() as progress:
        result = write_report(resolve_root(root), out, progress)
    if as_json:
        echo_json(result.as_dict())
    else:
        click.echo(
            f"Wrote {out} ({result.size} bytes): {result.facts} live facts, "
            f"{result.findings} lint finding{'' if result.findings == 1 else 's'}."
        )
