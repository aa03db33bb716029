"""The protocol's newer layout (v4.39 and later): each Open Thread in a file of its own,
`open-threads/thread-<id>.md`, holding the one bullet and its footer; and the links facts
make in their text, `[[id]]` to any fact and `→ proposal: ID`.

A thread file has no `##` heading: its items are read as items of `## Open Threads`.
"""

from __future__ import annotations

import re

from mdmem.format.document import Document, Fact, parse_document
from mdmem.format.footer import ID_PATTERN
from mdmem.format.memory import OPEN_THREADS, THREAD_PREFIX, is_thread_name
from mdmem.format.sections import OPEN_THREADS_SECTION
from mdmem.format.textfile import TextFile

_LINK = re.compile(rf"\[\[({ID_PATTERN})\]\]")
_PROPOSAL = re.compile(rf"(?:→|->)\s*proposal:\s*({ID_PATTERN})\b")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def thread_relative(fact_id: str) -> str:
    """The path, relative to the memory folder, of the file that holds thread `fact_id`."""
    return f"{OPEN_THREADS}/{THREAD_PREFIX}{fact_id}.md"


def is_thread_path(relative: str) -> bool:
    """Whether a path relative to the memory folder is a thread file's."""
    folder, _, name = relative.partition("/")
    return folder == OPEN_THREADS and is_thread_name(name)


def parse_thread(file: TextFile) -> Document:
    """A thread file as a document: its items are those of `## Open Threads`."""
    return parse_document(file, unique_ids=False, preamble=OPEN_THREADS_SECTION)


def thread_file_text(lines: list[str], newline: str) -> str:
    """The text of a new thread file: the bullet and its footer, nothing else."""
    return "".join(line + newline for line in lines)


def fact_links(document: Document, fact: Fact) -> list[tuple[int, str, str]]:
    """(1-based line, kind, target id) of each link in the fact's text: `[[id]]` (kind
    "link") and `→ proposal: ID` (kind "proposal"). Code spans are quoted syntax, not links."""
    found: list[tuple[int, str, str]] = []
    for offset, line in enumerate(document.fact_text(fact)):
        if "[[" not in line and "proposal:" not in line:
            continue
        text = _CODE_SPAN.sub("", line) if "`" in line else line
        number = fact.start + offset + 1
        found += [(number, "link", target) for target in _LINK.findall(text)]
        found += [(number, "proposal", target) for target in _PROPOSAL.findall(text)]
    return found
