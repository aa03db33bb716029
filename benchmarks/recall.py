"""How many of the facts agents really relied on does mdmem serve? Measured by replaying
real memories' histories.

    python benchmarks/recall.py                      # the bundles in ../shared/realmem
    python benchmarks/recall.py REPO.bundle REPO ... # bundles or git repositories
    python benchmarks/recall.py --sessions 20 --json OUT.json
    python benchmarks/recall.py --crowd              # each memory among the others' facts

For each commit that adds a session log under `memory/sessions/` (the newest `--sessions`
of them per memory), the memory as it stood at the commit's parent is read:

- the task: the first 60 words of the new log's `## Summary`, without its code spans and
  without the words that are fact ids;
- the truth: the live facts (in continuity.md, neither core nor superseded nor done)
  that the log cites on its `Referenced`, `Helpful`, `Harmful` or `Reactivated` lines of
  `## Memory References`.

Recall is the share of the truth served, summed over a memory's sessions (micro
average): by `mdmem context TASK --budget B` (the ids of the facts its JSON shows) at
each budget, and by `mdmem lookup TASK` at 5 and 10 hits, each beside two baselines
over the same live facts: Okapi BM25 (k1 1.2, b 0.75; plain lowercase words) and "grep
any query word" (the facts holding one, in file order). At a budget a baseline serves
the core facts first, whole, then its ranked facts whole while they fit, counted as
mdmem counts tokens (characters / 4). A state where mdmem refuses serves nothing and
is counted apart. mdmem is called in-process, through the functions its CLI calls;
`--verify N` runs the CLI itself on N states per memory and checks it serves the same.

`--crowd` asks whether the lead holds on bigger memories than these, where context must
choose: every replayed state of each memory gets the live, non-core facts of the other
memories' newest states (HEAD) added to its continuity.md, each at the end of its own
section, its id tagged (`x2-...`, by the other's place among the sources) and its footer
kept to its dates, uses and tier. The task and the truth stay the memory's own. The
table is followed by how many live facts the states replayed hold and how many tokens
their core facts take. The default run adds nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
DEFAULT_SOURCES = PROJECT.parent / "shared" / "realmem"
BUDGETS = (1000, 2000, 4000, 8000)
HITS = (5, 10)
TASK_WORDS = 60
CITED_KEYS = frozenset({"referenced", "helpful", "harmful", "reactivated"})
SYSTEMS = ("mdmem", "bm25", "grep")

ID = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:[.-][a-z0-9]+)+(?![\w-])")
FOOTER = re.compile(r"^\s*(?:>\s*)*<!--\s*id:\s*(.*?)\s*-->\s*$")
ITEM = re.compile(r"^(?:>\s*)?(?:[-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
WORD = re.compile(r"[a-z0-9]+")
_STOP = """a an and are as at be by for from has have in is it its of on or that the this to
    was were will with we our not no but all any can do into than then there these they
    also been so if"""
STOP = frozenset(_STOP.split())  # the baseline's own: common English words


# --- the memory, read plainly (the same for every system measured) ----------------------


@dataclass(frozen=True)
class Fact:
    id: str
    text: str
    core: bool
    live: bool  # neither superseded, archived nor a done thread


def read_facts(text: str, *, core: bool = False) -> list[Fact]:
    """The footered items of a markdown file, in file order: an item's text is its lines
    from the list marker above the footer; fields as the footer has them."""
    facts: list[Fact] = []
    section = ""
    start: int | None = None
    done = False
    lines = text.splitlines()
    fenced = False
    for number, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced:
            continue
        heading = HEADING.match(line)
        if heading and len(heading[1]) <= 2:
            section, start = heading[2], None
            continue
        footer = FOOTER.match(line)
        if footer:
            fields = _fields(footer[1])
            if start is not None and fields.get("id"):
                body = " ".join(part.strip() for part in lines[start:number])
                tier = fields.get("tier", "")
                facts.append(
                    Fact(
                        fields["id"],
                        ITEM.sub("", body.lstrip("> "), count=1).strip(),
                        core or tier == "core" or section == "Architectural Invariants",
                        tier not in ("superseded", "archived")
                        and not fields.get("superseded-by")
                        and not done,
                    )
                )
            start = None
            continue
        item = ITEM.match(line)
        if item and start is None:
            start, done = number, (item[1] or "").strip().lower() == "[x]"
    return facts


def _fields(footer: str) -> dict[str, str]:
    fields = {}
    for pair in footer.split("|"):
        key, _, value = pair.partition(":")
        fields.setdefault(key.strip(), value.strip())
    fields["id"] = footer.split("|")[0].strip()
    return fields


def memory_facts(memory: Path) -> tuple[list[Fact], set[str]]:
    """(the live facts: continuity's and the vision's, core ones included; every id the
    memory knows, the archive's too)."""

    def text(path: Path) -> str:
        return path.read_text("utf-8", "replace") if path.is_file() else ""

    facts = read_facts(text(memory / "continuity.md"))
    facts += read_facts(text(memory / "vision.md"), core=True)
    known = {fact.id for fact in facts}
    archive = memory / "archive"
    for path in sorted(archive.glob("*.md")) if archive.is_dir() else []:
        known |= {fact.id for fact in read_facts(text(path))}
    return [fact for fact in facts if fact.live], known


# --- a session log: its task and what it cited ---------------------------------------


def section(text: str, title: str) -> str:
    """The text under a `## TITLE` heading, to the next heading of level 1 or 2."""
    found: list[str] = []
    inside = False
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading and len(heading[1]) <= 2:
            if inside:
                break
            inside = heading[2].strip().lower() == title.lower()
            continue
        if inside:
            found.append(line)
    return "\n".join(found)


def task_of(log: str, ids: Iterable[str]) -> str:
    """The first 60 words of the Summary, without code spans nor fact ids."""
    known = set(ids)
    summary = CODE_SPAN.sub(" ", section(log, "Summary"))
    words = []
    for word in summary.split():
        if any(token in known for token in ID.findall(word.lower())):
            continue
        words.append(word)
    return " ".join(words[:TASK_WORDS])


def cited(log: str) -> list[str]:
    """The ids on the log's Referenced, Helpful, Harmful and Reactivated lines, in order."""
    found: list[str] = []
    key = None
    for line in section(log, "Memory References").splitlines():
        item = re.match(r"^[-*+]\s+([A-Za-z][A-Za-z _-]*?)\s*:(.*)$", line)
        if item:
            key, rest = item[1].strip().lower(), item[2]
        elif line[:1] in " \t" and line.strip():
            rest = line  # a wrapped item goes on
        else:
            key, rest = None, ""
        if key in CITED_KEYS:
            found += ID.findall(rest)
    return list(dict.fromkeys(found))


def truth_of(log: str, facts: Sequence[Fact]) -> list[str]:
    """The live, non-core facts the log cites."""
    live = {fact.id for fact in facts if not fact.core}
    return [fact_id for fact_id in cited(log) if fact_id in live]


# --- the baselines --------------------------------------------------------------------


def words(text: str) -> list[str]:
    return [word for word in WORD.findall(text.lower()) if word not in STOP]


def bm25(facts: Sequence[Fact], query: str, k1: float = 1.2, b: float = 0.75) -> list[str]:
    """The facts that hold a query word, by Okapi BM25 over their text, ties by id."""
    docs = [Counter(words(f"{fact.text} {fact.id.replace('-', ' ')}")) for fact in facts]
    average = sum(sum(doc.values()) for doc in docs) / max(1, len(docs))
    asked = set(words(query))
    frequency = {word: sum(1 for doc in docs if word in doc) for word in asked}
    scored = []
    for fact, doc in zip(facts, docs, strict=True):
        length = sum(doc.values())
        score = 0.0
        for word in asked & doc.keys():
            idf = math.log(1 + (len(docs) - frequency[word] + 0.5) / (frequency[word] + 0.5))
            tf = doc[word]
            score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / average))
        if score > 0:
            scored.append((-round(score, 9), fact.id))
    return [fact_id for _, fact_id in sorted(scored)]


