"""The command line: each command parses options, calls the library, prints, picks the exit code.

Each command imports what it runs when it runs (a review never loads the merge driver,
and git is loaded only to commit), so short commands start quickly.
"""

from mdmem.cli import backfill, facts, gates, lint, migrate, read, report, review, setup, write
from mdmem.cli.main import main

__all__ = [
    "backfill",
    "facts",
    "gates",
    "lint",
    "main",
    "migrate",
    "read",
    "report",
    "review",
    "setup",
    "write",
]
