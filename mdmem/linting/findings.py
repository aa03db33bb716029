"""Lint findings: the codes, the finding value, and how findings are printed and counted.

A finding never quotes secret material or hidden characters: every text is masked
as the finding is made, so no printer has to remember to.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mdmem.errors import EXIT_FINDINGS, EXIT_OK
from mdmem.linting.tally import Tally, counted
from mdmem.safety.secrets import redact

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Check:
    code: str
    name: str
    severity: str


CHECKS = {
    check.code: check
    for check in (
        Check("E001", "unparseable", ERROR),
        Check("E003", "duplicate-id", ERROR),
        Check("E006", "session-log-changed", ERROR),
        Check("E007", "conflict-marker", ERROR),
        Check("E008", "near-blocked-entry", ERROR),
        Check("E009", "secret-material", ERROR),
        Check("E010", "poisoning-marker", ERROR),
        Check("E011", "fix-before-commit", ERROR),
        Check("E012", "fact-deleted", ERROR),
        Check("W001", "stale-metadata", WARNING),
        Check("W002", "unknown-id", WARNING),
        Check("W003", "unknown-reference-key", WARNING),
        Check("W004", "date-only-session-name", WARNING),
        Check("W005", "dangling-supersession", WARNING),
        Check("W006", "drift", WARNING),
        Check("W007", "review-overdue", WARNING),
        Check("W008", "continuity-bloated", WARNING),
        Check("W009", "invariant-not-core", WARNING),
        Check("W010", "footer-key-typo", WARNING),
        Check("W011", "unknown-type", WARNING),
        Check("W012", "origin-names-no-log", WARNING),
        Check("W013", "legacy-facts-without-footer", WARNING),
        Check("W014", "no-references-section", WARNING),
        Check("W015", "not-a-session-log", WARNING),
        Check("W016", "session-named-in-future", WARNING),
        Check("W017", "supersession-without-successor", WARNING),
        Check("W018", "cites-retired-fact", WARNING),
        Check("W019", "fact-not-recorded", WARNING),
        Check("W020", "copies-a-review-repairs", WARNING),
        Check("W021", "archived-fact-in-use", WARNING),
        Check("W022", "dangling-link", WARNING),
        Check("W023", "closed-thread-bloat", WARNING),
        Check("W024", "session-log-rewritten", WARNING),
        Check("W025", "core-by-hand", WARNING),
        Check("W026", "uses-by-hand", WARNING),
        Check("W027", "near-superseded", WARNING),
        Check("W028", "path-gone", WARNING),
        Check("W029", "second-successor", WARNING),
        Check("W030", "joined-from-above", WARNING),
    )
}


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str
    path: str
    line: int
    message: str
    hint: str
    committed: bool = False  # a warning about a committed log, which can never be edited

    @property
    def name(self) -> str:
        return CHECKS[self.code].name

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def render(self) -> str:
        return f"{self.path}:{self.line}: {self.code} {self.message} (hint: {self.hint})"

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "name": self.name, **vars(self)}


# The hint of a code whose hint is always the same; the others' are given with the finding.
HINTS = {
    "E001": "fix the file at this line: until then the review refuses, and the reading commands "
    "leave out what they cannot read",
    "E003": "give one of the two facts a new id, or merge them if they say the same",
    "E007": "resolve the conflict, keeping the facts of both sides, and delete the markers",
    "E008": "it was forgotten on purpose: delete this fact, or lift the block by editing "
    "blocked.md by hand",
    "E009": "remove it and rotate the credential; in a committed session log, replace the value "
    "with [REDACTED], the one edit such a log allows",
    "E010": "memory must read the same to a person and to an agent: delete it",
    "W001": "run `mdmem review`; it recounts footers from the session logs",
    "W002": "correct it while the log is uncommitted; after that, cite the right id in the next "
    "log",
    "W004": "name new logs YYYY-MM-DD-HHMMSS[-slug].md, so a day's logs sort in time order (a "
    "committed log keeps its name)",
    "W005": "correct the id",
    "W006": "point it at a live fact, or close the item if its target is gone",
    "W007": "run `mdmem review`",
    "W009": "set tier: core, or move the fact to another section if it may decay",
    "W011": "write type: anti-pattern for a prohibition, or drop the field for a rule",
    "W012": "correct it to the stem of the log that created the fact (YYYY-MM-DD-HHMMSS[-slug]), "
    "or drop it: the review fills it in from the log whose Created line names the fact",
    "W015": "rename it to YYYY-MM-DD-HHMMSS[-slug].md if it is a log, else move it out of "
    "sessions/",
    "W016": "name logs after the UTC time the session ends (`date -u +%Y-%m-%d-%H%M%S`); rename "
    "it while it is uncommitted",
    "W018": "cite the fact that holds now; correct it while the log is uncommitted",
    "W021": "run `mdmem review`: it moves the fact back into continuity",
    "W020": "run `mdmem review`: it keeps one copy, the same on every machine, and opens a thread "
    "if the two texts differ",
    "W022": "correct the id, or drop the link",
    "W023": "condense it to a few lines; the whole story stays in its session log",
    "W029": "keep one successor: supersede this fact by the other (`mdmem supersede ID --by "
    "OTHER`), or drop its `supersedes` if it replaces nothing",
    "W030": "take it out and add it with `mdmem add TEXT --section SECTION`, which gives it a "
    "footer of its own, or write it below the fact's first line if it belongs to that fact",
    "W027": "reword it to say what holds now, or delete it and cite the successor; a superseded "
    "fact's text does not come back",
}


def finding(code: str, path: str, line: int, message: str, hint: str | None = None) -> Finding:
    """A finding whose texts are safe to print: no secret value, no invisible character;
    its hint the code's own (`HINTS`) unless one is given."""
    hint = HINTS[code] if hint is None else hint
    return Finding(code, CHECKS[code].severity, safe(path), line, safe(message), safe(hint))


