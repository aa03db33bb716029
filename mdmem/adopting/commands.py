"""Shell command lines for hooks that another program runs: mdmem through the Python that
installed the hook, else `mdmem` on PATH.

A coding agent (Claude Code, Gemini CLI, Codex) runs a hook's command through a POSIX
shell. The line names the interpreter that ran the install, as the pre-commit framework
does, so that a hook installed from a project's virtual environment works while that
environment is not on PATH; when the interpreter is gone (the environment deleted or
moved), it runs `mdmem` from PATH instead. Every word is shell-quoted, so paths with
spaces or quotes survive. The line exits 0 or 1, never 2, which agents read as "block".
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

PYTHON_VARIABLE = "mdmem_python"


def fallback_command(python: str, args: Sequence[str], folder_variable: str | None = None) -> str:
    """`python -m mdmem ARGS` when `python` is executable, else `mdmem ARGS`; first, when
    `folder_variable` is given, into the folder that variable names (else stay put)."""
    run = " ".join(shlex.quote(arg) for arg in args)
    parts = [f"{PYTHON_VARIABLE}={shlex.quote(python)}"]
    if folder_variable:
        parts.append(f'cd "${{{folder_variable}:-.}}" || exit 1')
    parts.append(
        f'if [ -x "${PYTHON_VARIABLE}" ]; then "${PYTHON_VARIABLE}" -m mdmem {run}; '
        f"else mdmem {run}; fi || exit 1"
    )
    return "; ".join(parts)
