"""Crash safety: a failure or a crash at any write point leaves exactly the old tree or the new one.

Every command that writes is one line in WRITE_COMMANDS. For each, a first clean run
records the labels `mdmem.store.writer.fault_hook` sees (the write points), and then a
failure is injected at each point in three ways:

- transient: one OSError at that point (a busy file, an interrupted call);
- persistent: an OSError at that point and at every point after it (a dying disk);
- crash: the disk is frozen as it is at that point and the process "dies" (a
  BaseException), so no cleanup of any kind runs; the next command then starts
  from the frozen disk, with the dead process's lock file still on it.

Afterwards (for a persistent fault or a crash: after the next command, which must
recover) the whole tree, compared byte for byte, is the old state or the new state,
and every id present before is present, once, after. A subprocess test then kills a
real review with SIGKILL at seeded random moments and checks the same.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mdmem.cli import main
from mdmem.store import journal, writer
from mdmem.store.load import load
from mdmem.writing import backfill, session
from tests.helpers import GIT_ENV, snapshot

DEMO = Path(__file__).resolve().parent.parent / "templates" / "demo" / "memory"
VERSIONS = ("base", "ours", "theirs")  # of continuity.md, for the merge driver
MERGE_FILES = [f"{{repo}}/merge/{version}.md" for version in VERSIONS]
UNCOMMITTED_LOG = "2026-11-01-090000-in-progress"

# What runs after a failure or a crash. NEXT: any command recovers first, and this one
# writes nothing itself, so the verdict is exact (old before the journal, new after it).
# RERUN: the same command again, for writes that keep no journal (one file replaced by
# rename: git's merge result, a hook script); it must reach the new state from anything
# a crash left.
NEXT = ("review", "--dry-run")
RERUN: tuple[str, ...] = ()

# The commands that write. Adding one is one line; `{repo}` in an argument is the repository.
WRITE_COMMANDS = [
    pytest.param(["review", "--no-commit"], NEXT, id="review-no-commit"),
    pytest.param(["review"], NEXT, id="review-commit"),
    pytest.param(["init"], NEXT, id="init"),
    pytest.param(["merge-driver", *MERGE_FILES], RERUN, id="merge-driver"),
    pytest.param(["merge-driver", "--union", *MERGE_FILES], RERUN, id="merge-driver-union"),
    pytest.param(["hooks", "install"], RERUN, id="hooks-install"),
    pytest.param(["backfill"], NEXT, id="backfill"),
    pytest.param(["session", "start", "--slug", "crash"], NEXT, id="session-start"),
    pytest.param(["ref", "--helpful", "money-integer-minor-units"], NEXT, id="ref"),
    pytest.param(["add", "Payouts batch nightly", "--section", "Key Decisions"], NEXT, id="add"),
    pytest.param(["supersede", "fastify-over-express", "--invalidate"], NEXT, id="supersede"),
    pytest.param(
        ["supersede", "fastify-over-express", "--by-text", "Hono is the HTTP layer"],
        NEXT,
        id="supersede-by-text",
    ),
    pytest.param(["restore", "refunds-sync-call"], NEXT, id="restore"),
    pytest.param(["forget", "openapi-from-schemas", "--reason", "hand-written"], NEXT, id="forget"),
    pytest.param(["core", "fastify-over-express"], NEXT, id="core"),
    pytest.param(["thread", "Pick a payout provider"], NEXT, id="thread"),
    pytest.param(["done", "partial-capture-ledger"], NEXT, id="done"),
]
# The clock backfill names its log by, the same for every run of a trial.
BACKFILL_STAMP = "2026-11-01-120000"
# A legacy fact (no footer), for backfill to give one; every other command leaves it be.
LEGACY = "- Refunds are issued in the original currency\n\n"

PRE_JOURNAL = ("pending", "temp:", "journal", "file-")  # before the commit point: old stands


class Crash(BaseException):
    """A process death: not an Exception, so nothing on the way out treats it as an error."""


def before_journal(label: str) -> bool:
    return label.startswith(PRE_JOURNAL)


# -- the memory under test -------------------------------------------------------------------


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo memory in a committed git repository; copied, never touched."""
    repo = tmp_path_factory.mktemp("pristine") / "repo"
    repo.mkdir()
    shutil.copytree(DEMO, repo / "memory")
    continuity = repo / "memory" / "continuity.md"
    text = continuity.read_text("utf-8").replace(
        "## Key Decisions\n\n", "## Key Decisions\n\n" + LEGACY
    )
    continuity.write_text(text, "utf-8")
    base = (DEMO / "continuity.md").read_text("utf-8")
    added = {
        "base": "",
        "ours": "- Payouts batch nightly at 02:00 UTC\n  <!-- id: payouts-nightly-batch -->\n",
        "theirs": "- Refund webhooks carry the refund id\n  <!-- id: refund-webhook-ids -->\n",
    }
    (repo / "merge").mkdir()
    for version in VERSIONS:
        text = base.replace("## Key Decisions\n\n", "## Key Decisions\n\n" + added[version], 1)
        (repo / "merge" / f"{version}.md").write_text(text, "utf-8")
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "memory"]):
        subprocess.run(["git", *args], cwd=repo, check=True, env=env, capture_output=True)
    # The session in progress that `mdmem ref` writes to: not committed yet.
    (repo / "memory" / "sessions" / f"{UNCOMMITTED_LOG}.md").write_text(
        "# Session: in progress\n\n## Memory References\n", "utf-8"
    )
    return repo


