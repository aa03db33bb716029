"""The protocol's newer layout (v4.39 to v4.42): each Open Thread in its own file,
`memory/open-threads/thread-<id>.md`; `[[id]]` and `→ proposal: ID` links; `Closed:`
ledger lines; a `note:` footer key; the `thread_stale_window` and
`closed_narrative_max_lines` knobs; a `## Memory Review` section in a log; a quoted
secret marked `lint:allow-secret-material`.

The memory is tests/realshaped/thread-files, made a real git repository: reviewed, linted,
served and written to as the layout wants.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import mdmem
from mdmem.cli import main
from mdmem.format.document import parse_document
from mdmem.format.policy import parse_policy
from mdmem.format.sessionlog import scan_log
from mdmem.format.textfile import TextFile
from mdmem.format.threads import fact_links, parse_thread
from mdmem.linting.texts import text_findings
from mdmem.store.load import load
from tests.helpers import git, git_init, snapshot

SOURCE = Path(__file__).resolve().parent / "realshaped" / "thread-files"
THREADS = "memory/open-threads"
LIVE = f"{THREADS}/thread-retry-ledger-export.md"
OLD_DONE = f"{THREADS}/thread-fx-cache-warmup.md"
RECENT_DONE = f"{THREADS}/thread-audit-log-rotation.md"
CONTINUITY = "memory/continuity.md"
ARCHIVE = "memory/archive/2026-Q4.md"
REVIEW_LOG = "memory/sessions/2026-10-12-090000-review.md"
TOKEN = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"  # made up; quoted in the review's log


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The memory, committed whole in a new repository."""
    target = tmp_path / "repo"
    shutil.copytree(SOURCE, target)
    git_init(target)
    git(target, "add", "-A")
    git(target, "commit", "-q", "-m", "memory in the thread-file layout")
    return target


