"""The `##` sections of `continuity.md` that the parser and the commands name, and the one
rule by which a heading names one: as a person reads it (`section_key`)."""

from __future__ import annotations

import functools

INVARIANTS_SECTION = "Architectural Invariants"  # its facts are core (SPEC §5)
OPEN_THREADS_SECTION = "Open Threads"
PROJECT_STATE_SECTION = "Project State"  # its items are stamps, not facts

_AROUND = "*_`: \t"  # emphasis, code and a trailing colon around a title: `## **Open threads:**`


@functools.lru_cache(maxsize=1024)
def section_key(title: str) -> str:
    """What a section's name says, whatever its spelling: case, spacing, a trailing colon
    and the markup around it left aside, so `## Key decisions`, `## Open Threads:` and
    `## **open threads**` name Key Decisions and Open Threads. A file keeps its spelling:
    this is only how a name is compared, never what is written."""
    return " ".join(title.strip(_AROUND).split()).casefold()


def same_name(title: str, name: str) -> bool:
    """Whether section title `title` names the section `name`."""
    return title == name or section_key(title) == section_key(name)


def holds_no_facts(title: str) -> bool:
    """Open Threads (threads, not facts) and Project State (stamps), however spelled."""
    return same_name(title, OPEN_THREADS_SECTION) or same_name(title, PROJECT_STATE_SECTION)
