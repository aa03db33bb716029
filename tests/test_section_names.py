"""A section is named as a person reads its heading: `## Key decisions`, `## Open threads:`
and `## **Architectural invariants**` are the sections mdmem knows, for the parser, `add`,
`thread`, the review, lint and context alike, and the file keeps its spelling."""

# ruff: noqa: E501  (footers in the fixtures are one line, as in a real memory)

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mdmem.cli import main
from mdmem.format.document import parse_document
from mdmem.format.sections import section_key
from mdmem.format.textfile import TextFile, split_lines
from mdmem.linting.gate import review
from mdmem.linting.run import lint
from mdmem.writing import session
from tests.helpers import make_repo, where


@pytest.mark.parametrize(
    ("title", "key"),
    [
        pytest.param("Key Decisions", "key decisions", id="as_named"),
        pytest.param("Key decisions", "key decisions", id="lower_case_word"),
        pytest.param("OPEN THREADS:", "open threads", id="upper_case_and_colon"),
        pytest.param("Open Threads :", "open threads", id="spaced_colon"),
        pytest.param("**Open threads**", "open threads", id="bold"),
        pytest.param("**Open threads:**", "open threads", id="colon_in_bold"),
        pytest.param("_Project  State_", "project state", id="emphasis_and_double_space"),
        pytest.param("`Key Decisions`:", "key decisions", id="code_then_colon"),
        pytest.param("Open Threads (old)", "open threads (old)", id="more_words_another_name"),
        pytest.param("C#", "c#", id="inner_markup_kept"),
    ],
)
def test_a_section_key_leaves_aside_case_colon_spaces_and_markup(title: str, key: str) -> None:
    assert section_key(title) == key


def parsed(text: str) -> list[tuple[str, bool, str | None]]:
    """(section as written, core, checkbox) of each fact, then each legacy fact's section."""
    document = parse_document(TextFile("memory/continuity.md", split_lines(text)))
    facts = [(fact.section, fact.is_core, fact.checkbox) for fact in document.facts]
    return facts + [(item.section, False, "legacy") for item in document.legacy_facts()]


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        pytest.param(
            "## Architectural invariants",
            [
                ("Architectural invariants", True, None),
                ("Architectural invariants", False, "legacy"),
            ],
            id="invariants_lower_case",
        ),
        pytest.param(
            "## **Architectural Invariants:**",
            [
                ("**Architectural Invariants:**", True, None),
                ("**Architectural Invariants:**", False, "legacy"),
            ],
            id="invariants_bold_with_colon",
        ),
        pytest.param(
            "## project state:",
            [("project state:", False, None)],
            id="project_state_bullets_are_stamps",
        ),
        pytest.param(
            "## Architectural Invariants (draft)",
            [
                ("Architectural Invariants (draft)", False, None),
                ("Architectural Invariants (draft)", False, "legacy"),
            ],
            id="another_name_is_another_section",
        ),
    ],
)
def test_a_known_section_is_read_in_any_spelling(heading: str, expected: object) -> None:
    text = (
        f"# Continuity\n\n{heading}\n\n- Keep every amount as whole cents\n"
        "  <!-- id: amounts-whole-cents | tier: active -->\n\n- Log each refund\n"
    )
    assert parsed(text) == expected


@pytest.mark.parametrize(
    "heading", ["## Key decisions", "## Open threads:", "## OPEN THREADS", "## Key Decisions:"]
)
def test_a_section_named_for_facts_makes_its_footerless_items_legacy_facts(heading: str) -> None:
    text = f"# Continuity\n\n{heading}\n\n- Log each refund\n"
    assert parsed(text) == [(heading[3:], False, "legacy")]


def test_a_document_finds_a_section_by_name_and_keeps_its_spelling() -> None:
    text = "# Continuity\n\n## Key decisions:\n\n- Log each refund\n\n## Open threads\n"
    document = parse_document(TextFile("memory/continuity.md", split_lines(text)))
    found = document.section("Key Decisions")
    assert found is not None and (found.title, found.start) == ("Key decisions:", 2)
    assert document.spelled("Open Threads") == "Open threads"
    assert document.spelled("Conventions") == "Conventions"


