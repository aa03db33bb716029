"""Session logs the write path makes and finds: new names, the template, the current log.

Pure: the clock's reading, the folder's listing and what git has committed come in as
values. A log's name is `YYYY-MM-DD-HHMMSS[-slug].md` in UTC (SPEC §2); a new log
never replaces one, so a name already taken moves to the next free second.
"""

from __future__ import annotations

import datetime as dt
import heapq
import re
from collections.abc import Callable, Iterable, Sequence

from mdmem.errors import MdmemError, ParseError
from mdmem.format.sessionlog import parse_session_name, session_stem

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SLUG_RULE = "lowercase letters, digits and single hyphens, like api-refunds"
TITLE_MARK = "{title}"
UNTITLED = "untitled"
FREE_SECONDS = 60  # seconds after the clock's one a new log may take before giving up
NEWEST_FIRST = 16  # logs asked about at once when looking for the current one

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


def current(
    filenames: Sequence[str],
    committed: Callable[[Sequence[str] | None], frozenset[str]],
    newest_committed: str | None = None,
) -> str | None:
    """The current session: the stem of the newest log whose file name `committed` (file
    names, or None for the whole folder -> those HEAD holds) leaves out; None when every
    log is committed. `newest_committed`, when known, is the greatest file name HEAD holds
    in the folder ('' for none): a name above it is not committed without asking.

    Only the newest few names are asked about first (none when the newest log among them
    is above `newest_committed`); the whole folder, in one listing of HEAD's tree, only
    when all of them are committed (then there is most likely no current session at
    all). Names that are no session log's are passed over (lint reports them).

    Stems sort in ledger order as text, and file names nearly so: `X-slug.md` sorts
    before `X.md` (`-` before `.`), though stem X comes first. So the few names are the
    newest by file name, put in stem order; the one found is the newest log unless the
    names left out may hold logs that extend its stem, which then all get looked at.
    """
    first = sorted(heapq.nlargest(NEWEST_FIRST, filenames), key=_stem, reverse=True)
    newest = _first_log(first)
    if newest_committed is None or newest is None or f"{newest}.md" <= newest_committed:
        found = committed(first if newest_committed is None else _upto(first, newest_committed))
    else:
        found = frozenset()  # the newest log is above every name HEAD holds
    stem = _first_log(name for name in first if name not in found)
    if len(filenames) <= NEWEST_FIRST or (stem is not None and not min(first).startswith(stem)):
        return stem
    uncommitted = set(filenames) - committed(None)
    return _first_log(sorted(uncommitted, key=_stem, reverse=True))


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


def _upto(filenames: Sequence[str], bound: str) -> list[str]:
    return [name for name in filenames if name <= bound]


def _stem(filename: str) -> str:
    return filename[:-3] if filename.endswith(".md") else filename


def _first_log(filenames: Iterable[str]) -> str | None:
    """The stem of the first of the file names that is a session log's."""
    for filename in filenames:
        if filename.endswith(".md"):
            try:
                return parse_session_name(filename, filename).stem
            except ParseError:
                continue
    return None
