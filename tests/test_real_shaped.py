"""Real-shaped memories (issue 14): memories as agents keep them by hand, taken as they are.

Each folder under tests/realshaped/ is one memory written the way agents write under
the DECAY/REVIEW protocol: long wrapped bullets, `###` subheadings, nested notes, ids
with dots, notes after footers, groups of bullets closed by one footer, origins written
as file names, blockquoted vision statements, `(...)` notes full of hyphenated words,
every spelling of `Superseded:`, stale footers, legacy bullets without footers. Each is
made a git repository whose logs are committed but for the newest few (a session in
progress), and then:

- `mdmem review` succeeds, loses no id, moves every fact's text and notes byte for byte,
  changes no line it does not own, and a second review writes nothing;
- `mdmem lint` reports no error and exactly the warnings that memory should get.

`scaled` grows one of them to 160 logs; README.md quotes what lint prints on it.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

import mdmem
from mdmem.cli import main
from mdmem.format.document import Document, parse_document
from mdmem.format.memory import Memory
from mdmem.reviewing.stamps import read_stamps
from mdmem.store.load import load
from tests.helpers import git, git_init, snapshot

REALSHAPED = Path(__file__).resolve().parent / "realshaped"
SESSIONS = "memory/sessions"

# Footer fields the review writes; every other field stays as it was, in its place.
REVIEW_FIELDS = frozenset(
    {"uses", "last_used", "tier", "origin", "supersedes", "superseded-by", "section"}
    | {"helpful", "harmful", "maturity"}
)
# Lines a review writes into an archive or continuity around the facts it moves.
REVIEW_LINES = re.compile(
    r"^(# Archive \d{4}-Q\d|## Archived \d{4}-\d{2}-\d{2} |### (Faded|Superseded|Completed)$"
    r"|\*Reactivated |## Reactivated$)"
)

Key = tuple[str, str, int, bool]  # code, path, line, about a committed log


@dataclass(frozen=True)
class Shape:
    name: str
    uncommitted: int  # the newest logs, left out of the commit: a session in progress
    warnings: frozenset[Key]  # exactly what lint reports; no memory here has an error


def shape(name: str, uncommitted: int, *warnings: Key) -> object:
    return pytest.param(Shape(name, uncommitted, frozenset(warnings)), id=name)


def log(stem: str) -> str:
    return f"{SESSIONS}/{stem}.md"


C = "memory/continuity.md"
SHAPES = [
    # Ids with dots, notes after footers, subheadings, nested bullets, a reactivation,
    # two quarter files, INDEX.md and reviews.md rows; a committed typo of a known id.
    shape(
        "sonar-gate",
        1,
        ("W002", log("2026-07-17-112020"), 7, True),
        ("W021", "memory/archive/2026-Q2.md", 7, False),
    ),
    # Notes full of hyphenated words; Superseded with →, ->, =>, `to` and
    # (invalidated); Helpful/Harmful and (none) lines; a log whose ledger heading is
    # ### (committed), a citation of a superseded fact, `type: antipattern`.
    shape(
        "dlp-redaction",
        2,
        ("W011", C, 62, False),
        ("W014", log("2026-07-17-112709"), 8, True),
        ("W018", log("2026-08-19-113100"), 10, True),
    ),
    # vision.md's statements as blockquotes closed by their footers, `serves:` links and
    # Blueprint threads to them, comments in vision.md and instructions.md; one link to
    # a retired statement, an origin naming no log, a bare footer, a Superseded line
    # with no successor in the log in progress.
    shape(
        "atlas-vision",
        0,  # a log in progress with that line is an error now (E011): it was committed
        ("W006", C, 30, False),
        ("W012", C, 42, False),
        ("W019", C, 45, False),
        ("W017", log("2026-09-08-141207"), 8, True),
    ),
    # Never reviewed: 27 stale footers, the review overdue; lists closed by one footer,
    # origins written as a file name and as a path, a date-only log, a key typo.
    shape(
        "harbor-platform",
        3,
        ("W007", C, 1, False),
        *(("W001", C, line, False) for line in (10, 13, 16, 27, 30, 36, 39, 42, 48, 51, 54)),
        *(("W001", C, line, False) for line in (60, 63, 69, 85, 88, 96, 99, 102, 108, 114)),
        *(("W001", C, line, False) for line in (120, 123, 126, 129, 135, 140)),
        ("W010", C, 48, False),
        ("W004", log("2026-09-08"), 1, True),
        ("W003", log("2026-09-15-121050"), 9, True),
    ),
    # Legacy facts: bullets without footers in two fact sections, one warning each.
    shape(
        "legacy-notes",
        1,
        ("W013", C, 26, False),
        ("W013", C, 66, False),
    ),
]


# -- building the repositories ------------------------------------------------------------


def logs_of(repo: Path) -> list[str]:
    return sorted(path.name for path in (repo / SESSIONS).iterdir())


def as_repo(source: Path, repo: Path, uncommitted: int) -> Path:
    """`source` copied to `repo`, committed but for its newest `uncommitted` logs."""
    shutil.copytree(source, repo)
    git_init(repo)
    git(repo, "add", "-A")
    for name in logs_of(repo)[len(logs_of(repo)) - uncommitted :]:
        git(repo, "rm", "-q", "--cached", f"{SESSIONS}/{name}")
    git(repo, "commit", "-q", "-m", "memory as its agents kept it")
    return repo


def built(tmp_path: Path, case: Shape) -> Path:
    return as_repo(REALSHAPED / case.name, tmp_path / "repo", case.uncommitted)


def review(repo: Path) -> str:
    result = CliRunner().invoke(main, ["review", "--root", str(repo / "memory")])
    assert result.exit_code == 0, result.output
    return result.stdout


# -- what a review may change ---------------------------------------------------------------


def documents(memory: Memory) -> list[Document]:
    vision = [memory.vision] if memory.vision is not None else []
    return [memory.continuity, *memory.archives, *vision]


def facts(memory: Memory) -> dict[str, tuple[str, tuple[str, ...], list[tuple[str, str]]]]:
    """id -> (file, its text and notes as lines, its footer fields the review does not own)."""
    found = {}
    for document in documents(memory):
        for fact in document.facts:
            kept = [(k, v) for k, v in fact.footer.as_dict().items() if k not in REVIEW_FIELDS]
            lines = document.fact_text(fact) + document.fact_notes(fact)
            found[fact.id] = (document.path, lines, kept)
    return found


def owned(document: Document | None, staying: set[str]) -> set[int]:
    """Indexes of the lines a review owns in a continuity or archive file: every footer,
    the Project State stamps, and every line of a fact that is not in the file on the
    other side of the review (it moved, or the review opened it)."""
    if document is None:
        return set()
    lines = {index for index, _ in read_stamps(document).values()}
    for fact in document.facts:
        lines.add(fact.footer_index)
        if fact.id not in staying:
            lines.update(range(fact.start, fact.end))
    return lines


def unowned_changes(before: Document | None, after: Document | None) -> list[str]:
    """The lines a review removed or added that it does not own. Blank lines may come
    and go only beside lines it owns; headings of archive blocks are its own."""
    old = list(before.lines) if before is not None else []
    new = list(after.lines) if after is not None else []
    ids_before = {fact.id for fact in before.facts} if before is not None else set()
    ids_after = {fact.id for fact in after.facts} if after is not None else set()
    mine_before, mine_after = owned(before, ids_after), owned(after, ids_before)
    problems = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed = [i for i in range(i1, i2) if i not in mine_before and old[i].strip()]
        added = [
            j
            for j in range(j1, j2)
            if j not in mine_after and new[j].strip() and not REVIEW_LINES.match(new[j])
        ]
        owned_near = any(i in mine_before for i in range(i1, i2)) or any(
            j in mine_after or REVIEW_LINES.match(new[j]) for j in range(j1, j2)
        )
        blanks = [] if owned_near else [f"blank at {i1 + 1}" for i in range(i1, i2)]
        blanks += [] if owned_near else [f"blank at new {j1 + 1}" for j in range(j1, j2)]
        problems += [f"-{i + 1}: {old[i]!r}" for i in removed]
        problems += [f"+{j + 1}: {new[j]!r}" for j in added] + blanks
    return problems


def by_path(memory: Memory) -> dict[str, Document]:
    return {document.path: document for document in (memory.continuity, *memory.archives)}


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        pytest.param(lambda ls: ls[:3] + ls[4:], ["-4: 'platform (Java 21, "], id="prose-lost"),
        pytest.param(lambda ls: [*ls[:12], "\n", *ls[12:]], ["blank at new 13"], id="blank-added"),
        pytest.param(
            lambda ls: [li.replace("append-only.", "append-only!") for li in ls],
            ["-18: '- Ledger entries"],
            id="fact-text-edited",
        ),
    ],
)
def test_the_byte_check_sees_what_a_review_must_not_do(
    edit: Callable[[list[str]], list[str]], expected: list[str]
) -> None:
    """The check above fails on a line lost, a blank added amid prose, a fact's text
    changed (the changes made here by hand stand for a review that did them)."""
    document = load(REALSHAPED / "sonar-gate" / "memory").continuity
    changed = parse_document(document.file.with_lines(edit(list(document.lines))))

    problems = unowned_changes(document, changed)

    assert [p[: len(e)] for p, e in zip(problems, expected, strict=False)] == expected, problems


# -- the review -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", SHAPES)
def test_review_succeeds_and_commits_only_memory_files(case: Shape, tmp_path: Path) -> None:
    repo = built(tmp_path, case)
    head = git(repo, "rev-parse", "HEAD")

    out = review(repo)

    assert out.startswith(f"Reviewed {len(logs_of(repo))} sessions through ")
    assert git(repo, "rev-parse", "HEAD^") == head
    changed = git(repo, "diff", "--name-only", "HEAD^", "HEAD").split()
    assert changed and all(path.startswith("memory/") for path in changed)
    assert not any(path.startswith(SESSIONS) for path in changed)


@pytest.mark.parametrize("case", SHAPES)
def test_review_loses_no_id_and_moves_facts_byte_for_byte(case: Shape, tmp_path: Path) -> None:
    repo = built(tmp_path, case)
    before = facts(load(repo / "memory"))

    review(repo)

    after_memory = load(repo / "memory")
    after = facts(after_memory)
    assert set(before) <= set(after)
    for fact_id, (_, lines, kept) in before.items():
        assert after[fact_id][1] == lines, fact_id
        assert after[fact_id][2] == kept, fact_id
    opened = set(after) - set(before)  # the review's own Open Threads
    threads = {fact.id for fact in after_memory.continuity.facts if fact.is_open_thread}
    assert opened <= threads


@pytest.mark.parametrize("case", SHAPES)
def test_review_keeps_every_line_it_does_not_own(case: Shape, tmp_path: Path) -> None:
    repo = built(tmp_path, case)
    memory = load(repo / "memory")
    files = snapshot(repo)

    review(repo)

    reviewed = load(repo / "memory")
    after = snapshot(repo)
    assert set(files) <= set(after)
    old, new = by_path(memory), by_path(reviewed)
    for path in sorted(set(old) | set(new)):
        assert unowned_changes(old.get(path), new.get(path)) == [], path
    for path in sorted(files):  # the files a review does not own stay as they were
        if (
            path.startswith("memory/")
            and path not in old
            and not path.endswith(("INDEX.md", "reviews.md"))
        ):
            assert after[path] == files[path], path
    rows = "memory/reviews.md"
    if rows in files:  # one row appended, nothing else touched
        assert after[rows].startswith(files[rows])
        assert after[rows][len(files[rows]) :].count(b"\n") == 1
    index = "memory/archive/INDEX.md"
    if index in files:  # a row stays unless its fact left the archive
        left = {fid for fid, (where, _, _) in facts(reviewed).items() if "/archive/" not in where}
        kept = after[index].decode().splitlines()
        for row in files[index].decode().splitlines():
            assert row in kept or row.split(" — ")[0][2:] in left, row


@pytest.mark.parametrize("case", SHAPES)
def test_review_twice_writes_nothing_the_second_time(
    case: Shape, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = built(tmp_path, case)
    review(repo)
    first, head = snapshot(repo), git(repo, "rev-parse", "HEAD")
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")  # plan again from the files, not the memo

    out = review(repo)

    assert "Nothing new since the last review" in out
    assert snapshot(repo) == first
    assert git(repo, "rev-parse", "HEAD") == head


# -- lint -----------------------------------------------------------------------------------


def keys(findings: tuple[mdmem.Finding, ...]) -> set[Key]:
    return {(item.code, item.path, item.line, item.committed) for item in findings}


@pytest.mark.parametrize("case", SHAPES)
def test_lint_reports_exactly_what_the_memory_should_get(case: Shape, tmp_path: Path) -> None:
    repo = built(tmp_path, case)

    findings = mdmem.lint(repo / "memory")

    assert [item.render() for item in findings if item.is_error] == []
    assert keys(findings) == case.warnings


def references(path: Path) -> str:
    return path.read_text("utf-8").partition("## Memory References")[2]


NOTE_WORDS = ("push-time", "half-built", "key-value", "reporting-only", "re-read", "rule-engine")


def test_hyphenated_words_in_notes_are_prose(tmp_path: Path) -> None:
    """The DLP memory's notes hold dozens of hyphenated words; none is an unknown id,
    and the counts are those of every token (the protocol's own count)."""
    repo = as_repo(REALSHAPED / "dlp-redaction", tmp_path / "repo", 2)
    noted = [
        word
        for path in (repo / SESSIONS).iterdir()
        for word in NOTE_WORDS
        if re.search(rf"\([^)]*(?<![\w-]){word}(?![\w-])", references(path))
    ]
    assert len(noted) >= 3  # the fixture holds them, so the assertion below can fail

    findings = mdmem.lint(repo / "memory")

    assert [item.render() for item in findings if item.code == "W002"] == []


# -- a healthy memory of 160 logs (README.md quotes this output) ----------------------------

SCALED_LOGS = 160
START = dt.datetime(2026, 7, 23, 9, 12, 5)
TOPICS = (
    "aggregate coverage follow-up",
    "posting latency",
    "Renovate batch",
    "outbox relay scaling",
    "multi-currency transfers",
    "FX rate refresh",
    "error code audit",
    "staging load test",
)


def scaled_log(number: int, ids: list[str]) -> tuple[str, str]:
    """One generated session log: its stem and text, citing three live facts the way the
    fixture's logs do (a note with hyphenated words now and then, `(none)` lines)."""
    when = START + dt.timedelta(hours=11 * number, minutes=7 * number, seconds=13 * number)
    stem = when.strftime("%Y-%m-%d-%H%M%S")
    cited = [ids[(number * 3 + offset * 7) % len(ids)] for offset in range(3)]
    cited = list(dict.fromkeys(cited))
    note = " (re-checked against the build-time config)" if number % 4 == 0 else ""
    topic = TOPICS[number % len(TOPICS)]
    text = (
        f"# Session {stem}: {topic}\n\n## Summary\n\n- Worked on {topic}; details in the\n"
        "  merge request.\n\n## Memory References\n"
        f"- Referenced: {', '.join(cited)}{note}\n- Created: (none)\n- Superseded: (none)\n"
    )
    return stem, text


def scaled(tmp_path: Path) -> Path:
    """sonar-gate grown to 160 logs as a team that follows REVIEW.md keeps it: logs
    committed as they come, a review every `review_every` (10) of them, the newest 4
    logs not yet reviewed."""
    repo = as_repo(REALSHAPED / "sonar-gate", tmp_path / "repo", 0)
    review(repo)
    live = sorted(fact.id for fact in load(repo / "memory").continuity.facts)
    first = len(logs_of(repo))
    for number in range(first, SCALED_LOGS):
        stem, text = scaled_log(number, live)
        (repo / SESSIONS / f"{stem}.md").write_text(text, "utf-8")
        git(repo, "add", f"{SESSIONS}/{stem}.md")
        git(repo, "commit", "-q", "-m", f"session {stem}")
        if (number + 1) % 10 == 6:
            review(repo)
    return repo


README_LINT = [
    "1 warning about committed session logs, which can no longer be edited: --strict does "
    "not fail on them (`mdmem lint --verbose` lists them).",
    "No other findings.",
]


def test_lint_on_a_healthy_memory_of_160_logs_is_what_the_readme_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = scaled(tmp_path)
    memory = load(repo / "memory")
    assert len(memory.sessions) == SCALED_LOGS
    facts_now = sum(len(document.facts) for document in (memory.continuity, *memory.archives))
    monkeypatch.chdir(repo)

    result = CliRunner().invoke(main, ["lint"])

    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == README_LINT
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    assert f"memory of {SCALED_LOGS} session logs and {facts_now} facts" in readme
    assert f"`mdmem lint` prints {len(README_LINT)} lines" in readme
