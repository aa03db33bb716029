"""Carrying out `mdmem backfill`: read the clock and the memory under its lock, write the
footers and the new session log all or nothing. No commit: the user reviews, then commits."""

from __future__ import annotations

import datetime
from pathlib import Path

from mdmem.errors import WriteError
from mdmem.store.load import load
from mdmem.store.lock import locked
from mdmem.store.writer import recover, write_files
from mdmem.writing.backfill import BackfillPlan, plan_backfill


def utc_stamp() -> str:
    """Now, UTC, as a session log's name gives it: `YYYY-MM-DD-HHMMSS`."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d-%H%M%S")


def backfill(root: Path, *, dry_run: bool = False, stamp: str | None = None) -> BackfillPlan:
    """Give every legacy fact of continuity.md a footer, created by one new session log.

    `stamp` (`YYYY-MM-DD-HHMMSS`, UTC) names the log; by default, now. With `dry_run`,
    or when there is nothing to do, nothing is written. An existing file is never
    overwritten.
    """
    root = Path(root).resolve()
    with locked(root):
        recover(root)
        plan = plan_backfill(load(root), stamp or utc_stamp())
        if dry_run or not plan.writes:
            return plan
        log = root / plan.log
        if log.exists() or log.is_symlink():
            raise WriteError(f"{plan.root_label}/{plan.log} exists already; run backfill again")
        write_files(root, plan.writes)
        return plan
