"""Git distribution: `mdmem init` and the merge driver git runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mdmem.cli.main import main
from mdmem.cli.options import echo_json, json_option
from mdmem.errors import EXIT_FINDINGS, EXIT_OK
from mdmem.merging import driver as merge_module


@main.command()
@click.argument(
    "path", required=False, type=click.Path(path_type=Path, file_okay=False, exists=True)
)
@click.option(
    "--root",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="The same as PATH.",
)
@click.option("--dry-run", is_flag=True, help="Print what init would do; write nothing.")
@click.option("--ci", is_flag=True, help="Also install .github/workflows/mdmem.yml.")
@json_option
def init(path: Path | None, root: Path | None, dry_run: bool, ci: bool, as_json: bool) -> None:
    """Set mdmem up in a project (PATH, default: the git repository here), adding only
    what is missing.

    Creates memory/ (continuity, decay policy, a draft vision, blocked.md, reviews.md, the
    archive index, a first session log), DECAY.md and REVIEW.md; adds a `usage` block to
    AGENTS.md (and to CLAUDE.md, GEMINI.md, .github/copilot-instructions.md when present);
    installs the pre-commit hook and registers the merge drivers. Never overwrites a file;
    running it twice changes nothing.

    Example: mdmem init --dry-run
    """
    # Here, not at the top: they add 70% to the instructions of the merge driver, which
    # git starts for every merged memory file.
    from mdmem.adopting import init as init_module
    from mdmem.adopting import summary

    if path is not None and root is not None and path.resolve() != root.resolve():
        raise click.UsageError("give the project as PATH or as --root, not both")
    project = init_module.project_folder(Path.cwd(), path or root)
    result = init_module.init(project, ci=ci, dry_run=dry_run)
    if as_json:
        echo_json(result.as_dict())
        return
    for line in summary.report_lines(result):
        click.echo(line)


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
def merge_driver(
    base: Path, ours: Path, theirs: Path, path: str | None, union: bool, as_json: bool
) -> None:
    """Merge two versions of continuity.md fact by fact; git runs it (see mdmem init).

    Writes the result over OURS; exits 0 on a clean merge, 1 when conflict markers
    remain around a fact (or prose) both sides rewrote differently.

    Example: git config merge.mdmem.driver 'mdmem merge-driver %O %A %B %P'
    """
    merged = merge_module.merge_files(base, ours, theirs, path, union=union)
    if as_json:
        conflicts = list(merged.conflicts)
        echo_json({"clean": merged.clean, "conflicts": conflicts, "fallback": merged.fallback})
    if merged.clean:
        sys.exit(EXIT_OK)
    where = path or "continuity.md"
    if merged.fallback:
        click.echo(f"mdmem: {where}: merged line by line: {merged.fallback}", err=True)
    click.echo(f"mdmem: {where}: conflicts to resolve: {', '.join(merged.conflicts)}", err=True)
    sys.exit(EXIT_FINDINGS)
