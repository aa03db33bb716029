"""Time mdmem's commands on generated memories of growing size, against a read-only floor.

    python benchmarks/run.py [--sizes 1000,10000,100000] [--json OUT.json] [--repeat K]
                             [--base REV] [--uncached NAME,...]

Each size is generated once per tree variant into benchmarks/out/<size>/<variant>/memory
(regenerated when the arguments, generate.py or, for the reviewed tree, mdmem's code
change). Every round copies each tree to a fresh scratch folder and runs the COMMANDS
that name it, in order, each in its own subprocess, measuring wall time and the child's
peak RSS. The best time and the largest RSS over the rounds are kept. With --base, the
commands that run mdmem are timed for this repository's code at revision REV too, on
copies of the same trees, the two versions alternating command by command.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import dataclasses
import hashlib
import io
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent
OUT = HERE / "out"
GENERATOR = HERE / "generate.py"
DEFAULT_SIZES = "1000,10000,100000"
FACTS_FOR_SESSIONS = {1000: 3000, 10000: 10000, 100000: 30000}
EXPECTED_EXIT_CODES = (0, 1)  # 1: lint found problems, which is a result, not a failure
SHOW_STDERR_LINES = 40

# The floor: the least any command must do, reading every byte of the memory once.
FLOOR_SCRIPT = """\
import os, sys
for folder, _, names in os.walk(sys.argv[1]):
    for name in names:
        with open(os.path.join(folder, name), "rb") as handle:
            handle.read()
