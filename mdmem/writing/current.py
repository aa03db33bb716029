"""The current session: the log a command writes to, named or found (the newest log HEAD
does not hold), and the one `status` shows. Kept apart from the write path, which
`status` never runs."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.errors import MdmemError
from mdmem.format.memory import SESSIONS
from mdmem.format.sessionlog import slugged
from mdmem.git import revisions
from mdmem.git.discover import top_level
from mdmem.writing import logs

NEWEST = "the one uncommitted log"  # how the current session was found, when not named


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
            "path": self.display,
            "file": str(self.path),
            "source": self.source,
        }


def current_session(root: Path, named: str | None = None, source: str = "--session") -> SessionLog:
    """The log a command writes to: the one `named` (by `source`), else the newest one
    HEAD does not hold. A named log must exist and be uncommitted too."""
    if named:
        log = SessionLog(root, logs.named_stem(named, source), source)
        if not log.path.is_file():
            log = SessionLog(root, _slugged(log, f"{source} {named}"), source)
        if committed(root, [log.path.name]):
            raise MdmemError(logs.COMMITTED_LOG, log.display)
        return log
    found = uncommitted(root)
    if not found:
        raise MdmemError(logs.NO_SESSION)
    if len(found) > 1:
        raise MdmemError(logs.many_sessions(found))
    return SessionLog(root, found[0], NEWEST)


def newest_uncommitted(root: Path) -> SessionLog | None:
    """The newest log HEAD does not hold, whoever started it (None: none)."""
    found = uncommitted(root)
    return SessionLog(root, found[0], NEWEST) if found else None


def current_or_none(
    root: Path, named: str | None = None, source: str = "--session"
) -> SessionLog | None:
    """The current session as `current_session` finds it, or None when no log is current;
    a log that `named` names must be there."""
    try:
        return current_session(root, named, source)
    except MdmemError:
        if named:
            raise
        return None


def uncommitted(root: Path) -> tuple[str, ...]:
    """The stems of every log HEAD does not hold, newest first: the folder listed, and git
    asked once for HEAD's tree of it. Outside git, where nothing tells whose a log is, the
    newest log alone."""
    top = top_level(root)
    listed = set(_listing(root))
    if top is not None:
        listed.difference_update(revisions.names_in(top, _folder(root, top)))
    found = logs.uncommitted(listed, frozenset())
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


def _listing(root: Path) -> list[str]:
    folder = root / SESSIONS
    return os.listdir(folder) if folder.is_dir() else []


def _slugged(log: SessionLog, named: str) -> str:
    """The stem of the one uncommitted log that is `log`'s time and a slug: a log's time
    alone names it too; refused when there is none, or more than one."""
    found = slugged(log.stem, [name[:-3] for name in _listing(log.root) if name.endswith(".md")])
    held = committed(log.root, [f"{stem}.md" for stem in found])
    found = [stem for stem in found if f"{stem}.md" not in held]
    if len(found) == 1:
        return found[0]
    if found:
        raise MdmemError(f"{named} names {len(found)} session logs: {', '.join(found)}; give one")
    raise MdmemError(logs.NO_SUCH_LOG, log.display)
