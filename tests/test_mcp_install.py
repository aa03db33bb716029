"""`mdmem mcp install`: each client's project configuration written, other servers kept, a
second run changing nothing, bad files refused with nothing written; and `mdmem mcp`
without the SDK, and the commands that must never import it."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.adopting.launch import portable_line
from mdmem.cli import main
from mdmem.cli.mcp import CLIENTS as NAMED
from mdmem.git.discover import top_level
from mdmem.mcp.install import CLIENTS
from mdmem.mcp.install import install as install_library
from tests.helpers import git_init, snapshot

ROOT = Path(__file__).resolve().parent.parent
FILES = {"claude": ".mcp.json", "cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json"}
KEYS = {"claude": "mcpServers", "cursor": "mcpServers", "vscode": "servers"}
FIX = "fix it by hand, then run the command again; nothing written"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with a memory folder, and the lock's file an older mdmem left in it;
    the `mdmem` running the tests first on PATH, as an installed one is."""
    monkeypatch.setenv(
        "PATH", os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    )
    folder = tmp_path / "project"
    (folder / "memory" / "sessions").mkdir(parents=True)
    git_init(folder)
    (folder / "memory" / "continuity.md").write_text("# Continuity\n", "utf-8")
    (folder / "memory" / ".mdmem.lock").touch()
    return folder


def install(project: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["mcp", "install", *args, "--root", str(project / "memory")])
    return result.exit_code, result.stdout, result.stderr


FOLDERS = {
    "claude": "${CLAUDE_PROJECT_DIR:-.}",
    "cursor": "${workspaceFolder}",
    "vscode": "${workspaceFolder}",
}
LINE = 'cd "$1" || exit 1; exec mdmem mcp --root memory'  # no interpreter inside the project


def expected(client: str, project: Path) -> dict[str, object]:
    """No path of this machine: the project's folder as the client names it, the memory
    relative to it, `mdmem` on PATH (the interpreter running the tests is not inside)."""
    entry: dict[str, object] = {"command": "sh", "args": ["-c", LINE, "mdmem", FOLDERS[client]]}
    return {"type": "stdio", **entry} if client != "cursor" else entry


def test_the_command_names_every_client() -> None:
    assert set(NAMED) == set(CLIENTS) == set(FILES)


@pytest.mark.parametrize("client", sorted(FILES))
def test_a_fresh_install_then_a_second_that_changes_nothing(project: Path, client: str) -> None:
    target = project / FILES[client]
    code, out, _ = install(project, client)
    entry = expected(client, project)
    command = shlex.join([str(entry["command"]), *entry["args"]])  # type: ignore[misc]
    assert (code, out) == (
        0,
        f"Added the mdmem server in {target} ({CLIENTS[client].label}): {command}\n",
    )
    assert json.loads(target.read_text("utf-8")) == {KEYS[client]: {"mdmem": entry}}
    assert target.read_text("utf-8").endswith("}\n")
    before = snapshot(project)
    stamp = target.stat().st_mtime_ns
    code, out, _ = install(project, client)
    assert (code, out) == (
        0,
        f"{target} ({CLIENTS[client].label}) runs the mdmem server already: nothing written\n",
    )
    assert snapshot(project) == before and target.stat().st_mtime_ns == stamp


@pytest.mark.parametrize("client", sorted(FILES))
def test_other_servers_and_fields_are_kept(project: Path, client: str) -> None:
    target = project / FILES[client]
    target.parent.mkdir(exist_ok=True)
    other = {"command": "npx", "args": ["-y", "other-server"], "env": {"TOKEN": "${env:TOKEN}"}}
    target.write_text(json.dumps({"inputs": [], KEYS[client]: {"other": other}}), "utf-8")
    code, out, _ = install(project, client, "--json")
    assert code == 0
    assert json.loads(out) == {
        "client": client,
        "entry": expected(client, project),
        "file": str(target),
        "outcome": "added",
        "server": "mdmem",
    }
    written = json.loads(target.read_text("utf-8"))
    assert written == {
        "inputs": [],
        KEYS[client]: {"other": other, "mdmem": expected(client, project)},
    }
    assert list(written[KEYS[client]]) == ["other", "mdmem"]  # the file's order kept