def run(repo: Path, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--root", str(repo / "memory")])
    assert result.exit_code == 0, result.output
    return result.stdout


def every_id(root: Path) -> set[str]:
    memory = load(root)
    documents = (*memory.live, *memory.archives)
    return {fact.id for document in documents for fact in document.facts}


# -- the review -----------------------------------------------------------------------------


def test_review_refreshes_thread_footers_and_sweeps_the_old_done_thread(repo: Path) -> None:
    before = snapshot(repo)
    ids = every_id(repo / "memory")

    run(repo, "review")

    after = snapshot(repo)
    assert OLD_DONE not in after  # swept: the archive block holds it
    assert "memory/open-threads/thread-fx-cache-warmup.md" not in git(repo, "ls-files")
    archived = after[ARCHIVE].decode()
    swept = before[OLD_DONE].decode().splitlines(keepends=True)
    assert "### Completed\n\n" + "".join(swept[:-1]) in archived  # text byte for byte
    assert "| tier: archived | origin: 2026-10-01-090000 | section: Open Threads -->" in archived
    assert after[RECENT_DONE].decode().splitlines()[1] == (
        "  <!-- id: audit-log-rotation | created: 2026-10-05 | last_used: 2026-10-11 | uses: 2 "
        "| tier: active | origin: 2026-10-05-090000 -->"
    )  # Closed: counted as a use; done but recent, so it stays
    assert after[LIVE].decode().splitlines()[2] == (
        "  <!-- id: retry-ledger-export | created: 2026-10-02 | last_used: 2026-10-03 | uses: 2 "
        "| tier: working | origin: 2026-10-02-100000 -->"
    )  # refreshed, never decays: its tier label stays
    assert every_id(repo / "memory") == ids  # no id lost
    for path in (LIVE, RECENT_DONE):  # only the footer line changed
        old, new = before[path].decode().splitlines(), after[path].decode().splitlines()
        assert [a == b for a, b in zip(old, new, strict=True)].count(False) == 1
    changed = {CONTINUITY, LIVE, RECENT_DONE, ARCHIVE, "memory/archive/INDEX.md"}
    changed |= {"memory/reviews.md", OLD_DONE}
    for path in set(before) | set(after):
        if path not in changed:
            assert before.get(path) == after.get(path), path


def test_the_review_keeps_unknown_keys_and_knobs_and_reviews_once(repo: Path) -> None:
    run(repo, "review")
    first, head = snapshot(repo), git(repo, "rev-parse", "HEAD")

    out = run(repo, "review")

    assert "Nothing new since the last review" in out
    assert snapshot(repo) == first and git(repo, "rev-parse", "HEAD") == head
    text = first[CONTINUITY].decode()
    assert "| origin: 2026-10-03-110000 | note: kept since the first audit -->" in text
    assert first["memory/decay-policy.md"] == (SOURCE / "memory/decay-policy.md").read_bytes()
    assert "last_session" not in text  # nothing needs it


def test_a_memory_review_section_is_never_counted(repo: Path) -> None:
    """The review's log names fx-cache-warmup under `## Memory Review`: were it counted,
    the thread would be recent and stay."""
    data = (repo / REVIEW_LOG).read_bytes()
    references, _, _, _ = scan_log(data, REVIEW_LOG)
    assert b"fx-cache-warmup" in data
    assert references == ["half-even-at-the-edge", "integer-minor-units"]


def test_threads_the_review_raises_go_into_files_of_their_own(repo: Path) -> None:
    continuity = repo / CONTINUITY
    text = continuity.read_text("utf-8").replace(
        "half-even; the export retry depends on it",
        "half-even; the export retry depends on it → serves: settlement-vision",
    )
    continuity.write_text(text, "utf-8")

    run(repo, "review")

    drift = repo / THREADS / "thread-drift-half-even-at-the-edge-settlement-vision.md"
    assert drift.read_text("utf-8").startswith(
        "- [ ] Drift: half-even-at-the-edge doesn't serve settlement-vision (it names no fact)\n"
    )
    assert continuity.read_text("utf-8").endswith("listed here.\n")  # nothing added there


# -- lint -----------------------------------------------------------------------------------


def test_lint_reports_the_dangling_link_and_nothing_else(repo: Path) -> None:
    run(repo, "review")

    findings = mdmem.lint(repo / "memory")

    # line 20: the review stamped last_review above it
    assert [(f.code, f.path, f.line) for f in findings] == [("W022", CONTINUITY, 20)]
    assert "nearest known id: integer-minor-units" in findings[0].message


def test_lint_before_the_review_knows_every_new_key(repo: Path) -> None:
    """No unknown key for Closed:, no typo for note:, no unknown id for a thread file's,
    no secret for the marked line, and the secret is never echoed."""
    findings = mdmem.lint(repo / "memory")

    assert {f.code for f in findings} == {"W001", "W007", "W022"}
    assert not any(TOKEN in json.dumps(f.as_dict()) for f in findings)


def test_an_unmarked_secret_in_a_log_is_still_reported(repo: Path) -> None:
    log = repo / REVIEW_LOG
    log.write_text(log.read_text("utf-8").replace(" <!-- lint:allow-secret-material -->", ""))

    findings = mdmem.lint(repo / "memory")

    assert [(f.code, f.path, f.line) for f in findings if f.code == "E009"] == [
        ("E009", REVIEW_LOG, 6)
    ]


MARKED = f"- quoted: `token = {TOKEN}` <!-- lint:allow-secret-material -->\n"


@pytest.mark.parametrize(
    ("text", "facts", "codes"),
    [
        pytest.param(MARKED, False, [], id="marked-in-a-log"),
        pytest.param(MARKED.replace("lint:allow", "lint:deny"), False, ["E009"], id="unmarked"),
        pytest.param(MARKED, True, ["E009"], id="marked-where-facts-live"),
        pytest.param(f"{MARKED}token = {TOKEN}\n", False, ["E009"], id="the-next-line"),
    ],
)
def test_the_allow_marker_covers_its_own_log_line_only(
    text: str, facts: bool, codes: list[str]
) -> None:
    found = text_findings("memory/x.md", text, facts=facts)
    assert [f.code for f in found] == codes
    assert not any(TOKEN in f.render() for f in found)


def test_a_thread_file_that_does_not_parse_is_named_by_file_and_line(repo: Path) -> None:
    (repo / THREADS / "thread-broken-footer.md").write_text(
        "- [ ] A thread\n  <!-- id: broken-footer | created: 2026-10-01 | created: x -->\n"
    )

    findings = mdmem.lint(repo / "memory")

    assert ("E001", f"{THREADS}/thread-broken-footer.md", 2) in [
        (f.code, f.path, f.line) for f in findings
    ]


# -- the reading commands -------------------------------------------------------------------


def test_status_context_lookup_and_show_find_thread_ids(repo: Path) -> None:
    status = run(repo, "status")
    assert "open threads: 1\n" in status
    assert f"{LIVE}:1  retry-ledger-export" in status

    context = run(repo, "context", "ledger export retry")
    threads = context.partition("## Open threads")[2]
    assert "[retry-ledger-export]" in threads

    lookup = run(repo, "lookup", "audit log rotation")
    assert lookup.startswith(f"{RECENT_DONE}:1  audit-log-rotation ")

    shown = run(repo, "show", "retry-ledger-export")
    assert shown.startswith(f"{LIVE}:1  retry-ledger-export ")
    assert "referenced by 2 session logs" in shown


def test_show_as_of_decides_a_thread_file_s_fact_as_live(repo: Path) -> None:
    shown = run(repo, "show", "audit-log-rotation", "--as-of", "2026-10-11-090000")
    assert "(through 2026-10-11-090000): active" in shown


def test_lookup_without_the_cache_reads_thread_files_too(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    assert run(repo, "lookup", "FX rate cache").startswith(f"{OLD_DONE}:1  fx-cache-warmup ")


# -- the writers ----------------------------------------------------------------------------


def test_thread_and_done_write_the_thread_layout(repo: Path) -> None:
    continuity = (repo / CONTINUITY).read_bytes()
    run(repo, "session", "start")

    opened = run(repo, "thread", "Reconcile the settlement totals nightly")
    thread_id = opened.split()[1]
    path = repo / THREADS / f"thread-{thread_id}.md"
    assert f"in {THREADS}/thread-{thread_id}.md" in opened
    lines = path.read_text("utf-8").splitlines()
    assert lines[0] == "- [ ] Reconcile the settlement totals nightly"
    assert lines[1].startswith(f"  <!-- id: {thread_id} | created: ")
    assert len(lines) == 2

    run(repo, "done", thread_id)
    run(repo, "done", "retry-ledger-export")

    assert path.read_text("utf-8").startswith("- [x] Reconcile")
    assert (repo / LIVE).read_text("utf-8").startswith("- [x] Retry the ledger export")
    assert (repo / CONTINUITY).read_bytes() == continuity
    run(repo, "ref", thread_id, "audit-log-rotation")  # thread files' ids are live ids


def test_thread_json_names_the_file(repo: Path) -> None:
    run(repo, "session", "start")
    answer = json.loads(run(repo, "thread", "Split the export by currency", "--json"))
    assert answer["file"] == f"open-threads/thread-{answer['id']}.md"


# -- the format -----------------------------------------------------------------------------


def links(text: str) -> list[tuple[int, str, str]]:
    document = parse_document(TextFile("c.md", tuple(text.splitlines(keepends=True))))
    return fact_links(document, document.facts[0])


FOOTER = "  <!-- id: some-fact -->\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("- See [[other-fact]]\n", [(2, "link", "other-fact")], id="link"),
        pytest.param(
            "- A\n  → proposal: next-step\n", [(3, "proposal", "next-step")], id="proposal"
        ),
        pytest.param("- A -> proposal: next-step\n", [(2, "proposal", "next-step")], id="ascii"),
        pytest.param("- Write `[[some-id]]` to link\n", [], id="code-span-is-quoted"),
        pytest.param("- [[Not An Id]] and [[file:x.md]]\n", [], id="not-ids"),
        pytest.param("- See [[a-b]], [[c-d]]\n", [(2, "link", "a-b"), (2, "link", "c-d")]),
    ],
)
def test_links_in_a_fact_s_text(text: str, expected: list[tuple[int, str, str]]) -> None:
    assert links("## S\n" + text + FOOTER) == expected


def test_a_thread_file_reads_as_an_item_of_open_threads() -> None:
    file = TextFile(
        "m/open-threads/thread-a-b.md",
        ("# A thread\n", "\n", "- [ ] Do it\n", "  <!-- id: a-b -->\n"),
    )
    document = parse_thread(file)
    assert [(f.id, f.section, f.is_open_thread) for f in document.facts] == [
        ("a-b", "Open Threads", True)
    ]


@pytest.mark.parametrize(
    ("lines", "stale", "narrative"),
    [
        pytest.param((), 40, 150, id="defaults"),
        pytest.param(("- thread_stale_window: 12  # note\n",), 12, 150, id="stale-window"),
        pytest.param(("closed_narrative_max_lines: 6\n",), 40, 6, id="narrative"),
        pytest.param(("- condense_records: true\n", "- future_knob: soon\n"), 40, 150),
    ],
)
def test_the_new_knobs_and_unknown_ones(lines: tuple[str, ...], stale: int, narrative: int) -> None:
    policy = parse_policy(TextFile("memory/decay-policy.md", lines))
    assert (policy.thread_stale_window, policy.closed_narrative_max_lines) == (stale, narrative)
