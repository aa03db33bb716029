"""The human gates: `mdmem supersede`, `restore`, `forget`, `blocked`, `core`, `thread`, `done`."""

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
from mdmem.writing.forget import forget as forget_fact
from mdmem.writing.forget import forget_text, tombstones
from mdmem.writing.gates import close_thread, make_core, open_thread, supersede_usage
from mdmem.writing.gates import restore as restore_fact
from mdmem.writing.gates import supersede as supersede_fact


@main.command()
@click.argument("old", metavar="OLD")
@click.option("--by", "by", metavar="NEW-ID", help="The live fact that replaces OLD.")
@click.option("--by-text", "text", metavar="TEXT", help="Add the fact that replaces OLD.")
@click.option("--section", default=None, help="The section of --by-text's fact (OLD's).")
@click.option("--scope", metavar="GLOB[,GLOB]", help="--by-text's fact's scope (default: OLD's).")
@click.option(
    "--tags", metavar="A,B", help="--by-text's fact's tags (default: OLD's; '' for none)."
)
@click.option("--invalidate", is_flag=True, help="OLD no longer holds; nothing replaces it.")
@click.option("--core", is_flag=True, help="OLD is core and a person asked to invalidate it.")
@session_option
@memory_options
def supersede(
    old: str,
    by: str | None,
    text: str | None,
    section: str | None,
    scope: str | None,
    tags: str | None,
    invalidate: bool,
    core: bool,
    named: str | None,
    root: Path | None,
    as_json: bool,
) -> None:
    """Retire OLD, a fact that became false (DECAY.md, Supersession): its footer gets
    `tier: superseded` and `superseded-by: NEW`, NEW's gets `supersedes: OLD`, and the
    current session log `Superseded: OLD → NEW` (`OLD (invalidated)` with --invalidate).
    --by-text adds the successor as `mdmem add` would (its id from its text, recorded
    `Created`), with OLD's scope and tags unless --scope or --tags give others. The next
    review archives OLD; `mdmem restore OLD` undoes it.

    Refuses, writing nothing, an unknown OLD (naming the nearest ids), one superseded
    already (naming its successor), a blocked one, a successor that is not live, and
    --invalidate of a core fact without --core (a person sets core, a person removes it).

    Example: mdmem supersede version-in-uri --by version-in-accept-header
    """
    problem = supersede_usage(by, text, section, invalidate, scope is not None or tags is not None)
    if problem is not None:
        raise click.UsageError(problem)
    words = None if tags is None else tuple(t.strip() for t in tags.split(",") if t.strip())
    found = resolve_root(root)
    session = (named or None, named_by())
    done = supersede_fact(
        found, old, by, text, section, *session, core=core, scope=scope, tags=words
    )
    if as_json:
        echo_json(done.as_dict())
        return
    if done.created is not None:
        click.echo(f"Created {done.new} in ## {done.created}")
    elif done.new is not None and not done.linked:
        click.echo(f"{done.new} already names the fact it replaced: its footer is unchanged")
    successor = f"→ {done.new}" if done.new else "(invalidated)"
    click.echo(f"{done.log.display}: Superseded: {done.old} {successor}")


@main.command()
@click.argument("old", metavar="OLD")
@session_option
@memory_options
def restore(old: str, named: str | None, root: Path | None, as_json: bool) -> None:
    """Undo OLD's supersession, a human's way back (DECAY.md, Supersession): `Restored: OLD` in the
    current session log, `superseded-by` dropped from its footer and its tier `active`
    again (`core` under Architectural Invariants; the next review recounts it), and
    `supersedes: OLD` dropped from its successor. An archived OLD stays in the archive
    until the next review brings it back to its section.

    Example: mdmem restore refunds-sync-call
    """
    done = restore_fact(resolve_root(root), old, named or None, named_by())
    archived = not done.place.live
    if as_json:
        fields = {"old": done.old, "where": done.place.display, "archived": archived}
        echo_json({**fields, "tier": done.tier, "unlinked": list(done.unlinked)})
        return
    if archived:
        click.echo(
            f"{done.old} is archived at {done.place.display}: the next review brings it back "
            f"to ## {done.place.home}"
        )
    click.echo(f"{done.log.display}: Restored: {done.old}")