def grep(facts: Sequence[Fact], query: str) -> list[str]:
    """The facts holding any query word, in file order."""
    asked = set(words(query))
    return [fact.id for fact in facts if asked & set(words(f"{fact.text} {fact.id}"))]


def fill(facts: Sequence[Fact], ranked: Sequence[str], budget: int) -> set[str]:
    """The ids served within `budget` tokens: the core facts first, whole, then the ranked
    ones whole, each that still fits (a line `- TEXT [ID]` each; characters / 4)."""
    by_id = {fact.id: fact for fact in facts}
    served: set[str] = set()
    used = 0
    cores = [fact.id for fact in facts if fact.core]
    for fact_id in [*cores, *(i for i in ranked if not by_id[i].core)]:
        size = len(f"- {by_id[fact_id].text} [{fact_id}]\n")
        if fact_id in cores or used + size <= 4 * budget:
            used += size
            served.add(fact_id)
    return served


# --- mdmem, as its CLI serves -------------------------------------------------------


class Refused(Exception):
    """mdmem refused the memory: it serves nothing."""


REFUSALS: Counter[str] = Counter()  # mdmem's messages, to print


def mdmem_context(memory: Path, task: str, budget: int) -> set[str]:
    """The ids `mdmem context TASK --budget B --format json` shows (its sections' items)."""
    from mdmem.errors import MdmemError
    from mdmem.reading.context import as_json
    from mdmem.reading.sources import context

    try:
        shown = as_json(context(memory, task, budget=budget))
    except MdmemError as error:
        REFUSALS[str(error).splitlines()[0][:160]] += 1
        raise Refused(str(error)) from error
    return {item["id"] for name in ("core", "rules", "threads", "pitfalls") for item in shown[name]}


