"""Time the reading commands against `mdmem --version`, at growing numbers of sessions.

    python benchmarks/read.py [--sizes 1000,10000,100000] [--repeat 7] [--json OUT.json]

An agent runs `lookup`, `context` and `status` at the start of a task and `lookup` again
and again, so each must cost little more than starting the program (the issue's target:
within 1.5x `mdmem --version` at 10,000 sessions), and `lookup --sessions`, which must
read every log, little more than reading them (within 2x `floor_sessions`, a Python loop
that only reads every log). Per size, the reviewed tree of `generate.py` is committed in
a scratch git repository with an uncommitted log after the newest one, as
`benchmarks/write.py` makes it, and `mdmem lint` runs once (untimed), so that status
finds its counts. Then each round runs, each in a fresh process with the working tree's
mdmem:

- `version`: `mdmem --version`, the yardstick;
- `lookup_cold`: `mdmem lookup` with MDMEM_NO_CACHE=1: every document parsed;
- `lookup`: the same query with the cache of the documents' words (warm after round 1);
- `context`: `mdmem context TASK`;
- `status`: `mdmem status`;
- `show`: `mdmem show ID` (reads every log's bytes; no target);
- `floor_sessions`: the loop that reads every log, the yardstick of
- `lookup_sessions`: `mdmem lookup --sessions`.

The table gives each command's median wall time over the rounds and, in brackets, its
ratio to the median of its yardstick.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # the runner beside this script: trees, timing, the version
import write  # the committed repository and the table

OUT = run.OUT / "read"
QUERY = "retry webhook timeout"
FLOOR_SESSIONS = """\
import os, sys
folder = sys.argv[1]
for name in os.listdir(folder):
    with open(os.path.join(folder, name), "rb") as handle:
        handle.read()
"""
NO_CACHE = (("MDMEM_NO_CACHE", "1"),)

# name -> (repository, an id to show) -> (argv, extra environment); run in this order.
Argv = Callable[[Path, str], tuple[list[str], tuple[tuple[str, str], ...]]]
COMMANDS: dict[str, Argv] = {
    "version": lambda repo, fact_id: (run.mdmem("--version"), ()),
    "lookup_cold": lambda repo, fact_id: (
        run.mdmem("lookup", QUERY, "--root", str(repo), "--limit", "10"),
        NO_CACHE,
    ),
    "lookup": lambda repo, fact_id: (
        run.mdmem("lookup", QUERY, "--root", str(repo), "--limit", "10"),
        (),
    ),
    "context": lambda repo, fact_id: (run.mdmem("context", QUERY, "--root", str(repo)), ()),
    "status": lambda repo, fact_id: (run.mdmem("status", "--root", str(repo)), ()),
    "show": lambda repo, fact_id: (run.mdmem("show", fact_id, "--root", str(repo)), ()),
    "floor_sessions": lambda repo, fact_id: (
        [sys.executable, "-c", FLOOR_SESSIONS, str(repo / "memory" / "sessions")],
        (),
    ),
    "lookup_sessions": lambda repo, fact_id: (
        run.mdmem("lookup", QUERY, "--sessions", "--root", str(repo), "--limit", "10"),
        (),
    ),
}
write.RATIO_TO["lookup_sessions"] = "floor_sessions"
write.RATIO_TO["floor_sessions"] = "floor_sessions"


def measure(repo: Path, fact_id: str, repeat: int) -> dict[str, list[float]]:
    """Seconds per command over the rounds."""
    seconds: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for round_number in range(repeat):
        for name, arguments in COMMANDS.items():
            argv, extra = arguments(repo, fact_id)
            env = run.NEW.environment(repo.parent / "cache", extra)
            timed = run.timed(argv, env, run.NEW.root)
            if timed.exit_code not in (0, 1):  # 1: lookup found nothing, a result
                raise SystemExit(f"{name} exited {timed.exit_code}:\n{timed.stderr}")
            seconds[name].append(timed.seconds)
            run.progress(f"  round {round_number + 1}: {name} {timed.seconds:.3f}s")
    return seconds


def main(argv: list[str] | None = None) -> int:
    def measure_size(args: argparse.Namespace) -> write.Measure:
        def timed(repo: Path, memory: Path) -> dict[str, list[float]]:
            env = run.NEW.environment(repo.parent / "cache", ())
            run.timed(run.mdmem("lint", "--root", str(repo)), env, run.NEW.root)
            return measure(repo, write.live_ids(memory)[0], args.repeat)

        return timed

    _, results = write.run_sizes(argv, OUT, measure_size, __doc__)
    print(write.table(results, list(COMMANDS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
