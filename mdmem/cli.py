"""The command line: each command parses options, calls the library, prints, picks the exit code."""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from mdmem import writer
from mdmem.errors import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, MdmemError
from mdmem.memory import bulk_allocation, find_root
from mdmem.writer import finish_interrupted

if TYPE_CHECKING:
    from mdmem.apply import ApplyResult
    from mdmem.review import ReviewPlan

# Each command imports what it runs when it runs (a review never loads the merge driver,
# and git is loaded only to commit), so short commands start quickly.

F = TypeVar("F", bound=Callable[..., Any])


def root_option(func: F) -> F:
    return click.option(
        "--root",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        help="The memory folder (or a folder holding memory/). Default: search up from here.",
    )(func)


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(func)


def handles_errors(func: F) -> F:
    """Turn the library's one root exception into a message and its documented exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MdmemError as exc:
            # Messages quote user text; a secret in it is masked here, the last line of defence.
            from mdmem.secrets import redact  # loaded when there is an error to print

            click.echo(f"mdmem: {redact(str(exc))}", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            # Any write it cut short is finished or dropped by the next mdmem command.
            click.echo("mdmem: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)

    return wrapper  # type: ignore[return-value]


PROGRESS_FROM = 2000  # files: fewer read too fast for a bar to help


@contextlib.contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A `progress(done, total)` callback that draws a bar on stderr for long reads.

    Only when stderr is a terminal and there are at least PROGRESS_FROM files;
    otherwise (pipes, CI logs, JSON consumers) nothing is printed.
    """
    if not sys.stderr.isatty():
        yield None
        return
    bars: list[Any] = []

    def report(done: int, total: int) -> None:
        if total < PROGRESS_FROM:
            return
        if not bars:
            bar = click.progressbar(length=total, label=label, file=sys.stderr)
            bar.__enter__()
            bars.append(bar)
        bars[0].update(done - bars[0].pos)

    try:
        yield report
    finally:
        for bar in bars:
            bar.__exit__(None, None, None)


def resolve_root(root: Path | None) -> Path:
    """The memory folder, with any write a crash interrupted finished (or dropped) first."""
    found = find_root(Path.cwd(), root)
    finish_interrupted(found)
    return found


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mdmem")
@click.option(
    "--lock-timeout",
    type=click.FloatRange(min=0),
    default=writer.LOCK_TIMEOUT,
    show_default=True,
    envvar="MDMEM_LOCK_TIMEOUT",
    show_envvar=True,
    help="Seconds to wait while another mdmem process holds the memory's lock (then exit 4).",
)
def main(lock_timeout: float) -> None:
    """Long-term memory for coding agents, kept as markdown in git.

    Exit codes: 0 ok, 1 findings (lint), 2 usage, 3 bad input (file:line: message,
    nothing written), 4 could not write or commit (lock held, git refused), 130 interrupted.

    Environment: MDMEM_LOCK_TIMEOUT=5 mdmem review waits at most 5 s for the lock.
    """
    writer.LOCK_TIMEOUT = lock_timeout


@contextlib.contextmanager
def frozen_at_exit() -> Iterator[None]:
    """The collector stays paused, and what is still alive is frozen (`gc.freeze`) at the end.

    The process exits right after a review or lint: a collection then (the one due next,
    the one at interpreter exit) would walk every object the command made, for nothing
    (0.1 s at 10,000 logs). Frozen only here, never in the library, where a caller's
    garbage cycles would be pinned for good.
    """
    with bulk_allocation():
        try:
            yield
        finally:
            gc.freeze()


@main.command()
@root_option
@json_option
@click.option("--dry-run", is_flag=True, help="Print the change as a unified diff; write nothing.")
@click.option("--no-commit", is_flag=True, help="Write the files but make no git commit.")
@handles_errors
def review(root: Path | None, as_json: bool, dry_run: bool, no_commit: bool) -> None:
    """Recompute uses, tiers and archive moves from the session logs, then commit.

    Example: mdmem review --dry-run
    """
    from mdmem.apply import review as run_review

    with progress_bar("Reading session logs") as progress, frozen_at_exit():
        plan, result = run_review(
            resolve_root(root), dry_run=dry_run, commit=not no_commit, progress=progress
        )
    if as_json:
        payload = {
            "changed": plan.changed,
            "summary": None if plan.summary is None else plan.summary.as_dict(),
            "written": list(result.written),
            "commit": result.commit,
            "notice": result.notice,
            "dry_run": dry_run,
        }
        click.echo(json.dumps(payload, indent=2, sort_keys=True))
        return
    if dry_run:
        click.echo(plan.diff(), nl=False)
    click.echo(describe(plan, result, dry_run))
    sys.exit(EXIT_OK)


SHOWN_IDS = 12  # ids named per line on the terminal; --json and the commit have more