def test_an_mdmem_entry_that_runs_something_else_is_replaced_only_when_asked(
    project: Path,
) -> None:
    target = project / ".mcp.json"
    old = {"command": "/old/venv/bin/python", "args": ["-m", "mdmem", "mcp"], "env": {"A": "1"}}
    target.write_text(json.dumps({"mcpServers": {"mdmem": old}}, indent=4) + "\n", "utf-8")
    before = snapshot(project)
    code, _, err = install(project, "claude")
    assert code == 3
    assert err == (
        f'mdmem: {target}: "mdmem" already runs `/old/venv/bin/python -m mdmem mcp`; `mdmem mcp '
        'install claude --replace` makes it run `sh -c \'cd "$1" || exit 1; exec mdmem mcp '
        "--root memory' mdmem '${CLAUDE_PROJECT_DIR:-.}'`; nothing written\n"
    )
    assert snapshot(project) == before
    code, out, _ = install(project, "claude", "--replace")
    assert code == 0 and out.startswith(f"Replaced the mdmem server in {target} (Claude Code): ")
    entry = json.loads(target.read_text("utf-8"))["mcpServers"]["mdmem"]
    assert entry == {**expected("claude", project), "env": {"A": "1"}}  # its other fields kept
    assert install(project, "claude")[0:2] == (
        0,
        f"{target} (Claude Code) runs the mdmem server already: nothing written\n",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            '{"servers": {\n  // a comment\n}}',
            "2: is not valid JSON (Expecting property name enclosed in double quotes, column 3; "
            f"comments and trailing commas are not read either); {FIX}",
            id="jsonc_comment",
        ),
        pytest.param(
            '{"servers": {"a": 1,}}',
            "1: is not valid JSON (Expecting property name enclosed in double quotes, column 21; "
            f"comments and trailing commas are not read either); {FIX}",
            id="trailing_comma",
        ),
        pytest.param("[1, 2]", f" holds no JSON object; {FIX}", id="list"),
        pytest.param(
            '{"servers": []}', f' has a "servers" that is not an object; {FIX}', id="servers_list"
        ),
    ],
)
def test_a_file_that_is_not_a_configuration_is_refused(
    project: Path, text: str, message: str
) -> None:
    target = project / ".vscode" / "mcp.json"
    target.parent.mkdir()
    target.write_text(text, "utf-8")
    before = snapshot(project)
    code, _, err = install(project, "vscode")
    assert (code, err) == (3, f"mdmem: {target}:{message}\n")
    assert snapshot(project) == before


def test_an_empty_file_is_an_empty_configuration(project: Path) -> None:
    (project / ".mcp.json").write_text("\n", "utf-8")
    assert install(project, "claude")[0] == 0
    assert json.loads((project / ".mcp.json").read_text("utf-8")) == {
        "mcpServers": {"mdmem": expected("claude", project)}
    }


