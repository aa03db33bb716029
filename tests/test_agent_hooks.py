"""`mdmem agent-hooks`: Claude Code's settings gain mdmem's hooks, and the exact commands
they register run as Claude Code runs them (a shell, the event's JSON on stdin)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.adopting import agents
from mdmem.adopting.agents import install_claude
from mdmem.adopting.launch import agent_command_line
from mdmem.cli import main
from tests.helpers import copy_tree, git, make_repo
from tests.test_lint import DEMO

CORE_ID = "money-integer-minor-units"  # a core fact of the demo memory
START = {
    "session_id": "abc123",
    "transcript_path": "/tmp/transcript.jsonl",
    "cwd": "",
    "hook_event_name": "SessionStart",
    "source": "startup",
}
STOP = {
    "session_id": "abc123",
    "transcript_path": "/tmp/transcript.jsonl",
    "cwd": "",
    "permission_mode": "default",
    "hook_event_name": "Stop",
    "stop_hook_active": False,
}
NO_MDMEM_PATH = "/usr/bin:/bin"  # a PATH without mdmem on it
ASIDE = {"model": "opus", "permissions": {"allow": ["Bash(make test)"]}}
NEEDS_BASH = pytest.mark.skipif(not Path("/bin/bash").exists(), reason="no /bin/bash here")
THEIR_HOOK = {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The demo memory in a git repository whose path has a space in it."""
    return make_repo(copy_tree(DEMO, tmp_path / "my project"))


def install(project: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        main, ["agent-hooks", "install", "claude", "--root", str(project / "memory"), *args]
    )
    return result.exit_code, result.stdout, result.stderr


def registered(project: Path, event: str) -> str:
    """The command the settings hold for `event`, as Claude Code reads it."""
    settings = json.loads((project / agents.SETTINGS).read_text("utf-8"))
    commands = [
        entry["command"]
        for group in settings["hooks"][event]
        for entry in group["hooks"]
        if "mdmem agent-hooks" in entry["command"]
    ]
    assert len(commands) == 1
    return commands[0]


