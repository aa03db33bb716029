"""What a source file holds once read: rules (future facts) and tombstones (future
`blocked.md` entries), each with the file and line it came from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Located:
    """A place in a source file."""

    source: str  # the file, as shown
    line: int  # 1-based

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


@dataclass(frozen=True)
class Rule(Located):
    """One rule of a source file (`line`: where it starts), placed: the section it goes
    to and how it is typed.

    `lines` is its text: the first line without its list marker, the later lines (wrapped
    text, nested bullets, code) indented as they were under it, relative to its text.
    """

    lines: tuple[str, ...]
    section: str
    anti_pattern: bool = False
    thread: bool = False  # an open task (`- [ ]`): an Open Thread
    scope: str | None = None  # path globs, comma-separated
    core_reason: str | None = None  # why its source marks it as always in force
    tags: tuple[str, ...] = ()
    helpful: int = 0  # the source's own feedback counts (a CASS playbook's)
    harmful: int = 0
    retired: bool = False  # deprecated in its source: imported as superseded
    key: str | None = None  # the source's own id for it (a playbook bullet's)
    successor: str | None = None  # the source's id of the rule that replaced it

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class Tombstone(Located):
    """Text its source blocked for good (a CASS `blocked.log` line): a `blocked.md` entry."""

    text: str
    reason: str
    date: str | None  # YYYY-MM-DD it was blocked, when the source says


@dataclass(frozen=True)
class Source:
    """One file read: its kind and what it holds, in file order."""

    path: str  # as shown
    kind: str
    rules: tuple[Rule, ...] = ()
    tombstones: tuple[Tombstone, ...] = ()
