"""Checks of git's record: committed session logs that no longer hold what they were
committed with (the one edit allowed is masking a secret).

`run.py` asks git and passes the changes in as plain data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from mdmem.linting.findings import Finding, finding
from mdmem.safety.secrets import redact


@dataclass(frozen=True)
class ChangedLog:
    """A committed session log that no longer holds what it was committed with."""

    path: str  # display path
    kind: str  # "changed" or "deleted"
    since: str | None  # the first commit that changed it; None for an uncommitted change
    restore: str  # the repository path, for the hint


def history_findings(changes: Iterable[ChangedLog]) -> list[Finding]:
    found = []
    for change in changes:
        what = "edited" if change.kind == "changed" else "deleted or renamed"
        if change.since is None:
            message = f"a committed session log was {what} (not committed yet)"
            hint = f"session logs are immutable: git checkout HEAD -- {change.restore}"
            found.append(finding("E006", change.path, 1, message, hint))
        else:  # history now: the review reads the log as it is, nothing left to mend
            first = change.since[:12]
            message = f"a committed session log was {what} in a later commit ({first})"
            hint = f"nothing to mend now; `git show {first} -- {change.restore}` shows the edit"
            found.append(finding("W024", change.path, 1, message, hint))
    return found


_REDACTION = re.compile(r"\[REDACTED(?::[a-z-]+)?\]")


def only_redacted(original: str, current: str) -> bool:
    """True when `current` differs from `original` only where secret values were masked."""

    def masked(text: str) -> str:
        return _REDACTION.sub("[REDACTED]", redact(text))

    return masked(original) == masked(current)