def test_outside_a_repository_the_file_goes_beside_the_memory(tmp_path: Path) -> None:
    if top_level(tmp_path) is not None:
        pytest.skip("the temporary folder lies inside a git repository")
    memory = tmp_path / "elsewhere" / "memory"
    memory.mkdir(parents=True)
    (memory / "continuity.md").write_text("# Continuity\n", "utf-8")
    result = CliRunner().invoke(main, ["mcp", "install", "cursor", "--root", str(memory)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "elsewhere" / ".cursor" / "mcp.json").is_file()


# -- without the SDK, and the commands that never import it -----------------------------------

WITHOUT_SDK = """\
import sys
from importlib.abc import MetaPathFinder

class NoSDK(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "mcp" or name.startswith("mcp."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoSDK())
from mdmem.adopting.launch import portable_line
from mdmem.cli import main
main(sys.argv[1:])
"""


def run_python(program: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", program, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment,
    )


@pytest.mark.parametrize("args", [["mcp"], ["mcp", "--json"]], ids=["serve", "manifest"])
def test_without_the_sdk_mcp_says_how_to_install_it(project: Path, args: list[str]) -> None:
    done = run_python(WITHOUT_SDK, *args, "--root", str(project / "memory"), cwd=project)
    assert done.returncode == 1
    assert done.stderr == (
        "mdmem: the MCP server needs the official MCP SDK, the mcp extra: "
        "pip install 'mdmem[mcp]' (No module named 'mcp')\n"
    )
    assert done.stdout == ""


def test_install_needs_no_sdk(project: Path) -> None:
    done = run_python(WITHOUT_SDK, "mcp", "install", "claude", cwd=project)
    assert done.returncode == 0, done.stderr
    assert (project / ".mcp.json").is_file()


IMPORTED = """\
import contextlib, io, sys
from mdmem.adopting.launch import portable_line
from mdmem.cli import main
for args in (["--version"], ["mcp", "--help"], ["mcp", "install", "claude"], ["status"]):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(args, standalone_mode=False)
sdk = ("mcp", "mcp_types", "pydantic")
print(sorted(name for name in sys.modules if name.split(".")[0] in sdk))
"""


def test_no_command_but_mcp_itself_imports_the_sdk(project: Path) -> None:
    done = run_python(IMPORTED, cwd=project)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr
    assert (project / ".mcp.json").is_file()  # the install above ran


def test_the_readme_shows_the_entry_install_writes(project: Path) -> None:
    readme = (ROOT / "README.md").read_text("utf-8").split("## MCP server", 1)[1]
    shown = json.loads(readme.split("```json\n", 1)[1].split("```", 1)[0])
    assert install(project, "claude")[0] == 0
    written = json.loads((project / ".mcp.json").read_text("utf-8"))
    entry = shown["mcpServers"]["mdmem"]
    mine = written["mcpServers"]["mdmem"]
    assert list(shown) == list(written) and list(entry) == list(mine)
    assert entry["command"] == mine["command"] == "sh" and entry["args"][2:] == mine["args"][2:]
    assert entry["args"][1] == portable_line(".venv/bin/python", ("mcp", "--root", "memory"))


def test_no_mdmem_on_path_is_said_plainly_and_the_entry_still_names_no_path(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    code, out, err = install(project, "claude")
    assert code == 0 and out.startswith("Added the mdmem server")
    assert err.startswith("mdmem: warning: the entry runs `mdmem mcp` with the `mdmem` on PATH")
    assert "the client will fail with `mdmem: not found`" in err
    assert ".venv/bin/pip install 'mdmem[mcp]'" in err and "mcp install claude --replace" in err
    assert str(Path(sys.executable).parent) in err  # where this mdmem is, to put on PATH
    written = (project / ".mcp.json").read_text("utf-8")
    assert json.loads(written) == {"mcpServers": {"mdmem": expected("claude", project)}}
    assert str(tmp_path) not in written and sys.executable not in written
    code, out, err = install(project, "claude", "--json")  # unchanged, still said
    answer = json.loads(out)
    assert answer["outcome"] == "unchanged" and "not found" in answer["warnings"][0]
    assert "mdmem: warning:" in err


def test_another_mdmem_on_path_is_named(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other-bin"
    other.mkdir()
    (other / "mdmem").write_text("#!/bin/sh\nexit 0\n", "utf-8")
    (other / "mdmem").chmod(0o755)
    monkeypatch.setenv("PATH", os.pathsep.join([str(other), os.environ["PATH"]]))
    code, _, err = install(project, "cursor")
    assert code == 0
    assert f"the entry runs the `mdmem` on PATH, {other / 'mdmem'}, not this one" in err
    assert "mcp install cursor --replace" in err


def test_a_virtual_environment_inside_the_project_needs_no_warning(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    inner = str(project / ".venv" / "bin" / "python")
    done = install_library(project / "memory", "vscode", python=inner)
    assert done.warnings == () and ".venv/bin/python" in done.entry["args"][1]
    assert "warnings" not in done.as_dict()
    outside = install_library(project / "memory", "claude")
    assert outside.warnings and "not found" in outside.warnings[0]
