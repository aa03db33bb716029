"""Run every mdmem command on every state of real memories' histories, and check the newest.

    python benchmarks/realmem.py                      # the bundles in ../shared/realmem
    python benchmarks/realmem.py REPO.bundle DIR ...  # bundles, git repositories, memory folders
    python benchmarks/realmem.py --every 10           # every tenth state (and the newest)
    python benchmarks/realmem.py --fail               # exit 1 on a refusal or a crash

A bundle or a repository is cloned into a scratch folder and checked out at every commit
that touched `memory/`, oldest first: each state is a memory someone really had. A memory
folder given alone is copied and read as one state. At each state every reading command
runs in a fresh process (`review --dry-run`, `lint`, `status`, `context`, `lookup`,
`show`, `stats`, `trend`, `report`, `export --dry-run`, and in a repository `diff` from
its first commit), and each run is counted as:

- ok: exit 0, or 1 from lint (findings);
- refusal: any other exit status with mdmem's own message (the whole memory refused);
- crash: a Python traceback, or an exit status mdmem never gives.

On the newest state it also prints lint's errors and finding lines, the ids before and
after a real review (committed in the scratch clone), the Drift threads that review
opened, and, where the protocol's `refresh-metadata.py` is at hand (the newest commit of a
source that holds `agent-skills/`, the protocol's own repository, or `--refresh FILE`),
every referenced live fact whose `uses` or `last_used` the review set otherwise than that
script does on the same state, measured by running it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCES = PROJECT.parent / "shared" / "realmem"
REFRESH = "agent-skills/refresh-metadata/scripts/refresh-metadata.py"
FOOTER_ID = re.compile(r"^[ \t>]*<!--\s*id:\s*([^\s|>]+)", re.MULTILINE)
FIELD = re.compile(r"\|\s*([a-z_-]+):\s*([^|>]*?)\s*(?=\||-->)")
MDMEM_EXITS = {0, 1, 2, 3, 4, 130}
LISTED = ("lint_errors", "ids_lost", "drift_opened", "refresh_differences")
FOUND = {"lint", "lookup"}  # exit 1: findings, or nothing matches


@dataclass
class Tally:
    """What the runs on one memory's states came to."""

    name: str
    states: int = 0
    runs: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # command: count
    crashes: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)  # the first few, to read
    newest: dict[str, object] = field(default_factory=dict)


