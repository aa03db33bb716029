"""The benchmark generator: deterministic, counted as asked, and in the shape the spec names."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

GENERATOR = Path(__file__).resolve().parent.parent / "benchmarks" / "generate.py"
SESSIONS, FACTS = 300, 120
ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)+")
FOOTER_ID = re.compile(r"^\s+<!-- id: (\S+) \|", re.MULTILINE)
SESSION_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}-\d{6}(-[a-z0-9]+(-[a-z0-9]+)*)?\.md$")


def load_generator() -> ModuleType:
    """benchmarks/ is not a package: import generate.py by its path."""
    spec = importlib.util.spec_from_file_location("mdmem_bench_generate", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


generator = load_generator()


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("generated") / "memory"
    generator.generate(folder, sessions=SESSIONS, facts=FACTS, seed=7)
    return folder


def footer_ids(memory: Path) -> list[str]:
    texts = [(memory / "continuity.md").read_text(encoding="utf-8")]
    texts += [path.read_text(encoding="utf-8") for path in sorted(memory.glob("archive/*.md"))]
    return [match for text in texts for match in FOOTER_ID.findall(text)]


def test_same_seed_gives_byte_identical_trees(memory: Path, tmp_path: Path) -> None:
    generator.generate(tmp_path / "again", sessions=SESSIONS, facts=FACTS, seed=7)
    first, second = snapshot(memory), snapshot(tmp_path / "again")
    assert list(first) == list(second)
    assert first == second


def test_different_seed_gives_a_different_tree(memory: Path, tmp_path: Path) -> None:
    generator.generate(tmp_path / "other", sessions=SESSIONS, facts=FACTS, seed=8)
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


def _all_footer_ids(memory: Path) -> list[str]:
    texts = [memory / "continuity.md", *sorted((memory / "archive").glob("*.md"))]
    return sorted(
        fact_id
        for path in texts
        if path.name != "INDEX.md"
        for fact_id in FOOTER_ID.findall(path.read_text("utf-8"))
    )


def test_review_of_a_generated_memory_conserves_and_is_idempotent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not timed: the benchmark's heavy first review keeps every fact, once, and settles."""
    from mdmem.apply import review

    monkeypatch.setenv("MDMEM_NO_CACHE", "1")  # every review planned from the files
    memory = tmp_path / "memory"
    generator.generate(memory, sessions=600, facts=900, seed=3)
    before = _all_footer_ids(memory)
    plan, _ = review(memory, commit=False)
    assert plan.summary is not None and plan.summary.moved_out  # real work was done
    after = _all_footer_ids(memory)
    opened = sorted(plan.summary.opened)
    assert after == sorted(before + opened)  # every id once; only new threads added
    again, _ = review(memory, commit=False)
    assert not again.changed