CONTINUITY = """\
# Continuity

## Architectural invariants

- Keep every amount as whole cents
  <!-- id: amounts-whole-cents | created: 2026-06-01 | uses: 2 | tier: core -->

## Key decisions

- Queue jobs through the outbox table
  <!-- id: jobs-through-outbox | created: 2026-06-08 | last_used: 2026-06-20 | uses: 3 | tier: active -->

## Open threads:

- [ ] Choose a retention period for the job table
  <!-- id: job-table-retention | created: 2026-06-20 | uses: 1 | tier: working -->
"""
LOG = "2026-06-20-090000"
BORN = "created: 2026-07-01 | last_used: 2026-07-01 | uses: 1"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A committed memory whose headings are spelled by hand, and a session started."""
    memory = tmp_path / "repo" / "memory"
    (memory / "sessions").mkdir(parents=True)
    (memory / "continuity.md").write_text(CONTINUITY, "utf-8")
    (memory / "sessions" / f"{LOG}.md").write_text("# Session\n\n## Memory References\n")
    make_repo(tmp_path / "repo")
    monkeypatch.chdir(tmp_path / "repo")
    now = dt.datetime(2026, 7, 1, 12, 0, 0, tzinfo=dt.timezone.utc)
    monkeypatch.setattr(session, "utc_now", lambda: now)
    monkeypatch.delenv("MDMEM_SESSION", raising=False)
    assert run("session", "start", "--slug", "names").exit_code == 0
    return tmp_path / "repo"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def continuity(repo: Path) -> str:
    return (repo / "memory" / "continuity.md").read_text("utf-8")


ADDED_DECISION = CONTINUITY.replace(
    "tier: active -->\n\n## Open",
    "tier: active -->\n- Retry each failed job twice\n"
    f"  <!-- id: retry-failed-job | {BORN} | tier: working | origin: 2026-07-01-120000-names -->\n\n## Open",
)


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("--section", "Key decisions"), id="as_the_file_spells_it"),
        pytest.param(("--section", "Key Decisions"), id="as_mdmem_names_it"),
        pytest.param(("--section", "Key decisions:"), id="with_a_colon"),
        pytest.param(("--section", "KEY DECISIONS"), id="upper_case"),
        pytest.param(("--section", "**Key decisions**"), id="bold"),
        pytest.param(
            ("--section", "key decisions:", "--new-section"), id="new_section_that_exists"
        ),
    ],
)
def test_add_finds_the_section_however_it_is_spelled(repo: Path, args: tuple[str, ...]) -> None:
    result = run("add", "Retry each failed job twice", "--id", "retry-failed-job", *args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "Added retry-failed-job at memory/continuity.md:12 (Key decisions, working)"
    )
    assert continuity(repo) == ADDED_DECISION


def test_add_to_invariants_spelled_by_hand_is_born_core(repo: Path) -> None:
    result = run("add", "Round amounts half to even", "--section", "architectural invariants:")
    assert result.exit_code == 0, result.output
    assert "(Architectural invariants, core)" in result.stdout
    assert continuity(repo).count("## ") == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ("--section", "Open threads:"),
            "## Open Threads holds no facts: give another --section (`mdmem thread TEXT` opens a thread)",
            id="open_threads_with_a_colon",
        ),
        pytest.param(
            ("--section", "Open threads:", "--new-section"),
            "## Open Threads holds no facts: give another --section (`mdmem thread TEXT` opens a thread)",
            id="new_section_open_threads_with_a_colon",
        ),
        pytest.param(
            ("--section", "**open threads**", "--new-section"),
            "## Open Threads holds no facts: give another --section (`mdmem thread TEXT` opens a thread)",
            id="new_section_open_threads_bold",
        ),
        pytest.param(
            ("--section", "Project State:", "--new-section"),
            "## Project State holds no facts: give another --section",
            id="new_section_project_state_with_a_colon",
        ),
    ],
)
def test_add_refuses_a_section_of_no_facts_in_any_spelling(
    repo: Path, args: tuple[str, ...], message: str
) -> None:
    result = run("add", "Retry each failed job twice", *args)
    assert (result.exit_code, result.stderr.strip()) == (3, f"mdmem: {message}")
    assert continuity(repo) == CONTINUITY


def test_thread_opens_under_open_threads_as_the_file_spells_it(repo: Path) -> None:
    result = run("thread", "Decide who may replay a dead job", "--json")
    assert result.exit_code == 0, result.output
    thread_id = json.loads(result.stdout)["id"]
    text = continuity(repo)
    assert text.count("## ") == 3
    assert text.startswith(CONTINUITY)
    assert text[len(CONTINUITY) :].startswith(
        f"- [ ] Decide who may replay a dead job\n  <!-- id: {thread_id} | "
    )


ARCHIVE = """\
# Archive 2026-Q2

