"""Session logs the write path makes and finds: new names, the template, and the current
session, the log a command writes to (named, or the one log HEAD does not hold), which
`status` shows too.

A log's name is `YYYY-MM-DD-HHMMSS[-slug].md` in UTC (SPEC §2); a new log never
replaces one, so a name already taken moves to the next free second. Only the current
session's finders read the folder and ask git; the rest takes values.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.errors import MdmemError, ParseError
from mdmem.format.memory import SESSIONS
from mdmem.format.sessionlog import Event, parse_session_name, session_stem, slugged
from mdmem.git import revisions
from mdmem.git.discover import top_level

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


def newest_first(filenames: Iterable[str]) -> tuple[str, ...]:
    """The stems of the session logs among `filenames`, newest first; names that are no
    session log's are passed over."""
    stems = []
    for filename in filenames:
        if filename.endswith(".md"):
            try:
                stems.append(parse_session_name(filename, filename).stem)
            except ParseError:
                continue
    return tuple(sorted(stems, reverse=True))


NEWEST = "the one uncommitted log"  # how the current session was found, when not named
STARTED = "started now"  # a log `session start` has just made


@dataclass(frozen=True)
class SessionLog:
    """One session log of a memory, and how it was chosen."""

    root: Path
    stem: str
    source: str  # NEWEST, or the option or variable that named it

    @property
    def relative(self) -> str:
        return f"{SESSIONS}/{self.stem}.md"

    @property
    def path(self) -> Path:
        return self.root / SESSIONS / f"{self.stem}.md"

    @property
    def display(self) -> str:
        return f"{self.root.name}/{self.relative}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "session": self.stem,
            "log": self.display,  # as every answer that names a log names it
            "path": self.display,
            "file": str(self.path),
            "source": self.source,
        }


@dataclass(frozen=True)
class Current:
    """The session log a command records in, as read under the lock."""

    log: SessionLog
    text: str
    events: tuple[Event, ...]

    @property
    def date(self) -> str:
        return self.log.stem[:10]


def current_session(root: Path, named: str | None = None, source: str = "--session") -> SessionLog:
    """The log a command writes to: the one `named` (by `source`), else the one log HEAD
    does not hold. A named log must exist and be uncommitted too."""
    log, found = current_or_none(root, named, source)
    if log is not None:
        return log
    raise MdmemError(many_sessions(found) if found else NO_SESSION)


def current_or_none(
    root: Path, named: str | None = None, source: str = "--session"
) -> tuple[SessionLog | None, tuple[str, ...]]:
    """(the current session as `current_session` finds it, or None; the stems of the
    uncommitted logs when there is none, several of them, none named, so that a reader
    can say which to name). A log that `named` names must be there."""
    if named:
        log = SessionLog(root, named_stem(named, source), source)
        if not log.path.is_file():
            log = SessionLog(root, _slugged(log, f"{source} {named}"), source)
        if committed(root, [log.path.name]):
            raise MdmemError(COMMITTED_LOG, log.display)
        return log, ()
    found = open_logs(root)
    if len(found) == 1:
        return SessionLog(root, found[0], NEWEST), ()
    return None, found


def open_logs(root: Path) -> tuple[str, ...]:
    """The stems of every log HEAD does not hold, newest first: the folder listed, and git
    asked once for HEAD's tree of it. Outside git, where nothing tells whose a log is, the
    newest log alone."""
    top = top_level(root)
    listed = set(listing(root))
    if top is not None:
        listed.difference_update(revisions.names_in(top, _folder(root, top)))
    found = newest_first(listed)
    return found if top is not None else found[:1]


def committed(root: Path, filenames: Sequence[str]) -> frozenset[str]:
    """The names among `filenames` of the logs HEAD holds; none outside a git repository."""
    top = top_level(root)
    if top is None or not filenames:
        return frozenset()
    folder = _folder(root, top)
    paths = revisions.committed(top, [f"{folder}/{name}" for name in filenames])
    cut = len(folder) + 1
    return frozenset(path[cut:] for path in paths)


def _folder(root: Path, top: Path) -> str:
    """The sessions folder, relative to the repository's top."""
    return Path(os.path.relpath(root / SESSIONS, top)).as_posix()


def listing(root: Path) -> list[str]:
    folder = root / SESSIONS
    return os.listdir(folder) if folder.is_dir() else []


def _slugged(log: SessionLog, named: str) -> str:
    """The stem of the one uncommitted log that is `log`'s time and a slug: a log's time
    alone names it too; refused when there is none, or more than one."""
    found = slugged(log.stem, [name[:-3] for name in listing(log.root) if name.endswith(".md")])
    held = committed(log.root, [f"{stem}.md" for stem in found])
    found = [stem for stem in found if f"{stem}.md" not in held]
    if len(found) == 1:
        return found[0]
    if found:
        raise MdmemError(f"{named} names {len(found)} session logs: {', '.join(found)}; give one")
    raise MdmemError(NO_SUCH_LOG, log.display)
