"""Claude Code's project settings (`.claude/settings.json`) and the hooks mdmem adds to them.

Two hooks, in the `hooks` object Claude Code reads (`{EVENT: [{"matcher": ...,
"hooks": [{"type": "command", "command": ...}]}]}`):

- `SessionStart` (matcher `startup|resume|clear|compact`): `mdmem agent-hooks
  session-start`, whose standard output Claude Code adds to the session's context;
- `Stop` (no matcher; it runs when Claude finishes a turn): `mdmem agent-hooks check
  --json`, which prints `{"systemMessage": ...}`, shown to the user, when the current
  session log cites no fact. It exits 0, never 2 (which would block the stop).

Merging only adds: every other setting and hook stays as it was. A hook of mdmem's already
there (its command runs the same `mdmem agent-hooks ...`) is kept where it is, and its
command rewritten only when it differs (another interpreter installed it), so a second
install changes nothing. Pure: the settings read by `mdmem.store.jsonfile` in, values out.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from mdmem.adopting.launch import agent_command_line
from mdmem.errors import ParseError
from mdmem.store.jsonfile import refusal

SETTINGS = ".claude/settings.json"
LOCAL_SETTINGS = ".claude/settings.local.json"  # the user's own, which git ignores
PROJECT_VARIABLE = "CLAUDE_PROJECT_DIR"  # the project's folder, set for every hook
SESSION_START = "SessionStart"
STOP = "Stop"
EVERY_START = "startup|resume|clear|compact"
ADDED, UPDATED, UNCHANGED = "added", "updated", "unchanged"


@dataclass(frozen=True)
class Hook:
    event: str
    matcher: str | None
    args: tuple[str, ...]  # mdmem's arguments; their first two words recognise the hook

    @property
    def marker(self) -> str:
        return "mdmem " + " ".join(self.args[:2])


@dataclass(frozen=True)
class Change:
    event: str
    action: str  # ADDED, UPDATED or UNCHANGED
    command: str


def wanted_hooks(memory: str) -> tuple[Hook, ...]:
    """mdmem's hooks for a memory folder `memory`, relative to the project's folder."""
    root = ("--root", memory)
    return (
        Hook(SESSION_START, EVERY_START, ("agent-hooks", "session-start", *root)),
        Hook(STOP, None, ("agent-hooks", "check", "--json", *root)),
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
    for hook in hooks:
        command = agent_command_line(python, hook.args, PROJECT_VARIABLE)
        groups = events.setdefault(hook.event, [])
        present = [
            entry
            for group in groups
            for entry in group.get("hooks", [])
            if isinstance(entry, dict) and hook.marker in str(entry.get("command", ""))
        ]
        if present and present[0].get("command") == command:
            changes.append(Change(hook.event, UNCHANGED, command))
        elif present:
            present[0]["command"] = command
            changes.append(Change(hook.event, UPDATED, command))
        else:
            group = {} if hook.matcher is None else {"matcher": hook.matcher}
            groups.append({**group, "hooks": [{"type": "command", "command": command}]})
            changes.append(Change(hook.event, ADDED, command))
    return result, tuple(changes)
