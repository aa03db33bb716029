"""A small memory laid out on disk for the stats, trend and report tests."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import make_repo

SESSIONS = 20  # 2026-03-01 .. 2026-03-20, one log a day


def stem(day: int) -> str:
    return f"2026-03-{day:02d}-090000"


def fact(text: str, fact_id: str, **fields: str) -> str:
    extra = "".join(f" | {key.replace('_', '-')}: {value}" for key, value in fields.items())
    footer = f"<!-- id: {fact_id} | created: 2026-03-01 | uses: 1 | tier: active{extra} -->"
    lines = text.splitlines()
    return "\n".join([f"- {lines[0]}", *(f"  {line}" if line else "" for line in lines[1:])]) + (
        f"\n  {footer}\n"
    )


def lay_out(
    root: Path,
    facts: str,
    votes: dict[str, tuple[int, int]] | None = None,
    reviews: str | None = None,
    *,
    sessions: int = SESSIONS,
    git: bool = False,
) -> Path:
    """A repository with `memory/`: `facts` under `## Key Decisions`, and `sessions` logs.

    `votes` gives each id (helpful, harmful): the first sessions vote helpful, the next ones
    harmful, one vote per session. Every log references every voted id.
    """
    memory = root / "memory"
    (memory / "sessions").mkdir(parents=True)
    (memory / "continuity.md").write_text(
        f"# Continuity\n\n## Key Decisions\n\n{facts}\n## Open Threads\n\n", "utf-8"
    )
    (memory / "decay-policy.md").write_text(
        "# Decay policy\n\n- active_window: 8\n- archive_window: 20\n", "utf-8"
    )
    votes = votes or {}
    for day in range(1, sessions + 1):
        helpful = [i for i, (h, _) in votes.items() if day <= h]
        harmful = [i for i, (h, x) in votes.items() if h < day <= h + x]
        lines = ["# Session", "", "## Memory References"]
        lines += [f"- Helpful: {', '.join(helpful)}"] if helpful else []
        lines += [f"- Harmful: {', '.join(harmful)}"] if harmful else []
        lines += [] if helpful or harmful else ["- (none)"]
        (memory / "sessions" / f"{stem(day)}.md").write_text("\n".join(lines) + "\n", "utf-8")
    if reviews is not None:
        (memory / "reviews.md").write_text(reviews, "utf-8")
    if git:
        make_repo(root)
    return memory


def reviews_text(*rows: tuple[int, int, int, int]) -> str:
    """reviews.md with one row per (core, active, working, archive-candidate) count."""
    header = (
        "# Reviews\n\n| ledger date | through | sessions | core | active | working | "
        "archive-candidate | archived | superseded | open threads | out | in |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    body = "".join(
        f"| 2026-03-{day:02d} | {stem(day)} | {day} | {c} | {a} | {w} | {ac} | 0 | 0 "
        "| 0 | 0 | 0 |\n"
        for day, (c, a, w, ac) in enumerate(rows, 1)
    )
    return header + body
