"""What every command shares: the --root, --json and --session options, errors turned into
exit codes, the progress bar, finding the memory, and the collector paused for a whole
command."""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from mdmem.errors import EXIT_INTERRUPTED, MdmemError
from mdmem.format.leftout import leaving_out, left_out
from mdmem.store.folders import find_root
from mdmem.store.lock import finish_interrupted

F = TypeVar("F", bound=Callable[..., Any])
SESSION_VARIABLE = "MDMEM_SESSION"


root_option = click.option(
    "--root",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="The memory folder (or a folder holding memory/). Default: search up from here.",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


def memory_options(func: F) -> F:
    """`--root` then `--json`, the two options nearly every command takes."""
    return root_option(json_option(func))


def echo_json(payload: object, *, sort_keys: bool = True, ascii: bool = True) -> None:
    """Print a command's JSON answer, two-space; an object's `warnings` name the items the
    running reading command left out (none: no key)."""
    if isinstance(payload, dict) and left_out():
        # Only when an item was left out: importing the scanner costs 15% of `--version`.
        from mdmem.safety.secrets import redact_all

        payload = {**payload, "warnings": redact_all(left_out_json())}
    click.echo(json.dumps(payload, indent=2, sort_keys=sort_keys, ensure_ascii=ascii))


session_option = click.option(
    "--session",
    "named",
    metavar="PATH|STEM",
    envvar=SESSION_VARIABLE,
    show_envvar=True,
    help="The session log (a stem, file name or path, or its date and time alone when "
    "one uncommitted log has them). Default: the one log git has not committed; "
    "with two or more, name it.",
)


def named_by() -> str:
    """What named the session: the option, or the variable (click reads it for --session)."""
    source = click.get_current_context().get_parameter_source("named")
    return SESSION_VARIABLE if source == click.core.ParameterSource.ENVIRONMENT else "--session"


def serves_what_it_can(func: F) -> F:
    """For a reading command: an item that cannot be read is left out of the answer, and
    named on stderr once the answer is printed (`left_out_json` gives the same to --json),
    instead of the whole memory being refused (SPEC §2)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with leaving_out() as left_out:
            try:
                return func(*args, **kwargs)
            finally:
                if left_out:
                    from mdmem.safety.shown import shown  # the scanner: see `fail`

                    for message in dict.fromkeys(shown(error) for error in left_out):
                        warning = message.replace("mdmem: ", "mdmem: warning: ", 1)
                        end = "(left out of this answer; `mdmem lint` lists it)"
                        click.echo(f"{warning} {end}", err=True)

    return wrapper  # type: ignore[return-value]


def left_out_json() -> list[dict[str, object]]:
    """The items the running reading command left out, for its JSON answer's `warnings`."""
    if not left_out():
        return []
    from mdmem.safety.shown import warnings  # the secret scanner: see `fail`

    return warnings()


def fail(exc: MdmemError | KeyboardInterrupt, params: dict[str, Any]) -> NoReturn:
    """The library's one root exception as a message and its documented exit code (and an
    interruption as 130); `params`: the command's, whose --json gets the refusal too."""
    if isinstance(exc, KeyboardInterrupt):
        # Any write it cut short is finished or dropped by the next mdmem command.
        click.echo("mdmem: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    # Imported only when there is an error to show: the secret scanner's import is
    # ~6 ms of every command's start (benchmarks/README.md, the reading commands).
    from mdmem.safety.shown import masked, shown

    click.echo(shown(exc), err=True)
    if params.get("as_json") or params.get("output") == "json":
        # A program that reads the answer from stdout finds the refusal there too.
        text = masked(exc.message, exc.context)
        where, code = exc.path, exc.exit_code
        error = {"message": text, "path": where, "line": exc.line, "exit_code": code}
        click.echo(json.dumps({"error": error}, indent=2))
    sys.exit(exc.exit_code)


PROGRESS_FROM = 2000  # files: fewer read too fast for a bar to help


def resolve_root(root: Path | None) -> Path:
    """The memory folder, with any write a crash interrupted finished (or dropped) first."""
    found = find_root(Path.cwd(), root)
    finish_interrupted(found)
    return found


@contextlib.contextmanager
def reading_logs() -> Iterator[Callable[[int, int], None] | None]:
    """For a command that reads every session log, then exits: a `progress(done, total)`
    callback that draws a bar on stderr (only on a terminal, from PROGRESS_FROM files on;
    pipes, CI logs and JSON consumers see nothing), and the collector paused, what is still
    alive frozen (`gc.freeze`) at the end.

    The process exits right after: a collection then (the one due next, the one at
    interpreter exit) would walk every object the command made, for nothing. Frozen only
    here, never in the library, where a caller's garbage cycles would be pinned for good.
    """
    from mdmem.store.load import bulk_allocation  # a review's or lint's, no reader's

    bars: list[Any] = []

    def report(done: int, total: int) -> None:
        if total < PROGRESS_FROM:
            return
        if not bars:
            bar = click.progressbar(length=total, label="Reading session logs", file=sys.stderr)
            bar.__enter__()
            bars.append(bar)
        bars[0].update(done - bars[0].pos)

    try:
        with bulk_allocation():
            try:
                yield report if sys.stderr.isatty() else None
            finally:
                gc.freeze()
    finally:
        for bar in bars:
            bar.__exit__(None, None, None)


def working_folder() -> Path | None:
    """The folder the command runs in, which a relative `--path` is read from; None when it
    is gone (deleted under the shell)."""
    try:
        return Path.cwd()
    except OSError:
        return None
