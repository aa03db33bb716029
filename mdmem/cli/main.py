"""The `mdmem` command group and its global options; each command lives in a module by concern."""

from __future__ import annotations

import importlib
from collections.abc import MutableMapping

import click

from mdmem.errors import MdmemError
from mdmem.store import lock

# Each command's module (`mdmem.cli.<module>`), imported when the command is asked for: a
# command loads only what it runs (`lookup` no gate, review or MCP code), `--version` none.
MODULES = {
    name: module
    for module, names in {
        "agents": ("agent-hooks", "export"),
        "backfill": ("backfill",),
        "diff": ("diff",),
        "facts": ("add",),
        "gates": ("blocked", "core", "done", "forget", "restore", "supersede", "thread"),
        "lint": ("hook-pre-commit", "hooks", "lint"),
        "mcp": ("mcp",),
        "migrate": ("migrate",),
        "read": ("context", "lookup", "show", "status"),
        "report": ("report", "stats", "trend"),
        "review": ("demo", "review"),
        "setup": ("init", "merge-driver"),
        "write": ("ref", "session"),
    }.items()
    for name in names
}


class _Handled(click.Command):
    """A command whose library error is shown as its message and exit code (`options.fail`),
    in this one place for every command."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (MdmemError, KeyboardInterrupt) as exc:
            # Here: `mdmem --version` imports no options (a start held to a target).
            from mdmem.cli.options import fail

            fail(exc, ctx.params)


class _Group(_Handled, click.Group):
    command_class = _Handled


class _Commands(click.Group):
    """The group whose commands are imported when first asked for; help lists them all."""

    command_class = _Handled
    group_class = _Group

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in MODULES:
            importlib.import_module(f"mdmem.cli.{MODULES[cmd_name]}")
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        every_command()
        return super().list_commands(ctx)


def every_command() -> MutableMapping[str, click.Command]:
    """Every command by name, all their modules imported."""
    for module in sorted(set(MODULES.values())):
        importlib.import_module(f"mdmem.cli.{module}")
    return main.commands


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mdmem")
@click.option(
    "--lock-timeout",
    type=click.FloatRange(min=0),
    default=lock.TIMEOUT,
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
    lock.TIMEOUT = lock_timeout
