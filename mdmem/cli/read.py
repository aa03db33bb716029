"""`mdmem lookup`, `show`, `context` and `status`: finding and serving the memory."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mdmem.cli.main import main
from mdmem.cli.options import (
    json_option,
    left_out_json,
    named_by,
    resolve_root,
    root_option,
    serves_what_it_can,
    session_option,
    working_folder,
)
from mdmem.format.footer import TIERS
from mdmem.safety.secrets import redact, redact_all

_PATH_HELP = "Leave out facts whose `scope` glob does not match this file (src/api/x.py)."


def _print(lines: list[str] | str, as_json: object = None) -> None:
    """Print the memory's text, every secret in it masked: these commands show what the
    files hold, and a secret pasted into a fact or a log must not reach a terminal or an
    agent's context (the review refuses to write it; lint reports it)."""
    if as_json is not None:
        if isinstance(as_json, dict) and (left_out := left_out_json()):
            as_json = {**as_json, "warnings": left_out}
        click.echo(json.dumps(redact_all(as_json), indent=2))
    else:
        text = "\n".join(lines) if isinstance(lines, list) else lines.removesuffix("\n")
        if text:
            click.echo(redact(text))


@main.command()
@root_option
@json_option
@click.argument("words", nargs=-1, required=True, metavar="QUERY...")
@click.option("--sessions", is_flag=True, help="Search the session logs too, line by line.")
@click.option("--tier", type=click.Choice(TIERS), help="Only facts with this tier label.")
@click.option("--path", "path", metavar="FILE", help=_PATH_HELP)
@click.option("--limit", type=click.IntRange(min=1), help="At most N hits per list.")
@click.option("--explain", is_flag=True, help="Show how each hit scored (BM25, tier).")
@serves_what_it_can
def lookup(
    root: Path | None, as_json: bool, words: tuple[str, ...], sessions: bool,
    tier: str | None, path: str | None, limit: int | None, explain: bool,
) -> None:  # fmt: skip
    """Find facts by the words of QUERY (quoted or not), ranked: `path:line  id  tier
    text` per hit, best first.

    Case, plurals, tenses and word order do not matter; rare words weigh more than
    common ones, and short facts more than long ones (BM25), what holds now before the
    archive. Superseded facts are listed apart, each with its successor. Exit 1 when
    nothing matches.

    Example: mdmem lookup "retry webhooks" --path src/api/hooks.py --limit 5 --explain
    """
    # Each command imports its own reading module only: lookup none of context's, status's
    # or show's (11, 10 and 42 ms of a start held to 1.5x `mdmem --version`).
    from mdmem.reading.search import lookup as run_lookup

    query = " ".join(words)
    found = run_lookup(
        resolve_root(root),
        query,
        sessions=sessions,
        tier=tier,
        path=path,
        limit=limit,
        cwd=working_folder(),
    )
    _print(found.render(explain), found.as_dict(explain) if as_json else None)
    left = found.ranking.total - len(found.ranking.hits)
    if left and not as_json:  # on stderr: the hits stay lines for grep and editors
        facts = "fact matches" if left == 1 else "facts match"
        click.echo(f"({left} more {facts}; raise --limit to see them)", err=True)
    if not (found.ranking.hits or found.ranking.superseded or found.lines):
        if not as_json:
            click.echo(redact(_nothing(query, tier, path, root)), err=True)
        raise SystemExit(1)


def _nothing(query: str, tier: str | None, path: str | None, root: Path | None) -> str:
    """What lookup says when no fact matches: whether --tier or --path left out some that do."""
    from mdmem.reading.search import lookup as run_lookup  # see `lookup`

    shown = redact(query)
    asked = [f"--tier {tier}"] * (tier is not None) + [f"--path {path}"] * (path is not None)
    if asked:
        plain = run_lookup(resolve_root(root), query).ranking
        matching = plain.total + len(plain.superseded)
        if matching:
            facts = "fact matches" if matching == 1 else "facts match"
            them = "it" if len(asked) == 1 else "them"
            within = " and ".join(asked)
            return f"Nothing matches {shown!r} with {within}: {matching} {facts} without {them}"
    return f"Nothing matches {shown!r}; try other words, or --sessions."


@main.command()
@root_option
@json_option
@click.argument("fact_id", metavar="ID")
@click.option(
    "--as-of",
    metavar="SESSION|DATE",
    help="Also give the tier the ledger gave the fact at that session log or date.",
)
@serves_what_it_can
def show(root: Path | None, as_json: bool, fact_id: str, as_of: str | None) -> None:
    """One fact's story: where it lives, its origin, every session that referenced it
    (newest first), what it replaced and what replaced it, its feedback.

    Example: mdmem show post-only-mutations --as-of 2026-06-30
    """
    from mdmem.reading import history  # see `lookup`
    from mdmem.reading.search import show as run_show

    shown = run_show(resolve_root(root), fact_id, as_of)
    _print(history.render(shown), history.as_dict(shown) if as_json else None)


@main.command()
@root_option
@json_option
@click.argument("task", nargs=-1, metavar="[TASK]...")
@click.option("--path", "path", metavar="FILE", help=_PATH_HELP)
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=None,
    help="Most tokens to print (estimated as characters / 4); default 2000.",
)
@click.option(
    "--format", "output", type=click.Choice(["markdown", "json"]), default="markdown",
    show_default=True, help="Markdown for an agent's prompt, or JSON.",
)  # fmt: skip
@serves_what_it_can
def context(
    root: Path | None,
    as_json: bool,
    task: tuple[str, ...],
    path: str | None,
    budget: int | None,
    output: str,
) -> None:
    """What an agent reads before a task: core facts, the rules most relevant to TASK,
    open threads, pitfalls apart; every line with its id, within a token budget.

    Ends with the line that asks to cite the facts used: `mdmem ref ID [ID...]`.

    Example: mdmem context "add a retry to the webhook sender" --path src/hooks.py --budget 1500
    """
    from mdmem.reading import context as context_module  # see `lookup`
    from mdmem.reading.sources import context as run_context

    asked = " ".join(task) or None  # quoted or not
    planned = run_context(resolve_root(root), asked, path=path, budget=budget, cwd=working_folder())
    if as_json or output == "json":
        _print([], context_module.as_json(planned))
    else:
        _print(context_module.render_markdown(planned))


@main.command()
@root_option
@json_option
@session_option
@click.option("--lint", "run_lint", is_flag=True, help="Run lint now for its counts (slower).")
@serves_what_it_can
def status(root: Path | None, as_json: bool, named: str | None, run_lint: bool) -> None:
    """Where things stand: the current session log, sessions since the last review and
    whether one is due, lint's counts (from the last lint while nothing changed), the
    open threads.

    Example: mdmem status --json
    """
    from mdmem.reading import status as status_module  # see `lookup`
    from mdmem.reading.sources import status as run_status
    from mdmem.writing.logs import current_or_none  # status's only: 17 ms

    found = resolve_root(root)
    log, uncommitted = current_or_none(found, named or None, named_by())
    session, source = (None, None) if log is None else (log.display, log.source)
    state = run_status(found, session, source, uncommitted, run_lint=run_lint)
    _print(status_module.render(state), status_module.as_dict(state) if as_json else None)
