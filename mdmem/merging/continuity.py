"""Two versions of `continuity.md` merged fact by fact, keyed by id (pure).

Each version is read as tokens (`versions`), the content of each fact is merged on its own
(`outcomes`), the token sequences are merged three ways, which places every fact, and the
pieces become the text (`placing`). A fact deleted on one side and changed on the other,
even only by that side's review, is kept: the next review, which reads every copy and the
whole ledger, decides where it lives (`repair`). Judging on the merge's partial view instead
would let the result depend on which branch reviewed first. Text, or a creator's field,
rewritten differently on both sides is a real conflict, marked around that fact alone. A
version that does not parse falls back to the plain line merge.

Archive files merge the same way with `union`: what both sides wrote is kept, never marked.
Git's own union merge is not safe there: two branches that archived one fact with different
footers (one superseded it, the other saw it fade) leave one text with two footers, which
no review can read.
"""

from __future__ import annotations

from dataclasses import dataclass

from mdmem.errors import ParseError
from mdmem.format.document import parse_document
from mdmem.merging.diff3 import merge_text, text_file
from mdmem.merging.outcomes import kept_facts, merge_items
from mdmem.merging.placing import place, render
from mdmem.merging.versions import Sides, read_version
from mdmem.safety.shown import masked


@dataclass(frozen=True)
class Merged:
    text: str
    conflicts: tuple[str, ...]  # fact ids, and `line N` for prose both sides rewrote
    fallback: str | None = None  # why the fact merge gave way to the line merge

    @property
    def clean(self) -> bool:
        return not self.conflicts


def merge_continuity(
    base: str, ours: str, theirs: str, path: str = "continuity.md", *, union: bool = False
) -> Merged:
    """Merge ours and theirs against base; falls back to lines when a version does not parse.

    `union` (archive files): where both sides changed the same stretch differently,
    keep both, ours first, as git's union merge does, but fact by fact: a fact both
    sides archived is kept once with its footers merged, and a fact whose two versions
    clash is kept twice, for the review to resolve (`mdmem.reviewing.repair`). Nothing conflicts.
    """
    try:
        sides = Sides(
            read_version(base, f"{path} (base)"),
            read_version(ours, f"{path} (ours)"),
            read_version(theirs, f"{path} (theirs)"),
        )
    except ParseError as exc:
        reason = masked(str(exc), exc.context)  # the driver prints it
        return merge_lines(base, ours, theirs, union=union, reason=reason)
    outcomes = merge_items(sides, union)
    merged = Merged(*render(sides, outcomes, place(sides, outcomes, union)))
    if merged.clean:
        try:
            _check(merged.text, kept_facts(outcomes), path)
        except ParseError as exc:
            reason = f"the fact merge gave {masked(str(exc), exc.context)}"
            return merge_lines(base, ours, theirs, union=union, reason=reason)
    return merged


def merge_lines(
    base: str, ours: str, theirs: str, *, union: bool = False, reason: str | None = None
) -> Merged:
    """A plain three-way line merge, as `git merge-file` makes (see `diff3.merge_text`);
    with `reason`, the fallback of the fact merge: a conflict unless `union` kept both sides."""
    text, conflicts = merge_text(base, ours, theirs, union=union)
    if reason is not None and not union and not conflicts:
        conflicts = ("the merged text needs a person: " + reason,)
    return Merged(text, conflicts, reason)


def _check(text: str, kept: list[str], path: str) -> None:
    """A clean result must parse and hold exactly the facts the merge kept."""
    document = parse_document(text_file(f"{path} (merged)", text), unique_ids=False)
    found = sorted(fact.id for fact in document.facts)
    if found != sorted(kept):
        raise ParseError(f"facts {sorted(set(found) ^ set(kept))} lost or doubled", path)