def mdmem(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mdmem", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def commands(memory: Path, scratch: Path) -> list[tuple[str, list[str]]]:
    """The reading commands, each with arguments taken from this very memory."""
    ids = FOOTER_ID.findall(_read(memory / "continuity.md"))
    task = _task(memory) or "memory"
    root = ["--root", str(memory)]
    shown = [("show", ["show", ids[0], "--json", *root])] if ids else []  # a fact it holds
    return [
        ("review --dry-run", ["review", "--dry-run", *root]),
        ("lint", ["lint", "--json", *root]),
        ("status", ["status", "--json", *root]),
        ("context", ["context", task, *root]),
        ("lookup", ["lookup", task, "--json", *root]),
        *shown,
        ("stats", ["stats", "--json", *root]),
        ("trend", ["trend", *root]),
        ("report", ["report", "--html", str(scratch / "report.html"), *root]),
        ("export", ["export", "--format", "agents-md", "--dry-run", *root]),
        *_diff(memory, root),
    ]


def _diff(memory: Path, root: list[str]) -> list[tuple[str, list[str]]]:
    """`mdmem diff` from the history's first commit to this state, in a repository."""
    done = subprocess.run(
        ["git", "rev-list", "--max-parents=0", "HEAD"],
        cwd=memory.parent, capture_output=True, text=True, check=False,
    )  # fmt: skip
    first = done.stdout.split()
    if done.returncode != 0 or not first:
        return []
    return [("diff", ["diff", "--json", first[-1], "HEAD", *root])]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _task(memory: Path) -> str:
    """The first words of the newest session log's summary: what an agent worked on."""
    folder = memory / "sessions"
    logs = sorted(folder.glob("*.md")) if folder.is_dir() else []
    if not logs:
        return ""
    text = _read(logs[-1])
    summary = text.split("## Summary", 1)[-1].split("\n## ", 1)[0]
    words = re.findall(r"[A-Za-z][A-Za-z0-9]+", summary)
    return " ".join(words[:12])


def run_state(memory: Path, scratch: Path, env: dict[str, str], jobs: int, tally: Tally) -> None:
    todo = commands(memory, scratch)
    with ThreadPoolExecutor(jobs) as pool:
        done = list(pool.map(lambda item: (item[0], mdmem(*item[1], cwd=scratch, env=env)), todo))
    tally.states += 1
    for name, result in done:
        tally.runs += 1
        crashed = "Traceback (most recent call last)" in result.stderr
        if crashed or result.returncode not in MDMEM_EXITS:
            tally.crashes[name] += 1
            _example(tally, f"crash {name}: {result.stderr.strip().splitlines()[-1:]}")
        elif result.returncode not in (0, 1) or (result.returncode == 1 and name not in FOUND):
            tally.refusals[name] += 1
            _example(tally, f"refusal {name}: {result.stderr.strip()[:300]}")


def _example(tally: Tally, text: str) -> None:
    if len(tally.examples) < 12 and text not in tally.examples:
        tally.examples.append(text)


def states_of(source: Path, scratch: Path, every: int) -> Iterator[tuple[str, Path, bool]]:
    """(label, memory folder, newest?) for each state of `source`, oldest first."""
    if (source / "continuity.md").is_file():  # a memory folder: one state, read on a copy
        copy = scratch / "repo" / "memory"
        shutil.copytree(source, copy)
        subprocess.run(["git", "init", "-q", str(copy.parent)], check=True)
        yield "given", copy, True
        return
    clone = scratch / "repo"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(source), str(clone)], check=True)
    listed = _git(clone, "rev-list", "--reverse", "HEAD", "--", "memory").split()
    for number, commit in enumerate(listed):
        newest = number == len(listed) - 1
        if number % every and not newest:
            continue
        _git(clone, "checkout", "-q", "--force", "--detach", commit)
        _git(clone, "clean", "-q", "-fdx")
        yield commit[:10], clone / "memory", newest


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def footers(folder: Path, *, live_only: bool = False) -> dict[str, dict[str, str]]:
    """Every footer's fields by id in the memory's files (not the logs), read by a regex
    of its own rather than by mdmem, so that it can check what mdmem wrote."""
    found: dict[str, dict[str, str]] = {}
    paths = [folder / "continuity.md"]
    if not live_only:
        paths += sorted(folder.glob("*.md")) + sorted((folder / "archive").glob("*.md"))
    paths += sorted((folder / "open-threads").glob("*.md"))
    for path in paths:
        for line in _read(path).splitlines():
            match = FOOTER_ID.search(line)
            if match:
                found.setdefault(match[1], dict(FIELD.findall(line)))
    return found


def check_newest(
    memory: Path, scratch: Path, env: dict[str, str], refresh: Path | None
) -> dict[str, object]:
    """Lint's findings, a real review's ids and links, and the review against refresh-metadata."""
    linted = mdmem("lint", "--json", "--root", str(memory), cwd=scratch, env=env)
    findings = json.loads(linted.stdout or "[]")
    plain = mdmem("lint", "--root", str(memory), cwd=scratch, env=env).stdout.splitlines()
    errors = [item for item in findings if item.get("severity") == "error"]
    before = set(footers(memory))
    referee = scratch / "referee"
    shutil.copytree(memory, referee / "memory")
    old = _read(memory / "continuity.md")
    reviewed = mdmem("review", "--json", "--root", str(memory), cwd=scratch, env=env)
    after = set(footers(memory))
    new = _read(memory / "continuity.md")
    drift = [
        line.strip()
        for line in new.splitlines()
        if "Drift:" in line and line not in old.splitlines()
    ]
    result: dict[str, object] = {
        "lint_errors": [f"{e['path']}:{e['line']}: {e['code']} {e['message']}" for e in errors],
        "lint_lines": len([line for line in plain if line.strip()]),
        "review_exit": reviewed.returncode,
        "review_error": reviewed.stderr.strip()[:500] if reviewed.returncode else "",
        "ids_before": len(before),
        "ids_after": len(after),
        "ids_lost": sorted(before - after),
        "drift_opened": drift,
    }
    if refresh is not None:
        result["refresh_compared"], result["refresh_differences"] = against_refresh(
            memory, referee, refresh
        )
    return result


