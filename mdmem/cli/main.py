"""The `mdmem` command group and its global options; each command lives in a module by concern."""

from __future__ import annotations

import click

from mdmem.store import lock


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
