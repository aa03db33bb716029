"""The benchmark generator: deterministic, counted as asked, and in the shape the spec names.

Most tests read the unreviewed tree, the simulation as written; the reviewed tree (the
default) is that tree after mdmem's own review of all but the newest logs.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import BENCHMARKS, load_script

GENERATOR = BENCHMARKS / "generate.py"
SESSIONS, FACTS = 300, 120
ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)+")
FOOTER_ID = re.compile(r"^\s+<!-- id: (\S+) \|", re.MULTILINE)
FOOTER = re.compile(r"^\s+<!-- (id: (\S+) \|.*) -->$", re.MULTILINE)
# sha256 of snapshot() of generate(sessions=300, facts=120, seed=7, reviewed=False): the
# tree the generator wrote before it learned to review (but for the team names in its
# `reviewed-by` fields), which the unreviewed tree keeps. Change it only with a change
# that means to give the same seed other logs or facts.
UNREVIEWED_DIGEST = "488e6f4af192979d8da959030692839bf3deb66d8eced7e224e50ec5068c0f01"
SESSION_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}-\d{6}(-[a-z0-9]+(-[a-z0-9]+)*)?\.md$")


generator = load_script(GENERATOR, "mdmem_bench_generate")


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def digest(files: dict[str, bytes]) -> str:
    hashed = hashlib.sha256()
    for name, data in files.items():
        hashed.update(name.encode("utf-8") + b"\0" + data + b"\0")
    return hashed.hexdigest()


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The unreviewed tree: footers as the simulation left them."""
    folder = tmp_path_factory.mktemp("generated") / "memory"
    generator.generate(folder, sessions=SESSIONS, facts=FACTS, seed=7, reviewed=False)
    return folder


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default tree: reviewed by mdmem REVIEW_EVERY logs ago."""
    folder = tmp_path_factory.mktemp("reviewed") / "memory"
    generator.generate(folder, sessions=SESSIONS, facts=FACTS, seed=7)
    return folder


def footer_ids(memory: Path) -> list[str]:
    texts = [(memory / "continuity.md").read_text(encoding="utf-8")]
    texts += [path.read_text(encoding="utf-8") for path in sorted(memory.glob("archive/*.md"))]
    return [match for text in texts for match in FOOTER_ID.findall(text)]


def test_same_seed_gives_byte_identical_trees(memory: Path, tmp_path: Path) -> None:
    generator.generate(tmp_path / "again", sessions=SESSIONS, facts=FACTS, seed=7, reviewed=False)
    first, second = snapshot(memory), snapshot(tmp_path / "again")
    assert list(first) == list(second)
    assert first == second


def test_unreviewed_tree_is_the_one_written_before_reviews(memory: Path) -> None:
    assert digest(snapshot(memory)) == UNREVIEWED_DIGEST


def test_same_seed_gives_byte_identical_reviewed_trees(reviewed: Path, tmp_path: Path) -> None:
    # Another folder name and depth too: nothing the review writes depends on where it ran.
    again = tmp_path / "elsewhere" / "copy"
    generator.generate(again, sessions=SESSIONS, facts=FACTS, seed=7)
    first, second = snapshot(reviewed), snapshot(again)
    assert list(first) == list(second)
    assert first == second


def test_reviewed_tree_keeps_the_simulated_logs_and_facts(memory: Path, reviewed: Path) -> None:
    simulated, kept = snapshot(memory), snapshot(reviewed)
    for name, data in simulated.items():
        if name.startswith("sessions/") or name == "decay-policy.md":
            assert kept[name] == data, name
    assert sorted(name for name in kept if name.startswith("sessions/")) == sorted(
        name for name in simulated if name.startswith("sessions/")
    )
    ids = _all_footer_ids(reviewed)
    assert len(ids) == len(set(ids))
    assert set(_all_footer_ids(memory)) <= set(ids)  # only Open Threads it raised are new
    assert "archive/INDEX.md" in kept and "reviews.md" in kept  # a review wrote them


def test_reviewed_tree_is_settled_without_its_newest_logs(
    reviewed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mdmem.linting.gate import review

    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    copy = tmp_path / "memory"
    shutil.copytree(reviewed, copy)
    logs = sorted((copy / "sessions").iterdir())
    newest = logs[-generator.REVIEW_EVERY :]
    for path in newest:
        path.unlink()
    plan, _ = review(copy, dry_run=True)
    assert not plan.changed
    assert plan.summary is not None
    assert plan.summary.through == logs[-generator.REVIEW_EVERY - 1].stem
    stamp = f"through {plan.summary.through}\n"
    assert stamp in (copy / "continuity.md").read_text(encoding="utf-8")


def test_review_of_the_reviewed_tree_changes_little(
    memory: Path, reviewed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten new logs move a few facts; the unreviewed tree's first review moves many."""
    from mdmem.linting.gate import review

    monkeypatch.setenv("MDMEM_NO_CACHE", "1")
    copy, backlog = tmp_path / "reviewed", tmp_path / "unreviewed"
    shutil.copytree(reviewed, copy)
    shutil.copytree(memory, backlog)
    before = footers(copy)
    plan, _ = review(copy, commit=False)
    after = footers(copy)
    assert plan.summary is not None
    assert plan.summary.through == sorted((copy / "sessions").iterdir())[-1].stem
    changed = [fact_id for fact_id, footer in after.items() if before.get(fact_id) != footer]
    assert changed  # the new logs were counted
    assert len(changed) < len(after) // 2
    first, _ = review(backlog, commit=False)
    assert first.summary is not None
    assert len(plan.summary.moved_out) * 4 < len(first.summary.moved_out)