"""

# The generated trees (see generate.py): as mdmem's reviews leave a memory reviewed every
# `review_every` sessions, with that many logs since; and never reviewed at all.
REVIEWED = "reviewed"
UNREVIEWED = "unreviewed"

# What `--uncached` sets for the twin columns it adds: mdmem then neither reads nor
# writes any cache.
NO_CACHE = (("MDMEM_NO_CACHE", "1"),)
FAR_FUTURE = "4102444800"  # 2100-01-01T00:00:00Z
UNCACHED = "_uncached"


def floor(memory: Path) -> list[str]:
    return [sys.executable, "-c", FLOOR_SCRIPT, str(memory)]


def bound(memory: Path) -> list[str]:
    return [sys.executable, str(HERE / "bound.py"), str(memory)]


def review(memory: Path) -> list[str]:
    return mdmem("review", "--root", str(memory), "--no-commit")


def lint(memory: Path) -> list[str]:
    return mdmem("lint", "--root", str(memory))


def mdmem(*args: str) -> list[str]:
    return [sys.executable, "-m", "mdmem", *args]


ROUTINE_LOG = "# Session\n\nWorked.\n\n## Memory References\n- (none)\n"


def after_a_new_log(command: Callable[[Path], list[str]], stem: str) -> Callable[[Path], list[str]]:
    """`command` right after one new session log `stem` is written, by a shell (no second
    Python start in the time): the routine review or lint."""

    def argv(memory: Path) -> list[str]:
        log = str(memory / "sessions" / f"{stem}.md")
        script = 'printf "%s" "$1" > "$2" && shift 2 && exec "$@"'
        return ["sh", "-c", script, "sh", ROUTINE_LOG, log, *command(memory)]

    return argv


@dataclasses.dataclass(frozen=True)
class Command:
    """One timed command: a column of the table and an entry of the JSON."""

    name: str
    argv: Callable[[Path], list[str]]  # the memory folder -> the argv to time
    tree: str = REVIEWED  # the generated tree it runs on
    ratio_to: str | None = None  # printed as "(xN)": how many times slower than that one
    runs_mdmem: bool = True  # False: the same for every mdmem, so timed once, not per version
    environment: tuple[tuple[str, str], ...] = ()  # set for this command only
    copy: str = ""  # commands of one tree and one copy label share a copy, in order


# Per round, each tree is copied fresh (with its own empty cache folder) and the commands
# naming it run in this order on that copy, each seeing what the one before it left:
# review_warm is a second review with nothing new in the ledger, lint_warm a second lint
# with nothing changed since the first, review_routine a review after one new log, and
# lint_routine a lint after another. Adding a command is one entry here; it gets a
# column and a JSON entry of its own.
COMMANDS: list[Command] = [
    Command("floor", floor, runs_mdmem=False),
    Command("bound", bound, ratio_to="floor", runs_mdmem=False),
    Command("review", review, ratio_to="floor"),
    Command("review_warm", review),
    Command("lint", lint, ratio_to="review"),
    Command("lint_warm", lint, ratio_to="lint"),
    Command("review_routine", after_a_new_log(review, "2099-12-31-235958"), ratio_to="floor"),
    Command("lint_routine", after_a_new_log(lint, "2099-12-31-235959"), ratio_to="floor"),
    Command("floor_backlog", floor, tree=UNREVIEWED, runs_mdmem=False),
    Command("review_backlog", review, tree=UNREVIEWED, ratio_to="floor_backlog"),
]


@dataclasses.dataclass(frozen=True)
class Version:
    """One mdmem to time: `python -m mdmem` run from `root` imports the package there."""

    label: str  # "new" (this working tree) or "base" (the revision --base names)
    root: Path  # the folder holding its mdmem/ package

    def environment(self, cache: Path, extra: tuple[tuple[str, str], ...]) -> dict[str, str]:
        # `python -m` puts the current folder first on sys.path, and the child runs in
        # `root`; PYTHONPATH says the same to anything the command starts itself.
        path = os.pathsep.join(filter(None, [str(self.root), os.environ.get("PYTHONPATH")]))
        # mdmem caches parsed session logs per memory path in the user's cache folder
        # (outside a git repository): each copy gets its own, so its first review is
        # cold, a second finds what the first left, and nothing piles up in ~/.cache.
        # The generated ledger runs past today; a fixed "now" after its last log keeps
        # lint from calling thousands of logs future-named, on any day (lint, W016).
        fixed = {"SOURCE_DATE_EPOCH": FAR_FUTURE}
        return {
            **os.environ,
            "PYTHONPATH": path,
            "XDG_CACHE_HOME": str(cache),
            **fixed,
            **dict(extra),
        }


NEW = Version("new", REPOSITORY)


@dataclasses.dataclass(frozen=True)
class Run:
    """One timed child process."""

    seconds: float
    cpu_seconds: float  # user + system, with every helper process it started and reaped
    peak_rss_bytes: int
    exit_code: int
    stderr: str

    @property
    def missing(self) -> bool:
        """The command does not exist in this mdmem yet (click's usage error)."""
        return self.exit_code == 2 and "No such command" in self.stderr

    @property
    def failed(self) -> bool:
        return not self.missing and self.exit_code not in EXPECTED_EXIT_CODES


def facts_for(sessions: int) -> int:
    """The facts paired with a size: the table above, else a curve through its points."""
    curve = min(3 * sessions, 3 * math.isqrt(1000 * sessions))  # 3 per session up to 1000
    return FACTS_FOR_SESSIONS.get(sessions, curve)


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """`1000,10000` or `200:500` (sessions:facts) into (sessions, facts) pairs."""
    sizes = []
    for part in text.split(","):
        sessions, _, facts = part.strip().partition(":")
        count = int(sessions)
        sizes.append((count, int(facts) if facts else facts_for(count)))
    return sizes


def code_digest(package: Path) -> str:
    """A digest of a package's Python source: every .py file's path and bytes, in order.

    Computed here rather than asked of mdmem, so that it reads any version's layout."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode("utf-8"))
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def with_uncached(commands: list[Command], names: list[str]) -> list[Command]:
    """The commands and, for each named one, an uncached twin `<name>_uncached`.

    The twins run with caches off on a copy of their own, so that each sees its tree in
    the state its original saw: the mdmem commands before a named one on its tree get
    twins too."""
    unknown = sorted(set(names) - {command.name for command in commands if command.runs_mdmem})
    if unknown:
        raise ValueError(f"no mdmem command named {', '.join(unknown)}")
    twins: list[Command] = []
    for tree in trees(commands):
        on_tree = [c for c in commands if c.tree == tree and c.runs_mdmem and not c.copy]
        named = [index for index, command in enumerate(on_tree) if command.name in names]
        twins += [
            dataclasses.replace(
                command,
                name=command.name + UNCACHED,
                ratio_to=command.name,
                environment=NO_CACHE,
                copy=UNCACHED,
            )
            for command in (on_tree[: max(named) + 1] if named else [])
        ]
    return [*commands, *twins]


class GenerationFailed(Exception):
    """generate.py exited with an error; the message is its stderr."""


def cached_memory(
    sessions: int, facts: int, seed: int, tree: str, out: Path = OUT, by_code: bool = True
) -> tuple[Path, Run | None]:
    """The generated tree for these arguments (kept under `out`), and its generation's run
    if made just now. `by_code=False`: a reviewed tree is kept when mdmem's code changes
    (for commands whose cost does not depend on which review made it)."""
    size = str(sessions) if facts == facts_for(sessions) else f"{sessions}-{facts}"
    folder = out / size / tree
    memory, stamp = folder / "memory", folder / "args.json"
    reviewed = tree == REVIEWED
    key = {
        "sessions": sessions,
        "facts": facts,
        "seed": seed,
        "reviewed": reviewed,
        "generator_sha256": hashlib.sha256(GENERATOR.read_bytes()).hexdigest(),
        # The reviewed tree is what this working tree's review made of the simulated one.
        "mdmem_code": code_digest(NEW.root / "mdmem") if reviewed and by_code else None,
    }
    if memory.is_dir() and stamp.is_file() and json.loads(stamp.read_text()) == key:
        return memory, None
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    partial = folder / "memory.partial"
    # In a child process: on Linux a child's peak RSS starts from its parent's (the pages
    # it ran on until exec), so a review run in this process would raise every command's.
    argv = [sys.executable, str(GENERATOR), str(partial), "--sessions", str(sessions)]
    argv += ["--facts", str(facts), "--seed", str(seed)]
    run = timed(argv if reviewed else [*argv, "--unreviewed"])
    if run.exit_code != 0:
        raise GenerationFailed(run.stderr.strip())
    partial.rename(memory)
    stamp.write_text(json.dumps(key, indent=2, sort_keys=True) + "\n")
    return memory, run


def tree_size(folder: Path) -> tuple[int, int]:
    """Number of files and their total bytes."""
    files = total = 0
    for parent, _, names in os.walk(folder):
        for name in names:
            files += 1
            total += os.path.getsize(os.path.join(parent, name))
    return files, total


def timed(argv: list[str], env: dict[str, str] | None = None, cwd: Path = REPOSITORY) -> Run:
    """Run argv in a fresh process; wall time around it, and from wait4 its peak RSS and
    the CPU time of it and of the processes it reaped (a review's helper)."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        started = time.perf_counter()
        child = subprocess.Popen(argv, cwd=cwd, env=env, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        stderr.seek(0)
        text = stderr.read().decode("utf-8", "replace")
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    scale = 1 if sys.platform == "darwin" else 1024
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu, usage.ru_maxrss * scale, child.returncode, text)


def cores() -> int | None:
    """The cores this process may run on: a command's wall time is at least its CPU time
    over this."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count()


def trees(commands: list[Command]) -> list[str]:
    """The tree variants the commands run on, in the order they first appear."""
    return list(dict.fromkeys(command.tree for command in commands))


class VersionUnavailable(Exception):
    """A version cannot be timed: the --base revision could not be exported, or
    `python -m mdmem` would not import that version's package; the message says why."""


def git(*args: str) -> bytes:
    done = subprocess.run(["git", *args], cwd=REPOSITORY, capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise VersionUnavailable(f"git {' '.join(args)}: {message}")
    return done.stdout


@contextlib.contextmanager
def checkout(revision: str, scratch_parent: Path | None) -> Iterator[tuple[Version, str]]:
    """This repository's tree at `revision`, exported to a scratch folder removed
    afterwards, as a Version; and the commit the revision names."""
    commit = git("rev-parse", "--verify", f"{revision}^{{commit}}").decode().strip()
    folder = Path(tempfile.mkdtemp(prefix="mdmem-bench-base-", dir=scratch_parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(git("archive", "--format=tar", commit))) as tar:
            # The data filter refuses links and paths out of the folder (the default from
            # Python 3.14); a Python without it extracts as it always did.
            options = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(folder, **options)  # type: ignore[arg-type]
        yield Version("base", folder), commit
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def prepare(version: Version) -> None:
    """Check that `python -m mdmem` run for the version imports its package, and compile
    that package's bytecode.

    Time mdmem as installed: pip compiles a package's bytecode when it installs it, but
    where PYTHONDONTWRITEBYTECODE is set every timed process would compile mdmem's source
    again, and the table would time the compiler."""
    package = version.root / "mdmem"
    where = "import mdmem, sys; sys.stdout.write(mdmem.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", where],
        cwd=version.root,
        env=version.environment(version.root / "cache", ()),  # nothing is cached
        capture_output=True,
        text=True,
        check=False,
    )
    if Path(done.stdout).resolve().parent != package.resolve():
        found = done.stdout or (done.stderr.strip().splitlines() or ["nowhere"])[-1]
        raise VersionUnavailable(f"the {version.label} version imports mdmem from {found}")
    compileall.compile_dir(package, quiet=1)


def copies(commands: list[Command]) -> list[tuple[str, str]]:
    """The (tree, copy label) pairs the commands run on, in the order they first appear."""
    return list(dict.fromkeys((command.tree, command.copy) for command in commands))


def measure(
    memories: dict[str, Path],
    commands: list[Command],
    versions: list[Version],
    repeat: int,
    scratch_parent: Path | None,
) -> dict[str, dict[str, list[Run]]]:
    """`repeat` rounds of the commands, per version label and command name.

    Each round gives every version its own fresh copy of every tree; on them the
    commands run in order, and each mdmem command runs for one version after the other
    (new, base, new, base), so that a drift of the machine's speed hits both alike."""
    runs: dict[str, dict[str, list[Run]]] = {
        version.label: {command.name: [] for command in commands} for version in versions
    }
    for round_number in range(repeat):
        for tree, copy in copies(commands):
            group = [c for c in commands if (c.tree, c.copy) == (tree, copy)]
            scratch = Path(tempfile.mkdtemp(prefix=f"mdmem-bench-{tree}-", dir=scratch_parent))
            try:
                for version in versions:
                    target = scratch / version.label / "memory"
                    shutil.copytree(memories[tree], target, copy_function=shutil.copyfile)
                # A file changed within the last second is not kept in mdmem's caches
                # (`store.cache.RACY_NS`); a team's logs are not all written in that second.
                time.sleep(1.1)
                for command in group:
                    # Not the mdmem compared (the floor, the bound): once, not per version.
                    for version in versions if command.runs_mdmem else versions[:1]:
                        folder = scratch / version.label
                        env = version.environment(folder / "cache", command.environment)
                        run = timed(command.argv(folder / "memory"), env, version.root)
                        runs[version.label][command.name].append(run)
                        shown = f"{command.name} [{version.label}]"
                        report_run(round_number, shown if len(versions) > 1 else command.name, run)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
    return runs


def report_run(round_number: int, name: str, run: Run) -> None:
    note = "missing" if run.missing else f"exit {run.exit_code}"
    progress(f"  round {round_number + 1}: {name} {run.seconds:.3f}s ({note})")
    if run.failed:
        tail = run.stderr.splitlines()[-SHOW_STDERR_LINES:]
        progress("\n".join(f"    | {line}" for line in tail))


@dataclasses.dataclass(frozen=True)
class Summary:
    """One command at one size: best time and largest RSS over the rounds."""

    seconds: float | None  # None: the command does not exist in this mdmem
    all_seconds: list[float]
    cpu_seconds: float | None  # the least CPU time of a round
    all_cpu_seconds: list[float]
    peak_rss_mb: float | None
    exit_codes: list[int]
    failed: bool


@dataclasses.dataclass(frozen=True)
class Tree:
    """One generated tree at one size."""

    files: int
    bytes: int
    generate_seconds: float | None  # None: the tree came from the cache
    generate_peak_rss_mb: float | None


@dataclasses.dataclass(frozen=True)
class SizeResult:
    sessions: int
    facts: int
    seed: int
    trees: dict[str, Tree]
    commands: dict[str, Summary]  # this working tree's mdmem
    base_commands: dict[str, Summary]  # the --base revision's, for each mdmem command
    new_over_base: dict[str, float | None]  # best seconds over best seconds


def summarise(runs: list[Run]) -> Summary:
    present = [run for run in runs if not run.missing]
    if not present:
        return Summary(None, [], None, [], None, [run.exit_code for run in runs], failed=False)
    return Summary(
        seconds=round(min(run.seconds for run in present), 4),
        all_seconds=[round(run.seconds, 4) for run in present],
        cpu_seconds=round(min(run.cpu_seconds for run in present), 4),
        all_cpu_seconds=[round(run.cpu_seconds, 4) for run in present],
        peak_rss_mb=round(max(run.peak_rss_bytes for run in present) / 2**20, 1),
        exit_codes=[run.exit_code for run in present],
        failed=any(run.failed for run in present),
    )


def size_result(
    sessions: int,
    facts: int,
    seed: int,
    generated: dict[str, Tree],
    runs: dict[str, dict[str, list[Run]]],
) -> SizeResult:
    commands = {name: summarise(each) for name, each in runs[NEW.label].items()}
    base = {name: summarise(each) for name, each in runs.get("base", {}).items() if each}
    ratios: dict[str, float | None] = {}
    for name, summary in base.items():
        new_seconds, base_seconds = commands[name].seconds, summary.seconds
        ratios[name] = None
        if new_seconds is not None and base_seconds:
            ratios[name] = round(new_seconds / base_seconds, 3)
    return SizeResult(sessions, facts, seed, generated, commands, base, ratios)


def markdown_table(results: list[SizeResult], commands: list[Command]) -> str:
    """One row per size: each command's best seconds, ratios, and the largest peak RSS."""
    header = ["size", "facts"]
    for command in commands:
        ratio = f" (x {command.ratio_to})" if command.ratio_to else ""
        header.append(f"{command.name} s{ratio}")
    header.append("peak MB")
    rows = [header, ["---:"] * len(header)]
    for result in results:
        row = [str(result.sessions), str(result.facts)]
        row += [cell(result.commands, command) for command in commands]
        peaks = [c.peak_rss_mb for c in result.commands.values() if c.peak_rss_mb is not None]
        row.append(f"{max(peaks):.0f}" if peaks else "n/a")
        rows.append(row)
    return markdown(rows)


def cpu_table(results: list[SizeResult], commands: list[Command]) -> str:
    """One row per size: each command's least CPU seconds. On N cores a command cannot
    take less wall time than its CPU time over N."""
    header = ["size", "facts", *(f"{command.name} cpu s" for command in commands)]
    rows = [header, ["---:"] * len(header)]
    for result in results:
        row = [str(result.sessions), str(result.facts)]
        row += [seconds(result.commands[command.name].cpu_seconds) for command in commands]
        rows.append(row)
    return markdown(rows)


def base_table(results: list[SizeResult], revision: str) -> str:
    """One row per size and mdmem command: best wall seconds of this code and of the base
    revision's, their ratio, and the least CPU seconds of each."""
    header = ["size", "command", "new s", f"base s ({revision})", "new/base"]
    header += ["new cpu s", "base cpu s"]
    rows = [header, ["---:", "---", *["---:"] * (len(header) - 2)]]
    for result in results:
        for name, base in result.base_commands.items():
            new, ratio = result.commands[name], result.new_over_base[name]
            row = [str(result.sessions), name, seconds(new.seconds), seconds(base.seconds)]
            row += ["n/a" if ratio is None else f"{ratio:.2f}"]
            row += [seconds(new.cpu_seconds), seconds(base.cpu_seconds)]
            rows.append(row)
    return markdown(rows)


def seconds(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def markdown(rows: list[list[str]]) -> str:
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def cell(commands: dict[str, Summary], command: Command) -> str:
    value = commands[command.name].seconds
    if value is None:
        return "n/a"
    text = f"{value:.3f}"
    baseline = commands[command.ratio_to].seconds if command.ratio_to else None
    if baseline:
        text += f" (x{value / baseline:.1f})"
    if commands[command.name].failed:
        text += " FAILED"
    return text


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--sizes",
        default=DEFAULT_SIZES,
        help="comma-separated session counts, each optionally SESSIONS:FACTS "
        f"(default {DEFAULT_SIZES})",
    )
    parser.add_argument("--repeat", type=int, default=3, help="rounds per size (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument(
        "--json", type=Path, default=OUT / "results.json", help="where to write all numbers"
    )
    parser.add_argument(
        "--scratch", type=Path, default=None, help="parent folder for scratch copies"
    )
    parser.add_argument(
        "--trees",
        type=Path,
        default=OUT,
        help="where the generated trees are kept (default benchmarks/out)",
    )
    parser.add_argument(
        "--base",
        metavar="REV",
        help="also time the mdmem commands for this repository's code at git revision REV, "
        "alternating with this working tree's, and print new/base per command",
    )
    parser.add_argument(
        "--uncached",
        metavar="NAME,...",
        default="",
        help="add a column NAME_uncached per named mdmem command: the same with "
        "MDMEM_NO_CACHE=1, on a copy of its own",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    try:
        args.commands = with_uncached(COMMANDS, [n for n in args.uncached.split(",") if n])
    except ValueError as error:
        parser.error(f"--uncached: {error}")
    return args


def generate_trees(
    sessions: int, facts: int, args: argparse.Namespace
) -> tuple[dict[str, Path], dict[str, Tree]]:
    """The generated trees the commands run on, by variant, and what each cost to make."""
    memories: dict[str, Path] = {}
    generated: dict[str, Tree] = {}
    for tree in trees(args.commands):
        memory, made = cached_memory(sessions, facts, args.seed, tree, args.trees)
        files, total_bytes = tree_size(memory)
        memories[tree] = memory
        if made is None:
            generated[tree] = Tree(files, total_bytes, None, None)
            continue
        peak = round(made.peak_rss_bytes / 2**20, 1)
        progress(f"  generated the {tree} tree in {made.seconds:.2f}s, peak {peak:.0f} MB")
        generated[tree] = Tree(files, total_bytes, round(made.seconds, 3), peak)
    return memories, generated


def benchmark(args: argparse.Namespace, versions: list[Version]) -> list[SizeResult]:
    """Every size: its trees (made with this working tree's mdmem), then the rounds."""
    for version in versions:
        prepare(version)
    results = []
    for sessions, facts in parse_sizes(args.sizes):
        progress(f"size {sessions} sessions, {facts} facts")
        memories, generated = generate_trees(sessions, facts, args)
        runs = measure(memories, args.commands, versions, args.repeat, args.scratch)
        results.append(size_result(sessions, facts, args.seed, generated, runs))
    return results


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    if args.scratch is not None:
        args.scratch.mkdir(parents=True, exist_ok=True)
    base: dict[str, str] | None = None
    try:
        with contextlib.ExitStack() as stack:
            versions = [NEW]
            if args.base is not None:
                version, commit = stack.enter_context(checkout(args.base, args.scratch))
                versions.append(version)
                digest = code_digest(version.root / "mdmem")
                base = {"revision": args.base, "commit": commit, "mdmem_code": digest}
            results = benchmark(args, versions)
    except GenerationFailed as error:
        progress(f"  generating a tree failed:\n{error}")
        return 1
    except VersionUnavailable as error:
        progress(f"cannot time mdmem: {error}")
        return 1

    report = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cores": cores(),
        "repeat": args.repeat,
        "mdmem_code": code_digest(NEW.root / "mdmem"),
        "base": base,
        "commands": [command.name for command in args.commands],
        "trees": {command.name: command.tree for command in args.commands},
        "results": [dataclasses.asdict(result) for result in results],
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    print(markdown_table(results, args.commands))
    print()
    print(cpu_table(results, args.commands))
    if base is not None:
        print()
        print(base_table(results, args.base))
    progress(f"wrote {args.json}")
    failed = any(
        summary.failed
        for result in results
        for summary in [*result.commands.values(), *result.base_commands.values()]
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
