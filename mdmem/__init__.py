"""mdmem: long-term memory for coding agents, kept as plain markdown in git.

The library API the command line uses::

    import mdmem
    memory = mdmem.load(mdmem.find_root(Path.cwd()))
    plan = mdmem.plan_review(memory)      # pure: no I/O, no clock
    print(plan.diff())
    result = mdmem.apply(plan)            # atomic write + one git commit

Names are imported on first use, so a command pays only for the modules it needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mdmem.apply import ApplyResult, apply, commit_message, review
    from mdmem.errors import (
        GitError,
        LockError,
        MdmemError,
        ParseError,
        PolicyError,
        WriteError,
    )
    from mdmem.findings import Finding
    from mdmem.memory import Memory, find_root, load
    from mdmem.policy import Policy
    from mdmem.review import ReviewPlan, ReviewSummary, plan_review

_HOME = {
    "ApplyResult": "mdmem.apply",
    "apply": "mdmem.apply",
    "commit_message": "mdmem.apply",
    "review": "mdmem.apply",
    "GitError": "mdmem.errors",
    "LockError": "mdmem.errors",
    "MdmemError": "mdmem.errors",
    "ParseError": "mdmem.errors",
    "PolicyError": "mdmem.errors",
    "WriteError": "mdmem.errors",
    "Finding": "mdmem.findings",
    "Memory": "mdmem.memory",
    "find_root": "mdmem.memory",
    "load": "mdmem.memory",
    "Policy": "mdmem.policy",
    "ReviewPlan": "mdmem.review",
    "ReviewSummary": "mdmem.review",
    "plan_review": "mdmem.review",
}

__all__ = [
    "ApplyResult",
    "Finding",
    "GitError",
    "LockError",
    "MdmemError",
    "Memory",
    "ParseError",
    "Policy",
    "PolicyError",
    "ReviewPlan",
    "ReviewSummary",
    "WriteError",
    "apply",
    "commit_message",
    "find_root",
    "load",
    "plan_review",
    "review",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'mdmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value
