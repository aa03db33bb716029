"""Hand edits of the live facts since the last commit, which the files alone do not show: a
fact deleted, a new fact born core, a `uses` the ledger does not give, text brought back
near a superseded fact's.

Pure: `committed.py` reads what HEAD holds and hands it in as a `Committed`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mdmem.format.blocked import BlockedEntry
from mdmem.format.document import Document, Fact
from mdmem.format.memory import CONTINUITY, Memory
from mdmem.format.sections import INVARIANTS_SECTION, same_name
from mdmem.format.textfile import body
from mdmem.format.words import Claim, item_claim
from mdmem.linting.facts import known_ids
from mdmem.linting.findings import Finding, finding
from mdmem.safety.blocklist import SUPERSEDED_KEPT_PERCENT, coincide, near

RETIRE = (
    "`mdmem supersede ID --by NEW` (or `--by-text TEXT`) when it is false, `mdmem forget ID "
    "--reason WHY` when it must never come back, or leave it to `mdmem review`, which "
    "archives a fact that faded"
)


@dataclass(frozen=True)
class Committed:
    """What HEAD holds of the live files (continuity and the thread files)."""

    facts: Mapping[str, Mapping[str, str]]  # id -> its footer's fields at HEAD
    lines: Mapping[str, frozenset[str]]  # file as shown -> the bodies of its lines at HEAD
    items: Mapping[str, tuple[str, ...]]  # id -> the bodies of its item's lines at HEAD

    def is_new(self, document: Document, index: int) -> bool:
        """Whether line `index` of `document` was written or edited since HEAD."""
        held = self.lines.get(document.path)
        return held is None or body(document.lines[index]) not in held

    def changed(self, document: Document, fact: Fact) -> bool:
        """Whether the fact is new since HEAD, or any of its lines was edited."""
        lines = tuple(body(line) for line in document.lines[fact.start : fact.end])
        return self.items.get(fact.id) != lines


def hand_edit_findings(
    memory: Memory,
    vision: Document | None,
    entries: tuple[BlockedEntry, ...],
    committed: Committed | None,
) -> list[Finding]:
    """Every check of the live facts against HEAD (`committed`; None outside git) but the
    text near a superseded fact's (`near_superseded_findings`)."""
    if committed is None:
        return []
    found = _deleted(memory, vision, entries, committed)
    for document in memory.live:
        for fact in document.facts:
            if fact.id not in committed.facts or committed.changed(document, fact):
                found += _by_hand(memory, document, fact, committed)
    return found


def _deleted(
    memory: Memory,
    vision: Document | None,
    entries: tuple[BlockedEntry, ...],
    committed: Committed,
) -> list[Finding]:
    """Ids HEAD's live files hold that no file holds now: deleted, not retired."""
    now = known_ids(memory, vision, entries)
    path = f"{memory.root.name}/{CONTINUITY}"
    found = []
    for fact_id in sorted(set(committed.facts) - now):
        kept = _text_left(memory, committed.items.get(fact_id, ()))
        if kept is None:
            message = (
                f"fact {fact_id} was deleted by hand: HEAD holds it, and no file holds it now "
                "(not continuity, the archive, a thread file nor blocked.md), so its text is "
                "lost and the logs that cite it name nothing"
            )
            hint = f"put it back (`git show HEAD:{path}` holds it), then retire it with {RETIRE}"
            found.append(finding("E012", path, 1, message, hint))
            continue
        shown, line, now_id = kept
        if now_id is not None:  # the same lines under another id
            message = (
                f"fact {fact_id} is now {now_id}: its id was changed by hand, and the logs "
                f"that cite {fact_id} name nothing"
            )
            hint = f"put the id back; a fact that became false is retired with {RETIRE}"
        else:
            message = (
                f"fact {fact_id} lost its footer by hand: its text is still here, read now as "
                "the start of the item its lines run into, and the logs that cite it name "
                "nothing"
            )
            hint = f"put its footer back below its text (`git show HEAD:{shown}` holds it)"
        found.append(finding("E012", shown, line, message, hint))
    return found


