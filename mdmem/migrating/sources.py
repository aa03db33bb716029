"""What `mdmem migrate` reads: the kinds of file, told apart by name and place alone, each
naming the reader that turns its text into rules (docs/MIGRATE.md, "The formats"); and
what a file holds once read: rules (future facts) and tombstones (future `blocked.md`
entries), each with the file and line it came from (pure).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

MARKDOWN = "markdown"
CURSOR = "cursor"
COPILOT = "copilot"
WINDSURF = "windsurf"
PLAYBOOK = "cass-playbook"
BLOCKED_LOG = "cass-blocked"

# Files whose rules hold for the folder they sit in (a nested AGENTS.md scopes its rules).
FOLDER_FILES = frozenset({"claude.md", "agents.md", "gemini.md"})
_PLAIN = {
    "claude.md": "Claude Code memory",
    "agents.md": "agent instructions",
    "gemini.md": "Gemini CLI context",
    ".cursorrules": "Cursor rules (legacy)",
    ".windsurfrules": "Windsurf rules (legacy)",
    "copilot-instructions.md": "Copilot instructions",
}
_PLAYBOOKS = frozenset({"playbook.yaml", "playbook.yml"})
_CASS_FOLDERS = frozenset({".cass", ".cass-memory"})
_BLOCKED_LOGS = frozenset({"blocked.log", "toxic.log", "toxic_bullets.log"})

KNOWN = (
    "CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, .cursor/rules/*.mdc, "
    ".github/copilot-instructions.md, .github/instructions/*.instructions.md, "
    ".windsurfrules, .windsurf/rules/*.md, a CASS playbook (playbook.yaml) and its blocked.log"
)


@dataclass(frozen=True)
class Kind:
    reader: str  # one of the reader names above
    label: str  # what the file is, for people


def kind_of(path: PurePath) -> Kind | None:
    """The kind of the file at `path` (absolute, so that its folders count), or None."""
    name = path.name.lower()
    folders = [part.lower() for part in path.parts[:-1]]
    if name in _PLAIN:
        return Kind(MARKDOWN, _PLAIN[name])
    if name.endswith(".mdc"):
        return Kind(CURSOR, "Cursor rule")
    if name.endswith(".instructions.md"):
        return Kind(COPILOT, "Copilot path instructions")
    if name.endswith(".md") and folders[-2:] == [".windsurf", "rules"]:
        return Kind(WINDSURF, "Windsurf rule")
    in_cass = bool(folders) and folders[-1] in _CASS_FOLDERS
    if name in _PLAYBOOKS or (in_cass and name.endswith((".yaml", ".yml"))):
        return Kind(PLAYBOOK, "CASS playbook")
    if name in _BLOCKED_LOGS:
        return Kind(BLOCKED_LOG, "CASS blocked log")
    return None


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