def test_review_inside_generation_leaves_no_cache_and_no_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MDMEM_NO_CACHE", raising=False)
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    generator.generate(tmp_path / "memory", sessions=40, facts=30, seed=2)
    assert (tmp_path / "memory" / "reviews.md").is_file()  # the review did run
    assert "MDMEM_NO_CACHE" not in os.environ
    assert not cache.exists()


def test_different_seed_gives_a_different_tree(memory: Path, tmp_path: Path) -> None:
    generator.generate(tmp_path / "other", sessions=SESSIONS, facts=FACTS, seed=8, reviewed=False)
    assert snapshot(memory) != snapshot(tmp_path / "other")


def test_expected_files_exist(memory: Path) -> None:
    assert (memory / "continuity.md").read_text(encoding="utf-8").startswith("# Continuity\n")
    policy = (memory / "decay-policy.md").read_text(encoding="utf-8")
    for line in ("working_window: 3", "active_window: 8", "archive_window: 20"):
        assert line in policy.splitlines()
    archives = sorted(path.name for path in memory.glob("archive/*.md"))
    assert archives
    assert all(re.fullmatch(r"\d{4}-Q[1-4]\.md", name) for name in archives)


def test_session_count_and_names(memory: Path) -> None:
    names = [path.name for path in (memory / "sessions").iterdir()]
    assert len(names) == SESSIONS
    assert all(SESSION_NAME.match(name) for name in names), names


def test_sorted_names_are_generation_order(memory: Path) -> None:
    timeline = generator.make_timeline(generator.random.Random(7), SESSIONS)
    on_disk = sorted(path.stem for path in (memory / "sessions").iterdir())
    assert on_disk == timeline.stems  # generate() draws the timeline first
    assert any(len(stem) > len("2024-01-01-080000") for stem in on_disk)  # some slugs
    moments = [stem[:17] for stem in on_disk]
    assert moments == sorted(set(moments))  # strictly increasing times


def test_fact_count_and_ids(memory: Path) -> None:
    ids = footer_ids(memory)
    assert len(ids) == FACTS
    assert len(set(ids)) == FACTS
    assert all(ID.fullmatch(fact_id) for fact_id in ids)


def test_continuity_holds_about_two_thirds(memory: Path) -> None:
    text = (memory / "continuity.md").read_text(encoding="utf-8")
    live = len(FOOTER_ID.findall(text))
    assert FACTS // 2 <= live <= FACTS * 3 // 4


