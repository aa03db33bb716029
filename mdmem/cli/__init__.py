"""The command line: each command parses options, calls the library, prints, picks the exit code.

A command's module is imported when the command runs (`mdmem.cli.main.MODULES`), and each
command imports what it runs when it runs (a review never loads the merge driver, and git
is loaded only to commit), so short commands start quickly: `lookup` loads no gate,
review, agent or MCP code.
"""

from mdmem.cli.main import main

__all__ = ["main"]
