"""What `mdmem init` did (or, dry, would do): the `InitResult`, and what it says, a line
each, and what comes next."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from mdmem.adopting import skeleton

NOTHING_TO_DO = "Nothing to do: mdmem is set up here."


@dataclass(frozen=True)
class HookStep:
    action: str  # "install", "update", or "chain": install, keeping the hook that was there
    path: str  # the hook, relative to the project when inside it
    chained: str | None  # where the hook that was there is kept, run first


@dataclass(frozen=True)
class InitResult:
    """What init did (or, with `dry_run`, would do)."""

    project: Path
    dry_run: bool
    fresh: bool  # a new memory was laid out
    created: tuple[str, ...]  # new files, relative to the project
    extended: tuple[str, ...]  # files that gained lines or mdmem's usage block
    updated: tuple[str, ...]  # files whose usage block was rewritten
    session: str | None  # the first session log's stem
    facts: tuple[str, ...]  # ids of the facts init created (recorded in that log)
    hook: HookStep | None  # what was done with the pre-commit hook
    configured: tuple[str, ...]  # git config keys set
    notices: tuple[str, ...]
    python: str  # the interpreter the hook and the drivers name
    replaced: str | None  # the interpreter the drivers named before, when another
    rules: tuple[str, ...] = ()  # agents' rule files the project held before init

    @property
    def changed(self) -> bool:
        return bool(self.created or self.extended or self.updated or self.hook or self.configured)

    def as_dict(self) -> dict[str, object]:
        found = asdict(self)  # tuples, which JSON writes as lists
        return {
            **found,
            "project": str(self.project),
            "changed": self.changed,
            "next": next_steps(self),
        }


def report_lines(result: InitResult) -> list[str]:
    """What init did (or would do), a line each, then the notices and the next steps."""
    if not result.changed:
        return [NOTHING_TO_DO, *(f"Note: {notice}." for notice in result.notices)]
    dry = result.dry_run
    lines = ["Dry run: nothing written. mdmem init would:"] if dry else []
    for relative in result.created:
        lines.append(f"{_verb('created', dry)} {relative}{_about(result, relative)}")
    for verb, names in (("extended", result.extended), ("updated", result.updated)):
        lines += [f"{_verb(verb, dry)} {relative}{_about(result, relative)}" for relative in names]
    if result.hook is not None:
        verb = _verb("updated" if result.hook.action == "update" else "installed", dry)
        lines.append(f"{verb} the pre-commit hook {result.hook.path}")
        if result.hook.chained is not None:
            lines[-1] += f"; the hook that was there runs first, as {result.hook.chained}"
    lines += [f"{_verb('set', dry)} git config {key}" for key in result.configured]
    if result.replaced is not None:
        lines.append(f"The merge drivers now run {result.python}, not {result.replaced}.")
    lines += [f"Note: {notice}." for notice in result.notices]
    steps = next_steps(result)
    return [*lines, "Next:", *(f"  - {step}" for step in steps)] if steps else lines


_PRESENT = {"created": "create", "extended": "extend", "updated": "update", "set": "set"}
_PRESENT |= {"installed": "install"}


def _verb(past: str, dry_run: bool) -> str:
    return _PRESENT[past] if dry_run else past


def _about(result: InitResult, relative: str) -> str:
    """What a file is, when its name does not say: the first log, a usage block."""
    if result.session is not None and relative.endswith(f"/{result.session}.md"):
        created = f"; Created: {', '.join(result.facts)}" if result.facts else ""
        return f" (the first session log{created})"
    if relative in (skeleton.AGENTS, *skeleton.VENDOR_FILES):
        return f" (the {skeleton.BLOCK} block)"
    return ""


def next_steps(result: InitResult) -> list[str]:
    """What a person does next, in order."""
    if not result.changed:
        return []
    if result.dry_run:
        return ["run the same command without --dry-run to do it"]
    steps = ["look over what init wrote (`git status`), then commit it"]
    if skeleton.VISION_THREAD in result.facts:
        steps.append(
            "a person writes the project's vision in memory/vision.md, then runs "
            f"`mdmem done {skeleton.VISION_THREAD}`"
        )
    if result.fresh and result.rules:
        named = " ".join(result.rules)
        hold = "holds" if len(result.rules) == 1 else "hold"
        steps.append(
            f"import the rules {named} {hold} as facts: `mdmem migrate {named} --dry-run` "
            "shows what each becomes, then the same without --dry-run"
        )
    if not result.fresh:
        steps.append("run `mdmem lint`, then `mdmem review`: it fills in what footers lack")
    steps.append(
        f"agents follow the {skeleton.BLOCK} block in AGENTS.md: `mdmem session start`, "
        '`mdmem context "TASK"`, `mdmem ref ID...`'
    )
    if result.configured or result.hook:
        steps.append("every clone runs `mdmem init` once: hooks and git config stay in a clone")
    return steps
