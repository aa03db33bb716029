"""Properties of the review over generated memories (tests/memories.py), checked with hypothesis.

- round trip: parsing and writing back an unchanged memory is byte-identical;
- idempotence: a review right after a review plans no write at all;
- order independence: the order files are listed in (archive tuples, directory
  creation order) does not change one byte of the plan;
- conservation: every id present before a review is present after, exactly once;
- convergence: a ledger split across two git branches, each reviewed, merged with
  the mdmem merge driver and reviewed again, ends where one branch would have.

How many examples run comes from the hypothesis profile (tests/conftest.py): `ci` by
default, `fuzz` under `make fuzz` (HYPOTHESIS_PROFILE=fuzz); each test takes a share.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mdmem.cli import main
from mdmem.cli.main import every_command
from mdmem.format.edit import apply_edits
from mdmem.format.footer import parse_footer
from mdmem.format.memory import Memory
from mdmem.format.textfile import body
from mdmem.reviewing.apply import apply
from mdmem.reviewing.plan import ReviewPlan, plan_review
from mdmem.store.load import load
from tests.helpers import git
from tests.memories import GeneratedMemory, memories

EXAMPLES = settings.default.max_examples  # the loaded profile's budget


def share(divisor: int) -> settings:
    """A test's part of the profile's budget: heavy tests run fewer examples."""
    return settings(max_examples=max(3, EXAMPLES // divisor))


@contextmanager
def laid_out(memory: GeneratedMemory, order: list[str] | None = None) -> Iterator[Path]:
    """The memory written to a fresh `memory/` folder (no git), removed afterwards."""
    with tempfile.TemporaryDirectory() as scratch:
        yield memory.write(Path(scratch) / "memory", order)


def writes(plan: ReviewPlan) -> dict[str, tuple[str | None, str]]:
    return {write.path: (write.before, write.after) for write in plan.writes}


def ids(memory: Memory) -> list[str]:
    return [f.id for doc in (memory.continuity, *memory.archives) for f in doc.facts]


@share(2)
@given(memories())
def test_property_round_trip_is_byte_identical(generated: GeneratedMemory) -> None:
    with laid_out(generated) as root:
        memory = load(root)
        for document in (memory.continuity, *memory.archives):
            relative = document.path.split("/", 1)[1]
            assert document.file.text().encode("utf-8") == generated.files[relative]
            assert apply_edits(document.lines, [], document.file.newline) == list(document.lines)
            for fact in document.facts:
                line = body(document.lines[fact.footer_index])
                assert fact.footer.render() == line
                assert fact.footer.updated(fact.footer.as_dict()).render() == line
                again = parse_footer(line, document.path, fact.footer_index + 1)
                assert again == fact.footer
        assert sorted(ids(memory)) == sorted(generated.ids)


@share(2)
@given(memories())
def test_property_review_twice_is_review_once(generated: GeneratedMemory) -> None:
    review_twice_is_review_once(generated)


def review_twice_is_review_once(generated: GeneratedMemory) -> None:
    with laid_out(generated) as root:
        first = plan_review(load(root))
        apply(first, commit=False)
        second = plan_review(load(root))
        assert second.writes == ()
        # Every memory here has a session log, so every plan has a summary.
        assert first.summary is not None
        assert second.summary is not None
        assert (second.summary.tiers, second.summary.open_threads) == (
            first.summary.tiers,
            first.summary.open_threads,
        )
        assert not (second.summary.moved_out or second.summary.moved_in)
        assert not (second.summary.tier_changes or second.summary.refreshed)


def test_review_twice_regression_reactivated_rule_reported_harmful() -> None:
    """Found by the fuzz profile: a rule the review brings back from the archive, which
    sessions keep reporting harmful, gets its "Invert to anti-pattern" thread in that same
    review, not in the next one."""
    log = "# Session\n\n## Memory References\n- Referenced: cache-retry-rule\n- Harmful: {}\n"
    files = {
        "continuity.md": b"# Continuity\n",
        "archive/2025-Q4.md": b"# Archive 2025-Q4\n\n## Archived 2025-12-01 (review through x)\n\n"
        b"- Always retry the cache\n  <!-- id: cache-retry-rule | tier: archived -->\n",
        **{f"sessions/2026-03-0{n}.md": log.format("cache-retry-rule").encode() for n in (1, 2, 3)},
    }
    stems = ("2026-03-01", "2026-03-02", "2026-03-03")
    review_twice_is_review_once(GeneratedMemory(files, ("cache-retry-rule",), stems))


@share(2)
@given(memories(), st.data())
def test_property_file_order_does_not_matter(
    generated: GeneratedMemory, data: st.DataObject
) -> None:
    with laid_out(generated) as root:
        memory = load(root)
        expected = writes(plan_review(memory))
        archives = data.draw(st.permutations(memory.archives))
        assert writes(plan_review(dataclasses.replace(memory, archives=tuple(archives)))) == (
            expected
        )
    order = data.draw(st.permutations(sorted(generated.files)))
    with laid_out(generated, list(order)) as root:
        assert writes(plan_review(load(root))) == expected


@share(2)
@given(memories(min_facts=1))
def test_property_every_id_survives_exactly_once(generated: GeneratedMemory) -> None:
    with laid_out(generated) as root:
        before = ids(load(root))
        apply(plan_review(load(root)), commit=False)
        after = Counter(ids(load(root)))
        assert all(after[fact_id] == 1 for fact_id in before), after


# -- convergence across branches ----------------------------------------------------------------


@pytest.fixture(autouse=True)
def mdmem_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Git runs the merge driver as `mdmem merge-driver ...`: the mdmem beside this python."""
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])


