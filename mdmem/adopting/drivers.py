"""The merge drivers `mdmem init` registers in the repository's own git config.

`merge.mdmem` merges `continuity.md` fact by fact; `merge.mdmem-archive` merges archive
files the same way in union mode. Git substitutes `%O %A %B %P` and runs the line with a
shell; the line runs the interpreter that registered it, else `mdmem` on PATH
(`adopting.launch`). Git config is per clone: each clone runs `mdmem init` once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mdmem.adopting.launch import command_line, interpreter_of
from mdmem.git.plumbing import config_value, set_config

if TYPE_CHECKING:
    import git

NAMES = (
    ("merge.mdmem.name", "mdmem: merge continuity.md fact by fact"),
    ("merge.mdmem-archive.name", "mdmem: merge archive files fact by fact, keeping both sides"),
)
ARGUMENTS = (
    ("merge.mdmem.driver", "merge-driver %O %A %B %P"),
    ("merge.mdmem-archive.driver", "merge-driver --union %O %A %B %P"),
)


@dataclass(frozen=True)
class ConfigChange:
    key: str
    value: str
    old: str | None  # the value it replaces; None when the key was not set

    @property
    def replaced(self) -> str | None:
        """The interpreter the old value named, when this one names another."""
        was = None if self.old is None else interpreter_of(self.old)
        return was if was is not None and was != interpreter_of(self.value) else None


def driver_config(python: str) -> tuple[tuple[str, str], ...]:
    """Every key and value the drivers need, for the interpreter `python`."""
    drivers = tuple((key, command_line(python, arguments)) for key, arguments in ARGUMENTS)
    return (NAMES[0], drivers[0], NAMES[1], drivers[1])


def config_changes(repo: git.Repo, python: str) -> tuple[ConfigChange, ...]:
    """The keys whose value differs from what the drivers need (read, nothing set)."""
    changes = []
    for key, value in driver_config(python):
        old = config_value(repo, key)
        if old != value:
            changes.append(ConfigChange(key, value, old))
    return tuple(changes)


def apply_config(repo: git.Repo, changes: tuple[ConfigChange, ...]) -> None:
    for change in changes:
        set_config(repo, change.key, change.value)
