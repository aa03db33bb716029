"""The one root exception of mdmem and the subclasses the CLI maps to exit codes.

It imports nothing of mdmem: a message may quote user text, and whoever shows it
(`mdmem.safety.shown`) masks any secret in it."""

from __future__ import annotations

from pathlib import Path

# Exit codes, documented in the README. Click keeps 2 for usage errors.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_BAD_INPUT = 3
EXIT_CANNOT_WRITE = 4
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT


class MdmemError(Exception):
    """Anything mdmem refuses to do, with a message a user can act on."""

    exit_code = EXIT_BAD_INPUT

    def __init__(
        self,
        message: str,
        path: Path | str | None = None,
        line: int | None = None,
        *,
        context: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        # The line a quoted value came from: where it shows a secret the value alone does
        # not (`password: VALUE`), whoever shows the message masks the value too.
        self.context = context

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class ParseError(MdmemError):
    """A memory file that cannot be read as the format requires."""


class PolicyError(ParseError):
    """A decay policy value that is missing its integer or out of range."""


class SecretError(ParseError):
    """Secret material where mdmem would write or print it; names where, never the value."""


class LintError(MdmemError):
    """Lint errors in the memory: the review refuses to run over them, as the hook does."""


class WriteError(MdmemError):
    """A write that could not be completed; nothing was changed."""

    exit_code = EXIT_CANNOT_WRITE


class LockError(WriteError):
    """Another mdmem process holds the memory's lock."""


class GitError(WriteError):
    """Git refused the review commit."""