def run_hook(
    command: str, project: Path, payload: dict[str, object], *, shell: str = "/bin/sh",
    path: str = NO_MDMEM_PATH, cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """The command run as Claude Code runs a hook: through a shell, in the session's
    folder, CLAUDE_PROJECT_DIR set, the event's JSON on stdin."""
    env = {**os.environ, "PATH": path, "CLAUDE_PROJECT_DIR": str(project)}
    env.pop("MDMEM_SESSION", None)
    stdin = json.dumps({**payload, "cwd": str(cwd or project)})
    return subprocess.run(
        [shell, "-c", command], input=stdin, env=env, cwd=cwd or project,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def cli(project: Path, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--root", str(project / "memory")])
    assert result.exit_code == 0, result.output
    return result.stdout


# --- the command line a hook runs ----------------------------------------------------------


@pytest.mark.parametrize(
    ("python", "expected"),
    [
        pytest.param(
            "/venv/bin/python",
            "cd \"${CLAUDE_PROJECT_DIR:-.}\" || exit 1; if /venv/bin/python -c 'import mdmem' "
            ">/dev/null 2>&1; then /venv/bin/python -m mdmem context; else mdmem context; fi "
            "|| exit 1",
            id="plain",
        ),
        pytest.param(
            "/my venv/it's/python",
            "cd \"${CLAUDE_PROJECT_DIR:-.}\" || exit 1; if '/my venv/it'\"'\"'s/python' -c "
            "'import mdmem' >/dev/null 2>&1; then '/my venv/it'\"'\"'s/python' -m mdmem context; "
            "else mdmem context; fi || exit 1",
            id="quoted",
        ),
    ],
)  # fmt: skip
def test_the_command_line(python: str, expected: str) -> None:
    assert agent_command_line(python, ["context"], "CLAUDE_PROJECT_DIR") == expected


# --- installing ------------------------------------------------------------------------------


def test_install_adds_both_hooks_and_a_second_install_changes_nothing(project: Path) -> None:
    code, out, _ = install(project)
    assert (code, out) == (
        0,
        ".claude/settings.json: SessionStart hook added\n"
        ".claude/settings.json: Stop hook added\n"
        "Installed; commit .claude/settings.json to share the hooks.\n",
    )
    settings = json.loads((project / agents.SETTINGS).read_text("utf-8"))
    assert settings["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact"
    assert "matcher" not in settings["hooks"]["Stop"][0]
    assert sys.executable in registered(project, "Stop")
    before = (project / agents.SETTINGS).read_bytes()
    code, out, _ = install(project)
    assert (code, out.splitlines()[-1]) == (0, "Already installed: nothing changed.")
    assert (project / agents.SETTINGS).read_bytes() == before


def test_install_keeps_every_other_setting_and_hook(project: Path) -> None:
    (project / ".claude").mkdir()
    theirs = {**ASIDE, "hooks": {"SessionStart": [THEIR_HOOK], "PreToolUse": [THEIR_HOOK]}}
    (project / agents.SETTINGS).write_text(json.dumps(theirs, indent=4), "utf-8")
    assert install(project)[0] == 0
    settings = json.loads((project / agents.SETTINGS).read_text("utf-8"))
    assert {key: settings[key] for key in ASIDE} == ASIDE
    assert settings["hooks"]["SessionStart"][0] == THEIR_HOOK
    assert settings["hooks"]["PreToolUse"] == [THEIR_HOOK]
    assert len(settings["hooks"]["SessionStart"]) == 2
    assert list(settings) == ["model", "permissions", "hooks"]


def test_another_interpreter_updates_mdmem_s_hooks_in_place(project: Path) -> None:
    install(project)
    settings, changes = agents.merged(
        json.loads((project / agents.SETTINGS).read_text("utf-8")),
        agents.wanted_hooks("memory"),
        "/elsewhere/bin/python",
    )
    assert [change.action for change in changes] == ["updated", "updated"]
    assert len(settings["hooks"]["SessionStart"]) == len(settings["hooks"]["Stop"]) == 1
    assert "/elsewhere/bin/python" in settings["hooks"]["Stop"][0]["hooks"][0]["command"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        pytest.param('{\n  "model": "opus",\n  "hooks": {\n}\n,}\n', ":5: is not valid", id="json"),
        pytest.param('{"hooks": {"Stop": [1]}}', ': has a "hooks.Stop" that is not', id="shape"),
        pytest.param('{"hooks": []}', ': has a "hooks" that is not an object', id="hooks"),
        pytest.param("[]", ": holds no JSON object", id="array"),
    ],
)  # fmt: skip
def test_settings_claude_code_could_not_read_are_refused(
    project: Path, text: str, where: str
) -> None:
    (project / ".claude").mkdir()
    (project / agents.SETTINGS).write_text(text, "utf-8")
    code, _, err = install(project)
    assert code == 3
    assert err.startswith(f"mdmem: .claude/settings.json{where}")
    assert err.rstrip().endswith("nothing written")
    assert (project / agents.SETTINGS).read_text("utf-8") == text


def test_dry_run_local_and_json(project: Path) -> None:
    code, out, _ = install(project, "--local", "--dry-run", "--json")
    shown = json.loads(out)
    assert code == 0 and not (project / ".claude").exists()
    assert (shown["changed"], shown["dry_run"]) == (True, True)
    assert shown["path"] == str(project / agents.LOCAL_SETTINGS)
    assert [hook["action"] for hook in shown["hooks"]] == ["added", "added"]
    assert install(project, "--local")[0] == 0
    assert (project / agents.LOCAL_SETTINGS).is_file()
    assert not (project / agents.SETTINGS).exists()


# --- the registered commands, run as Claude Code runs them -----------------------------------


@pytest.mark.parametrize("shell", ["/bin/sh", pytest.param("/bin/bash", marks=NEEDS_BASH)])
def test_session_start_prints_the_context(project: Path, shell: str) -> None:
    install(project)
    done = run_hook(registered(project, "SessionStart"), project, START, shell=shell)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("Reference data from this project's memory")
    assert f"[{CORE_ID}]" in done.stdout
    assert "`mdmem session start`" in done.stdout.splitlines()[-1]


def test_session_start_runs_from_a_subfolder_of_the_project(project: Path) -> None:
    install(project)
    (project / "src").mkdir()
    done = run_hook(registered(project, "SessionStart"), project, START, cwd=project / "src")
    assert done.returncode == 0 and f"[{CORE_ID}]" in done.stdout


def test_stop_reminds_until_the_log_cites_a_fact_and_always_exits_0(project: Path) -> None:
    install(project)
    stop = registered(project, "Stop")
    done = run_hook(stop, project, STOP)
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["systemMessage"].startswith("mdmem: no open session log")
    log = cli(project, "session", "start").split()[-1]
    done = run_hook(stop, project, STOP)
    message = json.loads(done.stdout)["systemMessage"]
    assert done.returncode == 0
    assert message.startswith(f"mdmem: {log} cites no fact yet: run `mdmem ref ID...`")
    cli(project, "ref", CORE_ID)
    done = run_hook(stop, project, {**STOP, "stop_hook_active": True})
    assert (done.returncode, json.loads(done.stdout), done.stderr) == (0, {}, "")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "the session")
    done = run_hook(stop, project, STOP)
    assert json.loads(done.stdout)["systemMessage"].startswith("mdmem: no open session log")


def test_stop_never_blocks_on_a_broken_memory(project: Path) -> None:
    install(project)
    (project / "memory" / "continuity.md").unlink()
    done = run_hook(registered(project, "Stop"), project, STOP)
    assert done.returncode == 0
    assert json.loads(done.stdout)["systemMessage"].startswith("mdmem: ")


def test_the_hooks_fall_back_to_mdmem_on_path(project: Path, tmp_path: Path) -> None:
    """The interpreter that installed them is gone: `mdmem` on PATH runs them. Neither
    there: the command fails with 1 (a non-blocking error), never 2."""
    write_settings(project, str(tmp_path / "deleted venv" / "bin" / "python"))
    folder = tmp_path / "other bin"
    folder.mkdir()
    wrapper(folder / "mdmem", f'"{sys.executable}" -m mdmem')
    on_path = f"{folder}:{NO_MDMEM_PATH}"
    started = run_hook(registered(project, "SessionStart"), project, START, path=on_path)
    assert started.returncode == 0 and f"[{CORE_ID}]" in started.stdout
    stopped = run_hook(registered(project, "Stop"), project, STOP, path=on_path)
    assert stopped.returncode == 0 and "systemMessage" in json.loads(stopped.stdout)
    for event, payload in (("SessionStart", START), ("Stop", STOP)):
        nowhere = run_hook(registered(project, event), project, payload)
        assert nowhere.returncode == 1


def test_an_interpreter_path_with_spaces_runs_the_hooks(project: Path, tmp_path: Path) -> None:
    python = tmp_path / "my tools" / "py thon"
    python.parent.mkdir()
    wrapper(python, f'"{sys.executable}"')
    write_settings(project, str(python))
    assert str(python) in registered(project, "SessionStart")
    done = run_hook(registered(project, "SessionStart"), project, START)
    assert (done.returncode, done.stderr) == (0, "") and f"[{CORE_ID}]" in done.stdout


def write_settings(project: Path, python: str) -> None:
    """The settings an install run by the interpreter `python` writes."""
    install_claude(project / "memory", python=python)


def wrapper(path: Path, run: str) -> None:
    """An executable script that runs `run` with its arguments."""
    path.write_text(f'#!/bin/sh\nexec {run} "$@"\n', "utf-8")
    path.chmod(0o755)


# --- the commands themselves ---------------------------------------------------------------


def test_session_start_json_is_the_hook_output_agents_read(project: Path) -> None:
    shown = json.loads(cli(project, "agent-hooks", "session-start", "--json"))
    assert list(shown) == ["hookSpecificOutput"]
    assert shown["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert f"[{CORE_ID}]" in shown["hookSpecificOutput"]["additionalContext"]


def test_session_start_without_a_memory_says_so_and_exits_0(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["agent-hooks", "session-start", "--json", "--root", str(tmp_path)]
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout)["systemMessage"].startswith("mdmem: ")
    result = CliRunner().invoke(main, ["agent-hooks", "check", "--root", str(tmp_path)])
    assert result.exit_code == 0 and result.stdout.startswith("mdmem: ")
