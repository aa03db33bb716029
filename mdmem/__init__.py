"""mdmem: long-term memory for coding agents, kept as plain markdown in git.

The library API the command line uses::

    import mdmem
    memory = mdmem.load(mdmem.find_root(Path.cwd()))
    plan = mdmem.plan_review(memory)      # pure: no I/O, no clock
    print(plan.diff())
    result = mdmem.apply(plan)            # atomic write + one git commit
"""

from mdmem.apply import ApplyResult, apply, commit_message, review
from mdmem.errors import GitError, LockError, MdmemError, ParseError, PolicyError, WriteError
from mdmem.findings import Finding
from mdmem.lintrun import lint
from mdmem.memory import Memory, find_root, load
from mdmem.policy import Policy
from mdmem.review import ReviewPlan, ReviewSummary, plan_review

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
    "lint",
    "load",
    "plan_review",
    "review",
]
