"""`mdmem add` decided: what a new fact becomes before anything is written (SPEC §3, §8, §9).

Pure: the request, the facts it may meet (continuity, vision, the archive's superseded
facts), the blocked entries and the current log come in as values; out comes the new
text of continuity and of the log, or a refusal. Every refusal is decided before any
text is built, so a refused add writes nothing. An anti-pattern asked for with a text
that is already a prohibition ("Do not call the database from views") is added as a
rule, with a note saying so: a rule that says "don't" is a rule, and migrate types such
a text the same way (`AS_RULE`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Container, Sequence
from dataclasses import dataclass

from mdmem.errors import MdmemError
from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.sections import (
    INVARIANTS_SECTION,
    OPEN_THREADS_SECTION,
    PROJECT_STATE_SECTION,
    holds_no_facts,
    same_name,
    section_key,
)
from mdmem.format.words import EXCLUDED, is_prohibition, item_claim, normalised_tokens, stem
from mdmem.reviewing.decide import return_section
from mdmem.safety.harm import refuse_harm
from mdmem.writing import conflicts, known
from mdmem.writing.conflicts import Meeting
from mdmem.writing.facts import (
    AGENT_CORE,
    AGENT_INVARIANT,
    born_footer,
    check_line,
    check_scope_and_tags,
    item_lines,
    refuse_misspelt,
    reparsed,
    same_section,
    thread_lines,
    unsafe,
    with_footers,
    with_item,
)
from mdmem.writing.ids import derive_id, free_id
from mdmem.writing.known import NOTHING
from mdmem.writing.logs import Current
from mdmem.writing.references import event_line, label, record, record_event

ADDED, DUPLICATE = "added", "duplicate"
KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
THREAD_PREFIX = "contradiction"
MAX_SECTION = 100  # characters of a section's title
AS_RULE = (
    "added as a rule, not an anti-pattern: its text is already a prohibition (an "
    "anti-pattern names the bad practice: 'Calling the database from views')"
)


@dataclass(frozen=True)
class NewFact:
    """What `mdmem add` is asked to write."""

    text: str
    section: str
    fact_id: str | None = None
    tags: tuple[str, ...] = ()
    scope: str | None = None
    anti_pattern: bool = False
    supersedes: str | None = None
    new_section: bool = False  # a section continuity lacks is made even near another's name
    agent: bool = False  # asked through an agent's tool: it makes and unmakes no core fact


@dataclass(frozen=True)
class Known:
    """What a new fact is compared with: continuity, vision, the archive's superseded
    facts (cut out, see `writing.add`), the blocked entries, and every id already taken
    (continuity, archive, vision, blocked)."""

    continuity: Document
    vision: Document | None
    archived: tuple[Document, ...]
    blocked: dict[str, BlockedEntry]
    taken: Container[str]

    @property
    def shown(self) -> tuple[Document, ...]:
        """The documents whose line numbers are their files' own."""
        return (self.continuity,) if self.vision is None else (self.continuity, self.vision)


@dataclass(frozen=True)
class Thread:
    """An Open Thread an add opened: `Contradiction: NEW conflicts with OLD — resolve`."""

    fact_id: str
    contradicts: str
    line: int


@dataclass(frozen=True)
class Superseded:
    """The fact an add superseded, and its first line after the add."""

    fact_id: str
    line: int


@dataclass(frozen=True)
class Addition:
    """What an add does: ADDED (continuity and the log change) or DUPLICATE (only the log
    may change: the existing fact is cited). `line` is the fact's first line in `path`."""

    outcome: str
    fact_id: str
    path: str
    line: int
    section: str
    tier: str | None
    continuity: str | None  # the new text; None when unchanged
    log: str  # the log's new text (the same when nothing was recorded)
    log_lines: tuple[str, ...]  # the lines recorded, `Key: ...`
    superseded: Superseded | None = None
    threads: tuple[Thread, ...] = ()
    note: str | None = None  # AS_RULE, or for a duplicate the words it would add
    extra_words: tuple[str, ...] = ()  # a duplicate's words the fact lacks, as written

    @property
    def log_changed(self) -> bool:
        return bool(self.log_lines)


