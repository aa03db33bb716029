"""The `##` sections of `continuity.md` that the parser and the commands name."""

INVARIANTS_SECTION = "Architectural Invariants"  # its facts are core (SPEC §5)
OPEN_THREADS_SECTION = "Open Threads"
PROJECT_STATE_SECTION = "Project State"  # its items are stamps, not facts

_NAMED = {name.casefold(): name for name in (INVARIANTS_SECTION, OPEN_THREADS_SECTION)}
_NAMED |= {name.casefold(): name for name in (PROJECT_STATE_SECTION, "Key Decisions")}


def section_title(title: str) -> str:
    """A heading's title as the commands name its section: one they know by name is read
    in any case and with a trailing colon, as a person reads `## Open threads:`."""
    return _NAMED.get(title.rstrip(": \t").casefold(), title)
