"""Agent lifecycle hooks: installing them into Claude Code's project settings, and what
they print.

`install_claude` adds two hooks to the `hooks` object of `.claude/settings.json`:
`SessionStart` prints the memory's context and how to cite what it uses (`session_start`),
which Claude Code adds to the session; `Stop`, when Claude finishes a turn, reminds the
user when the current session log cites no fact (`reminder`). Installing only adds: every
other setting and hook stays, a hook of mdmem's already there is kept where it is and its
command rewritten only when another interpreter installed it, so a second install changes
nothing. Neither hook ever blocks the agent: the command exits 0, never 2 (which would
block the stop), whatever happens here.
"""

from __future__ import annotations

import copy
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from mdmem.adopting.launch import agent_command_line
from mdmem.errors import MdmemError, ParseError
from mdmem.reading.context import render_markdown
from mdmem.reading.sources import context
from mdmem.store import jsonfile
from mdmem.store.folders import make_folders, project_of
from mdmem.store.jsonfile import refusal
from mdmem.store.lock import locked
from mdmem.store.writer import replace_file
from mdmem.writing.logs import NO_SESSION, current_session, open_logs
from mdmem.writing.session import citations, start_session

USAGE = (
    "Cite what you use in this session's log: `mdmem session start` once (unless a log is "
    "already open), then `mdmem ref ID...` for each fact that helped; `mdmem lookup "
    "WORDS` finds more."
)
NO_LOG = (
    "mdmem: no open session log: if this session used or learned anything, run `mdmem "
    "session start`, then `mdmem ref ID...` for each fact it used"
)
NO_REFERENCES = (
    "mdmem: {log} cites no fact yet: run `mdmem ref ID...` for the facts this session used "
    "(each line of `mdmem context` ends with its id)"
)


SETTINGS = ".claude/settings.json"
LOCAL_SETTINGS = ".claude/settings.local.json"  # the user's own, which git ignores
PROJECT_VARIABLE = "CLAUDE_PROJECT_DIR"  # the project's folder, set for every hook
SESSION_START = "SessionStart"
STOP = "Stop"
EVERY_START = "startup|resume|clear|compact"
ADDED, UPDATED, UNCHANGED = "added", "updated", "unchanged"


# A hook: its event, its matcher (None: every time), mdmem's arguments (their first two
# words recognise the hook).
Hook = tuple[str, str | None, tuple[str, ...]]


@dataclass(frozen=True)
class Change:
    event: str
    action: str  # ADDED, UPDATED or UNCHANGED
    command: str


def wanted_hooks(memory: str) -> tuple[Hook, ...]:
    """mdmem's hooks for a memory folder `memory`, relative to the project's folder."""
    root = ("--root", memory)
    return (
        (SESSION_START, EVERY_START, ("agent-hooks", "session-start", *root)),
        (STOP, None, ("agent-hooks", "check", "--json", *root)),
    )


def checked_settings(settings: dict[str, Any], path: str) -> dict[str, Any]:
    """The settings, refused (naming the file) when their `hooks` are not shaped as Claude
    Code reads them."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ParseError(refusal('has a "hooks" that is not an object'), path)
    for event, groups in hooks.items():
        shaped = isinstance(groups, list) and all(
            isinstance(group, dict) and isinstance(group.get("hooks", []), list) for group in groups
        )
        if not shaped:
            what = f'has a "hooks.{event}" that is not a list of {{"hooks": [...]}} objects'
            raise ParseError(refusal(what), path)
    return settings


def merged(
    settings: dict[str, Any], hooks: tuple[Hook, ...], python: str
) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """The settings with mdmem's hooks in them (a copy), and what changed for each."""
    result = copy.deepcopy(settings)
    events = result.setdefault("hooks", {})
    changes = []
    for event, matcher, args in hooks:
        command = agent_command_line(python, args, PROJECT_VARIABLE)
        marker = "mdmem " + " ".join(args[:2])
        groups = events.setdefault(event, [])
        present = [
            entry
            for group in groups
            for entry in group.get("hooks", [])
            if isinstance(entry, dict) and marker in str(entry.get("command", ""))
        ]
        if present and present[0].get("command") == command:
            changes.append(Change(event, UNCHANGED, command))
        elif present:
            present[0]["command"] = command
            changes.append(Change(event, UPDATED, command))
        else:
            group = {} if matcher is None else {"matcher": matcher}
            groups.append({**group, "hooks": [{"type": "command", "command": command}]})
            changes.append(Change(event, ADDED, command))
    return result, tuple(changes)


@dataclass(frozen=True)
class Installed:
    path: Path
    display: str  # the settings file, relative to the project
    changes: tuple[Change, ...]
    dry_run: bool

    @property
    def changed(self) -> bool:
        return any(change.action != UNCHANGED for change in self.changes)

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "changed": self.changed,
            "dry_run": self.dry_run,
            "hooks": [asdict(change) for change in self.changes],
        }


def install_claude(
    root: Path, *, local: bool = False, dry_run: bool = False, python: str | None = None
) -> Installed:
    """Add mdmem's hooks to the settings of the project that holds the memory folder `root`
    (`.claude/settings.json`, or with `local` the git-ignored `settings.local.json`).

    Only adds: other settings and hooks stay; a second install writes nothing. Settings
    that are not valid JSON are refused, naming the file and line, and nothing is written.
    """
    root = Path(root).resolve()
    project = project_of(root)
    display = LOCAL_SETTINGS if local else SETTINGS
    path = project / display
    hooks = wanted_hooks(root.name)
    with locked(root):
        settings = checked_settings(jsonfile.read_object(path, display), display)
        after, changes = merged(settings, hooks, python or sys.executable)
        installed = Installed(path, display, changes, dry_run)
        if installed.changed and not dry_run:
            make_folders(project, path.parent)
            replace_file(path, jsonfile.render(after).encode("utf-8"))
    return installed


def session_start(root: Path) -> str:
    """What a session starts with: the memory's context, then how to cite what it uses."""

    return render_markdown(context(root, None)) + "\n" + USAGE + "\n"


PINNED = (
    "This agent's session log is {log}, pinned by MDMEM_SESSION={stem}: what you cite and "
    "add goes there, whatever other agents start; do not start another."
)


def pin_session(root: Path, env_file: Path, agent_session: str | None) -> str:
    """Claude Code's SessionStart hook: the log of the agent's session `agent_session` (its
    id), the uncommitted one named for it (a resumed or compacted session), else a new one,
    pinned for every later command of that agent by `export MDMEM_SESSION=STEM` appended
    to `env_file` (CLAUDE_ENV_FILE, which Claude Code sources before each Bash command).
    What the agent is told."""

    word = "".join(c for c in (agent_session or "").lower() if c.isalnum())[:8]
    slug = f"claude-{word}" if word else "claude"
    found = open_logs(root)
    mine = [stem for stem in found if stem.endswith(f"-{slug}")]
    stem = mine[0] if mine else start_session(root, slug).log.stem
    with env_file.open("a", encoding="utf-8") as variables:
        variables.write(f"export MDMEM_SESSION={stem}\n")
    return PINNED.format(log=f"{root.name}/sessions/{stem}.md", stem=stem)


def reminder(root: Path, named: str | None = None, source: str = "--session") -> str | None:
    """The reminder a finished turn gets when the current session log (the one `named`,
    else the one git has not committed) cites no fact; None when it cites one."""

    try:
        log = current_session(root, named, source)
    except MdmemError as exc:
        if exc.message == NO_SESSION:
            return NO_LOG
        raise
    if citations(log).references:
        return None
    return NO_REFERENCES.format(log=log.display)
