"""`mdmem mcp install`: the mdmem server registered in a client's project configuration
(`CLIENTS`: its file, beside the memory folder, and how it names the project's folder).

The entry is committed and read on other machines and in other clones, so it names no path
of this one: `sh -c LINE mdmem FOLDER` goes to the project's folder, as the client expands
it (docs/MCP.md), and runs `mdmem mcp --root MEMORY` there, with the project's virtual
environment when mdmem was installed from one inside it (`adopting.launch`). A clone thus
serves its own memory.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdmem.adopting.launch import portable_line
from mdmem.errors import MdmemError, ParseError
from mdmem.store import jsonfile
from mdmem.store.folders import make_folders, project_of
from mdmem.store.lock import locked
from mdmem.store.writer import replace_file

SERVER = "mdmem"
NOTHING = "nothing written"


@dataclass(frozen=True)
class Client:
    label: str
    file: str  # relative to the project folder
    key: str  # the object of servers, by name
    fields: tuple[tuple[str, str], ...]  # what the entry holds besides command and args
    folder: str  # how the client's configuration names the project's folder


STDIO = (("type", "stdio"),)
CLIENTS = {
    "claude": Client("Claude Code", ".mcp.json", "mcpServers", STDIO, "${CLAUDE_PROJECT_DIR:-.}"),
    "cursor": Client("Cursor", ".cursor/mcp.json", "mcpServers", (), "${workspaceFolder}"),
    "vscode": Client("VS Code", ".vscode/mcp.json", "servers", STDIO, "${workspaceFolder}"),
}


@dataclass(frozen=True)
class Installed:
    client: str
    path: Path
    entry: dict[str, Any]
    outcome: str  # "added", "replaced" or "unchanged"
    warnings: tuple[str, ...] = ()  # why the entry may not start the server here

    def as_dict(self) -> dict[str, Any]:
        return {
            "client": self.client,
            "file": str(self.path),
            "server": SERVER,
            "entry": self.entry,
            "outcome": self.outcome,
            **({"warnings": list(self.warnings)} if self.warnings else {}),
        }


def client_of(name: str) -> Client:
    """The client called `name`, refused when mdmem knows no such client."""
    if name not in CLIENTS:
        raise MdmemError(f"no such client {name!r}: the clients are {', '.join(CLIENTS)}")
    return CLIENTS[name]


def entry(client: str, root: Path, python: str | None = None) -> dict[str, Any]:
    """The server's entry for `client`: the memory at `root` served from the project's
    folder, by its own virtual environment when `python` (this interpreter) is one inside
    the project, else by the `mdmem` on PATH; no path of this machine in it."""
    chosen = client_of(client)
    project = project_of(root)
    memory = Path(os.path.relpath(root.resolve(), project)).as_posix()
    line = portable_line(_inside(python or sys.executable, project), ("mcp", "--root", memory))
    args = {"args": ["-c", line, SERVER, chosen.folder]}
    return {**dict(chosen.fields), "command": "sh", **args}


def _inside(python: str, project: Path) -> str | None:
    """`python` relative to the project (`.venv/bin/python`), when it lives inside it; its
    own link is kept, since a virtual environment's interpreter is a link out of it."""
    found = Path(os.path.abspath(python))
    try:
        relative = (found.parent.resolve() / found.name).relative_to(project.resolve())
    except ValueError:
        return None
    return relative.as_posix()


def install(
    root: Path, client: str, *, replace: bool = False, python: str | None = None
) -> Installed:
    """Add the mdmem server to `client`'s configuration in the project, written all at
    once; nothing is written when the entry is there already, and an `mdmem` entry that
    runs something else is refused unless `replace` (its other fields are kept)."""
    chosen = client_of(client)
    project = project_of(root)
    path = project / chosen.file
    wanted = entry(client, root, python)
    warnings = will_not_start(client, python or sys.executable, project)
    with locked(root):
        config = jsonfile.read_object(path, str(path))
        servers = config.setdefault(chosen.key, {})
        if not isinstance(servers, dict):
            raise ParseError(jsonfile.refusal(f'has a "{chosen.key}" that is not an object'), path)
        old = servers.get(SERVER)
        if isinstance(old, dict) and all(old.get(k) == v for k, v in wanted.items()):
            return Installed(client, path, old, "unchanged", warnings)
        if old is not None and not replace:
            raise MdmemError(
                f'"{SERVER}" already runs {_command(old)}; `mdmem mcp install {client} '
                f"--replace` makes it run {_command(wanted)}; {NOTHING}",
                path,
            )
        servers[SERVER] = {**(old if isinstance(old, dict) else {}), **wanted}
        make_folders(project, path.parent)
        replace_file(path, jsonfile.render(config).encode("utf-8"))
    outcome = "added" if old is None else "replaced"
    return Installed(client, path, servers[SERVER], outcome, warnings)


def will_not_start(client: str, python: str, project: Path) -> tuple[str, ...]:
    """Why the entry may not start the server on this machine: it runs the `mdmem` on PATH
    (`python`, the interpreter installing it, lives outside the project), and PATH holds
    none, or another one than `python`'s; what to do about it. The entry itself stays free
    of this machine's paths: the fix is on the machine."""
    if _inside(python, project) is not None:
        return ()
    ours = Path(os.path.abspath(python)).parent / SERVER
    found = shutil.which(SERVER)
    fix = (
        "to have the client run this mdmem, install it in the project's own virtual environment "
        "(`python -m venv .venv && .venv/bin/pip install 'mdmem[mcp]'`) and run "
        f"`.venv/bin/mdmem mcp install {client} --replace`, or put this mdmem on PATH "
        f"(its folder, {ours.parent}, or a link to {ours} in a folder on PATH); the client "
        "may start with another PATH than this shell's"
    )
    if found is None:
        return (
            "the entry runs `mdmem mcp` with the `mdmem` on PATH, and PATH holds none here: "
            f"the client will fail with `mdmem: not found`; {fix}",
        )
    if not (ours.is_file() and os.path.samefile(found, ours)):
        return (
            f"the entry runs the `mdmem` on PATH, {found}, not this one ({ours}): the client "
            f"will start that one, with its own version and extras; {fix}",
        )
    return ()


def _command(server: object) -> str:
    if not isinstance(server, dict):
        return json.dumps(server)
    args = server.get("args")
    words = [server.get("command"), *(args if isinstance(args, list) else [])]
    return "`" + " ".join(shlex.quote(str(word)) for word in words) + "`"