def describe(plan: ReviewPlan, result: ApplyResult, dry_run: bool) -> str:
    """The human-readable account of a review."""
    from mdmem.review import id_list

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
        elif result.notice:
            lines.append(f"Note: {result.notice}.")
    return "\n".join(lines)


@main.command()
@click.option(
    "--keep",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Build the example repository here (a new folder) instead of a temporary one.",
)
@handles_errors
def demo(keep: Path | None) -> None:
    """Build an example repository (30 sessions), review it, and show the commit.

    Example: mdmem demo --keep paygate-example
    """
    import tempfile

    from mdmem import demo as demo_module

    with tempfile.TemporaryDirectory(prefix="mdmem-demo-") as scratch:
        target = keep if keep is not None else Path(scratch) / "paygate"
        run = demo_module.run(target)
        click.echo(f"Example repository: {target if keep else 'a temporary folder'}")
        click.echo("$ mdmem review")
        click.echo(describe(run.plan, run.result, dry_run=False))
        click.echo("")
        click.echo("$ git show --stat HEAD")
        click.echo(run.commit_text.rstrip())


# -- git distribution: init and the merge driver --------------------------------------


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
    from mdmem import init as init_module

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
@handles_errors
def merge_driver(base: Path, ours: Path, theirs: Path, path: str | None, union: bool) -> None:
    """Merge two versions of continuity.md fact by fact; git runs it (see mdmem init).

    Writes the result over OURS; exits 0 on a clean merge, 1 when conflict markers
    remain around a fact (or prose) both sides rewrote differently.

    Example: git config merge.mdmem.driver 'mdmem merge-driver %O %A %B %P'
    """
    from mdmem import merge as merge_module

    merged = merge_module.merge_files(base, ours, theirs, path, union=union)
    if merged.clean:
        sys.exit(EXIT_OK)
    where = path or "continuity.md"
    if merged.fallback:
        click.echo(f"mdmem: {where}: merged line by line: {merged.fallback}", err=True)
    click.echo(f"mdmem: {where}: conflicts to resolve: {', '.join(merged.conflicts)}", err=True)
    sys.exit(EXIT_FINDINGS)


# --- lint and the pre-commit hook ----------------------------------------------------------


@main.command()
@root_option
@json_option
@click.option("--strict", is_flag=True, help="Exit 1 on warnings as well as on errors.")
@handles_errors
def lint(root: Path | None, as_json: bool, strict: bool) -> None:
    """Check the memory: footers, ids, immutable session logs, secrets, drift, size.

    Prints `path:line: CODE message (hint: ...)` per finding, then a count; the codes
    are listed in docs/LINT.md. Exit 1 on an error (and on a warning with --strict).

    Example: mdmem lint --strict
    """
    from mdmem import findings as findings_module
    from mdmem.lintrun import lint as run_lint

    with progress_bar("Reading session logs") as progress, frozen_at_exit():
        findings = run_lint(resolve_root(root), progress)
    if as_json:
        click.echo(json.dumps([finding.as_dict() for finding in findings], indent=2))
    else:
        for finding in findings:
            click.echo(finding.render())
        click.echo(findings_module.summary(findings))
    sys.exit(findings_module.exit_code(findings, strict))


@main.group()
def hooks() -> None:
    """Git hooks that check the memory before it is committed.

    Example: mdmem hooks install
    """


@hooks.command("install")
@root_option
@click.option("--chain", is_flag=True, help="Keep an existing pre-commit hook; run it first.")
@handles_errors
def hooks_install(root: Path | None, chain: bool) -> None:
    """Install the pre-commit hook (core.hooksPath is honoured).

    The hook refuses a commit that changes a committed session log, then runs
    `mdmem lint` and refuses the commit on errors.

    Example: mdmem hooks install --chain
    """
    from mdmem import hooks as hooks_module

    installed = hooks_module.install(resolve_root(root), chain=chain)
    verb = "Updated" if installed.replaced else "Installed"
    click.echo(f"{verb} the pre-commit hook: {installed.path}")
    if installed.chained is not None:
        click.echo(f"It runs the earlier hook first: {installed.chained}")


@main.command("hook-pre-commit", hidden=True)
@root_option
@handles_errors
def hook_pre_commit(root: Path | None) -> None:
    """What the pre-commit hook runs; git calls it before each commit.

    Example: mdmem hook-pre-commit --root memory
    """
    from mdmem import hooks as hooks_module

    result = hooks_module.pre_commit(resolve_root(root))
    for refusal in result.refused:
        click.echo(
            f"mdmem: {refusal.path}: this commit {refusal.action} a committed session log; "
            "logs are immutable (put it back: git restore --staged --worktree -- FILE)",
            err=True,
        )
    for finding in result.findings:
        click.echo(finding.render(), err=True)
    if not result.passed:
        click.echo("mdmem: commit refused; fix the above, or commit with --no-verify", err=True)
        sys.exit(EXIT_FINDINGS)
