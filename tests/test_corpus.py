"""The bad-input corpus: each case gives a clear error (and no file changes) or a documented repair.

A case is a folder under tests/corpus/ holding only the files that differ from the
minimal memory in tests/corpus/base/ (laid over it), or, for inputs that cannot be
committed (a 20 MB file, links that leave the repository), a builder here. Its
expectations are one entry of CASES:

- `error(id, message, where)`: `mdmem review` exits 3, prints `mdmem: WHERE: ...MESSAGE...`
  on stderr and nothing on stdout, and no byte changes anywhere (nor a commit);
- `repair(id, check)`: the review succeeds, `check` asserts what the documented repair
  wrote, nothing outside memory/ changes, session logs are untouched, and a second
  review finds nothing new.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.cli import main
from mdmem.store.load import load
from tests.helpers import git, make_repo, snapshot

CORPUS = Path(__file__).resolve().parent / "corpus"
CONTINUITY = "memory/continuity.md"
TWENTY_MB = 20 * 1024 * 1024

Build = Callable[[Path], None]  # gets the repository (its parent is free for "outside" files)
Check = Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    id: str
    message: str | None  # a fragment of the error; None for a repair
    where: str | None  # `path:line` (or `path`) the error names
    check: Check | None = None  # what a repair wrote
    build: Build | None = None  # inputs made at test time


def error(id: str, message: str, where: str, build: Build | None = None) -> object:
    return pytest.param(Case(id, message, where, build=build), id=id)


def repair(id: str, check: Check, build: Build | None = None) -> object:
    return pytest.param(Case(id, None, None, check, build), id=id)


# -- builders: inputs that are generated, not committed ---------------------------------------


def outside_file(repo: Path) -> Path:
    target = repo.parent / "outside.md"
    target.write_text("## Memory References\n- Referenced: webhook-fire-forget\n", "utf-8")
    return target


def link_session(repo: Path) -> None:
    (repo / "memory/sessions/2026-01-07-100000.md").symlink_to(outside_file(repo))


def link_continuity(repo: Path) -> None:
    moved = repo.parent / "continuity-elsewhere.md"
    shutil.move(repo / CONTINUITY, moved)
    (repo / CONTINUITY).symlink_to(moved)


def link_folder(name: str) -> Build:
    def build(repo: Path) -> None:
        moved = repo.parent / f"{name}-elsewhere"
        shutil.move(repo / "memory" / name, moved)
        (repo / "memory" / name).symlink_to(moved, target_is_directory=True)

    return build


def link_policy(repo: Path) -> None:
    moved = repo.parent / "policy-elsewhere.md"
    shutil.move(repo / "memory/decay-policy.md", moved)
    (repo / "memory/decay-policy.md").symlink_to(moved)


HUGE_TEXT = "lorem ipsum dolor sit amet " * (TWENTY_MB // 27)


def huge_fact(repo: Path) -> None:
    """A 20 MB continuity.md: one fact whose text is a single 20 MB line."""
    path = repo / CONTINUITY
    text = path.read_text("utf-8")
    path.write_text(text.replace("- Webhooks fire and forget;", f"- Webhooks {HUGE_TEXT};"))


def huge_session(repo: Path) -> None:
    """A 20 MB session log: the references, then a pasted log with no line break at all."""
    path = repo / "memory/sessions/2026-01-07-100000.md"
    head = "# Session: a pasted log\n\n## Memory References\n- Referenced: webhook-fire-forget "
    path.write_text(head + "x" * TWENTY_MB, "utf-8")


# -- checks of documented repairs -------------------------------------------------------------


def footer(repo: Path, fact_id: str) -> dict[str, str]:
    memory = load(repo / "memory")
    for document in (memory.continuity, *memory.archives):
        for fact in document.facts:
            if fact.id == fact_id:
                return fact.footer.as_dict()
    raise AssertionError(f"{fact_id} is gone")


def places(repo: Path, fact_id: str) -> list[str]:
    memory = load(repo / "memory")
    documents = (memory.continuity, *memory.archives)
    return [doc.path for doc in documents for fact in doc.facts if fact.id == fact_id]


def counted(fact_id: str, uses: str, last_used: str) -> Check:
    def check(repo: Path) -> None:
        values = footer(repo, fact_id)
        assert (values["uses"], values["last_used"]) == (uses, last_used), values

    return check


def reviewed_normally(repo: Path) -> None:
    """What the base memory's review writes: both decisions recounted from the two logs."""
    counted("post-only-mutations", "2", "2026-01-06")(repo)
    counted("webhook-fire-forget", "1", "2026-01-06")(repo)


