"""The files mdmem writes beside the memory folder (`mdmem mcp install`, `mdmem agent-hooks
install`, `mdmem export`, `mdmem init`): one project folder, the one that holds the memory;
one reader of the JSON files; folders made through no link and over no file, every refusal
naming its path with nothing written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.errors import MdmemError, WriteError
from mdmem.mcp.install import install
from mdmem.store.folders import LINKED, NOT_A_FOLDER
from mdmem.store.jsonfile import FIX
from mdmem.store.lock import locked
from mdmem.store.writer import write_files
from tests.helpers import copy_tree, make_repo, snapshot
from tests.test_lint import DEMO

NOTHING = "nothing written"
COMMANDS = {  # the command, and the file it writes, relative to the project's folder
    "mcp-claude": (("mcp", "install", "claude"), ".mcp.json"),
    "mcp-vscode": (("mcp", "install", "vscode"), ".vscode/mcp.json"),
    "agent-hooks": (("agent-hooks", "install", "claude"), ".claude/settings.json"),
    "export-cursor": (("export", "--format", "cursor"), ".cursor/rules/mdmem.mdc"),
    "export-copilot": (("export", "--format", "copilot"), ".github/copilot-instructions.md"),
    "export-agents-md": (("export", "--format", "agents-md"), "AGENTS.md"),
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The demo memory in a git repository, and the lock's file an older mdmem left in it."""
    folder = make_repo(copy_tree(DEMO, tmp_path / "project"))
    (folder / "memory" / ".mdmem.lock").touch()
    return folder


def run(name: str, memory: Path) -> tuple[int, str, str]:
    args, _ = COMMANDS[name]
    result = CliRunner().invoke(main, [*args, "--root", str(memory)])
    return result.exit_code, result.stdout, result.stderr


FOLDERS = [  # a command, and a folder it makes
    pytest.param("mcp-vscode", ".vscode", id="vscode"),
    pytest.param("agent-hooks", ".claude", id="claude"),
    pytest.param("export-cursor", ".cursor/rules", id="cursor-rules"),
    pytest.param("export-copilot", ".github", id="github"),
]


@pytest.mark.parametrize(("name", "blocker"), FOLDERS)
def test_a_file_where_a_folder_goes_is_refused(project: Path, name: str, blocker: str) -> None:
    (project / blocker).parent.mkdir(parents=True, exist_ok=True)
    (project / blocker).write_text("mine\n", "utf-8")
    before = snapshot(project)
    code, out, err = run(name, project / "memory")
    assert (code, out) == (4, "")
    assert err == f"mdmem: {project / blocker}: {NOT_A_FOLDER}; {NOTHING}\n"
    assert snapshot(project) == before


@pytest.mark.parametrize(("name", "link"), FOLDERS)
def test_a_folder_that_is_a_link_is_refused(
    project: Path, tmp_path: Path, name: str, link: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / link).parent.mkdir(exist_ok=True)
    os.symlink(elsewhere, project / link)
    before = snapshot(project)
    code, _, err = run(name, project / "memory")
    assert (code, err) == (4, f"mdmem: {project / link}: {LINKED}\n")
    assert snapshot(project) == before and list(elsewhere.iterdir()) == []


JSON_WRITERS = [
    pytest.param("mcp-claude", id="mcp"),
    pytest.param("agent-hooks", id="agent-hooks"),
]


def shown(name: str, project: Path) -> str:
    """How a refusal names the command's JSON file: the MCP install names it whole."""
    relative = COMMANDS[name][1]
    return str(project / relative) if name.startswith("mcp") else relative


@pytest.mark.parametrize("name", JSON_WRITERS)
@pytest.mark.parametrize(
    ("text", "where"),
    [
        pytest.param(
            '{\n  "a": 1,\n}\n',
            ":3: is not valid JSON (Expecting property name enclosed in double quotes, column "
            "1; comments and trailing commas are not read either)",
            id="trailing_comma",
        ),
        pytest.param("[1, 2]\n", ": holds no JSON object", id="array"),
    ],
)
def test_one_reader_refuses_what_is_not_a_json_object(
    project: Path, name: str, text: str, where: str
) -> None:
    target = project / COMMANDS[name][1]
    target.parent.mkdir(exist_ok=True)
    target.write_text(text, "utf-8")
    before = snapshot(project)
    code, _, err = run(name, project / "memory")
    assert (code, err) == (3, f"mdmem: {shown(name, project)}{where}; {FIX}\n")
    assert snapshot(project) == before


@pytest.mark.parametrize("name", JSON_WRITERS)
def test_a_json_file_that_is_a_link_is_refused(project: Path, tmp_path: Path, name: str) -> None:
    target = project / COMMANDS[name][1]
    target.parent.mkdir(exist_ok=True)
    real = tmp_path / "real.json"
    real.write_text("{}\n", "utf-8")
    os.symlink(real, target)
    before = snapshot(project)
    code, _, err = run(name, project / "memory")
    assert (code, err) == (4, f"mdmem: {shown(name, project)}: {LINKED}\n")
    assert snapshot(project) == before and real.read_text("utf-8") == "{}\n"


@pytest.mark.parametrize("name", JSON_WRITERS)
def test_both_json_files_are_written_alike(project: Path, name: str) -> None:
    target = project / COMMANDS[name][1]
    target.parent.mkdir(exist_ok=True)
    target.write_text('{"z": "é", "a": []}', "utf-8")
    assert run(name, project / "memory")[0] == 0
    text = target.read_text("utf-8")
    assert text.startswith('{\n  "z": "é",\n  "a": [],\n  "') and text.endswith("}\n")
    assert list(json.loads(text))[:2] == ["z", "a"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_with_the_memory_in_a_subfolder_every_file_goes_beside_it(
    tmp_path: Path, name: str
) -> None:
    repo = tmp_path / "repo"
    copy_tree(DEMO / "memory", repo / "app" / "memory")
    make_repo(repo)
    code, _, err = run(name, repo / "app" / "memory")
    assert code == 0, err
    relative = COMMANDS[name][1]
    assert (repo / "app" / relative).is_file()
    assert not (repo / relative).exists()


def test_init_given_a_memory_in_a_subfolder_sets_up_the_folder_that_holds_it(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    copy_tree(DEMO / "memory", repo / "app" / "memory")
    make_repo(repo)
    result = CliRunner().invoke(main, ["init", "--json", str(repo / "app" / "memory")])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["project"] == str((repo / "app").resolve())
    assert (repo / "app" / "AGENTS.md").is_file() and not (repo / "AGENTS.md").exists()


def test_an_unknown_client_is_refused_by_name(project: Path) -> None:
    before = snapshot(project)
    with pytest.raises(MdmemError) as raised:
        install(project / "memory", "foo")
    assert str(raised.value) == "no such client 'foo': the clients are claude, cursor, vscode"
    assert snapshot(project) == before


def test_the_writer_refuses_a_file_where_a_folder_goes(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "sessions").write_text("mine\n", "utf-8")
    with locked(root), pytest.raises(WriteError) as raised:
        write_files(root, {"continuity.md": "# Continuity\n", "sessions/a.md": "# Log\n"})
    assert str(raised.value) == f"{root / 'sessions'}: {NOT_A_FOLDER}; {NOTHING}"
    assert sorted(path.name for path in root.iterdir()) == [".mdmem.lock", "sessions"]