def check_request(request: NewFact) -> None:
    """Refuse, before anything is read, what no memory could take: secret material, a
    section that holds no facts, an id, tag or scope the footer cannot carry, and text that
    lint would report as poisoning the moment it landed."""
    check_line(request.text, "the text")
    values = [request.text, request.section, *request.tags, request.scope or ""]
    refuse_harm("\n".join(values), NOTHING)
    section = request.section
    if len(section) > MAX_SECTION:  # the message never quotes a section that long
        raise MdmemError(f"section is {len(section):,} characters; the limit is {MAX_SECTION}")
    if not section_key(section) or section != section.strip() or unsafe(section, "#"):
        raise MdmemError(f"section {section!r} must be a heading's title, like 'Key Decisions'")
    if holds_no_facts(section):
        raise MdmemError(_no_facts(section))
    if request.fact_id is not None and not KEBAB.match(request.fact_id):
        raise MdmemError(
            f"id {request.fact_id!r} must be lowercase words joined by hyphens, two or more, "
            "like post-only-mutations"
        )
    check_scope_and_tags(request.scope, request.tags)


def plan_add(request: NewFact, memory: Known, session: Current) -> Addition:
    """What adding `request` in `session` does, or the refusal (an MdmemError). A section
    named as continuity names one, but for case and spacing, is that section."""
    section = same_section(memory.continuity, request.section)
    if holds_no_facts(section):
        raise MdmemError(_no_facts(section))
    if request.agent and same_name(section, INVARIANTS_SECTION):
        raise MdmemError(AGENT_INVARIANT.format(section=section))
    if not request.new_section:
        refuse_misspelt(memory.continuity, section)
    as_rule = request.anti_pattern and is_prohibition(request.text)
    request = dataclasses.replace(
        request, section=section, anti_pattern=request.anti_pattern and not as_rule
    )
    documents = (*memory.shown, *memory.archived)
    found = conflicts.meetings(
        request.text, request.section, documents, (*memory.blocked.values(),)
    )
    superseded = known.after_events(known.supersessions(documents), session.events)
    _refuse_retired(found, superseded)
    live = [m for m in found if m.fact_id not in superseded]
    target = None
    if request.supersedes is not None:
        target = _target(request.supersedes, memory, superseded)
        if request.agent and target.is_core:
            where, fact = _where(memory, target.id), target.id
            raise MdmemError(AGENT_CORE.format(fact=fact, where=where))
    duplicates = [m for m in live if m.kind == conflicts.DUPLICATE]
    duplicates = [m for m in duplicates if m.fact_id != request.supersedes]
    if duplicates and target is not None:  # the successor is there: supersede by it
        fact_id = duplicates[0].fact_id
        raise MdmemError(
            f"the text duplicates {fact_id!r} ({_where(memory, fact_id)}): to retire "
            f"{target.id!r} in its favour, supersede it by {fact_id!r} (`mdmem supersede "
            f"{target.id} --by {fact_id}`); {NOTHING}"
        )
    if duplicates:
        return _duplicate(duplicates[0].fact_id, memory.shown, session, request.text)
    contradicted = [m for m in live if m.kind == conflicts.CONTRADICTION]
    for meeting in contradicted:
        if meeting.core and meeting.fact_id != request.supersedes:
            raise MdmemError(
                f"the text contradicts core fact {meeting.fact_id!r} "
                f"({_where(memory, meeting.fact_id)}); a core fact changes only on "
                f"purpose: add it with --supersedes {meeting.fact_id} to replace it; "
                f"{NOTHING}"
            )
    archived = [m.fact_id for m in live if m.kind == conflicts.ARCHIVED]
    again = [i for i in archived if conflicts.said_again(memory.archived, i, request.text)]
    if again and target is None:  # faded, not false: brought back, not made twice
        brought = (again[0], memory.archived, session, request.text, memory.continuity)
        return _duplicate(*brought)
    fact_id = _new_id(request, memory)
    others = [m.fact_id for m in contradicted if m.fact_id != request.supersedes]
    added = _added(request, fact_id, target, others, memory, session)
    return dataclasses.replace(added, note=AS_RULE) if as_rule else added


