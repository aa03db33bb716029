"""The built-in example: a realistic memory in a fresh git repository, reviewed once."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from mdmem.adopting.init import IGNORED
from mdmem.git.plumbing import commit_all, init_repository, show_commit
from mdmem.linting.gate import review
from mdmem.reviewing.apply import ApplyResult
from mdmem.reviewing.plan import ReviewPlan
from mdmem.store.resources import shipped, templates_dir

# The files of paygate's code that its memory names (scopes and backticked paths), so that
# lint finds no fact pointing at code that is gone.
CODE = {
    "src/api/refunds.ts": "export const refunds = 'POST /v1/refunds';",
    "src/psp/stripe.ts": "export const STRIPE_API_VERSION = '2024-06-20';",
    "src/log/redact.ts": "export const redacted = ['card.number', 'card.cvc'];",
    "src/db/pool.ts": "export const poolSize = 10;",
    "src/money/currencies.ts": "export const exponents = { JPY: 0, USD: 2, KWD: 3 };",
    "tests/refunds.test.ts": "// one Postgres schema per test worker",
}


@dataclass(frozen=True)
class DemoRun:
    repository: Path
    plan: ReviewPlan
    result: ApplyResult
    commit_text: str  # `git show --stat` of the review commit


def build(target: Path) -> Path:
    """Lay out the example repository in `target` (which must not exist yet)."""
    target.mkdir(parents=True)
    shutil.copytree(templates_dir() / "demo" / "memory", target / "memory")
    for name in ("DECAY.md", "REVIEW.md"):
        shutil.copyfile(shipped(name), target / name)
    (target / "README.md").write_text(
        "# paygate\n\nA payments API. Its agents keep their memory in `memory/`.\n", "utf-8"
    )
    for relative, line in CODE.items():  # the code its facts name, a line of each
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        (target / relative).write_text(line + "\n", "utf-8")
    # The lock's file stays once made, as in any repository `mdmem init` set up.
    (target / ".gitignore").write_text("".join(f"{line}\n" for line in IGNORED), "utf-8")
    repo = init_repository(target)
    commit_all(repo, "Agents' memory as left after 30 sessions")
    return target


def run(target: Path) -> DemoRun:
    """Build the example and run one review on it, committing the result."""
    build(target)
    plan, result = review(target / "memory")
    commit_text = show_commit(target, result.commit) if result.commit else ""
    return DemoRun(target, plan, result, commit_text)
