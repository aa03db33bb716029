"""Every command documents itself: help text with a real example."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.cli.main import MODULES, every_command
from tests.helpers import copy_tree, make_repo
from tests.test_lint import DEMO


def _leaves(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    commands = every_command() if group is main else group.commands  # all imported
    for name, command in commands.items():
        if command.hidden:
            continue
        if isinstance(command, click.Group):
            found += _leaves(command, (*path, name))
        if not isinstance(command, click.Group) or command.invoke_without_command:
            found.append((*path, name))
    return sorted(found)


def _command(path: tuple[str, ...]) -> click.Command:
    command: click.Command = main
    for name in path:
        assert isinstance(command, click.Group)
        command = (every_command() if command is main else command.commands)[name]
    return command


def test_every_command_is_found_by_the_module_it_is_imported_from() -> None:
    # A command is imported only when asked for: each must be named in MODULES, with the
    # module that defines it, or `mdmem NAME` would not find it.
    assert set(every_command()) == set(MODULES)
    for name, command in every_command().items():
        assert command.callback is not None
        assert command.callback.__module__ == f"mdmem.cli.{MODULES[name]}", name


@pytest.mark.parametrize("path", _leaves(main), ids=" ".join)
def test_every_subcommand_has_help_with_an_example(path: tuple[str, ...]) -> None:
    command = _command(path)
    shown = " ".join(path)
    assert command.help and "Example:" in command.help, f"mdmem {shown}: no example"
    example = command.help.split("Example:", 1)[1]
    assert f"mdmem {shown} " in f"{example} ", f"mdmem {shown}: its example runs another command"
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0


@pytest.mark.parametrize("path", _leaves(main), ids=" ".join)
def test_every_command_takes_json(path: tuple[str, ...]) -> None:
    command = _command(path)
    options = {option for param in command.params for option in getattr(param, "opts", [])}
    assert "--json" in options, f"mdmem {' '.join(path)} has no --json"


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
    missing = CliRunner().invoke(main, ["lookup", "x", "--root", str(tmp_path / "nope")])
    assert missing.exit_code == 3 and "nope is no folder" in missing.stderr
    empty = CliRunner().invoke(main, ["lookup", "x", "--root", str(tmp_path)])
    assert empty.exit_code == 3 and "run 'mdmem init'" in empty.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["show", "nope", "--json"],
        ["lookup", "the", "--json"],
        ["context", "--format", "json"],
        ["stats", "--json"],  # the group's commands, which carry no decorator for it
        ["session", "--json"],
        ["mcp", "install", "claude", "--json"],
    ],
)
def test_a_refusal_under_json_is_json_on_stdout_too(tmp_path: Path, args: list[str]) -> None:
    result = CliRunner().invoke(main, [*args, "--root", str(tmp_path / "nope")])
    assert result.exit_code == 3
    error = json.loads(result.stdout)["error"]
    assert error["exit_code"] == 3 and "nope is no folder" in error["message"]
    assert result.stderr.startswith("mdmem: ")  # the line a person reads, as before
    assert error["path"] is None and error["line"] is None


def test_group_lists_exit_codes() -> None:
    assert isinstance(main, click.Group)
    assert "3 bad input" in (main.help or "")


def test_the_json_of_hooks_install_merge_driver_demo_and_context(tmp_path: Path) -> None:
    repo = make_repo(copy_tree(DEMO, tmp_path / "repo"))
    memory = str(repo / "memory")
    installed = CliRunner().invoke(main, ["hooks", "install", "--root", memory, "--json"])
    assert json.loads(installed.stdout) == {
        "path": str(repo / ".git" / "hooks" / "pre-commit"),
        "chained": None,
        "updated": False,
        "changed": True,
    }
    versions = []
    for name in ("base", "ours", "theirs"):
        versions.append(tmp_path / f"{name}.md")
        versions[-1].write_text((repo / "memory" / "continuity.md").read_text("utf-8"), "utf-8")
    merged = CliRunner().invoke(main, ["merge-driver", *map(str, versions), "--json"])
    assert (merged.exit_code, json.loads(merged.stdout)) == (
        0,
        {"clean": True, "conflicts": [], "fallback": None},
    )
    context = CliRunner().invoke(main, ["context", "refunds", "--root", memory, "--json"])
    assert context.exit_code == 0 and "core" in json.loads(context.stdout)
    demo = CliRunner().invoke(main, ["demo", "--keep", str(tmp_path / "demo"), "--json"])
    shown = json.loads(demo.stdout)
    assert shown["repository"] == str(tmp_path / "demo") and len(shown["commit"]) == 40
