"""The review, as `mdmem review` and `mdmem.review` run it: under the lock, refused with
nothing written while lint reports an error, as it stops the pre-commit hook; no warning
stops either (docs/LINT.md)."""

from __future__ import annotations

from pathlib import Path

from mdmem.errors import LintError
from mdmem.linting.run import Loaded, lint
from mdmem.reviewing.apply import ApplyResult, apply, refuse_secrets
from mdmem.reviewing.plan import ReviewPlan, plan_review
from mdmem.store.load import Progress, bulk_allocation, load, read_logs
from mdmem.store.lock import locked
from mdmem.store.writer import recover

SHOWN = 20  # errors quoted in the refusal; `mdmem lint` lists them all


def review(
    root: Path, *, dry_run: bool = False, commit: bool = True, progress: Progress | None = None
) -> tuple[ReviewPlan, ApplyResult]:
    """Lock the memory, finish any interrupted write, plan the review, check it with lint
    and carry it out. The session logs are read once, for the plan and for lint, and only
    those new or changed since the last review or lint (`store.cache.Stamped`)."""
    with locked(root), bulk_allocation():
        recover(root)
        logs = read_logs(Path(root).resolve(), progress)
        memory = load(root, logs=logs)
        plan = plan_review(memory)
        refuse_errors(plan.root, (memory, plan.decisions, logs))
        if dry_run:
            refuse_secrets(plan, shown=True)
            return plan, ApplyResult((), None, None)
        return plan, apply(plan, commit=commit)


def refuse_errors(root: Path, loaded: Loaded) -> None:
    """Raise LintError naming each error lint finds in the memory the review read: the
    first as the error's own file and line, the others after it."""
    errors = [item for item in lint(root, loaded=loaded) if item.is_error]
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
