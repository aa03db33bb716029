"""The agent's write path: `mdmem session [start]` and `mdmem ref`."""

from __future__ import annotations

from pathlib import Path

import click

from mdmem.cli.main import main
from mdmem.cli.options import (
    echo_json,
    memory_options,
    named_by,
    resolve_root,
    session_option,
)
from mdmem.writing.logs import current_session
from mdmem.writing.session import citations, reference, start_session


@main.group(invoke_without_command=True)
@memory_options
@session_option
@click.pass_context
def session(ctx: click.Context, root: Path | None, as_json: bool, named: str | None) -> None:
    """Show the current session log: the one git has not committed yet (or the one
    --session or MDMEM_SESSION names, which several uncommitted logs need), and what its
    Memory References hold so far.

    `mdmem session start` begins a new one.

    Example: mdmem session --json
    """
    if ctx.invoked_subcommand is not None:
        return
    log = current_session(resolve_root(root), named or None, named_by())
    found = citations(log)
    if as_json:
        events = [[event.kind, list(event.ids), event.new_id] for event in found.events]
        echo_json({**log.as_dict(), "references": list(found.references), "events": events})
        return
    click.echo(f"{log.display} ({log.source})")
    click.echo(f"  references: {', '.join(found.references) or '(none)'}")
    for event in found.events:
        successor = f" → {event.new_id}" if event.new_id else ""
        click.echo(f"  {event.kind.capitalize()}: {', '.join(event.ids)}{successor}")


@session.command("start")
@click.option("--slug", default=None, help="A name after the timestamp: kebab-case words.")
@memory_options
def session_start(slug: str | None, root: Path | None, as_json: bool) -> None:
    """Start a session: create its log from the template and print its path.

    The log is memory/sessions/YYYY-MM-DD-HHMMSS[-slug].md, named by the UTC time; it
    holds a title, ## Summary, an empty ## Memory References and ## Next steps. An
    existing log is never replaced: when the name is taken, the next free second is
    used. Pin it for the agent that started it with the printed `export
    MDMEM_SESSION=STEM` (or give --session STEM): a write that finds more than one
    uncommitted log and no pin refuses, naming them, rather than guess whose is whose.

    Example: mdmem session start --slug refunds-queue
    """
    started = start_session(resolve_root(root), slug)
    if as_json:
        echo_json(started.as_dict())
        return
    click.echo(f"Started {started.log.display}")
    click.echo(
        f"Pin it for this agent, so that its writes go there whatever other agents start: "
        f"export {started.pin}",
        err=True,
    )
    if started.note is not None:
        click.echo(f"Note: {started.note}", err=True)


KEYS = ("created", "reactivated", "helpful", "harmful")


@main.command()
@click.argument("ids", nargs=-1, required=True, metavar="ID...")
@click.option("--created", is_flag=True, help="Record `Created:` (a fact this session added).")
@click.option("--reactivated", is_flag=True, help="Record `Reactivated:` (brought back).")
@click.option("--helpful", is_flag=True, help="Record `Helpful:` (it saved you time).")
@click.option("--harmful", is_flag=True, help="Record `Harmful:` (following it cost you).")
@session_option
@memory_options
def ref(
    ids: tuple[str, ...], named: str | None, root: Path | None, as_json: bool, **flags: bool
) -> None:
    """Cite facts in the current session log's ## Memory References (`Referenced:` unless
    a flag names another line). One line per key; an id already there is not added twice.

    Refuses, writing nothing, an id no fact in continuity, the archive or vision has
    (naming the nearest known ids), a superseded id (naming its successor), a blocked
    one (with its reason), and a log git has committed.

    Example: mdmem ref post-only-mutations webhook-fire-forget
    """
    chosen = [key for key in KEYS if flags[key]]
    if len(chosen) > 1:
        raise click.UsageError(f"give one of --{', --'.join(KEYS)}, not {len(chosen)}")
    key = chosen[0] if chosen else "referenced"
    done = reference(resolve_root(root), ids, key, named or None, named_by())
    if as_json:
        echo_json(done.as_dict())
        return
    line = f"{done.key.capitalize()}: {', '.join(done.added)}" if done.added else "nothing added"
    note = f" (already there: {', '.join(done.already)})" if done.already else ""
    click.echo(f"{done.log.display}: {line}{note}")
