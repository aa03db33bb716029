"""mdmem: long-term memory for coding agents, kept as plain markdown in git.

The library API the command line uses::

    import mdmem
    memory = mdmem.load(mdmem.find_root(Path.cwd()))
    plan = mdmem.plan_review(memory)      # pure: no I/O, no clock
    print(plan.diff())
    result = mdmem.apply(plan)            # atomic write + one git commit
    findings = mdmem.lint(memory.root)    # every lint finding, sorted
    done = mdmem.backfill(memory.root)    # footers for legacy facts, and the log creating them
    moved = mdmem.migrate(memory.root, [Path("CLAUDE.md")])  # other agents' rules as facts
    found = mdmem.lookup(memory.root, "webhook retries")  # ranked facts (reading)
    told = mdmem.show(memory.root, "post-only-mutations", as_of="2026-06-30")
    served = mdmem.context(memory.root, "add a retry", path="src/api/x.py", budget=1500)

Names are imported on first use, so a command pays only for the modules it needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mdmem.errors import (
        GitError,
        LockError,
        MdmemError,
        ParseError,
        PolicyError,
        WriteError,
    )
    from mdmem.format.memory import Memory
    from mdmem.format.policy import Policy
    from mdmem.linting.findings import Finding
    from mdmem.linting.gate import review
    from mdmem.linting.run import lint
    from mdmem.migrating.migrate import migrate
    from mdmem.migrating.plan import MigrationPlan, plan_migration
    from mdmem.reading.search import lookup, show
    from mdmem.reading.sources import context, status
    from mdmem.reviewing.apply import ApplyResult, apply, commit_message
    from mdmem.reviewing.plan import ReviewPlan, plan_review
    from mdmem.reviewing.summary import ReviewSummary
    from mdmem.store.folders import find_root
    from mdmem.store.load import load
    from mdmem.writing.backfill import BackfillPlan, backfill, plan_backfill

_HOME = {
    "lookup": "mdmem.reading.search",
    "show": "mdmem.reading.search",
    "context": "mdmem.reading.sources",
    "status": "mdmem.reading.sources",
    "ApplyResult": "mdmem.reviewing.apply",
    "apply": "mdmem.reviewing.apply",
    "commit_message": "mdmem.reviewing.apply",
    "review": "mdmem.linting.gate",
    "GitError": "mdmem.errors",
    "LockError": "mdmem.errors",
    "MdmemError": "mdmem.errors",
    "ParseError": "mdmem.errors",
    "PolicyError": "mdmem.errors",
    "WriteError": "mdmem.errors",
    "Finding": "mdmem.linting.findings",
    "lint": "mdmem.linting.run",
    "Memory": "mdmem.format.memory",
    "find_root": "mdmem.store.folders",
    "load": "mdmem.store.load",
    "Policy": "mdmem.format.policy",
    "ReviewPlan": "mdmem.reviewing.plan",
    "ReviewSummary": "mdmem.reviewing.summary",
    "plan_review": "mdmem.reviewing.plan",
    "backfill": "mdmem.writing.backfill",
    "BackfillPlan": "mdmem.writing.backfill",
    "plan_backfill": "mdmem.writing.backfill",
    "migrate": "mdmem.migrating.migrate",
    "MigrationPlan": "mdmem.migrating.plan",
    "plan_migration": "mdmem.migrating.plan",
}

__all__ = [
    "ApplyResult",
    "BackfillPlan",
    "Finding",
    "GitError",
    "LockError",
    "MdmemError",
    "Memory",
    "MigrationPlan",
    "ParseError",
    "Policy",
    "PolicyError",
    "ReviewPlan",
    "ReviewSummary",
    "WriteError",
    "apply",
    "backfill",
    "commit_message",
    "context",
    "find_root",
    "lint",
    "load",
    "lookup",
    "migrate",
    "plan_backfill",
    "plan_migration",
    "plan_review",
    "review",
    "show",
    "status",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'mdmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value
