"""Session logs the write path makes and finds: new names, the template, the uncommitted logs.

Pure: the clock's reading, the folder's listing and what git has committed come in as
values. A log's name is `YYYY-MM-DD-HHMMSS[-slug].md` in UTC (SPEC §2); a new log
never replaces one, so a name already taken moves to the next free second.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Sequence

from mdmem.errors import MdmemError, ParseError
from mdmem.format.sessionlog import parse_session_name, session_stem

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SLUG_RULE = "lowercase letters, digits and single hyphens, like api-refunds"
TITLE_MARK = "{title}"
UNTITLED = "untitled"
FREE_SECONDS = 60  # seconds after the clock's one a new log may take before giving up

START = "'mdmem session start [--slug S]'"
NO_SESSION = (
    "no current session: every session log is committed, or there is none; start one "
    f"with {START}, or name one with --session or MDMEM_SESSION"
)
PIN = "MDMEM_SESSION={stem}"  # what pins a session for an agent: its shell's variable


def many_sessions(stems: Sequence[str]) -> str:
    """The refusal of a write that finds several uncommitted logs and no pin: which is
    whose is not for mdmem to guess."""
    shown = ", ".join(stems[:8]) + (f" and {len(stems) - 8} more" if len(stems) > 8 else "")
    return (
        f"{len(stems)} session logs are not committed ({shown}) and none is named, so which "
        "is this agent's is not known: name it with --session STEM, or pin it for the "
        f"agent with {PIN.format(stem='STEM')} (`mdmem session start` prints it); commit "
        "the logs of sessions that are over"
    )


NO_SUCH_LOG = f"no such session log; start one with {START}"
COMMITTED_LOG = (
    f"committed to git, and a committed log is never edited; start a new one with {START}"
)


def check_slug(slug: str) -> str:
    if not SLUG.match(slug):
        raise MdmemError(f"slug {slug!r} must be {SLUG_RULE}")
    return slug


def log_stem(moment: dt.datetime, slug: str | None) -> str:
    """The stem of a log started at `moment` (converted to UTC)."""
    stamp = moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%d-%H%M%S")
    return f"{stamp}-{slug}" if slug else stamp


def second_of(stem: str) -> str:
    """The `YYYY-MM-DD-HHMMSS` a log's stem opens with."""
    return stem[:17]


def seconds_taken(filenames: Iterable[str]) -> frozenset[str]:
    """The seconds the logs of a folder's listing are named for."""
    return frozenset(second_of(name) for name in filenames if name.endswith(".md"))


def free_stem(moment: dt.datetime, slug: str | None, taken: Callable[[str], bool]) -> str:
    """The first stem from `moment` on, a second at a time, that `taken` lets through."""
    for offset in range(FREE_SECONDS):
        stem = log_stem(moment + dt.timedelta(seconds=offset), slug)
        if not taken(stem):
            return stem
    raise MdmemError(
        f"every second of the {FREE_SECONDS} from {log_stem(moment, slug)} has a log; "
        "wait a minute, then start the session again"
    )


def log_text(template: str, slug: str | None) -> str:
    """A new log from the template: its title the slug's words, or `untitled`."""
    return template.replace(TITLE_MARK, slug.replace("-", " ") if slug else UNTITLED)


def named_stem(value: str, source: str = "--session") -> str:
    """The stem a `--session` / MDMEM_SESSION value names: a stem, a file name or a path;
    `source` names where the value came from, for the refusal."""
    stem = session_stem(value.strip().replace("\\", "/"))
    parse_session_name(stem + ".md", f"{source} {value}")
    return stem


def uncommitted(filenames: Iterable[str], held: frozenset[str]) -> tuple[str, ...]:
    """The stems of the session logs among `filenames` that `held` (the file names HEAD
    holds) lacks, newest first; names that are no session log's are passed over."""
    stems = []
    for filename in filenames:
        if filename.endswith(".md") and filename not in held:
            try:
                stems.append(parse_session_name(filename, filename).stem)
            except ParseError:
                continue
    return tuple(sorted(stems, reverse=True))
