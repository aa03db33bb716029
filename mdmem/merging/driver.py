"""The merge driver git runs: three files in, the merged text written over ours.

The only I/O of the merge; `merging.continuity` does the merging.
"""

from __future__ import annotations

from pathlib import Path

from mdmem.errors import ParseError
from mdmem.format.textfile import decode
from mdmem.merging.continuity import Merged, merge_continuity, merge_lines
from mdmem.store.files import read_bytes
from mdmem.store.writer import replace_file


def merge_files(
    base: Path, ours: Path, theirs: Path, path: str | None = None, *, union: bool = False
) -> Merged:
    """What git runs: merge the three files and write the result over `ours`, atomically."""
    display = path or "continuity.md"
    texts: list[str] = []
    readable = True
    for file in (base, ours, theirs):
        data = read_bytes(file, display)
        try:
            texts.append(decode(data, display).text())
        except ParseError:
            readable = False
            texts.append(data.decode("utf-8", "surrogateescape"))
    base_text, ours_text, theirs_text = texts
    if readable:
        merged = merge_continuity(base_text, ours_text, theirs_text, display, union=union)
    else:
        reason = f"{display} is not valid UTF-8"
        merged = merge_lines(base_text, ours_text, theirs_text, union=union, reason=reason)
    replace_file(ours, merged.text.encode("utf-8", "surrogateescape"))
    return merged
