"""Time `mdmem diff` against `mdmem lint` on a large memory with a short branch.

    python benchmarks/diff.py [--sizes 10000] [--repeat 5] [--json OUT.json]

Per size, the reviewed tree of `generate.py` is committed on `main` in a scratch
repository (as benchmarks/write.py does), then a branch `feature` adds BRANCH_SESSIONS
session logs (each citing a few live facts, one adding a fact to continuity) in two
commits, and one more log is left uncommitted. Each round then runs, in a fresh process:

- `lint`: `mdmem lint`, the yardstick (its per-file cache warm after the first round);
- `diff`: `mdmem diff`, from the merge base with `main` to the working tree;
- `diff_commits`: `mdmem diff main feature`, both sides from git's objects.

The issue's target: `diff` within 2x `lint` at 10,000 sessions.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # the runner beside this script: trees, timing, the version
import write  # the committed repository and the table

OUT = run.OUT / "diff"
BRANCH_SESSIONS = 20
COMMANDS = {
    "lint": lambda repo: ["lint", "--root", str(repo / "memory")],
    "diff": lambda repo: ["diff", "--root", str(repo / "memory")],
    "diff_commits": lambda repo: ["diff", "--root", str(repo / "memory"), "main", "feature"],
}


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, **write.GIT_ENV}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def branch(repo: Path, ids: list[str]) -> None:
    """`feature`: BRANCH_SESSIONS new logs after the newest, in two commits, one more left
    uncommitted; the first adds a fact to continuity."""
    _git(repo, "checkout", "-q", "-b", "feature")
    sessions = repo / "memory" / "sessions"
    newest = max(name[:-3] for name in os.listdir(sessions) if name.endswith(".md"))
    for number in range(BRANCH_SESSIONS + 1):
        cited = ", ".join(ids[(number * 3 + k) % len(ids)] for k in range(3))
        created = "\n- Created: bench-branch-fact" if number == 0 else ""
        text = f"# Session {number}\n\n## Memory References\n- Referenced: {cited}{created}\n"
        (sessions / f"{newest}-branch{number:02d}.md").write_text(text, "utf-8")
        if number == 0:
            with (repo / "memory" / "continuity.md").open("a", encoding="utf-8") as continuity:
                continuity.write(
                    "\n## Branch\n\n- A fact the branch adds, about `src/bench.py`.\n"
                    "  <!-- id: bench-branch-fact | created: 2100-01-01 | tier: working -->\n"
                )
        if number in (BRANCH_SESSIONS // 2, BRANCH_SESSIONS - 1):
            _git(repo, "add", "-A")
            _git(repo, "commit", "-q", "-m", f"branch sessions to {number}")


def measure(repo: Path, ids: list[str], repeat: int) -> dict[str, list[float]]:
    branch(repo, ids)
    seconds: dict[str, list[float]] = {name: [] for name in COMMANDS}
    env = run.NEW.environment(repo.parent / "cache", ())
    for round_number in range(repeat):
        for name, arguments in COMMANDS.items():
            timed = run.timed(run.mdmem(*arguments(repo)), env, run.NEW.root)
            if timed.exit_code not in run.EXPECTED_EXIT_CODES:
                raise SystemExit(f"{name} exited {timed.exit_code}:\n{timed.stderr}")
            seconds[name].append(timed.seconds)
            run.progress(f"  round {round_number + 1}: {name} {timed.seconds:.3f}s")
    return seconds


def main(argv: list[str] | None = None) -> int:
    write.RATIO_TO.update({"lint": "lint", "diff": "lint", "diff_commits": "lint"})
    _, results = write.run_sizes(
        argv or ["--sizes", "10000", "--repeat", "5"],
        OUT,
        lambda args: lambda repo, memory: measure(repo, write.live_ids(memory), args.repeat),
        __doc__,
    )
    print(write.table(results, list(COMMANDS)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or None))
