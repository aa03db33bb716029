"""A fact whose footer was broken by hand: `mdmem diff` lists it as unreadable (where and
why), never as removed, and lets it cause no finding about another fact; `mdmem show` of
its id says where it is and why it cannot be read, never "no fact"."""

# ruff: noqa: E501  (footers are one line, as in a real memory)

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mdmem.changes.model import Unreadable
from mdmem.changes.read import diff
from mdmem.changes.render import markdown
from mdmem.cli.main import main
from mdmem.format.leftout import leaving_out
from tests.helpers import GIT_ENV, git

CONTINUITY = """\
# Continuity

## Key Decisions

- Tokens were kept in the browser's local storage
  <!-- id: tokens-in-storage | created: 2026-11-02 | last_used: 2026-11-02 | uses: 1 | tier: superseded | superseded-by: tokens-in-cookies -->

- Tokens live in http-only cookies, never in script-readable storage
  <!-- id: tokens-in-cookies | created: 2026-11-03 | last_used: 2026-11-03 | uses: 1 | tier: working | supersedes: tokens-in-storage -->

- Retries back off exponentially, capped at a minute
  <!-- id: retry-with-backoff | created: 2026-11-03 | last_used: 2026-11-03 | uses: 1 | tier: working -->
"""
LOG = "# Session\n\n## Memory References\n- Referenced: retry-with-backoff\n"
FOOTER_LINE = 9  # tokens-in-cookies's footer
GOOD = "| uses: 1 | tier: working | supersedes: tokens-in-storage -->"
BROKEN = {
    "a word for a count": (
        GOOD.replace("uses: 1", "uses: two"),
        "uses 'two' is not a whole number",
    ),
    "the comment left open": (GOOD.removesuffix(" -->"), "unclosed footer"),
}


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose committed memory holds a superseded fact, its successor and
    another fact, and one session log."""
    repo = tmp_path / "project"
    (repo / "memory" / "sessions").mkdir(parents=True)
    (repo / "memory" / "continuity.md").write_text(CONTINUITY, "utf-8")
    (repo / "memory" / "sessions" / "2026-11-03-090000.md").write_text(LOG, "utf-8")
    git(repo.parent, "init", "-q", "project")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    return repo


def break_footer(repo: Path, how: str) -> None:
    continuity = repo / "memory" / "continuity.md"
    text = continuity.read_text("utf-8")
    assert GOOD in text
    continuity.write_text(text.replace(GOOD, BROKEN[how][0]), "utf-8")


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_diff_lists_a_broken_fact_as_unreadable_not_removed(repo: Path, how: str) -> None:
    break_footer(repo, how)
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert changes.changes == ()  # not removed, and nothing said of its predecessor
    [item] = changes.unreadable
    assert (item.side, item.path, item.line, item.ids) == (
        "head",
        "memory/continuity.md",
        FOOTER_LINE,
        ("tokens-in-cookies",),
    )
    assert item.why.startswith(BROKEN[how][1])
    codes = {(finding.code, finding.line) for finding in changes.findings}
    assert ("E001", FOOTER_LINE) in codes
    assert not any(finding.code == "W005" for finding in changes.findings)
    text = markdown(changes)
    assert "person must approve" not in text and "names no fact" not in text
    left_out = text.split("**Left out", 1)[1].split("\n\n**", 1)[0]
    assert f"`memory/continuity.md:{FOOTER_LINE}` on head holds `tokens-in-cookies`" in left_out
    lint = text.split("**Lint findings this change brings**", 1)[1]
    assert f"`memory/continuity.md:{FOOTER_LINE}` E001 {BROKEN[how][1]}" in lint


def test_diff_json_adds_the_unreadable_items_and_keeps_its_keys(repo: Path) -> None:
    break_footer(repo, "a word for a count")
    result = CliRunner().invoke(main, ["diff", "HEAD", "--json", "--root", str(repo / "memory")])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert list(answer)[:9] == [
        "base",
        "head",
        "reviewed",
        "changes",
        "sessions_added",
        "sessions_removed",
        "paths_gone",
        "lint_new",
        "lint_fixed",
    ]
    assert answer["changes"] == []
    assert answer["unreadable"] == [
        {
            "side": "head",
            "path": "memory/continuity.md",
            "line": FOOTER_LINE,
            "why": "uses 'two' is not a whole number",
            "ids": ["tokens-in-cookies"],
        }
    ]
    assert [finding["code"] for finding in answer["lint_new"]] == ["E001"]


def test_a_broken_fact_fixed_is_not_added(repo: Path) -> None:
    break_footer(repo, "a word for a count")
    git(repo, "commit", "-q", "-am", "a footer broken by hand")
    (repo / "memory" / "continuity.md").write_text(CONTINUITY, "utf-8")
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert changes.changes == ()
    assert [(item.side, item.ids) for item in changes.unreadable] == [
        ("base", ("tokens-in-cookies",))
    ]
    assert changes.findings == () and changes.findings_fixed >= 1
    assert changes.sessions == () and changes.sessions_removed == ()


def test_an_unreadable_log_is_neither_removed_nor_added(repo: Path) -> None:
    log = repo / "memory" / "sessions" / "2026-11-03-090000.md"
    log.write_bytes(LOG.encode("utf-8") + b"\xff\xfe broken bytes\n")
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert changes.sessions_removed == ()
    assert [(item.side, item.path) for item in changes.unreadable] == [
        ("head", "memory/sessions/2026-11-03-090000.md")
    ]
    assert "on head: " in markdown(changes)
    git(repo, "commit", "-q", "-am", "a log broken")
    log.write_text(LOG, "utf-8")
    with leaving_out():
        mended = diff(repo / "memory", "HEAD")
    assert (mended.sessions, mended.sessions_removed) == ((), ())
    log.unlink()
    with leaving_out():
        deleted = diff(repo / "memory", "HEAD")
    assert deleted.sessions_removed == ("2026-11-03-090000",)


def test_a_fact_deleted_beside_a_broken_one_is_still_removed(repo: Path) -> None:
    break_footer(repo, "a word for a count")
    continuity = repo / "memory" / "continuity.md"
    text = continuity.read_text("utf-8")
    start = text.index("- Retries back off")
    continuity.write_text(text[:start].rstrip("\n") + "\n", "utf-8")
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert [(change.kind, change.id) for change in changes.changes] == [
        ("removed", "retry-with-backoff")
    ]
    assert [item.ids for item in changes.unreadable] == [("tokens-in-cookies",)]


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_show_of_a_broken_fact_says_where_and_why(repo: Path, how: str) -> None:
    break_footer(repo, how)
    result = CliRunner().invoke(main, ["show", "tokens-in-cookies", "--root", str(repo / "memory")])
    assert result.exit_code == 3, result.output
    refusal = result.stderr.strip().splitlines()[-1]
    assert refusal.startswith(
        f"mdmem: memory/continuity.md:{FOOTER_LINE}: fact 'tokens-in-cookies'"
    )
    assert BROKEN[how][1] in refusal and "cannot be read" in refusal
    assert "no fact" not in result.stderr
    other = CliRunner().invoke(main, ["show", "tokens-in-cookie", "--root", str(repo / "memory")])
    assert other.exit_code == 3 and "no fact 'tokens-in-cookie'" in other.stderr


def test_the_unreadable_item_is_a_value() -> None:
    item = Unreadable("head", "memory/continuity.md", 3, "why", ("some-fact",))
    assert item.as_dict()["ids"] == ["some-fact"]


def test_a_finding_left_undecided_is_not_counted_fixed(repo: Path) -> None:
    continuity = repo / "memory" / "continuity.md"
    dangling = CONTINUITY.replace(
        "superseded-by: tokens-in-cookies", "superseded-by: tokens-in-jars"
    )
    continuity.write_text(dangling, "utf-8")
    git(repo, "commit", "-q", "-am", "a successor that names no fact")
    good = "uses: 1 | tier: working -->"
    assert dangling.count(good) == 1
    continuity.write_text(dangling.replace(good, "uses: many | tier: working -->"), "utf-8")
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert [item.ids for item in changes.unreadable] == [("retry-with-backoff",)]
    assert [finding.code for finding in changes.findings] == ["E001"]
    assert changes.findings_fixed == 0  # the W005 is undecided on both sides, not fixed


def test_the_mcp_show_tool_says_where_and_why(repo: Path) -> None:
    pytest.importorskip("mcp", reason="the MCP SDK is not installed")
    import anyio

    from mdmem.mcp.server import build

    break_footer(repo, "a word for a count")
    server = build(repo / "memory")
    result = anyio.run(server.call_tool, "show", {"id": "tokens-in-cookies"})
    text = result.content[0].text
    assert (
        result.is_error and f"memory/continuity.md:{FOOTER_LINE}: fact 'tokens-in-cookies'" in text
    )
    assert "uses 'two' is not a whole number" in text and "no fact" not in text


def test_two_facts_broken_alike_are_two_findings_the_change_brings(repo: Path) -> None:
    """Findings are matched across the sides by code, path and message (lines move), as
    many of each as there are: two footers broken the same way are two E001s, not one."""
    continuity = repo / "memory" / "continuity.md"
    text = continuity.read_text("utf-8")
    continuity.write_text(text.replace("| uses: 1 | tier: working", "| uses: two | tier: working"))
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert [(f.code, f.line) for f in changes.findings] == [("E001", 9), ("E001", 12)]


def _committed_broken(repo: Path) -> Path:
    break_footer(repo, "a word for a count")
    git(repo, "commit", "-q", "-am", "a footer broken by hand")
    return repo / "memory" / "continuity.md"


def test_a_broken_fact_both_sides_hold_alike_is_no_change(repo: Path) -> None:
    """A broken item the change does not touch: not listed, and the diff is empty (CI
    would comment on every pull request)."""
    _committed_broken(repo)
    (repo / "app.py").write_text("print(1)\n", "utf-8")
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert changes.unreadable == () and changes.empty


def test_a_finding_the_change_brings_is_named_at_its_own_line(repo: Path) -> None:
    """Base already had an E001 at line 9; the change breaks line 6, above it, alike: the
    new one is at 6 (a finding at the line base had it is the old one)."""
    continuity = _committed_broken(repo)
    text = continuity.read_text("utf-8")
    storage = "| uses: 1 | tier: superseded |"
    assert text.count(storage) == 1
    continuity.write_text(text.replace(storage, "| uses: two | tier: superseded |"), "utf-8")
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert [(f.code, f.line) for f in changes.findings] == [("E001", 6)]


NO_ID = "<!-- created: 2026-11-03 | last_used: 2026-11-03 | uses: 1 | tier: working -->"
REMOVALS = {
    # how base's item is broken: (footer line as base holds it, ids it names)
    "a word for a count": (
        "<!-- id: retry-with-backoff | created: 2026-11-03 | uses: three | tier: working -->",
        ("retry-with-backoff",),
    ),
}


@pytest.mark.parametrize("how", sorted(REMOVALS))
def test_an_unreadable_item_the_change_deletes_is_a_removal(repo: Path, how: str) -> None:
    """Base holds a fact it cannot read; the change deletes it: a person must approve the
    removal of that item, named by its file, base's line and the id its footer names."""
    continuity = repo / "memory" / "continuity.md"
    text = continuity.read_text("utf-8")
    footer = text.splitlines()[-1]
    assert "id: retry-with-backoff" in footer
    continuity.write_text(text.replace(footer, "  " + REMOVALS[how][0]), "utf-8")
    git(repo, "commit", "-q", "-am", "a footer broken by hand")
    continuity.write_text(text[: text.index("- Retries back off")].rstrip("\n") + "\n", "utf-8")
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert changes.unreadable == () and not changes.empty
    [item] = changes.unreadable_removed
    assert (item.side, item.path, item.line, item.ids) == (
        "base",
        "memory/continuity.md",
        12,
        REMOVALS[how][1],
    )
    approve = markdown(changes).split("**A person must approve:**", 1)[1]
    assert "unreadable item removed: `memory/continuity.md:12` on base" in approve
    assert all(f"`{fact_id}`" in approve for fact_id in REMOVALS[how][1])
    result = CliRunner().invoke(main, ["diff", "HEAD", "--json", "--root", str(repo / "memory")])
    assert json.loads(result.stdout)["unreadable_removed"] == [item.as_dict()]


