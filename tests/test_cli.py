"""Every command documents itself: help text with a real example."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from mdmem.cli import main


def _commands() -> list[str]:
    return sorted(name for name, cmd in main.commands.items() if not cmd.hidden)


@pytest.mark.parametrize("name", _commands())
def test_command_has_help_with_example(name: str) -> None:
    command = main.commands[name]
    assert command.help, f"{name} has no help"
    assert "Example:" in command.help, f"{name} help has no example"
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0


def test_usage_error_exits_2() -> None:
    result = CliRunner().invoke(main, ["review", "--no-such-flag"])
    assert result.exit_code == 2


def test_missing_memory_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["review"])
    assert result.exit_code == 3
    assert "no memory/continuity.md here or in any parent folder; run 'mdmem init'" in (
        result.stderr
    )


def test_group_lists_exit_codes() -> None:
    assert isinstance(main, click.Group)
    assert "3 bad input" in (main.help or "")
