"""`mdmem agent-hooks` (install, session-start, check) and `mdmem export`: the memory wired
into coding agents, through their lifecycle hooks or their instruction files."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from mdmem.adopting.agents import install_claude, pin_session, reminder
from mdmem.adopting.agents import session_start as starting
from mdmem.adopting.export import FORMATS
from mdmem.adopting.export import export as run_export
from mdmem.cli.main import main
from mdmem.cli.options import (
    echo_json,
    memory_options,
    named_by,
    resolve_root,
    serves_what_it_can,
    session_option,
)
from mdmem.errors import MdmemError

_DRY_RUN = click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")


@main.group("agent-hooks")
def agent_hooks() -> None:
    """Lifecycle hooks for coding agents: the memory's context when a session starts, a
    reminder when a turn ends while the session log cites no fact. Never a block.

    Example: mdmem agent-hooks install claude
    """


@agent_hooks.command("install")
@click.argument("agent", type=click.Choice(["claude"]))
@click.option(
    "--local", is_flag=True, help="Write .claude/settings.local.json (yours, git-ignored)."
)
@_DRY_RUN
@memory_options
def install(agent: str, local: bool, dry_run: bool, root: Path | None, as_json: bool) -> None:
    """Add mdmem's hooks to Claude Code's project settings (.claude/settings.json, beside
    the memory folder): SessionStart prints `mdmem agent-hooks session-start`, Stop runs
    `mdmem agent-hooks check`. Other settings and hooks stay; a second install changes
    nothing. The hooks run the Python that installed them, else `mdmem` on PATH.

    Example: mdmem agent-hooks install claude --dry-run
    """
    installed = install_claude(resolve_root(root), local=local, dry_run=dry_run)
    if as_json:
        echo_json(installed.as_dict(), ascii=False)
        return
    verb = "would be " if dry_run else ""
    for change in installed.changes:
        click.echo(f"{installed.display}: {change.event} hook {verb}{change.action}")
    if not installed.changed:
        click.echo("Already installed: nothing changed.")
    elif not dry_run:
        click.echo(f"Installed; commit {installed.display} to share the hooks.")


@agent_hooks.command("session-start")
@memory_options
@serves_what_it_can
def session_start(root: Path | None, as_json: bool) -> None:
    """What an agent's session starts with: `mdmem context` and how to cite facts. Always
    exits 0; a problem is printed in place of the context.

    --json prints the hook output Claude Code, Gemini CLI and Codex read:
    {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ...}}.
    Under Claude Code (CLAUDE_ENV_FILE set), the agent's session gets its own log (the one
    named for its session id when it resumes), pinned by MDMEM_SESSION for its commands.

    Example: mdmem agent-hooks session-start --json
    """
    # Here, not at the top: with export's imports, +16% instructions for every
    # `agent-hooks check`, which runs at the end of each of an agent's turns.
    from mdmem.safety.secrets import redact
    from mdmem.safety.shown import shown

    try:
        found = resolve_root(root)
        text, problem = redact(starting(found)), None
        env_file = os.environ.get("CLAUDE_ENV_FILE")
        if env_file:
            text += pin_session(found, Path(env_file), _hook_session_id()) + "\n"
    except MdmemError as exc:
        text, problem = "", shown(exc)
    if as_json and problem:
        echo_json({"systemMessage": problem}, ascii=False)
    elif problem:
        click.echo(problem)
    elif not as_json:
        click.echo(text, nl=False)
    else:
        context = {"hookEventName": "SessionStart", "additionalContext": text}
        echo_json({"hookSpecificOutput": context}, ascii=False)


def _hook_session_id() -> str | None:
    """The agent's session id from the JSON its hook reads on stdin (None: none given)."""
    text = sys.stdin.read()
    try:
        given = json.loads(text or "{}")
    except ValueError:
        return None
    found = given.get("session_id") if isinstance(given, dict) else None
    return found if isinstance(found, str) else None


@agent_hooks.command("check")
@memory_options
@session_option
def check(root: Path | None, as_json: bool, named: str | None) -> None:
    """Remind, when a turn ends, that the current session log cites no fact yet (or that
    there is none). Prints nothing when it cites one; always exits 0, never blocks.

    --json prints {"systemMessage": REMINDER} (shown to the user by Claude Code, Gemini
    CLI and Codex), or {} when there is nothing to say.

    Example: mdmem agent-hooks check --json
    """
    try:
        said = reminder(resolve_root(root), named or None, named_by())
    except MdmemError as exc:
        from mdmem.safety.shown import shown  # the scanner, only for an error to show

        said = shown(exc)
    if as_json:
        echo_json({"systemMessage": said} if said else {}, ascii=False)
    elif said:
        click.echo(said)


@main.command("export")
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), required=True,
    help="agents-md: AGENTS.md; claude-md: CLAUDE.md; cursor: .cursor/rules/mdmem.mdc; "
    "copilot: .github/copilot-instructions.md (each beside the memory folder).",
)  # fmt: skip
@_DRY_RUN
@memory_options
@serves_what_it_can
def export(fmt: str, dry_run: bool, root: Path | None, as_json: bool) -> None:
    """Write the core facts and invariants, each with its id, into a vendor's instructions
    file, inside a marked block: for agents that never run mdmem. Nothing outside the
    block changes; run it again after the memory changes (the same memory, the same bytes).

    Example: mdmem export --format cursor --dry-run
    """
    done = run_export(resolve_root(root), fmt, dry_run=dry_run)
    if as_json:
        echo_json(done.as_dict(), ascii=False)
        return
    if dry_run:
        click.echo(done.diff, nl=False)
    count = f"{len(done.ids)} core fact{'' if len(done.ids) == 1 else 's'}"
    if not done.changed:
        click.echo(f"{done.display}: {count}, already up to date: nothing changed.")
    else:
        verb = ("would be created" if done.created else "would change") if dry_run else (
            "created" if done.created else "updated")  # fmt: skip
        click.echo(f"{done.display}: {verb}, {count}.")