def test_fact_text_never_opens_a_comment(memory: Path) -> None:
    for path in [memory / "continuity.md", *memory.glob("archive/*.md")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if "<!--" in line:
                assert FOOTER_ID.match(line), line


def test_created_facts_name_their_origin(memory: Path) -> None:
    created = {}
    for path in sorted((memory / "sessions").iterdir()):
        for match in re.finditer(r"^- Created: (\S+)", path.read_text(encoding="utf-8"), re.M):
            created[match.group(1)] = path.stem
    assert created
    footers = (memory / "continuity.md").read_text(encoding="utf-8")
    footers += "".join(p.read_text(encoding="utf-8") for p in memory.glob("archive/*.md"))
    for fact_id, stem in created.items():
        assert f"id: {fact_id} |" in footers
        assert re.search(rf"id: {fact_id} \|[^\n]*\| origin: {stem}( |\|)", footers), fact_id


def test_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "stale.md").write_text("x")
    with pytest.raises(ValueError, match="not empty"):
        generator.generate(tmp_path, sessions=10, facts=10)


def footers(memory: Path) -> dict[str, str]:
    """Each fact's footer text by id, across continuity.md and the archive files."""
    paths = [memory / "continuity.md", *sorted((memory / "archive").glob("*.md"))]
    return {
        fact_id: footer
        for path in paths
        for footer, fact_id in FOOTER.findall(path.read_text(encoding="utf-8"))
    }


def _all_footer_ids(memory: Path) -> list[str]:
    texts = [memory / "continuity.md", *sorted((memory / "archive").glob("*.md"))]
    return sorted(
        fact_id
        for path in texts
        if path.name != "INDEX.md"
        for fact_id in FOOTER_ID.findall(path.read_text("utf-8"))
    )


@pytest.mark.parametrize("reviewed", [False, True], ids=["unreviewed", "reviewed"])
def test_review_of_a_generated_memory_conserves_and_is_idempotent(
    reviewed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The benchmark's timed reviews (review_backlog on the unreviewed tree, review on the
    reviewed one) keep every fact, once, and settle."""
    from mdmem.linting.gate import review

    monkeypatch.setenv("MDMEM_NO_CACHE", "1")  # every review planned from the files
    memory = tmp_path / "memory"
    generator.generate(memory, sessions=600, facts=900, seed=3, reviewed=reviewed)
    before = _all_footer_ids(memory)
    plan, _ = review(memory, commit=False)
    assert plan.summary is not None and plan.summary.moved_out  # real work was done
    after = _all_footer_ids(memory)
    opened = sorted(plan.summary.opened)
    assert after == sorted(before + opened)  # every id once; only new threads added
    again, _ = review(memory, commit=False)
    assert not again.changed


def test_bound_reads_what_the_review_reads(reviewed: Path) -> None:
    """The bound times the least a review does: it must find each log's references as
    the review's scanner does, or its time would be a bound on less work."""
    from mdmem.format.footer import ID_PATTERN
    from mdmem.format.sessionlog import REFERENCES_HEADING, scan_log

    bound = load_script(BENCHMARKS / "bound.py", "mdmem_bench_bound")
    token = re.compile(rf"(?<![\w-]){ID_PATTERN}(?![\w-])")
    logs = sorted((reviewed / "sessions").glob("*.md"))
    assert len(logs) == SESSIONS
    for log in logs:
        found = bound.references(token, REFERENCES_HEADING, str(log))
        assert sorted(set(found)) == scan_log(log.read_bytes(), log.name)[0], log.name


def test_bound_runs_as_the_benchmark_runs_it(reviewed: Path) -> None:
    lines = sum(
        len(path.read_text(encoding="utf-8").splitlines())
        for path in [reviewed / "continuity.md", *sorted((reviewed / "archive").glob("*.md"))]
    )
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bound.py"), str(reviewed)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith(f"{SESSIONS} logs, ")
    assert done.stdout.endswith(f", {lines} document lines\n")