def _no_facts(section: str) -> str:
    if same_name(section, PROJECT_STATE_SECTION):
        return f"## {PROJECT_STATE_SECTION} holds no facts: give another --section"
    return (
        f"## {OPEN_THREADS_SECTION} holds no facts: give another --section "
        "(`mdmem thread TEXT` opens a thread)"
    )


def _refuse_retired(found: Sequence[Meeting], superseded: dict[str, str | None]) -> None:
    """A blocked entry, or a superseded fact the text would bring back, refuses the add."""
    for meeting in found:
        if meeting.kind == conflicts.BLOCKED and meeting.entry is not None:
            refusal = known.blocked_refusal(meeting.entry)
            raise MdmemError(f"the text is near a blocked entry: {refusal}; {NOTHING}")
    for meeting in found:
        retired = meeting.kind == conflicts.SUPERSEDED
        if retired or (meeting.kind == conflicts.DUPLICATE and meeting.fact_id in superseded):
            successor = meeting.successor if retired else superseded[meeting.fact_id]
            refusal = known.superseded_refusal(meeting.fact_id, successor)
            raise MdmemError(f"the text is that of a superseded fact: {refusal}; {NOTHING}")


def _duplicate(
    fact_id: str,
    documents: Sequence[Document],
    session: Current,
    text: str,
    continuity: Document | None = None,
) -> Addition:
    """The fact already says it: cited instead (an archived one, given `continuity`,
    `reactivated`, which brings it back at the next review to its section). A text that
    says it with more words (a detail the fact lacks) is still not added twice, but the
    note says how to keep them."""
    found = known.find(documents, fact_id)
    assert found is not None, f"{fact_id} was met, so it is in a document"
    document, fact = found
    key = "referenced" if continuity is None else "reactivated"
    recorded = record(session.text, key, [fact_id], session.log.display)
    lines = (f"{label(key)}: {fact_id}",) if recorded.changed else ()
    tier = fact.get("tier")
    home = fact.section if continuity is None else return_section(continuity, fact)
    where = (document.path, fact.line, home)
    own = {
        word.lstrip(EXCLUDED)
        for word in item_claim(document.lines[fact.start : fact.footer_index]).words
    }
    more = normalised_tokens(text) - own
    shown = dict.fromkeys(w for w in re.findall(r"[^\W_]+", text) if stem(w.lower()) in more)
    notes = [] if continuity is None else [known.BROUGHT_BACK.format(section=home)]
    if shown:
        notes.append(
            f"the text adds words the fact lacks ({', '.join(shown)}); to keep them, replace "
            f"the fact: mdmem supersede {fact_id} --by-text TEXT"
        )
    note = "; ".join(notes) or None
    extra = tuple(shown)
    return Addition(
        DUPLICATE, fact_id, *where, tier, None, recorded.text, lines, note=note, extra_words=extra
    )


def _target(old: str, memory: Known, superseded: dict[str, str | None]) -> Fact:
    """The live fact of continuity that --supersedes names."""
    if old in memory.blocked:
        refusal = known.blocked_refusal(memory.blocked[old])
        raise MdmemError(f"--supersedes: {refusal}; {NOTHING}")
    if old in superseded:
        refusal = known.superseded_refusal(old, superseded[old])
        raise MdmemError(f"--supersedes: {refusal}; {NOTHING}")
    for fact in memory.continuity.facts:
        if fact.id == old:
            return fact
    in_vision = memory.vision is not None and old in known.ids_in([memory.vision])
    if in_vision or old in memory.taken:
        raise MdmemError(
            f"--supersedes: {old!r} is {_where(memory, old)}, not in continuity.md: "
            f"add supersedes only a live fact of continuity; {NOTHING}"
        )
    live = known.ids_in([memory.continuity]) - set(superseded)
    raise MdmemError(f"--supersedes: {known.unknown_refusal(old, live)}; {NOTHING}")


