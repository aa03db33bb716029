"""How git and coding agents start mdmem from a hook or a merge driver: the interpreter that
installed them, else the `mdmem` on PATH.

Git runs hooks and merge drivers with a shell and the user's PATH, which often lacks the
project's virtual environment: a driver written as plain `mdmem merge-driver` then fails,
and git falls back to conflict markers over the whole file. So, as the pre-commit
framework does, the command names the interpreter that installed it, and falls back to
`mdmem` on PATH only when that interpreter is gone or no longer has mdmem (a virtual
environment deleted or rebuilt without it). The interpreter's path is shell-quoted, so
spaces and quotes in it are safe.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence


def command_line(python: str, arguments: str, run: str = "") -> str:
    """One shell line that runs `mdmem ARGUMENTS` (already quoted for the shell) with
    `python` when it can import mdmem, else with the `mdmem` on PATH, each after `run`
    (`exec `). Its exit status is mdmem's."""
    quoted = shlex.quote(python)
    return (
        f"if {quoted} -c 'import mdmem' >/dev/null 2>&1; "
        f"then {run}{quoted} -m mdmem {arguments}; "
        f"else {run}mdmem {arguments}; fi"
    )


def agent_command_line(python: str, args: Sequence[str], folder_variable: str) -> str:
    """`command_line` for a coding agent's hook (Claude Code, Gemini CLI, Codex): run in the
    folder `folder_variable` names (else where the agent runs it), and exiting 0 or 1,
    never 2, which agents read as "block"."""
    run = " ".join(shlex.quote(arg) for arg in args)
    return f'cd "${{{folder_variable}:-.}}" || exit 1; {command_line(python, run)} || exit 1'


def interpreter_of(line: str) -> str | None:
    """The interpreter a `command_line` names (None for another command): what a re-run of
    init reports it replaced."""
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    if len(words) > 2 and words[0] == "if" and words[2] == "-c":
        return words[1]
    return None


def portable_line(python: str | None, args: Sequence[str]) -> str:
    """One shell line for a configuration a team commits (`sh -c LINE NAME FOLDER`): go to
    FOLDER, the project's (its first argument, which the client fills in), then run
    `mdmem ARGS` with `python`, a path relative to it (a virtual environment of the
    project), when it can import mdmem, else with the `mdmem` on PATH; `exec`, so that the
    client's signals reach mdmem."""
    run = " ".join(shlex.quote(arg) for arg in args)
    line = f"exec mdmem {run}" if python is None else command_line(python, run, "exec ")
    return f'cd "$1" || exit 1; {line}'