@main.command()
@click.argument("fact_id", metavar="[ID]", required=False)
@click.option("--reason", required=True, help="Why it must never come back (one line).")
@click.option(
    "--text", metavar="TEXT", help="Block a rule that was never in memory (ID: its id, optional)."
)
@click.option("--core", is_flag=True, help="ID is core and a person asked to forget it.")
@session_option
@memory_options
def forget(
    fact_id: str | None,
    reason: str,
    text: str | None,
    core: bool,
    named: str | None,
    root: Path | None,
    as_json: bool,
) -> None:
    """Forget a fact for good (DECAY.md, Forgetting): move it, text and notes, from continuity
    or the archive to memory/blocked.md with the session's date and the reason, and record
    `Forgotten: ID` in the current session log. From then on add, review and lint
    refuse text near it, reworded or not; only editing blocked.md by hand lifts it. A core
    fact is forgotten only with --core: a person sets core, and a person removes it.
    --text blocks a rule that was never in memory, so that no one adds it to forget it.

    Example: mdmem forget mock-the-database --reason "hid a migration bug in prod"
    """
    if fact_id is None and text is None:
        raise click.UsageError("give the ID of a fact, or --text TEXT for a rule never in memory")
    found, session = resolve_root(root), (named or None, named_by())
    if text is not None:
        done = forget_text(found, text, reason, fact_id, *session)
    else:
        assert fact_id is not None
        done = forget_fact(found, fact_id, reason, *session, core=core)
    where = None if done.place is None else done.place.display
    if as_json:
        fields = {"id": done.fact_id, "from": where, "blocked": done.date}
        fields |= {"reason": done.reason, "session": done.log.display}
        echo_json({**fields, "superseded_stay": list(done.replaced)})
        return
    moved = "blocked a text never in memory" if where is None else f"moved from {where}"
    click.echo(f"Forgot {done.fact_id}: {moved} to {done.blocked}")
    click.echo(f"{done.log.display}: Forgotten: {done.fact_id}")
    for old in done.replaced:
        click.echo(
            f"{old}, which it superseded, stays superseded (lookup shows its successor as "
            f"forgotten): `mdmem restore {old}` if it holds again"
        )


@main.command()
@memory_options
def blocked(root: Path | None, as_json: bool) -> None:
    """List the tombstones of memory/blocked.md: id, date, reason and the first line of
    the forgotten text (secret material masked).

    Example: mdmem blocked --json
    """
    found = tombstones(resolve_root(root))
    if as_json:
        keys = ("fact_id", "blocked", "reason", "summary", "where")
        echo_json({"blocked": [{key: getattr(entry, key) for key in keys} for entry in found]})
        return
    if not found:
        click.echo("no blocked entries")
    for entry in found:
        click.echo(f"{entry.fact_id} — {entry.blocked} — {entry.reason} — {entry.summary}")


@main.command()
@click.argument("fact_id", metavar="ID")
@memory_options
def core(fact_id: str, root: Path | None, as_json: bool) -> None:
    """Make a fact core (a human's gate): `tier: core`, which never decays and which no
    review overwrites. Refuses an unknown, superseded or blocked id.

    Example: mdmem core money-integer-minor-units
    """
    done = make_core(resolve_root(root), fact_id)
    where = done.place.display
    if as_json:
        echo_json({"id": fact_id, "where": where, "changed": done.changed})
    elif done.changed:
        click.echo(f"{fact_id}: core ({where})")
    else:
        click.echo(f"{fact_id} is core already ({where}): nothing written")


@main.command()
@click.argument("text", metavar="TEXT")
@session_option
@memory_options
def thread(text: str, named: str | None, root: Path | None, as_json: bool) -> None:
    """Open a thread: `- [ ] TEXT` at the end of ## Open Threads (in a file of its own,
    open-threads/thread-ID.md, when the memory keeps its threads so), born in the current
    session with an id derived from the text, recorded `Created`. An open thread that
    says the same is named instead, and nothing is written.

    Example: mdmem thread "Decide the retry budget for the outbox worker"
    """
    done = open_thread(resolve_root(root), text, named or None, named_by())
    if as_json:
        echo_json(done.as_dict())
        return
    if not done.created:
        click.echo(f"{done.thread_id} is open already and says the same: nothing written")
        return
    assert done.log is not None
    where = "## Open Threads" if done.file is None else f"{done.log.root.name}/{done.file}"
    click.echo(f"Opened {done.thread_id} in {where}")
    click.echo(f"{done.log.display}: Created: {done.thread_id}")


@main.command()
@click.argument("fact_id", metavar="ID")
@session_option
@memory_options
def done(fact_id: str, named: str | None, root: Path | None, as_json: bool) -> None:
    """Check off an open thread: its `- [ ]` becomes `- [x]`, nothing else in it changes,
    and the current session log records `Closed: ID` (a use of the thread; with no session
    open, the check alone). The review sweeps it to the archive once it fades. Refuses
    anything but an open thread.

    Example: mdmem done retry-budget-open
    """
    closed = close_thread(resolve_root(root), fact_id, named or None, named_by())
    log = closed.log
    if as_json:
        where = closed.place.display
        session = None if log is None else log.stem
        echo_json({"id": fact_id, "where": where, "changed": True, "session": session})
        return
    click.echo(f"{fact_id}: done ({closed.place.display})")
    if log is not None:
        click.echo(f"{log.display}: Closed: {fact_id}")
    else:
        click.echo(f"no session is open: no log records Closed: {fact_id}")
