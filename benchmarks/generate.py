"""Generate a deterministic, realistic mdmem memory folder for benchmarks and tests.

Everything comes from one ``random.Random(seed)`` and the standard library: no wall clock,
no set iteration, no floating point in a decision, so the same arguments write a
byte-identical tree on any machine. Session logs are written one by one as they are
simulated; only the fact plan (a few tens of thousands of records) is held in memory.

By default the memory is left as a team that reviews every `review_every` sessions has
it: mdmem's own review runs over all but the newest REVIEW_EVERY logs, which are written
after it. `--unreviewed` skips that review: the simulated footers then disagree with the
logs the way a memory never reviewed does (the first review after a migration).

    python benchmarks/generate.py OUT_DIR --sessions 1000 --facts 3000 --seed 1 [--unreviewed]
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import datetime as dt
import os
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
START = dt.datetime(2024, 1, 1, 8, 0, 0)
BEFORE_LEDGER = dt.date(2023, 1, 2)  # facts that predate the ledger are created in 2023
ARCHIVE_WINDOW = 20  # mirrors decay-policy.md, so faded facts are really faded
REVIEW_EVERY = 10  # mirrors decay-policy.md: logs written since the last real review

PROJECT_STATE = "Project State"
BACKGROUND = "Background"
INVARIANTS = "Architectural Invariants"
DECISIONS = "Key Decisions"
CONVENTIONS = "Conventions"
THREADS = "Open Threads"
CONVENTION_GROUPS = ("Code Style", "Testing", "Tooling")

# Fates of a fact over the simulated history.
LIVE = "live"  # in continuity at the end
FADED = "faded"  # archived by a review, reason "faded"
SUPERSEDED = "superseded"  # replaced by a successor (`Superseded: old → new`)
INVALIDATED = "invalidated"  # `Superseded: old (invalidated)`
COMPLETED = "completed"  # a checked Open Thread swept to the archive

TOPICS = (
    "api", "auth", "cache", "queue", "db", "build", "deploy", "test", "log", "config",
    "search", "billing", "upload", "webhook", "session", "schema", "metrics", "cli",
    "worker", "email", "export", "import", "sync", "payment", "report", "feature",
    "ui", "router", "storage", "index",
)  # fmt: skip
NOUNS = (
    "rule", "policy", "choice", "limit", "pattern", "guard", "default", "layout",
    "format", "retry", "timeout", "naming", "contract", "boundary", "budget", "order",
)  # fmt: skip
TECH = (
    "PostgreSQL", "Redis", "SQLite", "Kafka", "RabbitMQ", "S3", "GraphQL", "gRPC",
    "FastAPI", "Celery", "pytest", "ruff", "mypy", "Docker", "Terraform", "nginx",
    "Alembic", "Pydantic", "httpx", "structlog", "OpenTelemetry", "Sentry",
)  # fmt: skip
AREAS = (
    "the public API", "the billing service", "background workers", "the admin UI",
    "the CLI", "the ingestion pipeline", "the auth middleware", "the search index",
    "the export job", "the webhook dispatcher", "integration tests", "the deploy scripts",
    "the mobile client", "the reporting module", "the migration runner",
)  # fmt: skip
REASONS = (
    "clients depend on it", "it keeps retries idempotent", "the old way leaked connections",
    "reviewers asked for it twice", "it halves cold-start time", "ops can grep for it",
    "it survived the load test", "the vendor rate-limits us", "it avoids a circular import",
    "it keeps diffs small", "we lost data once without it", "it is what the docs promise",
)  # fmt: skip
VERBS = (
    "refactored", "debugged", "profiled", "documented", "reviewed", "migrated",
    "hardened", "simplified", "benchmarked", "split up", "fixed", "extended",
)  # fmt: skip
THINGS = (
    "connection pool", "retry loop", "rate limiter", "token refresh", "pagination",
    "error envelope", "job scheduler", "config loader", "fixture factory", "cache keys",
    "schema migration", "request logging", "feature flags", "upload chunking",
)  # fmt: skip
DETAILS = (
    "see the incident notes from the spring outage",
    "applies to new code; old modules migrate when touched",
    "the linter enforces part of this",
    "measured on the staging cluster, not on laptops",
    "exceptions need a comment naming the ticket",
    "keep the fallback path until the next major version",
)  # fmt: skip
CODE_SNIPPETS = (
    ("bash", ("pytest -q tests/test_api.py -k retry", "ruff check src")),
    ("python", ("def backoff(attempt: int) -> int:", "    return min(2**attempt, 60)")),
    ("bash", ("git log --oneline -5", "make migrate && make test")),
    ("sql", ("SELECT id, status FROM jobs", "WHERE status = 'stuck' LIMIT 20;")),
    ("python", ("client = httpx.Client(timeout=10)", "resp = client.get(url)")),
)  # fmt: skip
SLUG_WORDS = ("feature", "hotfix", "agent", "branch", "spike", "docs", "bot")


@dataclass(frozen=True)
class Timeline:
    """The session logs to write and the reviews already run over them."""

    stems: list[str]  # file stems, time-ordered
    dates: list[str]  # YYYY-MM-DD of each stem
    reviews: list[int]  # session indices a past review went through, ascending

    @property
    def last_review(self) -> int:
        return self.reviews[-1]


@dataclass(slots=True)
class PlannedFact:
    """One fact's text and simulated history; mutable only while the plan is built."""

    number: int
    fact_id: str
    section: str
    group: str  # a `###` group inside Conventions, else ""
    text: str
    detail: str  # a nested sub-bullet, or ""
    wrap: int  # how many lines the item text spans (1-3)
    created_session: int  # -1: the fact predates the ledger
    created_date: str
    thread: str = ""  # "", "open" or "done" for Open Threads
    fate: str = LIVE
    archive_review: int = -1  # session index of the review that archived it
    superseded_at: int = -1
    superseded_by: str = ""
    supersedes: str = ""
    extra_fields: list[tuple[str, str]] = field(default_factory=list)
    uses: int = 0  # ledger uses up to the last review
    last_used: int = -1  # session index of the newest use up to the last review
    history_uses: int = 1  # uses before the ledger, for facts created in 2023
    history_last_used: str = ""


