"""The one root exception of mdmem and the subclasses the CLI maps to exit codes."""

from __future__ import annotations

from pathlib import Path

# Exit codes, documented in the README. Click keeps 2 for usage errors.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_BAD_INPUT = 3
EXIT_CANNOT_WRITE = 4
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT


def quote(value: str, context: str | None = None) -> str:
    """`value` quoted for an error message, with any secret in it masked.

    Masked before quoting, since quoting escapes characters a secret's pattern needs.
    `context` is the line the value came from: a value that overlaps a secret only the
    whole line reveals (`password: VALUE`) is masked whole.
    """
    from mdmem.safety.secrets import (  # an error is rare: no patterns built before
        find_secrets,
        redact,
    )

    masked = redact(value)
    hidden_by_context = context is not None and find_secrets(context)
    if masked == value and hidden_by_context and value not in redact(context or ""):
        masked = "[REDACTED]"
    return repr(masked)


def shown(exc: MdmemError) -> str:
    """The line a user (or an agent, through a tool) is shown for a refusal: `mdmem: ` and
    the message, any secret in it masked, the last line of defence for user text it quotes."""
    from mdmem.safety.secrets import redact  # loaded when there is an error to show

    return f"mdmem: {redact(str(exc))}"


class MdmemError(Exception):
    """Anything mdmem refuses to do, with a message a user can act on."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line

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
