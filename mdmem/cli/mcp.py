"""`mdmem mcp`: the MCP server over stdio, and `mdmem mcp install`, which registers it with
a client. Only the command that serves imports the MCP SDK (the `mcp` extra)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from mdmem.cli.main import main
from mdmem.cli.options import echo_json, memory_options, resolve_root
from mdmem.errors import EXIT_FINDINGS
from mdmem.mcp.install import CLIENTS, install

MISSING = "the MCP server needs the official MCP SDK, the mcp extra: pip install 'mdmem[mcp]'"


@main.group(invoke_without_command=True)
@memory_options
@click.pass_context
def mcp(ctx: click.Context, root: Path | None, as_json: bool) -> None:
    """Serve the memory to MCP clients (Claude Code, Cursor, VS Code) over stdin and
    stdout, until the client closes them. Tools: context, lookup, show, status, lint
    (read-only), start_session, reference, add_fact, supersede, thread (through the same
    checks and lock as the commands); resources: continuity.md, the archive index, the
    current session log. With --json, print the tools (hints, input schemas) and the
    resources instead of serving. Needs the mcp extra: pip install 'mdmem[mcp]' (exit 1
    without it).

    `mdmem mcp install claude|cursor|vscode` registers the server with a client.

    Example: mdmem mcp --root memory
    """
    if ctx.invoked_subcommand is not None:
        return
    try:  # the SDK, or a message that says how to install it, and exit 1
        from mdmem.mcp import server
    except ImportError as exc:
        click.echo(f"mdmem: {MISSING} ({exc})", err=True)
        sys.exit(EXIT_FINDINGS)
    found = resolve_root(root)
    if as_json:
        echo_json(server.manifest(found), sort_keys=False, ascii=False)
        return
    server.serve(found)


@mcp.command("install")
@click.argument("client", type=click.Choice(tuple(CLIENTS)))
@click.option(
    "--replace",
    is_flag=True,
    help="Replace an mdmem entry that runs something else (its other fields are kept).",
)
@memory_options
def mcp_install(client: str, replace: bool, root: Path | None, as_json: bool) -> None:
    """Register the server in the project's configuration for CLIENT: `.mcp.json` (claude,
    Claude Code), `.cursor/mcp.json` (cursor) or `.vscode/mcp.json` (vscode), in the folder
    that holds the memory folder. The entry names no path of this machine, so a team can
    commit it: `sh` goes to the project's folder (the client's own variable for it) and
    runs `mdmem mcp --root MEMORY` there, through the project's `.venv` when mdmem was
    installed from it, else `mdmem` on PATH; a clone serves its own memory. Other servers
    and fields are kept, and the file is written all at once; nothing is written when the
    entry is there already. An `mdmem` entry that runs something else, or a file that is
    not JSON, is refused.

    Example: mdmem mcp install claude
    """
    done = install(resolve_root(root), client, replace=replace)
    for warning in done.warnings:
        click.echo(f"mdmem: warning: {warning}", err=True)
    if as_json:
        echo_json(done.as_dict())
        return
    where = f"{done.path} ({CLIENTS[client].label})"
    command = shlex.join([done.entry["command"], *done.entry["args"]])
    if done.outcome == "unchanged":
        click.echo(f"{where} runs the mdmem server already: nothing written")
    else:
        click.echo(f"{done.outcome.capitalize()} the mdmem server in {where}: {command}")