@dataclass(frozen=True)
class Plan:
    """All facts, plus the ledger events the session logs must carry."""

    facts: list[PlannedFact]
    extra_references: dict[int, list[str]]  # session index -> ids it must reference
    reactivations: dict[int, list[str]]  # session index -> archived ids it reactivates
    popular: list[PlannedFact]  # continuity facts by popularity rank
    cumulative_weights: list[int]  # Zipf-like integer weights over `popular`


def generate(
    memory_dir: Path, *, sessions: int, facts: int, seed: int = 1, reviewed: bool = True
) -> None:
    """Write a memory folder with `sessions` logs and `facts` footered facts into `memory_dir`.

    `memory_dir` must be missing or empty, so that the same arguments always give the
    same tree. With `reviewed`, mdmem's review has run over all but the newest
    REVIEW_EVERY logs (see `review_in_place`); without it, the footers are the
    simulation's and no review has touched the tree.
    """
    if sessions < 1:
        raise ValueError("sessions must be at least 1")
    if facts < 0:
        raise ValueError("facts must not be negative")
    memory_dir = Path(memory_dir)
    if memory_dir.exists() and any(memory_dir.iterdir()):
        raise ValueError(f"{memory_dir} is not empty")
    (memory_dir / "sessions").mkdir(parents=True, exist_ok=True)
    (memory_dir / "archive").mkdir(exist_ok=True)

    rng = random.Random(seed)
    timeline = make_timeline(rng, sessions)
    plan = plan_facts(rng, timeline, facts)
    # The held-back logs are drawn in their turn, like every other, so that the same seed
    # gives the same logs and facts with or without the review.
    hold_back = min(REVIEW_EVERY, sessions - 1) if reviewed else 0
    held_back = write_sessions(rng, memory_dir / "sessions", timeline, plan, hold_back)
    write_continuity(memory_dir / "continuity.md", rng, timeline, plan)
    write_archive(memory_dir / "archive", timeline, plan)
    write_text(memory_dir / "decay-policy.md", DECAY_POLICY)
    if reviewed:
        review_in_place(memory_dir)
        for path, text in held_back:
            write_text(path, text)


