"""Whether a write was cut short, and finishing it before a command reads.

`mdmem.store.writer` writes a set of files through a journal; a crash leaves the journal
(or its pending draft) on disk, and the next command, read-only ones included, first
finishes or drops that write (`writer.recover`). Finding out takes two `exists` checks
per folder, so this module is all a reading command imports of the write path.
"""

from __future__ import annotations

from pathlib import Path

from mdmem.store.lock import locked

JOURNAL = ".mdmem-journal"
PENDING = ".mdmem-journal.pending"


def interrupted(root: Path) -> bool:
    """Whether a write was cut short (a journal or a pending journal is on disk)."""
    return (root / JOURNAL).exists() or (root / PENDING).exists()


def finish_interrupted(root: Path, timeout: float | None = None) -> list[str]:
    """Run `recover` under the lock when a write was cut short; costs a few checks otherwise.

    Every command calls this before it reads, so a crash leaves no visible trace past
    the next run of any command, read-only ones included. `mdmem init` journals in the
    project folder (it writes DECAY.md and .gitattributes beside memory/), so that
    folder is looked at too.
    """
    folders = [folder for folder in (root, root.parent) if interrupted(folder)]
    if not folders:
        return []
    from mdmem.store.writer import recover  # the recovery itself: only after a crash

    finished: list[str] = []
    with locked(root, timeout):
        for folder in folders:
            finished += recover(folder)
    return finished
