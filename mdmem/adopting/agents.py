"""Agent lifecycle hooks: installing them into an agent's settings, and what they print.

`install_claude` adds mdmem's two hooks to Claude Code's project settings
(`mdmem.adopting.claude`). When the agent runs them: `session_start` is what a session
starts with (the memory's context, `mdmem context`, and how to cite what it uses), and
`reminder` is what a finished turn is told when the current session log cites no fact
yet (None: nothing to say). Neither ever blocks the agent: the command line prints, and
exits 0, whatever happens here.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.adopting import claude
from mdmem.errors import MdmemError
from mdmem.reading.context import render_markdown
from mdmem.reading.sources import context
from mdmem.store import jsonfile
from mdmem.store.folders import make_folders, project_of
from mdmem.store.lock import locked
from mdmem.store.writer import replace_file
from mdmem.writing.current import current_session, uncommitted
from mdmem.writing.logs import NO_SESSION
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


@dataclass(frozen=True)
class Installed:
    path: Path
    display: str  # the settings file, relative to the project
    changes: tuple[claude.Change, ...]
    dry_run: bool

    @property
    def changed(self) -> bool:
        return any(change.action != claude.UNCHANGED for change in self.changes)

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "changed": self.changed,
            "dry_run": self.dry_run,
            "hooks": [
                {"event": change.event, "action": change.action, "command": change.command}
                for change in self.changes
            ],
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
    display = claude.LOCAL_SETTINGS if local else claude.SETTINGS
    path = project / display
    hooks = claude.wanted_hooks(root.name)
    with locked(root):
        settings = claude.checked_settings(jsonfile.read_object(path, display), display)
        after, changes = claude.merged(settings, hooks, python or sys.executable)
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
    found = uncommitted(root)
    mine = [stem for stem in found if stem.endswith(f"-{slug}")]
    stem = mine[0] if mine else start_session(root, slug).log.stem
    with env_file.open("a", encoding="utf-8") as variables:
        variables.write(f"export MDMEM_SESSION={stem}\n")
    return PINNED.format(log=f"{root.name}/sessions/{stem}.md", stem=stem)


def reminder(root: Path, named: str | None = None, source: str = "--session") -> str | None:
    """The reminder a finished turn gets when the current session log (the one `named`,
    else the newest one git has not committed) cites no fact; None when it cites one."""

    try:
        log = current_session(root, named, source)
    except MdmemError as exc:
        if exc.message == NO_SESSION:
            return NO_LOG
        raise
    if citations(log).references:
        return None
    return NO_REFERENCES.format(log=log.display)