## Archived 2026-06-20 (review through 2026-06-20-090000)

### Faded

- Name each queue after its consumer
  <!-- id: queue-named-consumer | created: 2026-05-01 | last_used: 2026-05-02 | uses: 2 | tier: archived | section: {section} -->
"""


@pytest.mark.parametrize(
    ("heading", "recorded", "home"),
    [
        pytest.param("## Key decisions", "Key Decisions", "## Key decisions", id="file_lower_case"),
        pytest.param("## Key Decisions:", "Key decisions", "## Key Decisions:", id="file_colon"),
        pytest.param(
            "## **Key Decisions**", "Key Decisions", "## **Key Decisions**", id="file_bold"
        ),
        pytest.param("## Key decisions", None, "## Reactivated", id="no_section_field"),
        pytest.param(
            "## Key decisions", "Gotchas", "## Reactivated", id="a_section_continuity_lacks"
        ),
    ],
)
def test_a_reactivated_fact_returns_to_its_section_as_the_file_spells_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heading: str, recorded: str | None, home: str
) -> None:
    """Found by name, written under the heading the file has; without a section it names,
    to `## Reactivated` at the end (never above the first heading)."""
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    root = tmp_path / "memory"
    (root / "sessions").mkdir(parents=True)
    (root / "archive").mkdir()
    text = CONTINUITY.replace("## Key decisions", heading)
    (root / "continuity.md").write_text(text)
    field = "" if recorded is None else f" | section: {recorded}"
    (root / "archive" / "2026-Q2.md").write_text(ARCHIVE.replace(" | section: {section}", field))
    (root / "sessions" / "2026-06-21-100000.md").write_text(
        "# S\n\n## Memory References\n- Referenced: queue-named-consumer\n"
    )
    review(root, commit=False)
    after = (root / "continuity.md").read_text()
    assert after.count(heading + "\n") == 1
    assert after.count("## ") == (3 if home == heading else 4)
    section = after[after.index(home + "\n") :]
    section = section[: section.index("\n## ")] if "\n## " in section else section
    assert "- Name each queue after its consumer\n" in section
    assert where(root)["queue-named-consumer"][0] == "continuity.md"


FADED_INVARIANT = """\
# Continuity

## {heading}

- Keep every amount as whole cents
  <!-- id: amounts-whole-cents | created: 2026-01-01 | last_used: 2026-01-01 | uses: 2 | tier: active -->
"""


@pytest.mark.parametrize(
    "heading",
    ["Architectural invariants", "architectural invariants:", "**Architectural Invariants**"],
)
def test_an_invariant_spelled_by_hand_is_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heading: str
) -> None:
    """It never fades in a review, lint names its label, context serves it as core."""
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    root = tmp_path / "memory"
    (root / "sessions").mkdir(parents=True)
    (root / "continuity.md").write_text(FADED_INVARIANT.format(heading=heading))
    for day in range(2, 28):
        (root / "sessions" / f"2026-02-{day:02d}-100000.md").write_text(
            "# S\n\n## Memory References\n(none)\n"
        )
    codes = [finding.code for finding in lint(root)]
    served = run("context", "--root", str(root), "--json")
    assert json.loads(served.stdout)["core"][0]["id"] == "amounts-whole-cents"
    review(root, commit=False)
    assert where(root)["amounts-whole-cents"] == ("continuity.md", "active")
    assert "W009" in codes, codes


@pytest.mark.parametrize("heading", ["## Project state:", "## **project state**"])
def test_a_review_stamps_project_state_as_the_file_spells_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heading: str
) -> None:
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    root = tmp_path / "memory"
    (root / "sessions").mkdir(parents=True)
    text = f"{CONTINUITY}\n{heading}\n\n- **phase:** porting\n"
    (root / "continuity.md").write_text(text)
    (root / "sessions" / "2026-06-21-100000.md").write_text(
        "# S\n\n## Memory References\n- Referenced: jobs-through-outbox\n"
    )
    review(root, commit=False)
    after = (root / "continuity.md").read_text()
    assert after.count("## ") == 4
    assert after.endswith(
        f"\n{heading}\n\n- **phase:** porting\n"
        "- **last_review:** 2026-06-21 | through 2026-06-21-100000\n"
    )
