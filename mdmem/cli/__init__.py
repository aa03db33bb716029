"""The command line: each command parses options, calls the library, prints, picks the exit
code; a command's module is imported only when the command runs (`cli.main.MODULES`)."""

from mdmem.cli.main import main

__all__ = ["main"]
