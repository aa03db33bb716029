"""Whether a write was cut short: the journal's names, and the look for them.

`mdmem.store.writer` writes a set of files through a journal; a crash leaves the journal
(or its pending draft) on disk, and the next command, read-only ones included, first
finishes or drops that write (`lock.finish_interrupted`). Finding out takes two `exists`
checks per folder, so this module is all a reading command imports of the write path.
"""

from __future__ import annotations

from pathlib import Path

JOURNAL = ".mdmem-journal"
PENDING = ".mdmem-journal.pending"


def interrupted(root: Path) -> bool:
    """Whether a write was cut short (a journal or a pending journal is on disk)."""
    return (root / JOURNAL).exists() or (root / PENDING).exists()
