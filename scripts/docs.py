"""The policy tables of DECAY.md and REVIEW.md, generated from the code's defaults.

Each file holds its table between `<!-- mdmem:begin policy -->` and
`<!-- mdmem:end policy -->`; this script writes only there. `tests/test_docs.py` fails
when a table differs from what this script makes, and names the command that fixes it:

    python scripts/docs.py           # rewrite the tables
    python scripts/docs.py --check   # exit 1, naming the files, when one is out of date
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from mdmem.format.blocks import with_block
from mdmem.format.policy import Policy
from mdmem.format.textfile import decode

ROOT = Path(__file__).resolve().parent.parent
BLOCK = "policy"
REGENERATE = "python scripts/docs.py"

MEANINGS = {
    "working_window": "sessions a new fact stays on probation (`working`)",
    "active_window": "sessions without a citation before a fact is flagged (`archive-candidate`)",
    "archive_window": "sessions without a citation before it is archived",
    "review_every": "sessions between reviews before lint calls one overdue (W007)",
    "continuity_max_facts": "decaying facts before lint calls continuity.md bloated",
    "continuity_max_lines": "lines of continuity.md, a coarse backstop for the same",
    "verify_invariants_every": "sessions between a person's re-checks of the core facts",
    "auto_core": "whether the review may propose promotions to core",
    "core_min_uses": "uses before a fact may be proposed for core",
    "core_min_reviews": "reviews in a row it must have stayed active first",
    "thread_stale_window": "the protocol's staleness window for open threads (read, kept; "
    "mdmem does not act on it yet)",
    "closed_narrative_max_lines": "non-empty lines of a done thread's text before lint hints "
    "to condense it (W023)",
}
# REVIEW.md's table: the keys that say when the review runs and what it proposes.
REVIEW_KEYS = (
    "review_every",
    "verify_invariants_every",
    "auto_core",
    "core_min_uses",
    "core_min_reviews",
)


def _value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def policy_table(keys: tuple[str, ...] | None = None) -> str:
    """The table of `keys` (every policy key by default): key, default, meaning."""
    defaults = Policy()
    names = [field.name for field in dataclasses.fields(Policy)]
    missing = [name for name in names if name not in MEANINGS]
    if missing:
        raise SystemExit(f"scripts/docs.py: say what {', '.join(missing)} means in MEANINGS")
    rows = ["| policy key | default | meaning |", "|---|---|---|"]
    for name in names if keys is None else keys:
        rows.append(f"| `{name}` | {_value(getattr(defaults, name))} | {MEANINGS[name]} |")
    return "\n".join(rows) + "\n"


def decay_block() -> str:
    policy = Policy()
    active, archive = policy.active_window, policy.archive_window
    return policy_table() + (
        f"\nWith the defaults: a fact last cited {active} sessions ago is active, "
        f"{active + 1} to {archive} sessions ago an archive-candidate, {archive + 1} or more "
        f"archived; one created {policy.working_window} sessions ago with one use is still "
        "working.\n"
    )


def review_block() -> str:
    return policy_table(REVIEW_KEYS)


BLOCKS = {"DECAY.md": decay_block, "REVIEW.md": review_block}


def regenerated(name: str) -> tuple[str, str]:
    """The file's text as it is, and with its policy block generated."""
    path = ROOT / name
    file = decode(path.read_bytes(), name)
    return file.text(), with_block(file, BLOCK, BLOCKS[name]())


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name in BLOCKS:
        old, new = regenerated(name)
        if old != new:
            stale.append(name)
            if not check:
                (ROOT / name).write_bytes(new.encode("utf-8"))
    if check and stale:
        print(f"out of date: {', '.join(stale)}; run `{REGENERATE}`", file=sys.stderr)
        return 1
    for name in stale:
        print(f"rewrote the {BLOCK} table of {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
