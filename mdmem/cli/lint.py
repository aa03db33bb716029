"""`mdmem lint` and the pre-commit hook that runs it."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import click

from mdmem.adopting import hooks as hooks_module
from mdmem.cli.main import main
from mdmem.cli.options import (
    echo_json,
    memory_options,
    reading_logs,
    resolve_root,
    root_option,
)
from mdmem.errors import EXIT_FINDINGS
from mdmem.linting import findings as findings_module
from mdmem.linting.explain import Explanation, explain, explanations
from mdmem.linting.run import lint as run_lint


def _explained(
    _ctx: click.Context, _param: click.Parameter, query: str | None
) -> Explanation | None:
    """The explanation `--explain` asks for; an unknown code is a usage error naming them all."""
    if query is None:
        return None
    found = explain(query)
    if found is None:
        codes = ", ".join(known.code for known in explanations())
        raise click.BadParameter(f"no lint code or name {query!r}; the codes are {codes}")
    return found


@main.command()
@memory_options
@click.option("--strict", is_flag=True, help="Exit 1 on warnings as well as on errors.")
@click.option("--verbose", is_flag=True, help="List each stale footer, not one count per file.")
@click.option(
    "--explain",
    "explained",
    metavar="CODE",
    callback=_explained,
    help="Print what a code (W002) or its name (unknown-id) means and how to fix it; no lint.",
)
@click.option(
    "--base",
    metavar="REV",
    help="The commit a pull request starts from: a committed session log its own commits "
    "edited or deleted is an error (E006), not a warning about history (W024).",
)
def lint(
    root: Path | None,
    as_json: bool,
    strict: bool,
    verbose: bool,
    explained: Explanation | None,
    base: str | None,
) -> None:
    """Check the memory: footers, ids, immutable session logs, secrets, drift, size.

    Prints `path:line: CODE message (hint: ...)` per finding, then a count; a file's
    stale footers (W001) are one finding that counts them, unless --verbose (--json
    lists each); warnings about committed session logs, which nobody can edit, are one
    line that counts them. `mdmem lint --explain CODE` tells what a code means and how
    to fix it. Exit 1 on an error (and on a warning with --strict, but for those about
    committed logs).

    Example: mdmem lint --strict
    Example: mdmem lint --base "$(git merge-base origin/main HEAD)"   # in a pull request
    """
    if explained is not None:
        click.echo(json.dumps(explained.as_dict(), indent=2) if as_json else explained.render())
        return
    with reading_logs() as progress:
        findings = run_lint(resolve_root(root), progress, base=base)
    if as_json:
        echo_json([finding.as_dict() for finding in findings], sort_keys=False)
    else:
        shown = findings if verbose else findings_module.grouped(findings)
        for finding in shown:
            click.echo(finding.render())
        note = None if verbose else findings_module.committed_note(findings)
        if note is not None:
            click.echo(note)
        count = findings_module.summary(shown)
        click.echo("No other findings." if note and not shown else count)
    sys.exit(findings_module.exit_code(findings, strict))


@main.group()
def hooks() -> None:
    """Git hooks that check the memory before it is committed.

    Example: mdmem hooks install
    """


@hooks.command("install")
@memory_options
@click.option("--chain", is_flag=True, help="Keep an existing pre-commit hook; run it first.")
def hooks_install(root: Path | None, as_json: bool, chain: bool) -> None:
    """Install the pre-commit hook (core.hooksPath is honoured).

    The hook refuses a commit that changes a committed session log, then runs
    `mdmem lint` and refuses the commit on errors.

    Example: mdmem hooks install --chain
    """
    installed = hooks_module.install(resolve_root(root), chain=chain)
    if as_json:
        chained = None if installed.chained is None else str(installed.chained)
        updated = installed.replaced and installed.changed
        echo_json(
            {"path": str(installed.path), "chained": chained, "updated": updated}
            | {"changed": installed.changed}
        )
        return
    if not installed.changed:
        click.echo(f"The pre-commit hook is up to date: {installed.path}")
    else:
        verb = "Updated" if installed.replaced else "Installed"
        click.echo(f"{verb} the pre-commit hook: {installed.path}")
    if installed.chained is not None:
        click.echo(f"It runs the earlier hook first: {installed.chained}")


@main.command("hook-pre-commit", hidden=True)
@root_option
def hook_pre_commit(root: Path | None) -> None:
    """What the pre-commit hook runs; git calls it before each commit.

    Example: mdmem hook-pre-commit --root memory
    """
    result = hooks_module.pre_commit(resolve_root(root))
    for refusal in result.refused:
        back = f"git restore --staged --worktree -- {shlex.quote(':/' + refusal.git_path)}"
        if refusal.action == "deletes or renames":  # git stages a rename as a new file too
            back += "; renamed, also take out the copy: git rm -f -- NEW-NAME"
        click.echo(
            f"mdmem: {refusal.path}: this commit {refusal.action} a committed session log; "
            f"logs are immutable (put it back: {back})",
            err=True,
        )
    for finding in result.findings:
        click.echo(finding.render(), err=True)
    if not result.passed:
        click.echo("mdmem: commit refused; fix the above, or commit with --no-verify", err=True)
        sys.exit(EXIT_FINDINGS)
