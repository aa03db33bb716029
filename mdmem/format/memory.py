"""A memory as parsed values: the files a review reads, and where they live in the folder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the file names alone (lookup's) import none of the parsers
    from pathlib import Path

    from mdmem.format.blocked import BlockedEntry
    from mdmem.format.document import Document
    from mdmem.format.policy import Policy
    from mdmem.format.sessionlog import Session
    from mdmem.format.textfile import TextFile

CONTINUITY = "continuity.md"
SESSIONS = "sessions"
ARCHIVE = "archive"
INDEX = "INDEX.md"
POLICY = "decay-policy.md"
REVIEWS = "reviews.md"
VISION = "vision.md"
BLOCKED = "blocked.md"
OPEN_THREADS = "open-threads"  # the protocol's v4.39 layout: one Open Thread per file
THREAD_PREFIX = "thread-"  # open-threads/thread-<id>.md


def is_thread_name(name: str) -> bool:
    """Whether a file name in `open-threads/` is a thread file's (`thread-<id>.md`)."""
    return name.startswith(THREAD_PREFIX) and name.endswith(".md") and len(name) > 10


@dataclass(frozen=True)
class Memory:
    """Everything a review reads, parsed."""

    root: Path
    continuity: Document
    archives: tuple[Document, ...]
    sessions: tuple[Session, ...]
    policy: Policy
    reviews: TextFile | None
    index: TextFile | None
    blocked: tuple[BlockedEntry, ...] = ()  # memory/blocked.md: text that must not come back
    vision: Document | None = None  # memory/vision.md: the targets `serves` links point at
    threads: tuple[Document, ...] = ()  # memory/open-threads/thread-<id>.md, by name
    thread_layout: bool = False  # memory/open-threads/ exists: new threads go there

    @property
    def live(self) -> tuple[Document, ...]:
        """The documents of live facts: continuity, then the thread files."""
        return (self.continuity, *self.threads)

    @property
    def label(self) -> str:
        return self.root.name

    def display(self, relative: str) -> str:
        return f"{self.label}/{relative}"
