"""The files `mdmem init` lays out: `memory/` with the first session log, and the `usage`
block in the files agents read first.

A fresh memory gets every file, its `vision.md` a draft with an Open Thread asking a person
to confirm it, created by a first session log so that the thread's footer has its origin.
An existing memory only gains the files that hold no fact, and no log, which would age
every fact by one session for no work. Pure but for looking at which files exist.

mdmem writes only between the usage block's markers (`format.blocks`), so every other byte
of those files stays. A file that is a symbolic link is not followed: when it points at one
of these files it shows the block from there, else init says so and leaves it.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mdmem.format.blocks import block_span, with_block
from mdmem.format.document import parse_document
from mdmem.format.memory import (
    ARCHIVE,
    BLOCKED,
    CONTINUITY,
    INDEX,
    POLICY,
    REVIEWS,
    SESSIONS,
    VISION,
)
from mdmem.format.sections import OPEN_THREADS_SECTION
from mdmem.format.textfile import TextFile, split_lines
from mdmem.reviewing.archive import render_index
from mdmem.reviewing.rows import header
from mdmem.store.files import read
from mdmem.store.resources import read_shipped, templates_dir
from mdmem.writing.facts import BLOCKED_HEADER, thread_lines, with_item
from mdmem.writing.logs import free_stem, log_text
from mdmem.writing.references import record

MEMORY = "memory"
SLUG = "init"
VISION_THREAD = "confirm-project-vision"
THREAD_TEXT = (
    "Confirm the vision: write the project's north star in memory/vision.md, which mdmem "
    f"init left as a draft (or delete the file), then `mdmem done {VISION_THREAD}`"
)
SUMMARY = "`mdmem init` set up this memory."


@dataclass(frozen=True)
class Skeleton:
    files: dict[str, str]  # path relative to the project -> text
    session: str | None  # the first session log's stem, when init writes one
    created: tuple[str, ...]  # the ids of the facts init creates


def skeleton(project: Path, now: dt.datetime, exists: Callable[[Path], bool]) -> Skeleton:
    """What `memory/` lacks, as new files; `exists` says whether a path is taken."""
    memory = project / MEMORY
    # The files that hold no fact, made as the commands that write them would start them.
    factless = {POLICY: _template(POLICY), BLOCKED: BLOCKED_HEADER, REVIEWS: header("\n")}
    if not exists(memory / ARCHIVE) or not any((memory / ARCHIVE).glob("*.md")):
        factless[f"{ARCHIVE}/{INDEX}"] = render_index([])
    files = {
        f"{MEMORY}/{name}": text for name, text in factless.items() if not exists(memory / name)
    }
    if exists(memory / CONTINUITY):
        if not exists(memory / SESSIONS):
            files[f"{MEMORY}/{SESSIONS}/.gitkeep"] = ""
        return Skeleton(files, None, ())
    stem = free_stem(now, SLUG, lambda stem: exists(memory / SESSIONS / f"{stem}.md"))
    continuity = _template(CONTINUITY)
    log = log_text(read_shipped(templates_dir() / "session.md"), SLUG)
    log = log.replace("## Summary\n", f"## Summary\n\n{SUMMARY}\n", 1)
    created: tuple[str, ...] = ()
    if not exists(memory / VISION):
        files[f"{MEMORY}/{VISION}"] = _template(VISION)
        document = parse_document(TextFile(f"{MEMORY}/{CONTINUITY}", split_lines(continuity)))
        lines = thread_lines(THREAD_TEXT, VISION_THREAD, stem[:10], stem)
        continuity = with_item(document, OPEN_THREADS_SECTION, lines)
        created = (VISION_THREAD,)
        log = record(log, "created", created).text
    files[f"{MEMORY}/{CONTINUITY}"] = continuity
    files[f"{MEMORY}/{SESSIONS}/{stem}.md"] = log
    return Skeleton(files, stem, created)


def _template(name: str) -> str:
    return read_shipped(templates_dir() / "init" / name)


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