def review_in_place(memory_dir: Path) -> None:
    """Run mdmem's review (this repository's) over the folder, without git or cache.

    A cache would land in the user's cache folder or the enclosing repository's git
    folder and outlive the tree; the review is the same without it.
    """
    if str(REPOSITORY) not in sys.path:
        sys.path.insert(0, str(REPOSITORY))  # run as a script, benchmarks/ comes first
    from mdmem.reviewing.apply import apply
    from mdmem.reviewing.plan import plan_review
    from mdmem.store.load import load

    with environment(MDMEM_NO_CACHE="1"):  # the review's pieces, without lint's gate
        apply(plan_review(load(memory_dir)), commit=False)
    # The lock's file stays after a command (see mdmem.store.lock): not part of a memory,
    # and an older mdmem, timed beside this one, would wait on it.
    (memory_dir / ".mdmem.lock").unlink(missing_ok=True)


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    """Set environment variables for the block, then put back what was there."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def make_timeline(rng: random.Random, sessions: int) -> Timeline:
    """Time-ordered session stems, several a day, and the reviews run so far."""
    stems: list[str] = []
    dates: list[str] = []
    moment = START
    for _ in range(sessions):
        stem = moment.strftime("%Y-%m-%d-%H%M%S")
        if rng.randrange(100) < 3:  # parallel agents on branches add a slug
            stem += f"-{rng.choice(SLUG_WORDS)}-{rng.randrange(1, 100)}"
        stems.append(stem)
        dates.append(stem[:10])
        # At least half an hour apart, so a slug never changes the sort order.
        moment += dt.timedelta(seconds=rng.randrange(1800, 6 * 3600))
    # The newest few sessions came after the last review, as in a real repository.
    unreviewed = max(1, min(30, sessions // 20)) if sessions > 1 else 0
    reviews: list[int] = []
    through = rng.randint(7, 11)
    while through <= sessions - 1 - unreviewed:
        reviews.append(through)
        through += rng.randint(8, 12)
    if not reviews:
        reviews.append(max(0, sessions - 1 - unreviewed))
    return Timeline(stems, dates, reviews)


def plan_facts(rng: random.Random, timeline: Timeline, facts: int) -> Plan:
    """Decide every fact's section, text, creation, fate and the events that explain it."""
    sessions = len(timeline.stems)
    created_in_ledger = facts * 2 // 5
    predating = facts - created_in_ledger
    invariants = min(predating, max(2, min(12, facts // 150)))
    creation = sorted(rng.randrange(sessions) for _ in range(created_in_ledger))
    digits = max(5, len(str(facts)))

    planned: list[PlannedFact] = []
    for number in range(facts):
        topic = rng.choice(TOPICS)
        if number < predating:
            created_session = -1
            created = BEFORE_LEDGER + dt.timedelta(days=rng.randrange(360))
            created_date = created.isoformat()
        else:
            created_session = creation[number - predating]
            created_date = timeline.dates[created_session]
        if number < invariants:
            section, group = INVARIANTS, ""
        elif rng.randrange(100) < 55:
            section, group = DECISIONS, ""
        else:
            section, group = CONVENTIONS, rng.choice(CONVENTION_GROUPS)
        fact = PlannedFact(
            number=number,
            fact_id=f"{topic}-{rng.choice(NOUNS)}-{number:0{digits}d}",
            section=section,
            group=group,
            text=fact_text(rng, section, topic),
            detail=rng.choice(DETAILS) if rng.randrange(100) < 10 else "",
            wrap=rng.choice((2, 2, 3)) if rng.randrange(100) < 25 else 1,
            created_session=created_session,
            created_date=created_date,
            extra_fields=extra_fields(rng, topic),
        )
        if created_session < 0:
            fact.history_uses = rng.randint(1, 4)
            last = dt.date.fromisoformat(created_date) + dt.timedelta(days=rng.randrange(30))
            fact.history_last_used = min(last, dt.date(2023, 12, 31)).isoformat()
        planned.append(fact)

    regular = list(range(invariants, facts))
    for number in rng.sample(regular, min(len(regular), facts // 25)):
        fact = planned[number]
        fact.section, fact.group = THREADS, ""
        fact.thread = "done" if rng.randrange(4) == 0 else "open"
        fact.text = thread_text(rng, fact.fact_id.split("-")[0])

    extra_references: dict[int, list[str]] = {}
    plan_supersessions(rng, timeline, planned, invariants, extra_references)
    plan_archive(rng, timeline, planned, facts // 3, extra_references)

    last_review = timeline.last_review
    faded = [fact.fact_id for fact in planned if fact.fate == FADED]
    reactivations: dict[int, list[str]] = {}
    for session in range(last_review + 1, sessions):
        if faded and rng.randrange(10) == 0:
            reactivations[session] = [faded.pop(rng.randrange(len(faded)))]

    popular = [fact for fact in planned if fact.archive_review < 0]
    rng.shuffle(popular)
    cumulative_weights: list[int] = []
    total = 0
    for rank in range(len(popular)):
        total += 1_000_000 // (rank + 1)
        cumulative_weights.append(total)
    return Plan(planned, extra_references, reactivations, popular, cumulative_weights)


def plan_supersessions(
    rng: random.Random,
    timeline: Timeline,
    planned: list[PlannedFact],
    invariants: int,
    extra_references: dict[int, list[str]],
) -> None:
    """Let a few new facts replace older ones, and invalidate a few more outright."""
    sessions = len(timeline.stems)
    for successor in planned:
        session = successor.created_session
        if session < 1 or successor.thread or rng.randrange(25) != 0:
            continue
        for _ in range(3):
            old = planned[rng.randrange(invariants, successor.number)]
            if old.fate == LIVE and not old.thread and old.created_session < session:
                break
        else:
            continue
        old.fate, old.superseded_at, old.superseded_by = SUPERSEDED, session, successor.fact_id
        successor.supersedes = old.fact_id
        successor.section, successor.group = old.section, old.group
        schedule_archive(timeline, old)
        earlier_use(rng, old, session, extra_references)

    candidates = [fact for fact in planned[invariants:] if not fact.thread]
    for _ in range(len(planned) // 100):
        old = rng.choice(candidates)
        first = max(old.created_session, 0) + 1
        if old.fate != LIVE or first >= sessions:
            continue
        old.fate, old.superseded_at = INVALIDATED, rng.randrange(first, sessions)
        schedule_archive(timeline, old)
        earlier_use(rng, old, old.superseded_at, extra_references)


def schedule_archive(timeline: Timeline, fact: PlannedFact) -> None:
    """A superseded fact is archived by the first review that reads its `Superseded:` line."""
    position = bisect.bisect_left(timeline.reviews, fact.superseded_at)
    if position < len(timeline.reviews):
        fact.archive_review = timeline.reviews[position]


def earlier_use(
    rng: random.Random, fact: PlannedFact, before: int, extra_references: dict[int, list[str]]
) -> None:
    """Sometimes give a fact that leaves the live set one reference while it was live."""
    first = max(fact.created_session + 1, 0)
    if first < before and rng.randrange(2) == 0:
        extra_references.setdefault(rng.randrange(first, before), []).append(fact.fact_id)


def plan_archive(
    rng: random.Random,
    timeline: Timeline,
    planned: list[PlannedFact],
    target: int,
    extra_references: dict[int, list[str]],
) -> None:
    """Archive completed threads and faded facts, older ones first, up to about `target`."""
    reviews = timeline.reviews

    def review_after_fading(fact: PlannedFact) -> int:
        """A review more than archive_window sessions after the fact's creation, or -1."""
        lowest = bisect.bisect_left(reviews, max(fact.created_session, 0) + ARCHIVE_WINDOW + 2)
        return reviews[rng.randrange(lowest, len(reviews))] if lowest < len(reviews) else -1

    for fact in planned:
        if fact.thread == "done" and rng.randrange(2) == 0:
            review = review_after_fading(fact)
            if review >= 0:
                fact.fate, fact.archive_review = COMPLETED, review

    archived = sum(1 for fact in planned if fact.archive_review >= 0)
    spread = len(planned) // 2 + 1
    eligible = [
        (fact.number + rng.randrange(spread), fact.number)
        for fact in planned
        if fact.fate == LIVE and not fact.thread and fact.section != INVARIANTS
    ]
    eligible.sort()
    for _, number in eligible:
        if archived >= target:
            break
        fact = planned[number]
        review = review_after_fading(fact)
        if review < 0:
            continue
        fact.fate, fact.archive_review = FADED, review
        archived += 1
        # Its newest use is more than archive_window sessions before the review.
        newest = review - ARCHIVE_WINDOW - 1
        if fact.created_session >= 0:
            use = rng.randint(fact.created_session, newest)
            if use > fact.created_session:
                extra_references.setdefault(use, []).append(fact.fact_id)
        elif rng.randrange(10) < 7:
            extra_references.setdefault(rng.randint(0, newest), []).append(fact.fact_id)


def fact_text(rng: random.Random, section: str, topic: str) -> str:
    """One rule-like sentence for `section`, about `topic`."""
    tech, other = rng.sample(TECH, 2)
    area, reason, thing = rng.choice(AREAS), rng.choice(REASONS), rng.choice(THINGS)
    if section == INVARIANTS:
        return rng.choice(
            (
                f"The {thing} in {area} must never block on {tech}; {reason}",
                f"Every {topic} write goes through one transaction boundary in {area}",
                f"No request handler in {area} talks to {tech} directly; {reason}",
            )
        )
    if section == CONVENTIONS:
        return rng.choice(
            (
                f"Name {topic} modules after the {thing} they own; {reason}",
                f"Run {tech} on {area} before pushing; {reason}",
                f"Keep {topic} tests next to the {thing} code and mock only {tech}",
                f"Log the {thing} decisions of {area} with {tech} at info level",
            )
        )
    return rng.choice(
        (
            f"Use {tech} for the {topic} {thing}, not {other} ({reason})",
            f"Code in {area} calls {tech} through the {thing}, never directly; {reason}",
            f"Prefer {tech} over {other} for {topic} work in {area}; {reason}",
            f"The {topic} {thing} retries at most three times, then gives up; {reason}",
            f"Avoid {other} in {area}: the {thing} there relies on {tech}",
        )
    )


def thread_text(rng: random.Random, topic: str) -> str:
    """An Open Thread task line."""
    thing, area, tech = rng.choice(THINGS), rng.choice(AREAS), rng.choice(TECH)
    return rng.choice(
        (
            f"Investigate the flaky {thing} in {area}",
            f"Decide whether {topic} moves to {tech} before the next release",
            f"Write the missing {topic} tests for the {thing}",
            f"Ask ops about the {tech} limits hit by {area}",
        )
    )


def extra_fields(rng: random.Random, topic: str) -> list[tuple[str, str]]:
    """Optional footer fields: tags, scope and, rarely, one mdmem does not know."""
    fields: list[tuple[str, str]] = []
    roll = rng.randrange(100)
    if roll < 10:
        fields.append(("tags", f"{topic},{rng.choice(NOUNS)}"))
    elif roll < 15:
        fields.append(("scope", f"src/{topic}/**"))
    elif roll < 16:
        fields.append(("reviewed-by", rng.choice(("platform-team", "data-team", "ci-bot"))))
    return fields


def write_sessions(
    rng: random.Random, sessions_dir: Path, timeline: Timeline, plan: Plan, hold_back: int = 0
) -> list[tuple[Path, str]]:
    """Write every session log in time order, counting each fact's uses as the review would.

    The newest `hold_back` logs are returned as (path, text) instead of being written.
    """
    by_id = {fact.fact_id: fact for fact in plan.facts}
    created_at: dict[int, list[PlannedFact]] = {}
    for fact in plan.facts:
        if fact.created_session >= 0:
            created_at.setdefault(fact.created_session, []).append(fact)
    invalidated_at: dict[int, list[PlannedFact]] = {}
    for fact in plan.facts:
        if fact.fate == INVALIDATED:
            invalidated_at.setdefault(fact.superseded_at, []).append(fact)

    held_back: list[tuple[Path, str]] = []
    first_held = len(timeline.stems) - hold_back
    for session, stem in enumerate(timeline.stems):
        topic = rng.choice(TOPICS)
        references = dict.fromkeys(popular_references(rng, plan, session))
        references.update(dict.fromkeys(plan.extra_references.get(session, [])))
        events: list[str] = []
        named = dict(references)  # every id the section names, in order
        for fact in created_at.get(session, []):
            events.append(f"Created: {fact.fact_id} (tier: working)")
            named[fact.fact_id] = None
            if fact.supersedes:
                arrow = "->" if rng.randrange(5) == 0 else "→"
                events.append(f"Superseded: {fact.supersedes} {arrow} {fact.fact_id}")
                named[fact.supersedes] = None
        for fact in invalidated_at.get(session, []):
            events.append(f"Superseded: {fact.fact_id} (invalidated)")
            named[fact.fact_id] = None
        for fact_id in plan.reactivations.get(session, []):
            events.append(f"Reactivated: {fact_id}")
            named[fact_id] = None
        referenced = list(references)
        if referenced and rng.randrange(100) < 6:
            events.append(f"Helpful: {rng.choice(referenced)}")
        if referenced and rng.randrange(100) < 2:
            events.append(f"Harmful: {rng.choice(referenced)}")

        if session <= timeline.last_review:
            for fact_id in named:
                fact = by_id[fact_id]
                fact.uses += 1
                fact.last_used = session
        path, text = sessions_dir / f"{stem}.md", session_log(rng, stem, topic, referenced, events)
        if session >= first_held:
            held_back.append((path, text))
        else:
            write_text(path, text)
    return held_back


def popular_references(rng: random.Random, plan: Plan, session: int) -> list[str]:
    """A handful of ids drawn by Zipf-like popularity among facts live at `session`."""
    if not plan.popular or rng.randrange(100) < 4:
        return []
    chosen: list[str] = []
    total = plan.cumulative_weights[-1]
    for _ in range(rng.choice((1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8))):
        for _ in range(4):  # redraw a fact not yet born or already replaced
            rank = bisect.bisect_right(plan.cumulative_weights, rng.randrange(total))
            fact = plan.popular[rank]
            replaced = fact.superseded_at >= 0 and session >= fact.superseded_at
            if fact.created_session <= session and not replaced:
                chosen.append(fact.fact_id)
                break
    return chosen


def session_log(
    rng: random.Random, stem: str, topic: str, referenced: list[str], events: list[str]
) -> str:
    """The text of one session log: title, summary, maybe code, the ledger, then notes."""
    verb, thing, area = rng.choice(VERBS), rng.choice(THINGS), rng.choice(AREAS)
    lines = [
        f"# Session {stem}: {topic} {thing}",
        "",
        f"{verb.capitalize()} the {thing} in {area}. {rng.choice(REASONS).capitalize()},",
        f"so the {topic} changes went in behind a flag and the tests were rerun.",
        "",
    ]
    if rng.randrange(100) < 30:
        language, code = rng.choice(CODE_SNIPPETS)
        lines += [f"```{language}", *code, "```", ""]
    lines.append("## Memory References")
    if referenced:
        key = "referenced" if rng.randrange(100) == 0 else "Referenced"
        if len(referenced) > 4 and rng.randrange(2) == 0:  # a wrapped line
            lines.append(f"- {key}: {', '.join(referenced[:3])},")
            lines.append(f"  {', '.join(referenced[3:])}")
        else:
            lines.append(f"- {key}: {', '.join(referenced)}")
    lines += [f"- {event}" for event in events]
    if not referenced and not events:
        lines.append("- (none)")
    lines += ["", "## Notes", "", f"Next time: look at the {rng.choice(THINGS)} in {area}."]
    return "\n".join(lines) + "\n"


def write_continuity(path: Path, rng: random.Random, timeline: Timeline, plan: Plan) -> None:
    """Write continuity.md: project state, prose, then the live facts by section."""
    last = timeline.last_review
    checked = timeline.reviews[max(0, len(timeline.reviews) - 1 - rng.randrange(3))]
    out = [
        "# Continuity",
        "",
        f"## {PROJECT_STATE}",
        "",
        f"- **last_review:** {timeline.dates[last]} | through {timeline.stems[last]}",
        f"- **last_invariant_check:** {timeline.dates[checked]} | through "
        f"{timeline.stems[checked]}",
        "- **branch:** main",
        "",
        f"## {BACKGROUND}",
        "",
        "This service ingests uploads, bills for them and exports reports. The memory below",
        "is what agents working here have learned; edit it like any other file.",
        "",
        "| component | owner |",
        "|---|---|",
        "| api | platform |",
        "| workers | data |",
        "",
    ]
    live = [fact for fact in plan.facts if fact.archive_review < 0]
    groups = ("", *CONVENTION_GROUPS)
    for section in (INVARIANTS, DECISIONS, CONVENTIONS, THREADS):
        out += [f"## {section}", ""]
        for group in groups:
            items = [fact for fact in live if fact.section == section and fact.group == group]
            if not items:
                continue
            if group:
                out += [f"### {group}", ""]
            for fact in items:
                out += fact_item(fact, continuity_footer(fact, timeline))
            out.append("")
    write_text(path, "\n".join(out))


def write_archive(archive_dir: Path, timeline: Timeline, plan: Plan) -> None:
    """Write archive/YYYY-QN.md: one heading per past review, facts grouped by reason."""
    by_review: dict[int, list[PlannedFact]] = {}
    for fact in plan.facts:
        if fact.archive_review >= 0:
            by_review.setdefault(fact.archive_review, []).append(fact)
    by_quarter: dict[str, list[int]] = {}
    for review in sorted(by_review):
        date = timeline.dates[review]
        quarter = f"{date[:4]}-Q{(int(date[5:7]) - 1) // 3 + 1}"
        by_quarter.setdefault(quarter, []).append(review)
    reasons = [("Faded", (FADED,)), ("Superseded", (SUPERSEDED, INVALIDATED))]
    reasons.append(("Completed", (COMPLETED,)))
    for quarter, reviews in by_quarter.items():
        out = [f"# Archive {quarter}", ""]
        for review in reviews:
            stem = timeline.stems[review]
            out += [f"## Archived {timeline.dates[review]} (review through {stem})", ""]
            for title, fates in reasons:
                items = [fact for fact in by_review[review] if fact.fate in fates]
                if items:
                    out += [f"### {title}", ""]
                    for fact in items:
                        out += fact_item(fact, archive_footer(fact, timeline))
                    out.append("")
        write_text(archive_dir / f"{quarter}.md", "\n".join(out))


def fact_item(fact: PlannedFact, footer: str) -> list[str]:
    """A top-level bullet, wrapped over `fact.wrap` lines, maybe a sub-bullet, then footer."""
    marker = {"": "- ", "open": "- [ ] ", "done": "- [x] "}[fact.thread]
    words = fact.text.split(" ")
    step = -(-len(words) // fact.wrap)
    chunks = [" ".join(words[i : i + step]) for i in range(0, len(words), step)]
    lines = [marker + chunks[0]] + [f"  {chunk}" for chunk in chunks[1:]]
    if fact.detail:
        lines.append(f"  - {fact.detail}")
    lines.append(footer)
    return lines


def usage(fact: PlannedFact, timeline: Timeline) -> tuple[str, int]:
    """The footer's last_used and uses: the ledger's view at the last review."""
    if fact.uses:
        return timeline.dates[fact.last_used], fact.uses
    if fact.created_session >= 0:
        return fact.created_date, 1
    return fact.history_last_used, fact.history_uses


def continuity_tier(fact: PlannedFact, timeline: Timeline) -> str:
    """The tier the last review would have given, with the decay-policy windows."""
    if fact.section == INVARIANTS:
        return "core"
    if fact.fate in (SUPERSEDED, INVALIDATED):
        return "superseded"
    last = timeline.last_review
    if fact.created_session > last:
        return "working"
    since_created = last - fact.created_session if fact.created_session >= 0 else last + 1
    if since_created <= 3 and fact.uses <= 1:
        return "working"
    since_used = last - fact.last_used if fact.uses else last + 1
    return "active" if since_used <= 8 else "archive-candidate"


def footer_fields(fact: PlannedFact, timeline: Timeline, tier: str) -> list[tuple[str, str]]:
    last_used, uses = usage(fact, timeline)
    fields = [
        ("id", fact.fact_id),
        ("created", fact.created_date),
        ("last_used", last_used),
        ("uses", str(uses)),
        ("tier", tier),
    ]
    if fact.created_session >= 0:
        fields.append(("origin", timeline.stems[fact.created_session]))
    fields += fact.extra_fields
    if fact.supersedes:
        fields.append(("supersedes", fact.supersedes))
    if fact.superseded_by:
        fields.append(("superseded-by", fact.superseded_by))
    return fields


def continuity_footer(fact: PlannedFact, timeline: Timeline) -> str:
    return render_footer(footer_fields(fact, timeline, continuity_tier(fact, timeline)))


def archive_footer(fact: PlannedFact, timeline: Timeline) -> str:
    tier = "superseded" if fact.fate in (SUPERSEDED, INVALIDATED) else "archived"
    fields = footer_fields(fact, timeline, tier)
    fields.append(("section", fact.section))
    return render_footer(fields)


def render_footer(fields: list[tuple[str, str]]) -> str:
    return "  <!-- " + " | ".join(f"{key}: {value}" for key, value in fields) + " -->"


def write_text(path: Path, text: str) -> None:
    """UTF-8 with LF line endings on every platform."""
    path.write_bytes(text.encode("utf-8"))


DECAY_POLICY = """\
# Decay policy

Integer windows, counted in sessions (session log files), never in days.
The review reads `key: integer` lines; everything else on this page is commentary.

working_window: 3
active_window: 8
archive_window: 20
review_every: 10

A fact nobody referenced in the last `archive_window` sessions moves to the archive.
Raise `active_window` if good facts keep getting flagged as archive candidates.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path, help="memory folder to create (missing or empty)")
    parser.add_argument("--sessions", type=int, required=True, help="session logs to write")
    parser.add_argument("--facts", type=int, required=True, help="footered facts to write")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--unreviewed",
        action="store_true",
        help="leave the simulated footers as they are: no review over the older logs",
    )
    args = parser.parse_args(argv)
    try:
        generate(
            args.out_dir,
            sessions=args.sessions,
            facts=args.facts,
            seed=args.seed,
            reviewed=not args.unreviewed,
        )
    except ValueError as error:
        print(f"generate.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