class Trial:
    """Fresh copies of the pristine repository, the command run in them, and their trees."""

    def __init__(self, pristine: Path, base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pristine = pristine
        self.base = base
        self.monkeypatch = monkeypatch
        self.count = 0

    def fresh(self) -> Path:
        self.count += 1
        repo = self.base / f"run{self.count}"
        shutil.copytree(self.pristine, repo, symlinks=True)
        return repo

    def run(self, repo: Path, args: list[str], hook: Callable[[str], None] | None = None) -> Result:
        self.monkeypatch.chdir(repo)
        self.monkeypatch.setattr(writer, "fault_hook", hook)
        try:
            return CliRunner().invoke(main, [a.replace("{repo}", str(repo)) for a in args])
        finally:
            self.monkeypatch.setattr(writer, "fault_hook", None)


@pytest.fixture
def trial(pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Trial:
    monkeypatch.setattr(backfill, "utc_stamp", lambda: BACKFILL_STAMP)
    # `session start` names its log by the clock: the same name on every run.
    monkeypatch.setattr(
        session, "utc_now", lambda: dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)
    )
    return Trial(pristine, tmp_path, monkeypatch)


def ids(repo: Path) -> list[str]:
    """Every id in continuity, the archive and blocked.md (a forgotten fact's tombstone), as
    often as it occurs."""
    memory = load(repo / "memory")
    found = [f.id for doc in (memory.continuity, *memory.archives) for f in doc.facts]
    return sorted(found + [entry.fact_id for entry in memory.blocked])


def kept_once(repo: Path, ids_before: list[str]) -> None:
    after = ids(repo)
    assert all(after.count(fact_id) == 1 for fact_id in ids_before), after


def tree(repo: Path) -> dict[str, bytes]:
    """Every byte a command may write: the work tree, and the hooks folder inside .git."""
    hooks = repo / ".git" / "hooks"
    found = snapshot(repo)
    found.update((f".git/hooks/{p.name}", p.read_bytes()) for p in hooks.iterdir() if p.is_file())
    return found


def states(trial: Trial, args: list[str]) -> tuple[dict[str, bytes], dict[str, bytes], list[str]]:
    """The old tree, the new tree (after a clean run) and the write points in order."""
    repo = trial.fresh()
    old = tree(repo)
    labels: list[str] = []
    result = trial.run(repo, args, labels.append)
    assert result.exit_code == 0, result.output
    assert labels, "the command wrote without passing a write point of mdmem.store.writer"
    new = tree(repo)
    assert new != old, "the command changed nothing: the harness would prove nothing"
    return old, new, labels


def check(repo: Path, expected: dict[str, bytes], other: dict[str, bytes], ids_before: list[str]):
    """The tree is exactly `expected` (and so not a mix), and no id was lost."""
    found = tree(repo)
    if found != expected:
        which = "the other state" if found == other else "a mix"
        changed = sorted(p for p in set(found) | set(expected) if found.get(p) != expected.get(p))
        raise AssertionError(f"tree is {which}; differs in {changed}")
    kept_once(repo, ids_before)


# -- faults and crashes at every write point -------------------------------------------------


def test_write_points_are_counted(trial: Trial) -> None:
    """The demo review writes five files: pending journal, 5 temps, commit, 5 renames, cleanup."""
    _, _, labels = states(trial, ["review", "--no-commit"])
    assert labels[0] == "pending"
    assert labels[-1] == "cleanup"
    assert sum(label.startswith("temp:") for label in labels) == 5
    assert sum(label.startswith("replace:") for label in labels) == 5
    assert len(labels) == 13


@pytest.mark.parametrize(("args", "recovery"), WRITE_COMMANDS)
def test_transient_failure_at_every_write_point(
    trial: Trial, args: list[str], recovery: tuple[str, ...]
) -> None:
    old, new, labels = states(trial, args)
    ids_before = ids(trial.pristine)
    for point in labels:
        repo = trial.fresh()
        fired: list[str] = []

        def hook(label: str, point: str = point, fired: list[str] = fired) -> None:
            if label == point and not fired:
                fired.append(label)
                raise OSError(5, "injected I/O error", label)

        result = trial.run(repo, args, hook)
        assert fired, point
        if before_journal(point):
            assert result.exit_code == 4, (point, result.output)
            assert "nothing changed" in result.stderr
            check(repo, old, new, ids_before)
        else:  # past the commit point, one more pass through the journal finishes the write
            assert result.exit_code == 0, (point, result.output)
            check(repo, new, old, ids_before)


@pytest.mark.parametrize(("args", "recovery"), WRITE_COMMANDS)
def test_persistent_failure_from_every_write_point(
    trial: Trial, args: list[str], recovery: tuple[str, ...]
) -> None:
    old, new, labels = states(trial, args)
    ids_before = ids(trial.pristine)
    for point in labels:
        repo = trial.fresh()
        failing: list[str] = []

        def hook(label: str, point: str = point, failing: list[str] = failing) -> None:
            if label == point or failing:
                failing.append(label)
                raise OSError(28, "No space left on device (injected)", label)

        result = trial.run(repo, args, hook)
        assert result.exit_code == 4, (point, result.output)
        if before_journal(point):
            assert "nothing changed" in result.stderr
            check(repo, old, new, ids_before)
            continue
        assert "the next mdmem command completes the write" in result.stderr
        following = trial.run(repo, list(recovery or args))
        assert following.exit_code == 0, following.output
        check(repo, new, old, ids_before)


@pytest.mark.parametrize(("args", "recovery"), WRITE_COMMANDS)
def test_crash_at_every_write_point_then_next_command_recovers(
    trial: Trial, args: list[str], recovery: tuple[str, ...]
) -> None:
    old, new, labels = states(trial, args)
    ids_before = ids(trial.pristine)
    for point in labels:
        repo = trial.fresh()
        disk = trial.base / f"disk{trial.count}"

        def hook(label: str, point: str = point, repo: Path = repo, disk: Path = disk) -> None:
            if label == point:
                shutil.copytree(repo, disk, symlinks=True)  # what a crash leaves on disk
                raise Crash(label)

        with pytest.raises(Crash):
            trial.run(repo, args, hook)
        following = trial.run(disk, list(recovery or args))
        assert following.exit_code == 0, (point, following.output)
        if recovery and before_journal(point):
            check(disk, old, new, ids_before)  # discarded: temps and pending journal gone
        else:
            check(disk, new, old, ids_before)  # rolled forward from the journal (or redone)


@pytest.mark.parametrize(
    "following",
    [
        pytest.param(["lint"], id="lint"),
        pytest.param(["lint", "--json"], id="lint-json"),
        pytest.param(["review", "--dry-run", "--json"], id="review-dry-run-json"),
    ],
)
@pytest.mark.parametrize("point", ["temp:continuity.md", "replace:continuity.md"])
def test_any_command_finishes_an_interrupted_write(
    trial: Trial, following: list[str], point: str
) -> None:
    """Recovery is not the review's alone: whatever runs next, read-only or not, repairs."""
    old, new, _ = states(trial, ["review", "--no-commit"])
    repo = trial.fresh()
    disk = trial.base / "disk"

    def hook(label: str) -> None:
        if label == point:
            shutil.copytree(repo, disk, symlinks=True)
            raise Crash(label)

    with pytest.raises(Crash):
        trial.run(repo, ["review", "--no-commit"], hook)
    assert journal.interrupted(disk / "memory")
    result = trial.run(disk, following)
    assert result.exit_code in (0, 1), result.output  # lint may have findings
    assert not journal.interrupted(disk / "memory")
    check(disk, old if before_journal(point) else new, new, ids(trial.pristine))


def test_recover_alone_discards_or_rolls_forward(trial: Trial) -> None:
    """The library call, without the CLI around it, gives the same verdicts."""
    old, new, labels = states(trial, ["review", "--no-commit"])
    ids_before = ids(trial.pristine)
    for point in labels:
        repo = trial.fresh()
        disk = trial.base / f"frozen{trial.count}"

        def hook(label: str, point: str = point, repo: Path = repo, disk: Path = disk) -> None:
            if label == point:
                shutil.copytree(repo, disk, symlinks=True)
                raise Crash(label)

        with pytest.raises(Crash):
            trial.run(repo, ["review", "--no-commit"], hook)
        assert journal.interrupted(disk / "memory") == (point != "pending")
        finished = writer.recover(disk / "memory")
        assert not journal.interrupted(disk / "memory")
        if before_journal(point):
            assert finished == []
            check(disk, old, new, ids_before)
        else:
            assert finished
            check(disk, new, old, ids_before)


def test_git_refusal_undoes_the_write_even_under_faults(trial: Trial) -> None:
    """A commit git refuses puts the files back with one journaled write (deletions included).

    A crash during that undo leaves the review's files (before the undo's journal) or
    the old files (after it): never a mix.
    """
    old, new_uncommitted, _ = states(trial, ["review", "--no-commit"])
    ids_before = ids(trial.pristine)

    def blocking_git(repo: Path) -> Callable[[str], None]:
        def hook(label: str) -> None:
            if label == "cleanup" and not (repo / ".git" / "index.lock").exists():
                (repo / ".git" / "index.lock").write_text("", "utf-8")

        return hook

    repo = trial.fresh()
    labels: list[str] = []
    block = blocking_git(repo)

    def record(label: str) -> None:
        labels.append(label)
        block(label)

    result = trial.run(repo, ["review"], record)
    assert result.exit_code == 4, result.output
    assert "git refused the review commit" in result.stderr
    (repo / ".git" / "index.lock").unlink()
    check(repo, old, new_uncommitted, ids_before)
    undo = labels[labels.index("cleanup") + 1 :]
    assert any(label.startswith("delete:") for label in undo), undo  # the new quarter file

    for point in undo:
        repo = trial.fresh()
        disk = trial.base / f"undo{trial.count}"
        block = blocking_git(repo)
        seen: list[str] = []

        def hook(
            label: str,
            point: str = point,
            repo: Path = repo,
            disk: Path = disk,
            seen: list[str] = seen,
            block: Callable[[str], None] = block,
        ) -> None:
            seen.append(label)
            block(label)
            in_undo = seen.count("cleanup") >= (2 if label == "cleanup" else 1)
            if label == point and in_undo:
                shutil.copytree(repo, disk, symlinks=True)
                raise Crash(label)

        with pytest.raises(Crash):
            trial.run(repo, ["review"], hook)
        (disk / ".git" / "index.lock").unlink()
        following = trial.run(disk, list(NEXT))
        assert following.exit_code == 0, following.output
        if before_journal(point):
            check(disk, new_uncommitted, old, ids_before)
        else:
            check(disk, old, new_uncommitted, ids_before)


# -- SIGKILL at random moments ---------------------------------------------------------------

KILLS = 12
SEED = 20261129
SESSIONS = 3000
SECTIONS = ("Key Decisions", "Conventions", "Gotchas")


def generated_memory(folder: Path, sessions: int = SESSIONS, facts: int = 240) -> None:
    """A deterministic memory large enough that a review takes a measurable time.

    Facts are referenced with skewed frequencies so that the review moves some of each
    kind: faded facts out, one archived fact back in, tiers changed, footers refreshed.
    """
    rng = random.Random(SEED)
    ids_ = [f"gen-fact-{n:04d}" for n in range(facts)]
    lines = ["# Continuity\n", "\n", "## Project State\n", "\n", "- **phase:** load test\n"]
    for index, section in enumerate(SECTIONS):
        lines += ["\n", f"## {section}\n", "\n"]
        for fact_id in ids_[index :: len(SECTIONS)]:
            lines += [
                f"- Generated rule {fact_id} about {rng.choice(('caching', 'retries', 'ids'))}\n",
                f"  <!-- id: {fact_id} | created: 2020-01-01 | last_used: 2020-01-01 | uses: 1 "
                "| tier: active -->\n",
            ]
    (folder / "sessions").mkdir(parents=True)
    (folder / "continuity.md").write_text("".join(lines), "utf-8")
    (folder / "archive").mkdir()
    (folder / "archive" / "2019-Q4.md").write_text(
        "# Archive 2019-Q4\n\n## Archived 2019-12-31 (review through 2019-12-31-000000)\n\n"
        "- An old rule that comes back\n"
        "  <!-- id: gen-revived-rule | created: 2019-01-01 | last_used: 2019-06-01 | uses: 3 "
        "| tier: archived | section: Key Decisions -->\n",
        "utf-8",
    )
    weights = [1 + (n * 7919) % 97 for n in range(facts)]
    for n in range(sessions):
        day = 1 + n // 8
        stem = f"{2021 + day // 336}-{1 + (day // 28) % 12:02d}-{1 + day % 28:02d}-{n % 8:06d}"
        named = rng.choices(ids_, weights=weights, k=rng.randint(0, 4))
        if n == sessions - 2:
            named.append("gen-revived-rule")
        refs = ", ".join(dict.fromkeys(named)) or "(none)"
        text = f"# Session {n}\n\nWork on the generated project.\n\n## Memory References\n"
        (folder / "sessions" / f"{stem}.md").write_text(text + f"- Referenced: {refs}\n", "utf-8")


@pytest.fixture(scope="module")
def big_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated memory in a plain folder: `--no-commit` runs need no git around it."""
    repo = tmp_path_factory.mktemp("big") / "repo"
    generated_memory(repo / "memory")
    return repo


def mdmem(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mdmem", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
        check=False,
    )


def restore(repo: Path, tree: dict[str, bytes]) -> None:
    """Put the memory folder back to `tree`, byte for byte, removing anything else."""
    current = memory_tree(repo)
    for relative in current.keys() - tree.keys():
        (repo / relative).unlink()
    for relative, data in tree.items():
        if current.get(relative) != data:
            (repo / relative).write_bytes(data)


def memory_tree(repo: Path) -> dict[str, bytes]:
    return {p: data for p, data in snapshot(repo).items() if p.startswith("memory/")}


def kill_moments(duration: float) -> Iterator[float]:
    """Seeded moments over a review's life, half of them in its last 30% (where it writes)."""
    rng = random.Random(SEED)
    for n in range(KILLS):
        low, high = (0.7, 1.0) if n % 2 else (0.05, 0.7)
        yield rng.uniform(low * duration, high * duration)


def test_sigkill_at_random_moments_leaves_old_or_new(big_repo: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(big_repo, repo, symlinks=True)
    old = memory_tree(repo)
    ids_before = ids(repo)

    clean = mdmem(repo, "review", "--no-commit")
    assert clean.returncode == 0, clean.stderr
    new = memory_tree(repo)
    assert new != old
    kept_once(repo, ids_before)  # so "old or new" below means no id is lost
    restore(repo, old)
    started = time.monotonic()
    assert mdmem(repo, "review", "--no-commit").returncode == 0  # warm, like the runs below
    duration = time.monotonic() - started  # used to aim the kills, never asserted on

    outcomes: list[str] = []
    for moment in kill_moments(duration):
        restore(repo, old)
        process = subprocess.Popen(
            [sys.executable, "-m", "mdmem", "review", "--no-commit"],
            cwd=repo,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(moment)
        process.send_signal(signal.SIGKILL)
        process.wait()
        interrupted = journal.interrupted(repo / "memory")
        following = mdmem(repo, *NEXT)  # recovery happens in whatever runs next
        assert following.returncode == 0, following.stderr
        tree = memory_tree(repo)
        assert tree in (old, new), sorted(p for p in tree if tree[p] != old.get(p))
        state = "new" if tree == new else "old"
        outcomes.append(f"{state}{'+journal' if interrupted else ''}")
    assert len(outcomes) == KILLS