def mdmem(repo: Path, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--root", str(repo / "memory")])
    assert result.exit_code == 0, result.output
    return result.stdout


def project(folder: Path, generated: GeneratedMemory, sessions: dict[str, bytes]) -> Path:
    """A repository after `mdmem init` holding the memory with only `sessions` of its logs."""
    folder.mkdir()
    git(folder, "init", "-q", "-b", "main")
    GeneratedMemory({**generated.without_sessions(), **sessions}, (), ()).write(folder / "memory")
    result = CliRunner().invoke(main, ["init", "--root", str(folder)])
    assert result.exit_code == 0, result.output
    commit(folder, "memory")
    return folder


def commit(repo: Path, message: str) -> None:
    """Commit everything, past the hook `mdmem init` installed: the generated logs cite ids
    no fact has on purpose, which the hook stops while uncommitted (E011)."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "--allow-empty", "-m", message)


def outcome(repo: Path) -> dict[str, tuple[str, str | None, str | None, str | None]]:
    """id -> (continuity or archive, tier, uses, last_used): what a review decides."""
    memory = load(repo / "memory")
    found = {}
    for document in (memory.continuity, *memory.archives):
        place = "continuity" if document is memory.continuity else "archive"
        for fact in document.facts:
            found[fact.id] = (place, fact.get("tier"), fact.get("uses"), fact.get("last_used"))
    return found


def merge_driver_exists() -> bool:
    return "merge-driver" in every_command() and "init" in every_command()


@pytest.mark.skipif(not merge_driver_exists(), reason="mdmem merge-driver / mdmem init missing")
@share(10)
@given(memories(max_facts=6, min_sessions=2), st.data())
def test_property_split_ledger_converges_after_merge(
    generated: GeneratedMemory, data: st.DataObject
) -> None:
    logs = generated.session_files()
    names = sorted(logs)
    # Each branch gets at least one log of its own: otherwise nothing was split.
    shared = data.draw(st.integers(0, len(names) - 2))
    base = {name: logs[name] for name in names[:shared]}
    apart = names[shared:]
    on_b = data.draw(st.sets(st.sampled_from(apart), min_size=1, max_size=len(apart) - 1))
    branch = {name: "b" if name in on_b else "a" for name in apart}
    with tempfile.TemporaryDirectory() as scratch:
        split = project(Path(scratch) / "split", generated, base)
        mdmem(split, "review")
        git(split, "branch", "b")
        for side, letter in (("b", "b"), ("main", "a")):
            git(split, "checkout", "-q", side)
            for name in apart:
                if branch[name] == letter:
                    (split / "memory" / name).write_bytes(logs[name])
            commit(split, f"sessions on {side}")
            mdmem(split, "review")
        merged = git(split, "merge", "--no-edit", "b")
        assert "CONFLICT" not in merged
        mdmem(split, "review")

        single = project(Path(scratch) / "single", generated, base)
        mdmem(single, "review")
        GeneratedMemory(logs, (), ()).write(single / "memory")
        commit(single, "all sessions")
        mdmem(single, "review")

        assert outcome(split) == outcome(single)
