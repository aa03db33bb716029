"""A source file's text read by the reader its kind names (pure): rules with their file
and line, and tombstones."""

from __future__ import annotations

from pathlib import PurePosixPath

from mdmem.migrating.cass import read_blocked_log, read_playbook
from mdmem.migrating.kinds import BLOCKED_LOG, MARKDOWN, PLAYBOOK, Kind, scope_of_folder
from mdmem.migrating.markdown import read_markdown
from mdmem.migrating.metadata import read_header
from mdmem.migrating.rules import Source


def read_source(text: str, display: str, kind: Kind, relative: PurePosixPath | None) -> Source:
    """The rules (or tombstones) of a file's text (LF line endings); `relative` is its path
    below the project's top, None when it lies outside."""
    if kind.reader == PLAYBOOK:
        return Source(display, kind.label, rules=read_playbook(text, display))
    if kind.reader == BLOCKED_LOG:
        return Source(display, kind.label, tombstones=read_blocked_log(text, display))
    lines = text.split("\n")
    if kind.reader == MARKDOWN:
        scope = None if relative is None else scope_of_folder(relative)
        return Source(display, kind.label, rules=read_markdown(lines, 1, display, scope))
    header = read_header(text, kind.reader, display)
    body = lines[header.body :]
    rules = read_markdown(body, header.body + 1, display, header.scope, header.core_reason)
    return Source(display, kind.label, rules=rules)