def mdmem_lookup(memory: Path, task: str, limit: int) -> list[str]:
    """The ids of `mdmem lookup TASK --limit N --json`'s live hits, in order."""
    from mdmem.errors import MdmemError
    from mdmem.reading.search import lookup

    try:
        found = lookup(memory, task, limit=limit)
    except MdmemError as error:
        if "no words to look for" in str(error):
            return []
        raise Refused(str(error)) from error
    return [hit.entry.id for hit in found.ranking.hits]


def cli_ids(memory: Path, task: str, budget: int, limit: int) -> tuple[set[str], list[str]]:
    """What the CLI itself serves: context's ids at `budget`, lookup's at `limit`."""
    mdmem = [sys.executable, "-m", "mdmem"]
    shown = json.loads(
        subprocess.run(
            [*mdmem, "context", task, "--root", str(memory), "--budget", str(budget),
             "--format", "json"], capture_output=True, text=True, check=True
        ).stdout
    )  # fmt: skip
    ran = subprocess.run(
        [*mdmem, "lookup", task, "--root", str(memory), "--limit", str(limit), "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    hits = json.loads(ran.stdout)["hits"] if ran.stdout.strip() else []
    ids = {item["id"] for name in ("core", "rules", "threads", "pitfalls") for item in shown[name]}
    return ids, [hit["id"] for hit in hits]


# --- replaying a history -----------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """One session replayed: its log, task, truth, and per measure the truth served."""

    log: str
    task: str
    truth: tuple[str, ...]
    served: dict[str, int]  # "mdmem@2000", "bm25@2000", "grep@k10", ...
    refused: bool
    live: int = 0  # the state's live facts, core ones included
    core_tokens: int = 0  # what its core facts take of a budget, as the baselines count


def git(repo: Path, *args: str, data: bool = False) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")


def added_logs(repo: Path) -> list[tuple[str, str]]:
    """(commit, log path) for each session log a commit added, oldest first."""
    out = git(repo, "log", "--reverse", "--diff-filter=A", "--name-only", "--format=@%H %P",
              "--", "memory/sessions")  # fmt: skip
    found: list[tuple[str, str]] = []
    commit = ""
    for line in out.splitlines():
        if line.startswith("@"):
            parts = line[1:].split()
            commit = parts[0] if len(parts) > 1 else ""  # a root commit has no memory before it
        elif commit and line.startswith("memory/sessions/") and line.endswith(".md"):
            found.append((commit, line))
    return found


def state_at(repo: Path, commit: str, into: Path) -> Path | None:
    """The memory folder as it stood at `commit`'s parent, unpacked into `into` (None when
    the parent had none)."""
    into.mkdir(parents=True, exist_ok=True)
    ran = subprocess.run(["git", "-C", str(repo), "archive", f"{commit}^", "memory"],
                         capture_output=True, check=False)  # fmt: skip
    if ran.returncode:
        return None
    archive = ran.stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "memory"


def measure(memory: Path, log: str, facts: list[Fact], known: set[str]) -> Replay | None:
    task, truth = task_of(log, known), truth_of(log, facts)
    if not truth or not words(task):
        return None
    wanted = set(truth)
    served: dict[str, int] = {}
    refused = False
    by_bm25, by_grep = bm25(facts, task), grep(facts, task)
    for budget in BUDGETS:
        try:
            shown = mdmem_context(memory, task, budget)
        except Refused:
            shown, refused = set(), True
        served[f"mdmem@{budget}"] = len(wanted & shown)
        served[f"bm25@{budget}"] = len(wanted & fill(facts, by_bm25, budget))
        served[f"grep@{budget}"] = len(wanted & fill(facts, by_grep, budget))
    for limit in HITS:
        try:
            hits = set(mdmem_lookup(memory, task, limit))
        except Refused:
            hits, refused = set(), True
        served[f"mdmem@k{limit}"] = len(wanted & hits)
        served[f"bm25@k{limit}"] = len(wanted & set(by_bm25[:limit]))
        served[f"grep@k{limit}"] = len(wanted & set(by_grep[:limit]))
    core = sum(len(f"- {fact.text} [{fact.id}]\n") for fact in facts if fact.core)
    return Replay(log, task, tuple(truth), served, refused, len(facts), -(-core // 4))


# --- --crowd: each memory with the others' live facts added ---------------------------


def live_blocks(continuity: str, tag: str) -> list[tuple[str, list[str]]]:
    """(section, lines) of each live, non-core fact of a continuity.md: its item's lines
    and its footer, the id prefixed with `tag` (unique beside another memory's ids) and the
    footer kept to its id, dates, uses and tier (no field naming another fact)."""
    lines = continuity.splitlines()
    facts = {fact.id: fact for fact in read_facts(continuity)}
    blocks: list[tuple[str, list[str]]] = []
    heading, start, fenced = "", None, False
    for number, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced:
            continue
        title = HEADING.match(line)
        if title and len(title[1]) <= 2:
            heading, start = title[2], None
            continue
        footer = FOOTER.match(line)
        if footer:
            fields = _fields(footer[1])
            fact = facts.get(fields["id"])
            if start is not None and fact and fact.live and not fact.core:
                kept = [f"{key}: {fields[key]}" for key in ("created", "last_used", "uses",
                        "tier") if fields.get(key)]  # fmt: skip
                indent = line[: len(line) - len(line.lstrip())]
                new = " | ".join([f"id: {tag}-{fact.id}", *kept])
                blocks.append((heading, [*lines[start:number], f"{indent}<!-- {new} -->"]))
            start = None
            continue
        if ITEM.match(line) and start is None:
            start = number
    return blocks


def crowd(memory: Path, blocks: Sequence[tuple[str, list[str]]]) -> None:
    """Add the facts to the memory's continuity.md, each at the end of its own section
    (by title), a section it lacks added at the end."""
    path = memory / "continuity.md"
    lines = path.read_text("utf-8", "replace").splitlines() if path.is_file() else []
    titles = [(n, HEADING.match(line)) for n, line in enumerate(lines)]
    heads = [(n, m[2].strip().lower()) for n, m in titles if m and len(m[1]) <= 2]
    ends = {title: (heads[k + 1][0] if k + 1 < len(heads) else len(lines))
            for k, (_, title) in enumerate(heads)}  # fmt: skip
    added: dict[int, list[str]] = {}
    new: dict[str, list[str]] = {}
    for title, block in blocks:
        end = ends.get(title.strip().lower())
        if end is None:
            new.setdefault(title, []).extend(["", *block])
        else:
            added.setdefault(end, []).extend([*block, ""])
    out: list[str] = []
    for number, line in enumerate([*lines, ""]):
        out += added.get(number, [])
        out.append(line)
    for title, block in new.items():
        out += ["", f"## {title}", *block]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


@dataclass
class Result:
    """One memory's replay."""

    name: str
    replays: list[Replay] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)  # --verify: where the CLI differed

    def recall(self, measure: str) -> float:
        truth = sum(len(replay.truth) for replay in self.replays)
        return sum(replay.served[measure] for replay in self.replays) / truth if truth else 0.0


def repository(source: Path, scratch: Path) -> Path:
    """The history to replay: a bundle cloned into the scratch folder, else as given."""
    if not source.is_file():
        return source
    repo = scratch / source.name.removesuffix(".bundle") / "repo"
    if not repo.is_dir():
        subprocess.run(["git", "clone", "-q", str(source), str(repo)], check=True)
    return repo


def replay(
    source: Path,
    sessions: int,
    verify: int,
    scratch: Path,
    added: Sequence[tuple[str, list[str]]] = (),
) -> Result:
    """Replay the newest `sessions` logs a history added that cite a live fact and have a
    Summary (newest first; the table sums them); `added`: facts put into every state
    (`crowd`)."""
    name = source.name.removesuffix(".bundle")
    repo = repository(source, scratch)
    result = Result(name)
    states: dict[str, tuple[Path, list[Fact], set[str]]] = {}  # by commit
    for commit, path in reversed(added_logs(repo)):
        if len(result.replays) >= sessions:
            break
        log = git(repo, "show", f"{commit}:{path}")
        if not cited(log):
            continue
        if commit not in states:
            memory = state_at(repo, commit, scratch / name / commit)
            if memory is None:
                continue
            if added:
                crowd(memory, added)
            states[commit] = (memory, *memory_facts(memory))
        memory, facts, known = states[commit]
        done = measure(memory, log, facts, known)
        if done is None:
            continue
        result.replays.append(done)
        if len(result.replays) <= verify and not done.refused:
            context_ids, lookup_ids = cli_ids(memory, done.task, BUDGETS[1], HITS[-1])
            if context_ids != mdmem_context(memory, done.task, BUDGETS[1]) or (
                lookup_ids != mdmem_lookup(memory, done.task, HITS[-1])
            ):
                result.mismatches.append(path)
    return result


def crowds(sources: Sequence[Path], scratch: Path) -> list[list[tuple[str, list[str]]]]:
    """Per source: the live facts of every other source's newest state (`live_blocks`,
    tagged `x1`, `x2`... by the source's place)."""
    blocks = []
    for number, source in enumerate(sources, 1):
        repo = repository(source, scratch)
        ran = subprocess.run(["git", "-C", str(repo), "show", "HEAD:memory/continuity.md"],
                             capture_output=True, check=False)  # fmt: skip
        blocks.append(live_blocks(ran.stdout.decode("utf-8", "replace"), f"x{number}"))
    return [
        [block for other, own in enumerate(blocks) if other != number for block in own]
        for number in range(len(sources))
    ]


def columns() -> list[tuple[str, str]]:
    return [(f"{budget:,} tok", f"@{budget}") for budget in BUDGETS] + [
        (f"lookup@{limit}", f"@k{limit}") for limit in HITS
    ]


def table(results: Sequence[Result]) -> str:
    """Per memory and overall: recall of mdmem / BM25 / grep per budget and hit count."""
    heads = columns()
    lines = [
        "| memory | sessions (refused) | " + " | ".join(head for head, _ in heads) + " |",
        "|---|---:|" + "---:|" * len(heads),
    ]
    overall = Result("overall", [replay for result in results for replay in result.replays])
    for result in [*results, overall]:
        refused = sum(replay.refused for replay in result.replays)
        cells = [
            " / ".join(f"{100 * result.recall(system + suffix):.0f}" for system in SYSTEMS)
            for _, suffix in heads
        ]
        lines.append(f"| {result.name} | {len(result.replays)} ({refused}) | "
                     + " | ".join(cells) + " |")  # fmt: skip
    return "\n".join(lines)


def as_dict(results: Sequence[Result]) -> dict[str, object]:
    return {
        result.name: {
            "sessions": len(result.replays),
            "refused": sum(replay.refused for replay in result.replays),
            "truth": sum(len(replay.truth) for replay in result.replays),
            "recall": {
                system + suffix: round(result.recall(system + suffix), 4)
                for _, suffix in columns()
                for system in SYSTEMS
            },
            "cli_mismatches": result.mismatches,
        }
        for result in results
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="*", type=Path, help="bundles or git repositories")
    parser.add_argument("--sessions", type=int, default=60, help="newest N logs per memory")
    parser.add_argument("--verify", type=int, default=1, help="states per memory the CLI checks")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the numbers here")
    parser.add_argument("--crowd", action="store_true",
                        help="each memory with the others' newest live facts added")  # fmt: skip
    args = parser.parse_args(argv)
    sources = args.sources or sorted(DEFAULT_SOURCES.glob("*.bundle"))
    if not sources:
        parser.error(f"no bundles in {DEFAULT_SOURCES}; name a bundle or a repository")
    os.environ["MDMEM_NO_CACHE"] = "1"  # nothing kept beside the scratch states
    with tempfile.TemporaryDirectory(prefix="mdmem-recall-") as scratch:
        others = crowds(sources, Path(scratch)) if args.crowd else [[] for _ in sources]
        results = [
            replay(source, args.sessions, args.verify, Path(scratch), added)
            for source, added in zip(sources, others, strict=True)
        ]
    print(f"Recall of the facts each session cited{', crowded' if args.crowd else ''}, "
          "mdmem / BM25 / grep, in %:")  # fmt: skip
    print(table(results))
    print("\nThe states replayed: live facts, and the tokens their core facts take whole:")
    for result in results:
        live = [replay.live for replay in result.replays] or [0]
        core = [replay.core_tokens for replay in result.replays] or [0]
        print(f"- {result.name}: {min(live)} to {max(live)} live facts, "
              f"core {min(core):,} to {max(core):,} tokens")  # fmt: skip
    if any(replay.refused for result in results for replay in result.replays):
        read = [Result(r.name, [p for p in r.replays if not p.refused]) for r in results]
        print("\nThe same, on the states mdmem read (those it refused left out):")
        print(table(read))
    for message, times in sorted(REFUSALS.items()):
        print(f"refused ({times} calls): {message}")
    mismatches = [path for result in results for path in result.mismatches]
    if mismatches:
        print(f"the CLI served otherwise than measured at: {', '.join(mismatches)}")
    if args.json:
        args.json.write_text(json.dumps(as_dict(results), indent=2) + "\n", encoding="utf-8")
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
