"""What each rule and tombstone of the sources becomes, before any text is written (pure).

The rules are docs/MIGRATE.md's ("What each rule becomes"): each rule is checked as
`mdmem add` checks a text (`writing.conflicts`), against the memory and the rules taken
before it. No winner is picked between two facts that say opposite things: both are kept,
and an Open Thread names both and where each came from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from mdmem.errors import ParseError
from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact, parse_document
from mdmem.format.footer import new_footer
from mdmem.format.memory import Memory
from mdmem.format.textfile import decode
from mdmem.format.words import claim, item_claim
from mdmem.migrating.sources import Located, Rule, Source, Tombstone
from mdmem.safety.blocklist import blocked_facts, blocking, blocklist
from mdmem.safety.harm import first_harm
from mdmem.writing import conflicts, known
from mdmem.writing.add_plan import THREAD_PREFIX
from mdmem.writing.backfill import known_ids
from mdmem.writing.conflicts import Meeting
from mdmem.writing.facts import FOOTER_INDENT
from mdmem.writing.ids import derive_id
from mdmem.writing.known import ARCHIVED_BACK

IMPORTED = "imported"
FOLDED = "folded"
REFUSED = "refused"
BLOCKED = "blocked"
OUTCOMES = (IMPORTED, FOLDED, REFUSED, BLOCKED)


@dataclass(frozen=True)
class Outcome(Located):
    """What the rule or tombstone at a place became: IMPORTED (a new fact), FOLDED (into a
    fact that says the same), REFUSED (and why), BLOCKED (a new `blocked.md` entry)."""

    outcome: str
    fact_id: str | None  # the fact made or folded into, the entry made
    section: str | None
    detail: str = ""


@dataclass(frozen=True)
class Pending:
    """A fact to be created: its first rule, and what the rules folded into it add."""

    fact_id: str
    rule: Rule
    helpful: bool
    harmful: bool
    scope: str | None
    core: tuple[str, ...]  # why sources mark it as always in force, each with the source


def decide(memory: Memory, sources: Sequence[Source]) -> Decided:
    """Tombstones first, so that a rule of any source near one is refused; then each rule,
    in source order."""
    decided = Decided(memory)
    for source in sources:
        for tombstone in source.tombstones:
            decided.tombstone(tombstone)
    for source in sources:
        for rule in source.rules:
            decided.rule(rule)
    order = {source.path: index for index, source in enumerate(sources)}
    decided.outcomes.sort(key=lambda o: (order[o.source], o.line))
    return decided


def unsafe(text: str) -> tuple[int, str] | None:
    """(1-based line in `text`, why) when the text must not become a fact, else None."""
    harm = first_harm(text)
    if harm is not None:
        return harm.line, f"{harm.detail}: never copied" if harm.secret else harm.detail
    for number, line in enumerate(text.split("\n"), start=1):
        if "<!--" in line or "-->" in line:
            return number, "an HTML comment ('<!--'), which a fact cannot hold"
    return None


class Decided:
    """The decisions so far: the memory's facts, the facts and entries to be made, the
    conflicts, the outcomes (in source order once `decide` is done), and each rule's own id
    in its source (`keys`) -> the fact it became."""

    def __init__(self, memory: Memory) -> None:
        vision = [memory.vision] if memory.vision is not None else []
        self.documents = (memory.continuity, *vision, *memory.archives)
        self.kept = (memory.continuity, *memory.archives)  # what lint holds to blocked.md
        self.facts: dict[str, tuple[str, Document, Fact]] = {}  # id -> where it is
        for document in self.documents:
            for fact in document.facts:
                self.facts.setdefault(fact.id, (f"{document.path}:{fact.line}", document, fact))
        events = [event for session in memory.sessions for event in session.events]
        self.superseded = known.after_events(known.supersessions(self.documents), events)
        self.taken = known_ids(memory)
        self.entries: list[BlockedEntry] = list(memory.blocked)
        self.pending: dict[str, Pending] = {}
        self.staged: dict[str, Document] = {}
        self.keys: dict[str, str] = {}
        self.conflicts: list[tuple[str, str]] = []  # (its thread's id, the thread's text)
        self.outcomes: list[Outcome] = []
        self.tombstones: list[tuple[str, Tombstone]] = []

    def out(self, rule: Rule | Tombstone, outcome: str, fact_id: str | None, detail: str) -> None:
        section = rule.section if isinstance(rule, Rule) and outcome == IMPORTED else None
        self.outcomes.append(Outcome(rule.source, rule.line, outcome, fact_id, section, detail))

    def tombstone(self, tombstone: Tombstone) -> None:
        danger = unsafe(f"{tombstone.text}\n{tombstone.reason}")
        if danger is not None:  # a blocked.log entry is one line of its file
            self.out(tombstone, REFUSED, None, danger[1])
            return
        known_entry = blocking(claim(tombstone.text), blocklist(self.entries))
        if known_entry is not None:
            where = f"{known_entry.path}:{known_entry.line}"
            self.out(tombstone, FOLDED, known_entry.fact_id, f"blocked already ({where})")
            return
        fact_id = derive_id(tombstone.text, self.taken)
        lines = tuple(item(tombstone.text.split("\n")))
        date = tombstone.date or ""
        entry = BlockedEntry(fact_id, date, tombstone.reason, lines, tombstone.source, 0)
        for document, fact, _ in blocked_facts(self.kept, (entry,)):
            why = (
                f"a fact the memory keeps is near it ({document.path}:{fact.line}); to block "
                f"it, run `mdmem forget {fact.id} --reason TEXT`"
            )
            self.out(tombstone, REFUSED, fact.id, why)
            return
        self.taken.add(fact_id)
        self.entries.append(entry)
        self.tombstones.append((fact_id, tombstone))
        self.out(tombstone, BLOCKED, fact_id, "")

    def rule(self, rule: Rule) -> None:
        danger = unsafe("\n".join([*rule.lines, rule.scope or ""]))
        if danger is not None:
            line = rule.line + danger[0] - 1 if danger[0] <= len(rule.lines) else rule.line
            self.outcomes.append(Outcome(rule.source, line, REFUSED, None, None, danger[1]))
            return
        documents = (*self.documents, *self.staged.values())
        own = item_claim(item(rule.lines))  # as the fact will be read: nested notes left out
        entries = tuple(self.entries)
        found = conflicts.meetings(rule.text, rule.section, documents, entries, own)
        for meeting in found:
            if meeting.kind == conflicts.BLOCKED and meeting.entry is not None:
                self.out(rule, REFUSED, meeting.fact_id, _blocked(meeting.entry))
                return
        self._place(rule, found)

    def _place(self, rule: Rule, found: Sequence[Meeting]) -> None:
        """Fold, refuse or import a rule that is safe and not blocked."""
        live, dead = self._duplicates(found)
        live = [fact_id for fact_id in live if not self._says_more(rule, fact_id)]
        if live and not rule.retired and self._folds_into(rule, live[0]):
            self._fold(rule, live[0])
            return
        if dead and (rule.retired or dead[0] not in self.pending):
            if rule.retired:
                self._fold(rule, dead[0])
            else:
                why = known.superseded_refusal(dead[0], self.superseded.get(dead[0]))
                self.out(rule, REFUSED, dead[0], f"{why} ({self._where(dead[0])})")
            return
        archived = [
            m.fact_id
            for m in found
            if m.kind == conflicts.ARCHIVED and self._folds_into(rule, m.fact_id)
        ]
        if archived and not rule.retired:  # faded, not false: one fact, brought back by use
            self._fold(rule, archived[0], "archived", f": {ARCHIVED_BACK.format(id=archived[0])}")
            return
        opposed = [m for m in found if m.kind == conflicts.CONTRADICTION]
        core = [m.fact_id for m in opposed if m.core]
        if core:
            why = (
                f"contradicts core fact {core[0]} ({self._where(core[0])}); a core fact "
                "changes only on purpose: supersede it by hand, then migrate again"
            )
            self.out(rule, REFUSED, core[0], why)
            return
        fact_id = self._import(rule)
        if fact_id is None:
            return
        others = [*live[:1], *dead[:1], *(m.fact_id for m in opposed)]
        for other in dict.fromkeys(others):
            text = (
                f"Contradiction: {fact_id} ({rule.where}) conflicts with "
                f"{other} ({self._where(other)}) — resolve"
            )
            self.conflicts.append((f"{THREAD_PREFIX}-{fact_id}", text))

    def _duplicates(self, found: Sequence[Meeting]) -> tuple[list[str], list[str]]:
        """The facts the text repeats: live ones, and superseded ones (the memory's, or
        rules their source deprecated)."""
        live, dead = [], []
        for meeting in found:
            if meeting.kind == conflicts.SUPERSEDED or (
                meeting.kind == conflicts.DUPLICATE and meeting.fact_id in self.superseded
            ):
                dead.append(meeting.fact_id)
            elif meeting.kind == conflicts.DUPLICATE:
                live.append(meeting.fact_id)
        return live, dead

    def _folds_into(self, rule: Rule, fact_id: str) -> bool:
        """Whether the rule, near the fact, folds into it: it says no more than the fact,
        and both are rules or both anti-patterns (the same words as a rule and as an
        anti-pattern say opposite things)."""
        anti_pattern = self.facts[fact_id][2].get("type") == "anti-pattern"
        return anti_pattern == rule.anti_pattern and not self._says_more(rule, fact_id)

    def _says_more(self, rule: Rule, fact_id: str) -> bool:
        """Whether the rule holds every word of the fact and more (the fact with a clause
        added): near enough to block, but folding it would lose the clause."""
        _, document, fact = self.facts[fact_id]
        return item_claim(document.fact_text(fact)).words < item_claim(item(rule.lines)).words

    def _fold(
        self, rule: Rule, fact_id: str, how: str = "already in memory", then: str = ""
    ) -> None:
        if rule.key is not None:
            self.keys.setdefault(rule.key, fact_id)
        pending = self.pending.get(fact_id)
        if pending is None:
            self.out(rule, FOLDED, fact_id, f"{how} ({self._where(fact_id)}){then}")
            return
        scope = None  # no scope (every file) when either has none
        if pending.scope is not None and rule.scope is not None:
            scope = ",".join(
                dict.fromkeys(filter(None, f"{pending.scope},{rule.scope}".split(",")))
            )
        self.pending[fact_id] = replace(
            pending,
            helpful=pending.helpful or rule.helpful > 0,
            harmful=pending.harmful or rule.harmful > 0,
            scope=scope,
            core=(*pending.core, *_core(rule)),
        )
        self.out(rule, FOLDED, fact_id, f"the same as {pending.rule.where}")

    def _import(self, rule: Rule) -> str | None:
        fact_id = derive_id(rule.text, self.taken)
        staged = _staged(rule, fact_id)
        if isinstance(staged, ParseError):
            self.out(rule, REFUSED, None, f"cannot be read back as a fact: {staged.message}")
            return None
        self.taken.add(fact_id)
        if rule.key is not None:
            self.keys.setdefault(rule.key, fact_id)
        core = tuple(_core(rule))
        pending = Pending(fact_id, rule, rule.helpful > 0, rule.harmful > 0, rule.scope, core)
        self.pending[fact_id] = pending
        self.staged[fact_id] = staged
        self.facts[fact_id] = (rule.where, staged, staged.facts[0])
        counted = rule.helpful or rule.harmful
        votes = f"its source counted helpful {rule.helpful}, harmful {rule.harmful}"
        self.out(rule, IMPORTED, fact_id, votes if counted else "")
        return fact_id

    def _where(self, fact_id: str) -> str:
        pending = self.pending.get(fact_id)
        return pending.rule.where if pending is not None else self.facts[fact_id][0]


def _blocked(entry: BlockedEntry) -> str:
    if entry.line == 0:  # an entry this migration makes
        return f"near {entry.fact_id}, blocked by {entry.path}: it must not come back"
    return known.blocked_refusal(entry)


def _core(rule: Rule) -> list[str]:
    return [] if rule.core_reason is None else [f"{rule.core_reason} in {rule.source}"]


def _staged(rule: Rule, fact_id: str) -> Document | ParseError:
    """The rule as a fact of its own document, for the next rules to meet; the error when
    its text cannot be read back as one fact."""
    fields = {"id": fact_id, "tier": "superseded" if rule.retired else "working"}
    if rule.anti_pattern:
        fields["type"] = "anti-pattern"
    lines = [
        f"## {rule.section}",
        *fact_lines(rule.lines, fields, " " if rule.thread else None),
    ]
    try:
        document = parse_document(decode("\n".join([*lines, ""]).encode("utf-8"), rule.where))
    except ParseError as error:
        return error
    if [fact.id for fact in document.facts] != [fact_id] or document.footerless:
        return ParseError("its lines do not read back as one list item", rule.where)
    return document


def fact_lines(
    text: Sequence[str], fields: Mapping[str, str], checkbox: str | None = None
) -> list[str]:
    """A list item of `text` closed by a footer of `fields`."""
    return [*item(text, checkbox), new_footer(FOOTER_INDENT, fields).render()]


def item(text: Sequence[str], checkbox: str | None = None) -> list[str]:
    """A list item's lines: `text`'s first line after the marker, the later ones indented
    under it as they were."""
    marker = "- " if checkbox is None else f"- [{checkbox}] "
    return [marker + text[0], *(f"  {line}" if line else "" for line in text[1:])]
