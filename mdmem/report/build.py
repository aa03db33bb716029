"""The report's I/O edge: read the memory under its lock, plan the review, write the page.

`stats(root)`, `trend(root)` and `write_report(root, out)` are the library calls the
commands make; they write nothing inside the memory folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mdmem.format.memory import REVIEWS
from mdmem.linting.run import lint
from mdmem.report.page import render_page
from mdmem.report.stats import Stats, stats_of
from mdmem.report.trend import Trend, trend_of
from mdmem.reviewing.plan import plan_review
from mdmem.reviewing.rows import read_rows
from mdmem.store.load import Progress, bulk_allocation, load, read_logs, read_optional
from mdmem.store.lock import locked
from mdmem.store.writer import replace_file


@dataclass(frozen=True)
class ReportResult:
    path: Path
    size: int  # bytes written
    facts: int  # live facts shown
    findings: int

    def as_dict(self) -> dict[str, object]:
        return {"path": str(self.path), "bytes": self.size, "facts": self.facts} | {
            "findings": self.findings
        }


def stats(root: Path, progress: Progress | None = None) -> Stats:
    """`mdmem stats`: the memory's counts, as a review run now would see them (read under
    the lock)."""
    root = Path(root).resolve()
    with locked(root), bulk_allocation():
        memory = load(root, progress=progress)
        return stats_of(memory, plan_review(memory))


def trend(root: Path) -> Trend:
    """`mdmem trend`: the verdict over `reviews.md`'s rows (no other file is read)."""
    root = Path(root).resolve()
    with locked(root):
        return trend_of(read_rows(read_optional(root, REVIEWS)))


def write_report(root: Path, out: Path, progress: Progress | None = None) -> ReportResult:
    """Write the HTML report of the memory at `root` to `out` (replaced whole, atomically)."""
    root = Path(root).resolve()
    with locked(root), bulk_allocation():
        logs = read_logs(root, progress)
        memory = load(root, logs=logs)
        plan = plan_review(memory)
        findings = lint(root, loaded=(memory, plan.decisions, logs))
    stats = stats_of(memory, plan)
    page = render_page(memory, plan, stats, findings).encode("utf-8")
    replace_file(Path(out), page)
    live = sum(count for tier, count in stats.tiers if tier not in ("archived", "superseded"))
    return ReportResult(Path(out), len(page), live, len(findings))
