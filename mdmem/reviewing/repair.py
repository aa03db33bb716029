"""Post-merge repair: one copy per id, when parallel reviews left a fact in two places.

Two branches that each ran a review can, once merged, hold an id in both
continuity and the archive (one branch archived the fact, the other rewrote
it), or the same fact archived twice (both archived it in different quarter
files, or with texts that clash, which the archive merge keeps both of). The
review keeps exactly one copy, by a fixed rule, the same on every machine:

- the fact's tier is decided from the ledger as usual, on its first copy
  (continuity's, else the first in archive file order);
- a live fact keeps that first copy; a fact that belongs in the archive keeps
  the copy in the earliest quarter file (archive files sort by quarter), and
  continuity's copy goes;
- the other copies are removed. Where a removed copy's text differs from the
  kept one, nothing is lost: the review opens `- [ ] Merge duplicate: ID has
  two texts`, quoting the other text under it, for a person to fold in.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from mdmem.format.document import Document, Fact
from mdmem.format.textfile import body
from mdmem.reviewing.cadence import Thread, new_thread

Copy = tuple[Document, Fact]
THREAD_PREFIX = "merge-duplicate-"
QUOTE_INDENT = "    "


def group_copies(copies: Iterable[Copy]) -> dict[str, list[Copy]]:
    """Every id's copies, in reading order (continuity first, then archive files by name)."""
    groups: dict[str, list[Copy]] = {}
    for copy in copies:
        groups.setdefault(copy[1].id, []).append(copy)
    return groups


def kept_copy(copies: list[Copy], live: tuple[Document, ...], archived: bool) -> Copy:
    """The copy a review keeps: the first one, or for an archived fact the first archive one
    (`live`: continuity and the thread files)."""
    if archived:
        for copy in copies:
            if all(copy[0] is not document for document in live):
                return copy
    return copies[0]


def copy_key(copy: Copy) -> tuple[str, int]:
    return copy[0].path, copy[1].start


def text_of(copy: Copy) -> tuple[str, ...]:
    return tuple(body(line) for line in copy[0].fact_text(copy[1]))


def differing(kept: Copy, dropped: Iterable[Copy]) -> list[Copy]:
    """The dropped copies whose text is not the kept one's (each distinct text once)."""
    seen = {text_of(kept)}
    found = []
    for copy in dropped:
        text = text_of(copy)
        if text not in seen:
            seen.add(text)
            found.append(copy)
    return found


def merge_threads(
    duplicates: dict[str, tuple[Copy, list[Copy]]], taken: Collection[str], date: str
) -> list[Thread]:
    """A `Merge duplicate` thread for each id whose dropped copies hold another text."""
    threads = []
    used = set(taken)
    for fact_id, (kept, dropped) in sorted(duplicates.items()):
        others = differing(kept, dropped)
        if not others:
            continue
        thread = _thread_id(fact_id, used)
        used.add(thread)
        where = ", ".join(_where(copy) for copy in others)
        text = (
            f"Merge duplicate: {fact_id} has two texts; the review kept the one in "
            f"{_where(kept)} and quotes the other ({where}) here: fold it in by hand"
        )
        first, footer = new_thread(thread, text, date).lines
        quoted = [
            QUOTE_INDENT + line if line.strip() else "" for c in others for line in text_of(c)
        ]
        threads.append(Thread(thread, (first, *quoted, footer)))
    return threads


def _thread_id(fact_id: str, taken: Collection[str]) -> str:
    candidate, number = THREAD_PREFIX + fact_id, 1
    while candidate in taken:
        number += 1
        candidate = f"{THREAD_PREFIX}{fact_id}-{number}"
    return candidate


def _where(copy: Copy) -> str:
    return copy[0].path.split("/", 1)[-1]
