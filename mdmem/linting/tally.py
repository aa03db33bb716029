"""Lint's count, the one every command shows: lint's last line, `mdmem status` (from the
count the last lint kept) and the MCP tools.

It counts the errors and warnings lint prints a line for (a file's stale footers are one
line), and apart from them the warnings about committed logs that lint's note counts. A
user compares the lines lint printed with what status says, so no command shows the
number of findings `lint --verbose` and `lint --json` list one by one. This module
imports nothing, so that `status` can show a kept count without loading lint.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tally:
    errors: int
    warnings: int  # lines lint prints for warnings: a file's stale footers count once
    committed: int  # warnings about committed session logs, which nobody can edit

    def render(self) -> str:
        """`1 error, 2 warnings`, then the warnings about committed logs when there are."""
        text = f"{counted(self.errors, 'error')}, {counted(self.warnings, 'warning')}"
        if self.committed:
            text += f"; {counted(self.committed, 'warning')} about committed session logs"
        return text


def counted(number: int, word: str) -> str:
    """`1 error`, `2 errors`."""
    return f"{number} {word}{'' if number == 1 else 's'}"