def addendum_kept(repo: Path) -> None:
    """A line written under a fact's footer is more of the fact, kept right below it."""
    lines = (repo / CONTINUITY).read_text("utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if "id: webhook-fire-forget" in line)
    assert lines[at + 1] == "  and the worker backs off exponentially"
    reviewed_normally(repo)


def bom_kept(repo: Path) -> None:
    data = (repo / CONTINUITY).read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and not data[3:].startswith(b"\xef\xbb\xbf")
    reviewed_normally(repo)


def all_crlf(repo: Path) -> None:
    data = (repo / CONTINUITY).read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") == 20
    reviewed_normally(repo)


def endings_kept(repo: Path) -> None:
    before = (CORPUS / "mixed-line-endings" / CONTINUITY).read_bytes().split(b"\n")
    after = (repo / CONTINUITY).read_bytes().split(b"\n")
    assert [line.endswith(b"\r") for line in after] == [line.endswith(b"\r") for line in before]
    reviewed_normally(repo)


def tabs_kept(repo: Path) -> None:
    line = next(li for li in (repo / CONTINUITY).read_text("utf-8").splitlines() if "webhook" in li)
    assert line.startswith("\t<!-- id: webhook-fire-forget\t|\t")
    assert "\t|\tuses: 1\t|\t" in line
    reviewed_normally(repo)


def still_empty(repo: Path) -> None:
    assert (repo / CONTINUITY).read_bytes() == b""
    assert "| 2026-01-06 | 2026-01-06-100000 | 2 |" in (repo / "memory/reviews.md").read_text()


def counted_as_a_session(repo: Path) -> None:
    assert "| 2026-01-07 | 2026-01-07-100000 | 3 |" in (repo / "memory/reviews.md").read_text()
    reviewed_normally(repo)


def nesting_kept(case: str) -> Check:
    def check(repo: Path) -> None:
        before = (CORPUS / case / CONTINUITY).read_text("utf-8").splitlines()
        after = (repo / CONTINUITY).read_text("utf-8").splitlines()
        assert len(after) == len(before) > 500
        changed = [new for new, old in zip(after, before, strict=True) if new != old]
        assert all("<!-- id:" in line or "**last_review:**" in line for line in changed)
        reviewed_normally(repo)

    return check


def flush_left_footer(repo: Path) -> None:
    assert "\n<!-- id: webhook-fire-forget | created: 2026-01-02 | last_used: 2026-01-06" in (
        (repo / CONTINUITY).read_text("utf-8")
    )
    reviewed_normally(repo)


def one_copy(fact_id: str, kept: str, thread: str) -> Check:
    def check(repo: Path) -> None:
        assert places(repo, fact_id) == [kept]
        assert f"- [ ] Merge duplicate: {fact_id} has two texts" in (repo / CONTINUITY).read_text()
        assert places(repo, thread) == ["memory/continuity.md"]

    return check


def never_a_path(repo: Path, value: str, relative_to: str) -> None:
    """Nothing exists where the value would lead if it were taken as a path."""
    escaped = (repo / "memory" / relative_to / value).resolve()
    assert not escaped.exists(), escaped


def origin_kept(repo: Path) -> None:
    assert footer(repo, "webhook-fire-forget")["origin"] == "../../../escaped"
    never_a_path(repo, "../../../escaped", "sessions")
    reviewed_normally(repo)


def reactivated_by_title(repo: Path) -> None:
    value = "../../../../tmp/escaped/notes"
    assert places(repo, "webhook-retry-jitter") == ["memory/continuity.md"]
    assert "\n## Reactivated\n\n- Retry webhooks with jitter\n" in (repo / CONTINUITY).read_text()
    assert "section" not in footer(repo, "webhook-retry-jitter")
    never_a_path(repo, value, "archive")


def nul_kept(repo: Path) -> None:
    assert "forget;\x00 delivery" in (repo / CONTINUITY).read_text("utf-8")
    counted("post-only-mutations", "2", "2026-01-06")(repo)


def huge_line_kept(repo: Path) -> None:
    text = (repo / CONTINUITY).read_text("utf-8")
    assert len(text) > TWENTY_MB and f"- Webhooks {HUGE_TEXT};" in text
    reviewed_normally(repo)


def superseded_stays(repo: Path) -> None:
    assert footer(repo, "put-for-updates")["tier"] == "superseded"
    reviewed_normally(repo)


# -- the table --------------------------------------------------------------------------------

C14, C15 = "memory/continuity.md:14", "memory/continuity.md:15"  # webhook-fire-forget's lines
POLICY = "memory/decay-policy.md"
S6 = "memory/sessions/2026-01-06-100000.md"
S7 = "memory/sessions/2026-01-07-100000.md"
SESSION_NAME = "session log name must be YYYY-MM-DD-HHMMSS[-slug].md"
LINKED = "is a symbolic link; mdmem does not follow links"
NOT_UTF8 = "not valid UTF-8 (byte 0x{}); save the file as UTF-8"

CASES = [
    error("unclosed-footer", "unclosed footer: the comment has no closing '-->'", C15),
    error("footer-without-id", "footer must open with 'id', not 'created'", C15),
    error("footer-empty-id", "id '' is not kebab-case of at least two words", C15),
    error("arrow-in-footer-value", "a footer value contains '-->'", C15),
    error("comment-open-in-footer-value", "a footer value contains '<!--'", C15),
    error("comment-in-fact-text", "fact text opens a comment ('<!--') it does not close", C14),
    error("duplicate-id", "duplicate id 'post-only-mutations' (first at line 13)", C15),
    repair(
        "id-in-continuity-and-archive",
        one_copy("webhook-fire-forget", CONTINUITY, "merge-duplicate-webhook-fire-forget"),
    ),
    repair(
        "duplicate-id-in-archive",
        one_copy("put-for-updates", "memory/archive/2026-Q1.md", "merge-duplicate-put-for-updates"),
    ),
    error("footer-key-repeated", "footer field 'tier' appears twice", C15),
    error("impossible-date", "created '2026-02-30' is not a date (YYYY-MM-DD)", C15),
    error("date-wrong-shape", "created '02/01/2026' is not a date (YYYY-MM-DD)", C15),
    error("unknown-tier", "unknown tier 'hot' (one of: core, active, working,", C15),
    error("uses-not-a-number", "uses 'many' is not a whole number", C15),
    error("field-without-colon", "footer field 'pinned' is not 'key: value'", C15),
    error("supersedes-not-an-id", "supersedes 'Old Rule' is not an id", C15),
    error("id-not-kebab-case", "id 'Webhook_Fire_Forget' is not kebab-case", C15),
    error("id-single-word", "id 'webhooks' is not kebab-case of at least two words", C15),
    error("text-after-footer", "text after the footer comment on the same line", C15),
    repair("line-after-footer", addendum_kept),
    repair("footer-at-column-0", flush_left_footer),
    error(
        "footer-alone-after-blank", "a footer that closes no list item", "memory/continuity.md:16"
    ),
    error("fact-outside-section", "a fact outside any '## ' section", "memory/continuity.md:5"),
    error(
        "unclosed-code-fence",
        "code fence '```' opened here is never closed",
        "memory/continuity.md:17",
    ),
    error("conflict-markers", "merge-conflict marker; resolve the conflict", C14),
    error(
        "conflict-markers-in-session",
        "merge-conflict marker",
        "memory/sessions/2026-01-06-100000.md:4",
    ),
    error("conflict-markers-in-archive", "merge-conflict marker", "memory/archive/2026-Q1.md:6"),
    error("non-utf8-continuity", NOT_UTF8.format("e9"), C14),
    error("non-utf8-session", NOT_UTF8.format("e9"), f"{S6}:1"),
    error("non-utf8-policy", NOT_UTF8.format("a7"), f"{POLICY}:3"),
    error("overlong-utf8", NOT_UTF8.format("c0"), C14),
    error("surrogate-utf8", NOT_UTF8.format("ed"), C14),
    repair("bom-continuity", bom_kept),
    repair("bom-session", reviewed_normally),
    error("bom-inside-file", "a byte-order mark (U+FEFF) inside the file", C14),
    repair("crlf-continuity", all_crlf),
    repair("mixed-line-endings", endings_kept),
    error(
        "cr-only-line-endings",
        "a carriage return (CR) that is not part of a CRLF",
        f"{CONTINUITY}:1",
    ),
    repair("tabs", tabs_kept),
    repair("empty-continuity", still_empty),
    repair("empty-session", counted_as_a_session),
    repair("empty-policy", superseded_stays),
    repair("file-20mb", huge_line_kept, build=huge_fact),
    repair("session-20mb", counted("webhook-fire-forget", "2", "2026-01-07"), build=huge_session),
    repair("deep-nesting", nesting_kept("deep-nesting")),
    repair("deep-blockquote", nesting_kept("deep-blockquote")),
    error("session-bad-name", SESSION_NAME, "memory/sessions/notes.md"),
    error(
        "session-impossible-date",
        "impossible date '2026-02-30'",
        "memory/sessions/2026-02-30-100000.md",
    ),
    error(
        "session-impossible-time",
        "impossible time '256000'",
        "memory/sessions/2026-01-07-256000.md",
    ),
    error("session-uppercase-slug", SESSION_NAME, "memory/sessions/2026-01-07-100000-API.md"),
    error("session-is-a-folder", "cannot be read", S7),
    error("symlinked-session", LINKED, S7, link_session),
    error("symlinked-continuity", LINKED, CONTINUITY, link_continuity),
    error("symlinked-policy", LINKED, POLICY, link_policy),
    error("symlinked-sessions-folder", LINKED, "memory/sessions", link_folder("sessions")),
    error("symlinked-archive-folder", LINKED, "memory/archive", link_folder("archive")),
    repair("origin-with-dotdot", origin_kept),
    repair("section-with-slash", reactivated_by_title),
    error(
        "policy-negative-window",
        "active_window must be between 0 and 1000000, not -3",
        f"{POLICY}:6",
    ),
    error("policy-huge-window", "archive_window must be between 0 and 1000000", f"{POLICY}:7"),
    error(
        "policy-not-a-number", "working_window must be a whole number, not 'three'", f"{POLICY}:5"
    ),
    error("policy-archive-not-above-active", "archive_window (8) must be greater", f"{POLICY}:7"),
    error("policy-key-twice", "active_window is set twice (first at line 6)", f"{POLICY}:8"),
    repair("policy-largest-window", superseded_stays),
    repair("references-in-code-fence", counted("webhook-fire-forget", "1", "2026-01-06")),
    repair("id-is-a-markdown-word", counted("follow-up", "1", "2026-01-02")),
    repair("unclosed-fence-in-session", counted("webhook-fire-forget", "1", "2026-01-06")),
    repair("nul-byte", nul_kept),
]


# -- the test ---------------------------------------------------------------------------------


def corpus_repo(tmp_path: Path, case: Case) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(CORPUS / "base", repo)
    if (CORPUS / case.id).is_dir():
        shutil.copytree(CORPUS / case.id, repo, dirs_exist_ok=True)
    if case.build is not None:
        case.build(repo)
    return make_repo(repo)


def outside_memory(tree: dict[str, bytes]) -> dict[str, bytes]:
    return {path: data for path, data in tree.items() if not path.startswith("repo/memory/")}


def sessions(tree: dict[str, bytes]) -> dict[str, bytes]:
    return {path: data for path, data in tree.items() if "/sessions/" in path}


@pytest.mark.parametrize("case", CASES)
def test_bad_input(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = corpus_repo(tmp_path, case)
    before = snapshot(tmp_path)
    head = git(repo, "rev-parse", "HEAD")
    monkeypatch.chdir(repo)

    result = CliRunner().invoke(main, ["review"])

    if case.message is not None:
        assert result.exit_code == 3, result.output
        assert result.stdout == ""
        assert result.stderr.startswith(f"mdmem: {case.where}: "), result.stderr
        assert case.message in result.stderr, result.stderr
        assert snapshot(tmp_path) == before
        assert git(repo, "rev-parse", "HEAD") == head
        return
    assert result.exit_code == 0, result.output
    after = snapshot(tmp_path)
    assert outside_memory(after) == outside_memory(before)
    assert sessions(after) == sessions(before)
    assert case.check is not None
    case.check(repo)
    again = CliRunner().invoke(main, ["review"])
    assert again.exit_code == 0, again.output
    assert "Nothing new since the last review" in again.stdout
    assert snapshot(tmp_path) == after


def test_the_corpus_is_large_and_every_folder_has_an_entry() -> None:
    ids = {param.values[0].id for param in CASES}  # type: ignore[attr-defined]
    folders = {p.name for p in CORPUS.iterdir() if p.is_dir()} - {"base"}
    assert len(ids) == len(CASES) >= 40
    assert folders <= ids, folders - ids
