"""The resources: `continuity.md`, the archive's `INDEX.md` and the current session log,
read as the memory's other readers read a file (no links followed, strict UTF-8)."""

from __future__ import annotations

from pathlib import Path

from mdmem.format.memory import ARCHIVE, CONTINUITY, INDEX
from mdmem.mcp.calls import contents, named_session
from mdmem.store.files import read_text

NO_INDEX = "(no archive index yet: no review has moved a fact to the archive)\n"


def _file(root: Path, relative: str) -> str:
    return read_text(root / relative, f"{root.name}/{relative}")


class Resources:
    """The resources of one memory folder."""

    def __init__(self, root: Path) -> None:
        self.root = root

    async def continuity(self) -> str:
        """The live facts, grouped in ## sections, each closed by its footer (id, uses,
        tier...): the memory as agents and humans edit it."""
        return await contents(self.root, lambda root: _file(root, CONTINUITY))

    async def archive_index(self) -> str:
        """One line per archived fact: id, summary, why it left, the quarter file that
        holds it. `show` tells one archived fact's story."""

        def call(root: Path) -> str:
            relative = f"{ARCHIVE}/{INDEX}"
            return _file(root, relative) if (root / relative).is_file() else NO_INDEX

        return await contents(self.root, call)

    async def current_session(self) -> str:
        """The current session log (the newest one git has not committed, or the one
        MDMEM_SESSION names): what this session has cited and added so far."""
        from mdmem.writing.current import current_session

        def call(root: Path) -> str:
            log = current_session(root, *named_session(None))
            return read_text(log.path, log.display)

        return await contents(self.root, call)


# name -> (URI, MIME type)
RESOURCES = {
    "continuity": (f"mdmem://memory/{CONTINUITY}", "text/markdown"),
    "archive_index": (f"mdmem://memory/{ARCHIVE}/{INDEX}", "text/markdown"),
    "current_session": ("mdmem://session/current", "text/markdown"),
}
