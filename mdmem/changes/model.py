"""What a change did to a memory, as values: each fact's state on one side, and the changes
`mdmem diff` reports. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from mdmem.linting.findings import Finding

# The kinds of change, in the order a reviewer reads them: what a person must approve first.
MADE_CORE = "made core"
NO_LONGER_CORE = "no longer core"
REMOVED = "removed"
ADDED = "added"
REWORDED = "reworded"
SUPERSEDED = "superseded"
INVALIDATED = "invalidated"
RESTORED = "restored"
FORGOTTEN = "forgotten"
THREAD_OPENED = "thread opened"
THREAD_CLOSED = "thread closed"
THREAD_REOPENED = "thread reopened"
ARCHIVED = "archived"
REACTIVATED = "reactivated"
TIER = "tier"
KINDS = (
    MADE_CORE, NO_LONGER_CORE, REMOVED, ADDED, REWORDED, SUPERSEDED, INVALIDATED, RESTORED,
    FORGOTTEN, THREAD_OPENED, THREAD_CLOSED, THREAD_REOPENED, ARCHIVED, REACTIVATED, TIER,
)  # fmt: skip
FLAGGED = frozenset({MADE_CORE, NO_LONGER_CORE, REMOVED})  # a person must approve these

LIVE = "live"
ARCHIVE = "archive"
VISION = "vision"


@dataclass(frozen=True)
class FactState:
    """A fact as one side holds it."""

    id: str
    section: str
    place: str  # LIVE (continuity or a thread file), ARCHIVE or VISION
    text: str  # the item's words on one line, its list marker and footer left out
    tier: str | None
    core: bool
    superseded: bool
    superseded_by: str | None
    checkbox: str | None  # None for a plain fact, " " open thread, "x" done


@dataclass(frozen=True)
class Change:
    """One change to one fact. `detail` says what changed, in words: the words reworded,
    the successor, the reason it was forgotten, the tiers before and after."""

    kind: str
    id: str
    section: str
    lead: str
    detail: str = ""

    @property
    def flagged(self) -> bool:
        return self.kind in FLAGGED

    def as_dict(self) -> dict[str, object]:
        return {**vars(self), "flagged": self.flagged}


@dataclass(frozen=True)
class SessionAdded:
    """A session log the change added, and what its `## Memory References` cited."""

    stem: str
    path: str
    cited: tuple[str, ...]
    events: tuple[str, ...]  # its typed lines, as written: `Superseded: a → b`

    def as_dict(self) -> dict[str, object]:
        return {**vars(self), "cited": list(self.cited), "events": list(self.events)}


@dataclass(frozen=True)
class PathNamed:
    """A path a live fact names that the change deleted or renamed."""

    id: str
    path: str
    renamed_to: str | None

    def as_dict(self) -> dict[str, object]:
        return dict(vars(self))


@dataclass(frozen=True)
class Unreadable:
    """An item (or a file) one side holds that cannot be read, left out of the comparison:
    where it is, why, and the ids of the facts it holds (neither removed nor added)."""

    side: str  # "base" or "head"
    path: str
    line: int
    why: str
    ids: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {**vars(self), "ids": list(self.ids)}


@dataclass(frozen=True)
class Changes:
    """Everything `mdmem diff` reports, from `base` to `head`."""

    base: str
    head: str
    changes: tuple[Change, ...]
    sessions: tuple[SessionAdded, ...]
    sessions_removed: tuple[str, ...]
    paths: tuple[PathNamed, ...]
    findings: tuple[Finding, ...]  # lint's findings on head that base did not have
    findings_fixed: int  # base's findings that head no longer has
    reviewed: bool  # a review's row was added to reviews.md
    unreadable: tuple[Unreadable, ...] = ()  # what either side holds that cannot be read
    unreadable_removed: tuple[Unreadable, ...] = ()  # base's, that head no longer holds
    sessions_rewritten: tuple[str, ...] = ()  # committed logs the change edited

    @property
    def empty(self) -> bool:
        return not (
            self.changes
            or self.sessions
            or self.sessions_removed
            or self.paths
            or self.findings
            or self.unreadable
            or self.unreadable_removed
            or self.sessions_rewritten
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "base": self.base,
            "head": self.head,
            "reviewed": self.reviewed,
            "changes": [change.as_dict() for change in self.changes],
            "sessions_added": [session.as_dict() for session in self.sessions],
            "sessions_removed": list(self.sessions_removed),
            "paths_gone": [path.as_dict() for path in self.paths],
            "lint_new": [finding.as_dict() for finding in self.findings],
            "lint_fixed": self.findings_fixed,
            "unreadable": [item.as_dict() for item in self.unreadable],
            "unreadable_removed": [item.as_dict() for item in self.unreadable_removed],
            "sessions_rewritten": list(self.sessions_rewritten),
        }
