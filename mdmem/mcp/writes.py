"""The writing tools: `start_session`, `reference`, `add_fact`, `supersede`, `thread` and
`done`, each a call of the function its CLI command calls (so the same lock, the same
checks and the same all-or-nothing write), answered with what that command prints with
--json."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from mdmem.errors import MdmemError
from mdmem.mcp.calls import Tools
from mdmem.mcp.reads import SessionArgument
from mdmem.writing.add import add_fact
from mdmem.writing.add_plan import NewFact
from mdmem.writing.gates import close_thread, open_thread, supersede, supersede_usage
from mdmem.writing.session import reference, start_session


def _hints(*, destructive: bool, idempotent: bool) -> ToolAnnotations:
    return ToolAnnotations(
        read_only_hint=False,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


FactText = Annotated[
    str,
    Field(
        description="The fact: one self-contained statement, one line of at most 2,000 characters."
    ),
]
Section = Annotated[
    str,
    Field(
        description="The ## section of continuity.md (Key Decisions, Conventions...). Not "
        "Architectural Invariants: a person makes a fact core (open a thread 'Promote to "
        "core: ID?' instead)."
    ),
]
Key = Literal["referenced", "created", "reactivated", "helpful", "harmful"]


class Writes(Tools):
    """The writing tools over one memory folder."""

    async def start_session(
        self,
        slug: Annotated[
            str | None,
            Field(description="A name after the timestamp: kebab-case words (refunds-queue)."),
        ] = None,
    ) -> CallToolResult:
        """Start a session: call it once, when you begin work, before any other writing
        tool. It creates a session log (memory/sessions/DATE-TIME[-slug].md, named by the
        UTC time, never replacing one), this connection's own: the writing tools record
        what you cite and add there, whatever logs other agents start, until git commits
        it. Returns its stem (`session`) and path. Each call starts another log, which
        this connection writes to from then on."""

        def call(root: Path) -> dict[str, Any]:
            started = start_session(root, slug)
            self.connection.own = started.log.stem
            return started.as_dict()

        return await self.answer(self.start_session, call)

    async def reference(
        self,
        ids: Annotated[list[str], Field(min_length=1, description="The facts' ids.")],
        key: Annotated[
            Key,
            Field(
                description="The line: referenced (you relied on it), helpful (it saved you "
                "time), harmful (following it cost you), reactivated (you brought an "
                "archived fact back), created (a fact this session added)."
            ),
        ] = "referenced",
        session: SessionArgument = None,
    ) -> CallToolResult:
        """Cite the facts that informed your work, in the current session log's `## Memory
        References`: how often a fact is used is counted from these lines (at the next
        review), so cite what you relied on, and vote helpful or harmful. An id already on
        the line is not added twice. Refused, nothing written: an id no fact has (the
        nearest are named), a superseded one (its successor is named), a forgotten one.
        Returns what was added and what was there already."""

        return await self.answer(
            self.reference,
            lambda root: reference(root, ids, key, *self.connection.named(session)).as_dict(),
        )

    async def add_fact(
        self,
        text: FactText,
        section: Section,
        id: Annotated[
            str | None, Field(description="Its id. Default: derived from the text.")
        ] = None,
        tags: Annotated[list[str] | None, Field(description="Words for lookup.")] = None,
        scope: Annotated[
            str | None,
            Field(description="Comma-separated path globs it applies to (src/api/**)."),
        ] = None,
        anti_pattern: Annotated[
            bool,
            Field(
                description="A pitfall to avoid, not a rule to follow: name the bad practice "
                "(a text that already says don't is added as a rule, with a note)."
            ),
        ] = False,
        supersedes: Annotated[
            str | None,
            Field(description="The id of the live fact it replaces: that one is retired."),
        ] = None,
        new_section: Annotated[
            bool,
            Field(
                description="Make the section even when its name is a typo away from one "
                "continuity.md has (otherwise refused, naming the one meant)."
            ),
        ] = False,
        session: SessionArgument = None,
    ) -> CallToolResult:
        """Record durable knowledge the project should keep (a decision, a convention, a
        pitfall) as a fact at the end of its section of continuity.md, and `Created: ID`
        in the current session log. A fact memory already holds (the same words, or
        reworded with the same polarity) is not added: it is cited instead (outcome
        duplicate; an archived fact said again word for word is cited as reactivated, and
        the next review brings it back). Refused, nothing written: secret material, text
        near a forgotten (blocked) fact, the text of a superseded fact, and a contradiction
        of a core fact unless `supersedes` names it; a contradiction of another fact opens
        an Open Thread; a core fact is neither made nor replaced here (a person's, through
        the command line). Returns the outcome, the id, path and line, and the lines
        logged."""
        words = tuple(tags or ())
        fields = (text, section, id, words, scope, anti_pattern, supersedes, new_section)
        request = NewFact(*fields, agent=True)

        return await self.answer(
            self.add_fact,
            lambda root: add_fact(root, request, *self.connection.named(session)).as_dict(),
        )

    async def supersede(
        self,
        old: Annotated[str, Field(description="The id of the fact that became false.")],
        by: Annotated[
            str | None, Field(description="The id of the live fact that replaces it.")
        ] = None,
        by_text: Annotated[
            str | None, Field(description="The text of a new fact that replaces it.")
        ] = None,
        section: Annotated[
            str | None, Field(description="by_text's section (default: OLD's).")
        ] = None,
        invalidate: Annotated[
            bool, Field(description="It no longer holds and nothing replaces it.")
        ] = False,
        session: SessionArgument = None,
    ) -> CallToolResult:
        """Retire a fact that became false: give exactly one of `by`, `by_text` or
        `invalidate`. OLD's footer gets `tier: superseded` and `superseded-by`, the
        successor's `supersedes: OLD` (`by_text` adds the successor as `add_fact`
        would), and the current session log `Superseded: OLD -> NEW`. OLD leaves the
        context at once and the next review archives it; a human can restore it. Refused,
        nothing written: an unknown OLD (the nearest ids named), one superseded already
        (so a second call is refused), a forgotten one, a core one (a person's: open a
        thread instead), a successor that is not live. Returns OLD, its successor, and
        whether the successor was created."""

        def call(root: Path) -> dict[str, Any]:
            problem = supersede_usage(by, by_text, section, invalidate)
            if problem is not None:
                raise MdmemError(problem)
            named, source = self.connection.named(session)
            done = supersede(root, old, by, by_text, section, named, source, agent=True)
            return done.as_dict()

        return await self.answer(self.supersede, call)

    async def thread(
        self,
        text: Annotated[
            str, Field(description="The question or task: one line of at most 2,000 characters.")
        ],
        session: SessionArgument = None,
    ) -> CallToolResult:
        """Open a thread, a question or task left for later: `- [ ] TEXT` at the end of
        ## Open Threads (in a file of its own, open-threads/thread-ID.md, when the memory
        keeps its threads so: then `file` names it), born in the current session and
        recorded `Created`. An open
        thread that says the same is named instead, and nothing is written (created
        false). Refused: secret material, text near a forgotten fact. Returns its id."""

        return await self.answer(
            self.thread,
            lambda root: open_thread(root, text, *self.connection.named(session)).as_dict(),
        )

    async def done(
        self,
        id: Annotated[str, Field(description="The open thread's id.")],
        session: SessionArgument = None,
    ) -> CallToolResult:
        """Check off an open thread you finished: its `- [ ]` becomes `- [x]`, nothing else
        in it changes, and the session log records `Closed: ID`, a use of the thread (with
        no session open, the check alone: `session` null). The review archives it once it
        fades. Refused, nothing written: anything but an open thread (one checked off
        already among them). Returns where it is and the session that recorded it."""

        def call(root: Path) -> dict[str, Any]:
            closed = close_thread(root, id, *self.connection.named(session))
            session_stem = None if closed.log is None else closed.log.stem
            return {"id": id, "where": closed.place.display, "session": session_stem}

        return await self.answer(self.done, call)


TOOLS: dict[str, tuple[str, ToolAnnotations]] = {
    "start_session": ("Start a session", _hints(destructive=False, idempotent=False)),
    "reference": ("Cite facts", _hints(destructive=False, idempotent=True)),
    "add_fact": ("Add a fact", _hints(destructive=True, idempotent=True)),
    "supersede": ("Retire a false fact", _hints(destructive=True, idempotent=False)),
    "thread": ("Open a thread", _hints(destructive=False, idempotent=True)),
    "done": ("Check off a thread", _hints(destructive=False, idempotent=False)),
}
