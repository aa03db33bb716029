"""Time the write path's commands against `mdmem --version`, at growing numbers of sessions.

    python benchmarks/write.py [--sizes 1000,10000,100000] [--repeat 7] [--json OUT.json]

Agents call `mdmem session start`, `mdmem ref` and `mdmem add` many times a session, so
each must cost little more than starting the program, whatever the number of session
logs. Per size,
the reviewed tree of `generate.py` (kept under benchmarks/out/write/, not regenerated
when mdmem's code changes: these commands read no log but the current one) is copied
into a scratch git repository and committed, and an uncommitted log is added, named
just after the newest committed one: the generated ledger runs years past today's date
at 10,000 logs and more, so a log named by the clock would not be the newest, as it is
in a real repository. Then each round runs, each in a fresh process with the working
tree's mdmem:

- `version`: `mdmem --version`, the yardstick;
- `session_start`: `mdmem session start --slug bench` (a new log every round);
- `ref`: `mdmem ref ID`, a live id not cited yet this round, so that it writes;
- `ref_again`: the same again, which finds it there and writes nothing;
- `session`: `mdmem session`, which shows the current log;
- `add`: `mdmem add TEXT --section "Key Decisions"`, a new text each round (it writes a
  fact and its Created line).
- `supersede`: `mdmem supersede ID --invalidate --core` on the round's id (cited just
  before; `--core`, since the id may be a core fact), which edits its footer in
  `continuity.md` and records the event in the log.

The table gives each command's median wall time over the rounds and, in brackets, its
ratio to the median of `version`. The issue's target: `session start`, `ref`, `add` and
`supersede` within 3x `version` at 10,000 sessions, and flat from 1,000 to 100,000.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # the runner beside this script: trees, timing, the version

OUT = run.OUT / "write"
DEFAULT_SIZES = "1000,10000,100000"
LIVE_TIERS = ("core", "active", "working", "archive-candidate")
_FOOTER = re.compile(r"<!-- id: ([a-z0-9.-]+) \|[^\n]*?\btier: ([a-z-]+)")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@mdmem.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@mdmem.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}

# name -> (repository, the round's id) -> the mdmem arguments; run in this order each round.
COMMANDS: dict[str, Callable[[Path, str], list[str]]] = {
    "version": lambda repo, fact_id: ["--version"],
    "session_start": lambda repo, fact_id: [
        "session",
        "start",
        "--root",
        str(repo),
        "--slug",
        "bench",
    ],
    "ref": lambda repo, fact_id: ["ref", "--root", str(repo), *pinned(repo), fact_id],
    "ref_again": lambda repo, fact_id: ["ref", "--root", str(repo), *pinned(repo), fact_id],
    "session": lambda repo, fact_id: ["session", "--root", str(repo), *pinned(repo)],
    "add": lambda repo, fact_id: [
        "add",
        "--root",
        str(repo),
        *pinned(repo),
        f"Bench rule about {fact_id} kept for the write benchmark",
        "--section",
        "Key Decisions",
    ],
    # Last, as the id is cited first: a supersession writes continuity and the log.
    "supersede": lambda repo, fact_id: [
        "supersede",
        "--root",
        str(repo),
        *pinned(repo),
        fact_id,
        "--invalidate",
        "--core",
    ],
}
PINNED = "bench-session.txt"  # beside the memory folder: the session in progress, its stem


def pinned(repo: Path) -> list[str]:
    """`--session STEM` of the session in progress: with the logs `session start` makes
    each round, several are uncommitted, and a write names its own (as an agent's does)."""
    return ["--session", (repo / PINNED).read_text("utf-8").strip()]


def live_ids(memory: Path) -> list[str]:
    """The ids of continuity's live facts, in file order."""
    text = (memory / "continuity.md").read_text("utf-8")
    return [match[1] for match in _FOOTER.finditer(text) if match[2] in LIVE_TIERS]


def committed_repository(memory: Path, scratch: Path) -> Path:
    """A git repository holding a copy of the memory, all of it committed."""
    repo = scratch / "repo"
    shutil.copytree(memory, repo / "memory", copy_function=shutil.copyfile)
    env = {**os.environ, **GIT_ENV}
    # No automatic gc: on thousands of new objects it would run in the background, beside
    # the timed commands.
    for args in (["init", "-q", "-b", "main"], ["config", "gc.auto", "0"], ["add", "-A"],
                 ["commit", "-q", "-m", "memory"]):  # fmt: skip
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    # The session in progress, newest of all: the generated ledger may run past today's
    # date, where a log `session start` names by the clock would not be the newest.
    sessions = repo / "memory" / "sessions"
    newest = max(name[:-3] for name in os.listdir(sessions) if name.endswith(".md"))
    template = (run.REPOSITORY / "templates" / "session.md").read_text("utf-8")
    (sessions / f"{newest}-bench.md").write_text(template.replace("{title}", "bench"), "utf-8")
    (repo / PINNED).write_text(f"{newest}-bench\n", "utf-8")
    return repo


def measure(repo: Path, ids: list[str], repeat: int) -> dict[str, list[float]]:
    """Seconds per command over the rounds; each round cites a new id."""
    seconds: dict[str, list[float]] = {name: [] for name in COMMANDS}
    env = run.NEW.environment(repo.parent / "cache", ())
    for round_number in range(repeat):
        fact_id = ids[round_number % len(ids)]
        for name, arguments in COMMANDS.items():
            timed = run.timed(run.mdmem(*arguments(repo, fact_id)), env, run.NEW.root)
            if timed.exit_code != 0:
                raise SystemExit(f"{name} exited {timed.exit_code}:\n{timed.stderr}")
            seconds[name].append(timed.seconds)
            run.progress(f"  round {round_number + 1}: {name} {timed.seconds:.3f}s")
    return seconds


def table(results: dict[str, dict[str, list[float]]], names: list[str] | None = None) -> str:
    """One row per size (`SESSIONS:FACTS`): each command's median, and its ratio to version
    (to `ratio_to[name]` for a command named there)."""
    names = list(COMMANDS) if names is None else names
    header = ["sessions", "facts", *(f"{name} s" for name in names)]
    rows = [header, ["---:"] * len(header)]
    for size, seconds in results.items():
        row = size.split(":")
        for name in names:
            median = statistics.median(seconds[name])
            base = RATIO_TO.get(name, "version")
            yardstick = statistics.median(seconds[base])
            ratio = "" if name == base else f" (x{median / yardstick:.2f}{_versus(base)})"
            row.append(f"{median:.3f}{ratio}")
        rows.append(row)
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


# A command whose ratio is to another yardstick than version (benchmarks/read.py sets it).
RATIO_TO: dict[str, str] = {}


def _versus(base: str) -> str:
    return "" if base == "version" else f" {base}"


# What a benchmark does on one size's committed repository: (repository, memory) -> the
# seconds of each command over the rounds.
Measure = Callable[[Path, Path], dict[str, list[float]]]


def run_sizes(
    argv: list[str] | None,
    out: Path,
    measure_size: Callable[[argparse.Namespace], Measure],
    description: str | None = __doc__,
) -> tuple[argparse.Namespace, dict[str, dict[str, list[float]]]]:
    """Parse the options, then per size commit the generated tree in a scratch repository
    and time it with `measure_size(args)`; every time is written to `--json`."""
    parser = argparse.ArgumentParser(description=(description or "").splitlines()[0])
    parser.add_argument(
        "--sizes", default=DEFAULT_SIZES, help=f"session counts (default {DEFAULT_SIZES})"
    )
    parser.add_argument("--repeat", type=int, default=7, help="rounds per size (default 7)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    parser.add_argument(
        "--json", type=Path, default=out / "results.json", help="where to write every time"
    )
    parser.add_argument(
        "--trees", type=Path, default=OUT, help="where the generated trees are kept"
    )
    args = parser.parse_args(argv)
    run.prepare(run.NEW)
    results: dict[str, dict[str, list[float]]] = {}
    for sessions, facts in run.parse_sizes(args.sizes):
        memory, made = run.cached_memory(
            sessions, facts, args.seed, run.REVIEWED, args.trees, by_code=False
        )
        if made is not None:
            run.progress(f"generated {sessions} sessions in {made.seconds:.1f}s")
        with tempfile.TemporaryDirectory(
            prefix="mdmem-bench-", ignore_cleanup_errors=True
        ) as scratch:
            repo = committed_repository(memory, Path(scratch))
            run.progress(f"size {sessions}: committed {sessions} logs")
            results[f"{sessions}:{facts}"] = measure_size(args)(repo, memory)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"seconds": results}, indent=2, sort_keys=True) + "\n")
    return args, results


def main(argv: list[str] | None = None) -> int:
    _, results = run_sizes(
        argv, OUT, lambda args: lambda repo, memory: measure(repo, live_ids(memory), args.repeat)
    )
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