def against_refresh(reviewed: Path, referee: Path, script: Path) -> tuple[int, list[str]]:
    """The referenced live facts whose `uses` or `last_used` differ between mdmem's review
    and refresh-metadata.py run on the same state: (how many were compared, the differences)."""
    subprocess.run(
        [sys.executable, str(script), "--root", str(referee)],
        capture_output=True,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    its = runpy.run_path(str(script))
    stems, refs = its["load_sessions"](str(referee))
    cited = set().union(*refs) if refs else set()
    theirs = footers(referee / "memory", live_only=True)
    ours = footers(reviewed, live_only=True)
    differences = []
    compared = 0
    for fact_id, fields in sorted(theirs.items()):
        mine = ours.get(fact_id)
        if fact_id not in cited or mine is None or not stems:
            continue
        if mine.get("tier") in ("core", "superseded") or fields.get("tier") in (
            "core",
            "superseded",
        ):
            continue
        compared += 1
        for key in ("uses", "last_used"):
            if key in fields and fields.get(key) != mine.get(key):
                differences.append(f"{fact_id} {key}: mdmem {mine.get(key)}, refresh {fields[key]}")
    return compared, differences


def check(source: Path, args: argparse.Namespace) -> Tally:
    tally = Tally(source.name.removesuffix(".bundle"))
    with tempfile.TemporaryDirectory(prefix="realmem-") as folder:
        scratch = Path(folder)
        env = dict(os.environ, XDG_CACHE_HOME=str(scratch / "cache"), PYTHONPATH=str(PROJECT))
        env.update(
            GIT_AUTHOR_NAME="realmem",
            GIT_AUTHOR_EMAIL="realmem@example.invalid",
            GIT_COMMITTER_NAME="realmem",
            GIT_COMMITTER_EMAIL="realmem@example.invalid",
        )
        for label, memory, newest in states_of(source, scratch, args.every):
            run_state(memory, scratch, env, args.jobs, tally)
            if args.verbose:
                print(f"  {tally.name} {label}: {tally.runs} runs", file=sys.stderr)
            if newest:
                tally.newest = check_newest(memory, scratch, env, args.refresh)
    return tally


def protocol_script(found: list[Path], scratch: Path) -> Path | None:
    """The protocol's refresh-metadata.py from the newest commit of the first source that
    holds it (the protocol's own repository), to measure every memory against."""
    for source in found:
        if (source / "continuity.md").is_file():
            continue
        clone = scratch / source.name
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(source), str(clone)], check=True)
        shown = subprocess.run(
            ["git", "-C", str(clone), "show", f"HEAD:{REFRESH}"], capture_output=True, check=False
        )
        if shown.returncode == 0:
            script = scratch / "refresh-metadata.py"
            script.write_bytes(shown.stdout)
            return script
    return None


def sources(given: list[str]) -> list[Path]:
    if given:
        return [Path(item) for item in given]
    return sorted(DEFAULT_SOURCES.glob("*.bundle"))


def show(tally: Tally) -> None:
    print(f"## {tally.name}")
    refusals, crashes = sum(tally.refusals.values()), sum(tally.crashes.values())
    print(f"states {tally.states}, runs {tally.runs}, refusals {refusals}, crashes {crashes}")
    for kind, counts in (("refusals", tally.refusals), ("crashes", tally.crashes)):
        if counts:
            print(f"  {kind}: " + ", ".join(f"{name} {n}" for name, n in sorted(counts.items())))
    for example in tally.examples:
        print(f"  {example}")
    newest = tally.newest
    if newest:
        lists = {key: list(newest.get(key) or []) for key in LISTED}
        line = (
            f"newest: lint {len(lists['lint_errors'])} errors, {newest['lint_lines']} lines; "
            f"review exit {newest['review_exit']}, "
            f"ids {newest['ids_before']} -> {newest['ids_after']}, "
            f"lost {len(lists['ids_lost'])}, drift opened {len(lists['drift_opened'])}"
        )
        if "refresh_differences" in newest:
            line += (
                f", differences from refresh-metadata {len(lists['refresh_differences'])} "
                f"of {newest['refresh_compared']} referenced live facts"
            )
        print(line)
        for key, items in lists.items():
            for item in items:
                print(f"  {key}: {item}")
        if newest["review_error"]:
            print(f"  review: {newest['review_error']}")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="*", help="bundles, git repositories or memory folders")
    parser.add_argument(
        "--every", type=int, default=1, help="check every Nth state (and the newest)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="commands run at once")
    parser.add_argument("--refresh", type=Path, help="the protocol's refresh-metadata.py")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--fail", action="store_true", help="exit 1 on any refusal or crash")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    found = sources(args.sources)
    if not found:
        print(f"nothing to check: no bundles in {DEFAULT_SOURCES}", file=sys.stderr)
        return 0
    with tempfile.TemporaryDirectory(prefix="realmem-protocol-") as folder:
        if args.refresh is None:
            args.refresh = protocol_script(found, Path(folder))
        tallies = [check(source, args) for source in found]
    for tally in tallies:
        show(tally)
    if args.json:
        args.json.write_text(json.dumps([vars(t) for t in tallies], indent=2, default=list) + "\n")
    bad = sum(sum(t.refusals.values()) + sum(t.crashes.values()) for t in tallies)
    return 1 if args.fail and bad else 0


if __name__ == "__main__":
    sys.exit(main())
