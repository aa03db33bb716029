"""The command line: each command parses options, calls the library, prints, picks the exit code.

Each command imports what it runs when it runs (a review never loads the merge driver,
and git is loaded only to commit), so short commands start quickly.
"""

from mdmem.cli import (
    agents,
    backfill,
    facts,
    gates,
    lint,
    mcp,
    migrate,
    read,
    report,
    review,
    setup,
    write,
)
from mdmem.cli.main import main

__all__ = [
    "agents",
    "backfill",
    "facts",
    "gates",
    "lint",
    "main",
    "mcp",
    "migrate",
    "read",
    "report",
    "review",
    "setup",
    "write",
]
