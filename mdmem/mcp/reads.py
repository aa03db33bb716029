"""The reading tools: `context`, `lookup`, `show`, `status` and `lint`, each a call of the
function its CLI command calls, answered with what that command prints with --json
(`context`: its markdown, unless asked for JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from mdmem.linting import findings
from mdmem.linting.run import lint as run_lint
from mdmem.mcp.calls import Tools
from mdmem.reading import context as context_text
from mdmem.reading import history, search, sources
from mdmem.reading import status as status_text
from mdmem.writing.logs import current_or_none

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

Tier = Literal["core", "active", "working", "archive-candidate", "archived", "superseded"]
PathArgument = Annotated[
    str | None,
    Field(
        description="The file you are working on (src/api/hooks.py): facts whose `scope` "
        "glob does not match it are left out."
    ),
]
SessionArgument = Annotated[
    str | None,
    Field(
        description="The session log (a stem, file name or path). Default: the one this "
        "connection started, else MDMEM_SESSION, else the one log git has not committed."
    ),
]


class Reads(Tools):
    """The reading tools over one memory folder."""

    async def context(
        self,
        task: Annotated[
            str | None, Field(description="What you are about to do, in a few words.")
        ] = None,
        path: PathArgument = None,
        budget: Annotated[
            int | None,
            Field(ge=1, description="Most tokens to return (characters / 4); default 2000."),
        ] = None,
        format: Annotated[
            Literal["markdown", "json"],
            Field(description="markdown to read (default), or json for the same as data."),
        ] = "markdown",
    ) -> CallToolResult:
        """Call this before you start a task: what the project's memory holds for it. The
        core facts, the rules most relevant to the task (and to the file, when given), the
        open threads and the pitfalls (anti-patterns, kept apart: never follow one as a
        rule), each line with its fact id, within a token budget. Returns markdown to read
        (or, with format json, the same as data too). Its last line asks you to cite only the
        facts you use, with the `reference` tool, never every id shown (each id cited
        counts a use); a line cut short is a fact's lead, which the `show` tool gives whole."""

        def call(root: Path) -> dict[str, Any]:
            planned = sources.context(root, task, path=path, budget=budget)
            markdown = {"markdown": context_text.render_markdown(planned, tools=True)}
            return {**context_text.as_json(planned), **markdown} if format == "json" else markdown

        return await self.answer(self.context, call, reading=True)

    async def lookup(
        self,
        query: Annotated[
            str, Field(description="Words to look for; case, plurals and order do not matter.")
        ],
        sessions: Annotated[
            bool, Field(description="Search the session logs too, line by line.")
        ] = False,
        tier: Annotated[Tier | None, Field(description="Only facts with this tier.")] = None,
        path: PathArgument = None,
        limit: Annotated[int | None, Field(ge=1, description="At most N hits per list.")] = None,
        explain: Annotated[
            bool, Field(description="Say how each hit scored (BM25 per word, length, tier).")
        ] = False,
    ) -> CallToolResult:
        """Search the memory by words when you need a particular fact: a convention, a
        decision, why something is the way it is. Returns the hits best first, each with
        path, line, id, tier, text and score (and with `explain`, how it scored);
        superseded facts apart, each with the id that replaced it; session-log lines with
        `sessions`. Empty lists when nothing matches. Follow up with `show` for one fact's
        whole story."""

        def call(root: Path) -> dict[str, Any]:
            found = search.lookup(root, query, sessions=sessions, tier=tier, path=path, limit=limit)
            return found.as_dict(explain)

        return await self.answer(self.lookup, call, reading=True)

    async def show(
        self,
        id: Annotated[str, Field(description="The fact's id, like post-only-mutations.")],
        as_of: Annotated[
            str | None,
            Field(description="A session log stem or a date: also the tier it had then."),
        ] = None,
    ) -> CallToolResult:
        """One fact's story, by id: use it to judge whether a fact still holds before you
        rely on it. Returns where it lives (path and line), its text and footer, the
        session that created it, every session that cited it (newest first), what it
        replaced and what replaced it, its helpful and harmful votes; with `as_of`, the
        tier the ledger gave it at that point."""

        return await self.answer(
            self.show, lambda root: history.as_dict(search.show(root, id, as_of)), reading=True
        )

    async def status(
        self,
        session: SessionArgument = None,
        lint: Annotated[bool, Field(description="Run lint now for its counts (slower).")] = False,
    ) -> CallToolResult:
        """Where things stand. Returns the session log the writing tools record in: the one
        this connection started or named, else the one log git has not committed
        (`session_source` says which), which is yours only when a session-start hook
        named it to you, and may be another agent's: if none named it to you, call
        `start_session` before you write. Null when several logs are uncommitted and none
        is named (`uncommitted` names them: pass yours as `session`). Also the sessions
        since the last review and whether a review is due, lint's counts (from its last
        run while nothing changed) and the open threads."""

        def call(root: Path) -> dict[str, Any]:
            log, uncommitted = current_or_none(root, *self.connection.named(session))
            found, source = (None, None) if log is None else (log.display, log.source)
            state = sources.status(root, found, source, uncommitted, run_lint=lint)
            return status_text.as_dict(state)

        return await self.answer(self.status, call, reading=True)

    async def lint(
        self,
        strict: Annotated[
            bool, Field(description="Count warnings as failures too, as `lint --strict`.")
        ] = False,
    ) -> CallToolResult:
        """Check the memory's files: footers, ids, immutable session logs, secrets, drift,
        size. Returns every finding (code, path, line, message, hint; `mdmem lint
        --explain CODE` tells what a code means), the counts of errors and warnings as
        `mdmem lint` and `status` give them (a file's stale footers count once; warnings
        about committed session logs apart, in `committed_log_warnings`), and `passed`,
        false on an error (and with `strict` on a warning). Run it after you edit a
        memory file by hand."""

        def call(root: Path) -> dict[str, Any]:
            found = run_lint(root)
            counted = findings.tally(found)
            return {
                "findings": [finding.as_dict() for finding in found],
                "errors": counted.errors,
                "warnings": counted.warnings,
                "committed_log_warnings": counted.committed,
                "passed": findings.exit_code(found, strict) == 0,
            }

        return await self.answer(self.lint, call)  # lint reads every item itself


TOOLS: dict[str, tuple[str, ToolAnnotations]] = {
    "context": ("Memory for a task", READ_ONLY),
    "lookup": ("Search the memory", READ_ONLY),
    "show": ("One fact's story", READ_ONLY),
    "status": ("Where things stand", READ_ONLY),
    "lint": ("Check the memory", READ_ONLY),
}