# Warnings about a change that can never be mended once it is committed (a log's
# citations, keys, heading and supersessions; a supersession link in continuity): while
# the change is not committed yet they are E011, which stops the hook and the review.
MEND_BEFORE_COMMIT = frozenset({"W002", "W003", "W005", "W014", "W017"})

# Findings that a fact is missing (a link naming none, a fact deleted by hand): while an
# item is left unread (E001), its id may be the one they miss, so they are not decidable.
NAMES_A_MISSING_FACT = frozenset({"W005", "W022", "E012"})


def before_commit(item: Finding) -> Finding:
    """`item`, a warning of `MEND_BEFORE_COMMIT` about a change not committed yet, as the
    error E011 that names the warning it would become once committed."""
    message = f"{item.message} ({item.code} once committed: fix it now)"
    return Finding("E011", ERROR, item.path, item.line, message, item.hint)


def safe(text: str) -> str:
    """`text` with secret values masked and invisible or control characters spelled out."""
    return "".join(
        char if char == " " or char.isprintable() else f"<U+{ord(char):04X}>"
        for char in redact(text)
    )


def finish(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """Findings without repeats, in (path, line, code) order.

    A parse error at a conflict marker is that marker, reported once, as E007.
    """
    unique = set(findings)
    markers = {(f.path, f.line) for f in unique if f.code == "E007"}
    kept = [f for f in unique if f.code != "E001" or (f.path, f.line) not in markers]
    return tuple(sorted(kept, key=lambda f: (f.path, f.line, f.code, f.message, f.hint)))


# A file's stale footers are one thing to do (run the review): shown as one finding.
_GROUPED = "W001"


def grouped(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """The findings as a person reads them: a file's stale footers (W001), when there are
    several, as one finding at the first of them that counts them; warnings about
    committed logs left out (`committed_note` counts them); the rest as they are."""
    findings = tuple(item for item in findings if not item.committed)
    stale: dict[str, list[Finding]] = {}
    for item in findings:
        if item.code == _GROUPED:
            stale.setdefault(item.path, []).append(item)
    shown = []
    for item in findings:
        group = stale.get(item.path, []) if item.code == _GROUPED else []
        if len(group) <= 1:
            shown.append(item)
        elif item is group[0]:
            message = f"{len(group)} footers a review would change"
            hint = "run `mdmem review`; `mdmem lint --verbose` lists each"
            shown.append(finding(_GROUPED, item.path, item.line, message, hint))
    return tuple(shown)


def committed_note(findings: Iterable[Finding]) -> str | None:
    """The one line that stands for the warnings about committed logs, if any."""
    number = sum(1 for item in findings if item.committed)
    if not number:
        return None
    return (
        f"{counted(number, 'warning')} about committed session logs, which can no longer be "
        "edited: --strict does not fail on them (`mdmem lint --verbose` lists them)."
    )


def counts(findings: Iterable[Finding]) -> tuple[int, int]:
    """(errors, warnings)."""
    every = list(findings)
    errors = sum(1 for item in every if item.is_error)
    return errors, len(every) - errors


def summary(findings: Iterable[Finding]) -> str:
    """The one-line count after the findings."""
    errors, warnings = counts(findings)
    if not errors and not warnings:
        return "No findings."
    return f"{counted(errors, 'error')}, {counted(warnings, 'warning')}."


def tally(findings: Iterable[Finding]) -> Tally:
    """The count of `findings` as lint prints them without --verbose: `summary(grouped(...))`
    and `committed_note`'s number (see `mdmem.linting.tally`)."""
    every = tuple(findings)
    errors, warnings = counts(grouped(every))
    return Tally(errors, warnings, sum(1 for item in every if item.committed))


def exit_code(findings: Iterable[Finding], strict: bool) -> int:
    """1 on an error, and on a warning too when `strict` (but for warnings about
    committed logs, which nobody can fix); else 0."""
    errors, warnings = counts(item for item in findings if not item.committed)
    return EXIT_FINDINGS if errors or (strict and warnings) else EXIT_OK
