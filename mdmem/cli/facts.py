"""Facts written through the command line: `mdmem add`."""

from __future__ import annotations

from pathlib import Path

import click

from mdmem.cli.main import main
from mdmem.cli.options import (
    echo_json,
    memory_options,
    named_by,
    resolve_root,
    session_option,
)
from mdmem.writing.add import Added, add_fact
from mdmem.writing.add_plan import NewFact


@main.command()
@click.argument("text")
@click.option(
    "--section",
    required=True,
    metavar="NAME",
    help="The ## section of continuity.md it goes at the end of, whatever the case (a new "
    "one, before ## Open Threads, when there is none; a name a typo away from an existing "
    "section is refused, unless --new-section). Under Architectural Invariants a fact is "
    "born core.",
)
@click.option(
    "--new-section",
    is_flag=True,
    help="Make the section even when its name is a typo away from one continuity has.",
)
@click.option("--id", "fact_id", metavar="ID", help="Its id. Default: derived from the text.")
@click.option("--tags", metavar="A,B", help="Comma-separated words, for lookup.")
@click.option("--scope", metavar="GLOB[,GLOB]", help="The paths it applies to: src/api/**.")
@click.option(
    "--anti-pattern",
    is_flag=True,
    help="A pitfall (type: anti-pattern), not a rule: name the bad practice. A text that "
    "already says don't (never, avoid...) is added as a rule, and the output says so.",
)
@click.option("--supersedes", metavar="ID", help="The live fact it replaces: marked superseded.")
@session_option
@memory_options
def add(
    text: str,
    section: str,
    fact_id: str | None,
    tags: str | None,
    scope: str | None,
    anti_pattern: bool,
    supersedes: str | None,
    new_section: bool,
    named: str | None,
    root: Path | None,
    as_json: bool,
) -> None:
    """Add a fact to continuity.md and record `Created: ID` in the current session log.

    The fact is born working (core under Architectural Invariants), uses 1, dated and
    originated by the current session. A fact memory already holds (the same words, or
    reworded with the same polarity) is not added: it is cited (`Referenced:`) instead,
    and an archived fact said again word for word is cited `Reactivated:` (the review
    brings it back).
    Refused, writing nothing: secret material, text near a blocked entry, the text of a
    superseded fact, and a contradiction of a core fact without --supersedes. A
    contradiction of another fact opens an Open Thread, unless --supersedes names it.

    Example: mdmem add "Mutations use POST only; no PUT or PATCH" --section "Key Decisions"
    """
    words = tuple(tag.strip() for tag in (tags or "").split(",") if tag.strip())
    request = NewFact(text, section, fact_id, words, scope, anti_pattern, supersedes, new_section)
    done = add_fact(resolve_root(root), request, named or None, named_by())
    if as_json:
        echo_json(done.as_dict())
        return
    for line in _report(done):
        click.echo(line)


def _report(done: Added) -> list[str]:
    """What an add did, a line each: the fact, what it superseded or opened, the log."""
    found = done.addition
    where = f"{found.path}:{found.line}"
    if found.outcome == "duplicate":
        lines = [f"Nothing added: the text duplicates {found.fact_id} ({where})"]
        lines += [f"Note: {found.note}"] if found.note else []
        cited = found.log_lines or (f"Referenced: {found.fact_id} (already there)",)
    else:
        lines = [f"Added {found.fact_id} at {where} ({found.section}, {found.tier})"]
        lines += [f"Note: {found.note}"] if found.note else []
        old = found.superseded
        if old is not None:
            lines.append(
                f"Superseded {old.fact_id} at {found.path}:{old.line} (superseded-by "
                f"{found.fact_id})"
            )
        lines += [
            f"Contradiction: {found.fact_id} conflicts with {thread.contradicts}; opened "
            f"{thread.fact_id} at {found.path}:{thread.line}"
            for thread in found.threads
        ]
        cited = found.log_lines
    return [*lines, *(f"{done.log.display}: {line}" for line in cited)]
