"""The `##` sections of `continuity.md` that the parser and the commands name."""

INVARIANTS_SECTION = "Architectural Invariants"  # its facts are core (SPEC §5)
OPEN_THREADS_SECTION = "Open Threads"
PROJECT_STATE_SECTION = "Project State"  # its items are stamps, not facts
