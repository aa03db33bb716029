"""A hypothesis strategy for small, valid, messy memories, and a way to lay one out on disk.

A generated memory has facts in `##` sections (plain rules, Open Threads, invariants)
and in quarter archive files, footers with random fields in random order and spacing
(unknown fields included), session logs whose `## Memory References` name random
subsets of the ids (plus Created, Superseded, Restored, Helpful and Harmful lines, and
ids nobody knows), a policy with small windows so that every tier is reachable, and
random line endings per file (LF, CRLF or a per-line mix) and an optional BOM.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

SECTIONS = ("Key Decisions", "Conventions", "Architectural Invariants", "Open Threads")
WORDS = ("cache", "retry", "queue", "schema", "deploy", "billing", "webhook", "worker", "index")
LIVE_TIERS = ("working", "active", "archive-candidate", "core", "superseded")
GONE_TIERS = ("archived", "superseded")
START = dt.date(2026, 3, 1)
ARCHIVE_FILES = ("2025-Q4.md", "2026-Q1.md")


@dataclass(frozen=True)
class GeneratedMemory:
    files: dict[str, bytes]  # path relative to the memory folder -> bytes
    ids: tuple[str, ...]  # every fact id, continuity and archive
    sessions: tuple[str, ...]  # session stems in ledger order

    def write(self, folder: Path, order: list[str] | None = None) -> Path:
        """Create the files under `folder` (in `order`, when given) and return it."""
        for relative in order if order is not None else sorted(self.files):
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(self.files[relative])
        return folder

    def without_sessions(self) -> dict[str, bytes]:
        return {p: data for p, data in self.files.items() if not p.startswith("sessions/")}

    def session_files(self) -> dict[str, bytes]:
        return {p: data for p, data in self.files.items() if p.startswith("sessions/")}


def day(offset: int) -> str:
    return (START + dt.timedelta(days=offset)).isoformat()


@st.composite
def session_stems(draw: st.DrawFn, min_size: int = 1) -> tuple[str, ...]:
    """Unique, sorted stems; some share a second and differ by slug, some are date-only."""
    keys = draw(
        st.lists(
            st.tuples(
                st.integers(0, 30),
                st.sampled_from(["", "090000", "091500", "140000"]),
                st.sampled_from(["", "", "api", "web"]),
            ).map(lambda k: k if k[1] else (k[0], "", "")),
            min_size=min_size,
            max_size=9,
            unique=True,
        )
    )
    stems = []
    for offset, time, slug in sorted(keys):
        stem = day(offset) + (f"-{time}" if time else "") + (f"-{slug}" if slug else "")
        stems.append(stem)
    return tuple(stems)


@st.composite
def footer_line(draw: st.DrawFn, fact_id: str, tier: str | None, stems: tuple[str, ...]) -> str:
    """A footer whose optional fields, their order and their spacing all vary."""
    optional: dict[str, str] = {}
    if draw(st.booleans()):
        optional["created"] = day(draw(st.integers(-20, 25)))
    if draw(st.booleans()):
        optional["last_used"] = day(draw(st.integers(-20, 25)))
    if draw(st.booleans()):
        optional["uses"] = str(draw(st.integers(0, 15)))
    if tier is not None:
        optional["tier"] = tier
    if draw(st.booleans()):
        optional["origin"] = draw(st.sampled_from(stems))
    if draw(st.booleans()):
        optional["owner"] = draw(st.sampled_from(["payments", "team-a", "ops"]))  # unknown key
    keys = draw(st.permutations(sorted(optional)))
    fields = [("id", fact_id), *((key, optional[key]) for key in keys)]
    colon = draw(st.sampled_from([": ", ":", ":  "]))
    bar = draw(st.sampled_from([" | ", " |  ", "|", " | "]))
    inner = bar.join(f"{key}{colon}{value}" for key, value in fields)
    indent = draw(st.sampled_from(["  ", "  ", "    ", "\t"]))
    return f"{indent}<!-- {inner} -->"


@st.composite
def fact_lines(draw: st.DrawFn, footer: str, checkbox: str | None) -> list[str]:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=2, max_size=6))
    box = "" if checkbox is None else f"[{checkbox}] "
    lines = [f"- {box}Always {' '.join(words)}"]
    if draw(st.booleans()):
        lines.append("  wrapped onto a second line")
    if draw(st.integers(0, 4)) == 0:
        lines += ["  - a nested detail", "", "    with a blank line inside the item"]
    return [*lines, footer]


@st.composite
def references(draw: st.DrawFn, ids: tuple[str, ...], created: list[str]) -> list[str]:
    """The `## Memory References` lines of one session log."""
    named = draw(st.lists(st.sampled_from(ids), max_size=4, unique=True)) if ids else []
    if draw(st.integers(0, 5)) == 0:
        named.append("nobody-knows-this")
    lines = [f"- Referenced: {', '.join(named) if named else '(none)'}"]
    if created:
        lines.append(f"- Created: {', '.join(created)}")
    if ids and draw(st.integers(0, 3)) == 0:
        old = draw(st.sampled_from(ids))
        new = draw(st.sampled_from(ids))
        arrow = draw(st.sampled_from([" → ", " -> "]))
        invalidated = f"- Superseded: {old} (invalidated)"
        lines.append(f"- Superseded: {old}{arrow}{new}" if new != old else invalidated)
    if ids and draw(st.integers(0, 5)) == 0:
        lines.append(f"- Restored: {draw(st.sampled_from(ids))}")
    if ids and draw(st.integers(0, 3)) == 0:
        kind = draw(st.sampled_from(["Helpful", "Harmful"]))
        lines.append(f"- {kind}: {draw(st.sampled_from(ids))}")
    return lines


def encoded(lines: list[str], endings: str, rng: random.Random, bom: bool) -> bytes:
    out = []
    for line in lines:
        crlf = endings == "crlf" or (endings == "mixed" and rng.random() < 0.5)
        out.append(line + ("\r\n" if crlf else "\n"))
    return (b"\xef\xbb\xbf" if bom else b"") + "".join(out).encode("utf-8")


@st.composite
def memories(
    draw: st.DrawFn, max_facts: int = 8, min_facts: int = 0, min_sessions: int = 1
) -> GeneratedMemory:
    stems = draw(session_stems(min_sessions))
    pool = [f"{a}-{b}-rule" for a in WORDS for b in WORDS if a != b]
    fact_ids = st.lists(st.sampled_from(pool), min_size=min_facts, max_size=max_facts, unique=True)
    ids = tuple(draw(fact_ids))
    rng = draw(st.randoms(use_true_random=False))
    endings = st.sampled_from(["lf", "lf", "crlf", "mixed"])

    continuity: dict[str, list[list[str]]] = {title: [] for title in SECTIONS}
    archived: dict[str, list[list[str]]] = {name: [] for name in ARCHIVE_FILES}
    created_in: dict[str, list[str]] = {}
    for fact_id in ids:
        if draw(st.integers(0, 3)) == 0:  # a fact in the archive
            section = draw(st.sampled_from(["", *SECTIONS[:2]]))
            footer = draw(footer_line(fact_id, draw(st.sampled_from(GONE_TIERS)), stems))
            if section:
                footer = footer.replace(" -->", f" | section: {section} -->")
            archived[draw(st.sampled_from(ARCHIVE_FILES))].append(draw(fact_lines(footer, None)))
            continue
        title = draw(st.sampled_from(SECTIONS))
        checkbox = draw(st.sampled_from([" ", "x"])) if title == "Open Threads" else None
        tier = draw(st.one_of(st.none(), st.sampled_from(LIVE_TIERS)))
        footer = draw(footer_line(fact_id, tier, stems))
        continuity[title].append(draw(fact_lines(footer, checkbox)))
        if draw(st.booleans()):
            created_in.setdefault(draw(st.sampled_from(stems)), []).append(fact_id)

    files: dict[str, bytes] = {}
    lines = ["# Continuity", "", "Read this at the start of a session."]
    if draw(st.booleans()):
        lines += ["", "## Project State", "", "- **goal:** ship it"]
    for title, facts in continuity.items():
        if facts or draw(st.booleans()):
            lines += ["", f"## {title}"]
            loose = draw(st.booleans())
            for index, fact in enumerate(facts):
                lines += [""] if index == 0 or loose else []
                lines += fact
    if draw(st.booleans()):
        lines += ["", "## Notes", "", "Prose that is not a fact, with a `<!-- id: quoted -->`."]
    files["continuity.md"] = encoded(lines, draw(endings), rng, draw(st.booleans()))

    for name, facts in archived.items():
        if not facts:
            continue
        lines = [f"# Archive {name[:-3]}", "", "## Archived 2026-01-05 (review through x-y)", ""]
        for fact in facts:
            lines += fact
        files[f"archive/{name}"] = encoded(lines, draw(endings), rng, False)

    working = draw(st.integers(0, 3))
    active = draw(st.integers(1, 4))
    archive = active + draw(st.integers(1, 4))
    policy = [
        "# Decay policy",
        "",
        f"- working_window: {working}",
        f"- active_window: {active}",
        f"- archive_window: {archive}",
    ]
    files["decay-policy.md"] = encoded(policy, "lf", rng, False)

    for stem in stems:
        refs = draw(references(ids, created_in.get(stem, [])))
        log = [f"# Session {stem}", "", "Worked on the project.", "", "## Memory References"]
        log += [*refs, "", "## Next steps", "- keep going"]
        files[f"sessions/{stem}.md"] = encoded(log, draw(endings), rng, draw(st.booleans()))
    return GeneratedMemory(files, ids, stems)