def _new_id(request: NewFact, memory: Known) -> str:
    if request.fact_id is None:
        return derive_id(request.text, memory.taken)
    if request.fact_id in memory.taken:
        where = _where(memory, request.fact_id)
        raise MdmemError(
            f"id {request.fact_id!r} is taken ({where}): ids are unique across continuity, "
            f"the archive, vision and blocked.md; give another --id, or none; "
            f"{NOTHING}"
        )
    return request.fact_id


def _added(
    request: NewFact,
    fact_id: str,
    target: Fact | None,
    contradicted: Sequence[str],
    memory: Known,
    session: Current,
) -> Addition:
    """The new fact appended to its section (the fact it supersedes marked, an Open
    Thread per contradiction), and `Created` (and `Superseded`) in the log."""
    document = memory.continuity
    old_footer = None
    if target is not None:
        changes = {"tier": "superseded", "superseded-by": fact_id}
        old_footer = target.footer.updated(changes).render()
        document = reparsed(document, with_footers(document, [(target, changes)]))
    footer = born_footer(fact_id, request.section, session.date, session.log.stem, _extra(request))
    item = item_lines(request.text, footer)
    text = with_item(document, request.section, item)
    text, threads = _threads(document, text, fact_id, contradicted, memory.taken, session)
    created = [fact_id, *(thread.fact_id for thread in threads)]
    log = record(session.text, "created", created, session.log.display).text
    log_lines = [f"{label('created')}: {', '.join(created)}"]
    superseded = None
    if target is not None and old_footer is not None:
        log = record_event(log, "superseded", target.id, fact_id, session.log.display).text
        log_lines.append(event_line("superseded", target.id, fact_id))
        text_lines = target.footer_index - target.start
        superseded = Superseded(target.id, _line_of(text, [*[""] * text_lines, old_footer]))
    where = (document.path, _line_of(text, item), request.section, footer["tier"])
    return Addition(ADDED, fact_id, *where, text, log, tuple(log_lines), superseded, tuple(threads))


def _threads(
    document: Document,
    text: str,
    fact_id: str,
    contradicted: Sequence[str],
    memory_taken: Container[str],
    session: Current,
) -> tuple[str, list[Thread]]:
    """`text` with an Open Thread for each fact the new one contradicts, and those threads."""
    threads = []
    given = {fact_id}
    for old in contradicted:
        thread_id = free_id(f"{THREAD_PREFIX}-{fact_id}", memory_taken, given)
        given.add(thread_id)
        thread = f"Contradiction: {fact_id} conflicts with {old} — resolve"
        lines = thread_lines(thread, thread_id, session.date, session.log.stem)
        text = with_item(reparsed(document, text), OPEN_THREADS_SECTION, lines)
        threads.append(Thread(thread_id, old, _line_of(text, lines)))
    return text, threads


def _extra(request: NewFact) -> dict[str, str]:
    """The born footer's optional fields, in the order SPEC §3 lists them."""
    extra = {}
    if request.supersedes is not None:
        extra["supersedes"] = request.supersedes
    if request.scope is not None:
        extra["scope"] = ",".join(part.strip() for part in request.scope.split(","))
    if request.anti_pattern:
        extra["type"] = "anti-pattern"
    if request.tags:
        extra["tags"] = ",".join(dict.fromkeys(request.tags))
    return extra


def _line_of(text: str, item: Sequence[str]) -> int:
    """The 1-based line where `item` (its lines, the footer last: unique by its id) starts."""
    footer_at = text.index(item[-1])
    return text.count("\n", 0, footer_at) + 1 - (len(item) - 1)


def _where(memory: Known, fact_id: str) -> str:
    """`path:line` of the fact or blocked entry with this id, or the archive when no
    document read has it."""
    entry = memory.blocked.get(fact_id)
    if entry is not None:
        return f"{entry.path}:{entry.line}"
    found = known.find(memory.shown, fact_id)
    return "in the archive" if found is None else f"{found[0].path}:{found[1].line}"
