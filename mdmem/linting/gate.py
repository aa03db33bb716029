"""The one rule between lint and the review: every lint error stops the review, as it
stops the pre-commit hook, and no warning stops either (docs/LINT.md)."""

from __future__ import annotations

from pathlib import Path

from mdmem.errors import LintError
from mdmem.format.memory import Memory
from mdmem.linting.run import lint
from mdmem.reviewing.apply import ApplyResult
from mdmem.reviewing.apply import review as apply_review
from mdmem.reviewing.plan import ReviewPlan
from mdmem.store.load import Progress

SHOWN = 20  # errors quoted in the refusal; `mdmem lint` lists them all


def review(
    root: Path, *, dry_run: bool = False, commit: bool = True, progress: Progress | None = None
) -> tuple[ReviewPlan, ApplyResult]:
    """`mdmem review`: refused, with nothing written, while lint reports an error."""
    return apply_review(
        root, dry_run=dry_run, commit=commit, progress=progress, check=refuse_errors
    )


def refuse_errors(plan: ReviewPlan, memory: Memory) -> None:
    """Raise LintError naming each error lint finds in the memory the review read: the
    first as the error's own file and line, the others after it."""
    loaded = (memory, plan.decisions)
    errors = [item for item in lint(plan.root, loaded=loaded) if item.is_error]
    if errors:
        first, *others = errors
        lines = [f"{first.code} {first.message} (hint: {first.hint})"]
        lines += [item.render() for item in others[: SHOWN - 1]]
        if len(others) >= SHOWN:
            lines.append(f"... and {len(others) - SHOWN + 1} more")
        lines.append(
            "The review writes nothing while lint reports an error "
            f"({len(errors)} now; `mdmem lint` lists them)."
        )
        raise LintError("\n".join(lines), first.path, first.line)
