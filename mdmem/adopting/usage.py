"""The `usage` block: how an agent uses the memory, in the files agents read first.

`AGENTS.md` gets the block (the file is made when the project has none); `CLAUDE.md`,
`GEMINI.md` and `.github/copilot-instructions.md` get it when they exist. mdmem writes
only between its `<!-- mdmem:begin usage -->` markers (`format.blocks`), so every other
byte of those files stays as it was, and writing the same block again changes nothing.
A file that is a symbolic link is not followed: when it points at one of these files it
shows the block from there, else init says so and leaves it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from mdmem.format.blocks import block_span, with_block
from mdmem.format.textfile import TextFile, split_lines
from mdmem.store.files import read
from mdmem.store.resources import read_shipped, templates_dir

BLOCK = "usage"
AGENTS = "AGENTS.md"
VENDOR_FILES = ("CLAUDE.md", "GEMINI.md", ".github/copilot-instructions.md")
AGENTS_TITLE = "# Agent instructions\n"


def usage_text() -> str:
    return read_shipped(templates_dir() / "init" / "usage.md")


def usage_writes(
    project: Path, exists: Callable[[Path], bool]
) -> tuple[dict[str, str], tuple[str, ...], tuple[str, ...]]:
    """The files whose usage block is missing or out of date (path -> new text), those of
    them whose block is rewritten, and notices about links."""
    text = usage_text()
    writes: dict[str, str] = {}
    updated: list[str] = []
    links: list[str] = []
    for relative in (AGENTS, *VENDOR_FILES):
        path = project / relative
        if path.is_symlink():
            links.append(relative)
        elif path.is_file():
            file = read(path, relative)
            new = with_block(file, BLOCK, text)
            if new != file.text():
                writes[relative] = new
                if block_span(file, BLOCK) is not None:
                    updated.append(relative)
        elif relative == AGENTS and not exists(path):
            created = with_block(TextFile(relative, split_lines(AGENTS_TITLE)), BLOCK, text)
            writes[relative] = created
    files = {str(project / relative) for relative in (AGENTS, *VENDOR_FILES)} - {
        str(project / relative) for relative in links
    }
    notices = tuple(
        f"{relative} is a symbolic link, which mdmem does not follow: copy the {BLOCK} block "
        f"of {AGENTS} into the file it points at"
        for relative in links
        if os.path.realpath(project / relative) not in files
    )
    return writes, tuple(updated), notices
