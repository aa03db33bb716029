"""`mdmem diff`: what a change did to the memory, for the person reviewing the pull request."""

from __future__ import annotations

from pathlib import Path

import click

from mdmem.changes.read import diff as run_diff
from mdmem.changes.render import markdown
from mdmem.cli.main import main
from mdmem.cli.options import (
    echo_json,
    memory_options,
    resolve_root,
    serves_what_it_can,
)
from mdmem.safety.secrets import redact, redact_all


@main.command()
@memory_options
@click.argument("base", required=False)
@click.argument("head", required=False)
@serves_what_it_can
def diff(root: Path | None, as_json: bool, base: str | None, head: str | None) -> None:
    """What changed in the memory from BASE to HEAD, in plain words, as markdown for a pull
    request: facts added, reworded, superseded, invalidated, forgotten (with the reason),
    restored, made core or no longer core (flagged for a person), threads opened and
    closed, tier moves a review made, the sessions added and what they cited (a committed
    log edited or deleted flagged for a person: the ledger is never edited), facts that
    name a path the change deleted or renamed, and lint's new findings. An item either
    side cannot read (a footer broken by hand) is listed apart with its file, line, why
    and the ids it holds, neither added nor removed; one the change deleted from BASE is
    a removal, flagged for a person, when its footer names an id.

    BASE defaults to where the branch left its upstream or the default branch (their
    merge base), HEAD to the working tree. Both are read from git's objects, never from
    another branch's working tree. Exit 0 whatever changed; 3 when git knows no such
    commit, or HEAD names none yet (nothing to compare).

    Example: mdmem diff main HEAD --json
    """
    changes = run_diff(resolve_root(root), base, head)
    if as_json:
        echo_json(redact_all(changes.as_dict()), sort_keys=False)
    else:
        click.echo(redact(markdown(changes)))