def _text_left(memory: Memory, item: tuple[str, ...]) -> tuple[str, int, str | None] | None:
    """Where a live file still holds the first line of a fact's item: its file as shown,
    the 1-based line, and the id it holds now when its lines are all there under another
    footer (an id changed), else None (its footer gone, its text runs on)."""
    for document in memory.live:
        for index, line in enumerate(document.lines):
            if item and body(line) == item[0]:
                holder = next((f for f in document.facts if f.start == index), None)
                same = holder is not None and holder.end - holder.start == len(item)
                return document.path, index + 1, holder.id if same and holder else None
    return None


def _by_hand(memory: Memory, document: Document, fact: Fact, committed: Committed) -> list[Finding]:
    """A new fact born core outside the invariants; lines put above a fact's first, which
    its footer now closes too; a `uses` no log gives."""
    found = []
    line = fact.footer_index + 1
    before = committed.facts.get(fact.id, {})
    core = fact.get("tier") == "core" and not same_name(fact.section, INVARIANTS_SECTION)
    if core and fact.id not in committed.facts:
        found.append(
            finding(
                "W025",
                document.path,
                line,
                f"fact {fact.id} is born core by an edit: core is a person's decision, and "
                "the review never lets a core fact decay",
                f"write `tier: working` (a new fact is born so); a person who wants it core "
                f"runs `mdmem core {fact.id}`",
            )
        )
    held = committed.items.get(fact.id, ())
    now = tuple(body(text) for text in document.lines[fact.start : fact.end])
    above = now.index(held[0]) if held and held[0] in now else 0
    if above and not set(now[:above]) & set(held):  # new lines put above its first
        message = (
            f"fact {fact.id} was joined from above since HEAD: `{now[0][:80]}` opens its "
            "text now, read as part of that fact"
        )
        found.append(finding("W030", document.path, fact.start + 1, message))
    uses = fact.get("uses")
    if uses is not None and uses != before.get("uses"):
        cited = sum(1 for session in memory.sessions if fact.id in session.references)
        if int(uses) > max(cited, 1):
            found.append(
                finding(
                    "W026",
                    document.path,
                    line,
                    f"fact {fact.id} says uses: {uses}, set by hand: the session logs cite it "
                    f"in {cited}",
                    f"usage is never typed: write `uses: {max(cited, 1)}`; `mdmem review` "
                    "counts it from the logs",
                )
            )
    return found


def near_superseded_findings(memory: Memory, committed: Committed | None) -> list[Finding]:
    """Live facts, written or edited since HEAD (every one outside git), near a superseded
    fact's text."""
    retired = [
        (fact, item_claim(document.fact_text(fact)))
        for document in (*memory.live, *memory.archives)
        for fact in document.facts
        if fact.is_superseded
    ]
    found = []
    for document in memory.live if retired else ():
        for fact in document.facts:
            if fact.is_superseded or (committed and not committed.changed(document, fact)):
                continue
            own = item_claim(document.fact_text(fact))
            for old, old_claim in retired:
                if old.id != fact.id and _brings_back(fact, own, old, old_claim):
                    successor = old.get("superseded-by") or "none (invalidated)"
                    message = (
                        f"fact {fact.id} says what superseded fact {old.id} said; "
                        f"its successor is {successor}"
                    )
                    found.append(finding("W027", document.path, fact.line, message))
                    break
    return found


def _brings_back(fact: Fact, own: Claim, old: Fact, old_claim: Claim) -> bool:
    """Whether `fact` is `old` coming back. Its own successor may add a clause to the old
    text (that is often what replaced it): only the same words bring that one back."""
    replaced = {part.strip() for part in (fact.get("supersedes") or "").split(",")}
    successor = old.get("superseded-by") == fact.id or old.id in replaced
    if successor:
        return coincide(own, old_claim)
    return near(own, old_claim, kept=SUPERSEDED_KEPT_PERCENT)