@pytest.mark.parametrize("mended", [True, False], ids=["repaired", "deleted"])
def test_an_item_base_holds_with_no_id_is_never_called_removed(repo: Path, mended: bool) -> None:
    """A footer with no id: whether the change repaired the item or deleted it, nothing
    tells, so it is listed as base's unreadable item, never as a removal to approve."""
    continuity = repo / "memory" / "continuity.md"
    text = continuity.read_text("utf-8")
    footer = text.splitlines()[-1]
    continuity.write_text(text.replace(footer, "  " + NO_ID), "utf-8")
    git(repo, "commit", "-q", "-am", "a footer broken by hand")
    deleted = text[: text.index("- Retries back off")].rstrip("\n") + "\n"
    continuity.write_text(text if mended else deleted, "utf-8")
    with leaving_out():
        changes = diff(repo / "memory", "HEAD")
    assert changes.unreadable_removed == ()
    assert [(item.side, item.line, item.ids) for item in changes.unreadable] == [("base", 12, ())]
    assert "A person must approve" not in markdown(changes)


EXAMPLE = "    <!-- id: example-shape-only | created: 2026-11-03 -->"
FENCED = {
    # where a footer-shaped line with an id no fact has sits: (text, what `show` of it says)
    "in a fence in a fact's text": (
        "- Footers sit on a line of their own:\n  ```markdown\n  - A sample\n"
        f"{EXAMPLE}\n  ```\n"
        "  <!-- id: footers-own-line | created: 2026-11-03 | uses: 1 | tier: working -->\n",
        "no fact 'example-shape-only'",
    ),
    "in a fence in a section's prose": (
        f"Prose with an example:\n\n~~~\n- A sample\n{EXAMPLE}\n~~~\n",
        "no fact 'example-shape-only'",
    ),
    "below a fence never closed": (
        f"Prose with an example:\n\n```\n- A sample\n{EXAMPLE}\n",
        "fact 'example-shape-only' is here but cannot be read: code fence",
    ),
}


@pytest.mark.parametrize("where", sorted(FENCED))
def test_a_footer_in_a_fence_is_text_to_show(repo: Path, where: str) -> None:
    """`show` of an id only an example footer in a fenced block holds is no fact, never
    the broken item of that file; a fence never closed is the item that holds it."""
    break_footer(repo, "a word for a count")
    continuity = repo / "memory" / "continuity.md"
    text = continuity.read_text("utf-8") + "\n## Notes\n\n" + FENCED[where][0]
    continuity.write_text(text, "utf-8")
    result = CliRunner().invoke(
        main, ["show", "example-shape-only", "--root", str(repo / "memory")]
    )
    assert result.exit_code == 3, result.output
    assert FENCED[where][1] in result.stderr.strip().splitlines()[-1]
