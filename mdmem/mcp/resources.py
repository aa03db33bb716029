"""The resources: `continuity.md`, the archive's `INDEX.md`, the current session log, and
templates for one session log (`mdmem://session/{stem}`) and one fact
(`mdmem://fact/{id}`), read as the memory's other readers read a file (no links followed,
strict UTF-8). A session log or fact that is not there is MCP's "resource not found"."""

from __future__ import annotations

from pathlib import Path

from mdmem.errors import MdmemError
from mdmem.format.memory import ARCHIVE, CONTINUITY, INDEX, SESSIONS
from mdmem.mcp.calls import Tools
from mdmem.reading.search import show
from mdmem.store.files import read_text
from mdmem.writing.logs import current_session, named_stem

NO_INDEX = "(no archive index yet: no review has moved a fact to the archive)\n"


def _file(root: Path, relative: str) -> str:
    return read_text(root / relative, f"{root.name}/{relative}")


class Resources(Tools):
    """The resources of one memory folder, for one connection."""

    async def continuity(self) -> str:
        """The live facts, grouped in ## sections, each closed by its footer (id, uses,
        tier...): the memory as agents and humans edit it."""
        return await self.contents(lambda root: _file(root, CONTINUITY))

    async def archive_index(self) -> str:
        """One line per archived fact: id, summary, why it left, the quarter file that
        holds it. `show` tells one archived fact's story."""

        def call(root: Path) -> str:
            relative = f"{ARCHIVE}/{INDEX}"
            return _file(root, relative) if (root / relative).is_file() else NO_INDEX

        return await self.contents(call)

    async def current_session(self) -> str:
        """This connection's session log (the one it started, else the one MDMEM_SESSION
        names, else the one log git has not committed): what it has cited and added."""

        def call(root: Path) -> str:
            log = current_session(root, *self.connection.named(None))
            return read_text(log.path, log.display)

        return await self.contents(call, missing=True)

    async def session(self, stem: str) -> str:
        """One session log, by its stem (2026-07-01-120000-refunds): what that session
        cited, added and retired."""

        def call(root: Path) -> str:
            relative = f"{SESSIONS}/{named_stem(stem, 'the session')}.md"
            if not (root / relative).is_file():
                raise MdmemError(f"no session log {stem!r}", f"{root.name}/{SESSIONS}")
            return _file(root, relative)

        return await self.contents(call, missing=True)

    async def fact(self, id: str) -> str:
        """One fact, by its id: its item and footer as the file holds them, and where
        (path:line), live or archived. `show` tells its whole story."""

        def call(root: Path) -> str:
            found = show(root, id, None)
            if not found.copies:
                raise MdmemError(f"no fact has the id {id!r}")
            copy = found.copies[0]
            relative = copy.path.split("/", 1)[1]  # the path as shown opens with root's name
            lines = _file(root, relative).splitlines()[copy.line - 1 : copy.footer_line]
            return "\n".join([f"<!-- {copy.path}:{copy.line} -->", *lines]) + "\n"

        return await self.contents(call, missing=True)


# name -> URI or URI template (`{...}`), each read as markdown
RESOURCES = {
    "continuity": f"mdmem://memory/{CONTINUITY}",
    "archive_index": f"mdmem://memory/{ARCHIVE}/{INDEX}",
    "current_session": "mdmem://session/current",
    "session": "mdmem://session/{stem}",
    "fact": "mdmem://fact/{id}",
}
