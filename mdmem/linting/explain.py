"""What each lint code means and how to fix it: the text `mdmem lint --explain CODE` prints.

The text ships with the package (an adopting repository has no docs folder). The table of
codes in docs/LINT.md is this text, row for row: `tests/test_explain.py` holds them equal
and prints the rows to paste when they differ. A new code in `findings.CHECKS` needs its
entry here.
"""

from __future__ import annotations

import dataclasses
import textwrap
from dataclasses import dataclass

from mdmem.linting.findings import CHECKS

_WIDTH = 88


@dataclass(frozen=True)
class Explanation:
    """One lint code: its name and severity (from `CHECKS`), what it means, how to fix it."""

    code: str
    name: str
    severity: str
    meaning: str
    fix: str

    def render(self) -> str:
        """The text a person reads: a title line, then the two paragraphs, wrapped."""
        return "\n".join(
            [
                f"{self.code} {self.name} ({self.severity})",
                "",
                "What it means:",
                _paragraph(self.meaning),
                "",
                "How to fix it:",
                _paragraph(self.fix),
            ]
        )

    def as_dict(self) -> dict[str, str]:
        return dataclasses.asdict(self)

    def table_row(self) -> str:
        """The row of docs/LINT.md's table of codes (a `|` in the text escaped)."""
        cells = (self.code, self.name, self.severity, self.meaning, self.fix)
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _paragraph(text: str) -> str:
    return textwrap.fill(
        text,
        _WIDTH,
        initial_indent="  ",
        subsequent_indent="  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def explanations() -> tuple[Explanation, ...]:
    """Every code's explanation, in the order of `CHECKS`."""
    return tuple(
        Explanation(check.code, check.name, check.severity, *_TEXTS[check.code])
        for check in CHECKS.values()
    )


# Retired codes -> the code that took their place, so that an old CI log still explains.
RETIRED = {"e002": "w013", "missing-footer": "w013"}


def explain(query: str) -> Explanation | None:
    """The explanation of a code (`W002`) or a name (`unknown-id`), any case, or of the
    code that replaced a retired one (`E002`); else None."""
    wanted = query.strip().lower()
    wanted = RETIRED.get(wanted, wanted)
    for explained in explanations():
        if wanted in (explained.code.lower(), explained.name):
            return explained
    return None


# code -> (what it means, how to fix it)
_TEXTS: dict[str, tuple[str, str]] = {
    "E001": (
        "A memory file that does not parse: a footer that breaks the format (bad id, "
        "`-->` in a value, a duplicate field), an unclosed fence, bytes that are not "
        "UTF-8, a bad session file name, a `blocked.md` entry without its date or "
        "reason.",
        "Fix the file at the line named; until then the review refuses, and the reading "
        "commands leave out what they cannot read.",
    ),
    "E003": (
        "An id used by two facts in one file (continuity or one archive file), or in a "
        "file and `vision.md`. Copies a review repairs (an id archived twice) are W020.",
        "Give one of the two facts a new id, or merge them if they say the same.",
    ),
    "E006": (
        "A committed session log edited (named at the first line that changed), deleted "
        "or renamed in the working tree or the index: a change not committed yet, which "
        "can still be undone; with `--base REV` (a pull request's check), also by a commit "
        "REV does not hold. An untracked or newly staged log may still change.",
        "Put it back: `git checkout HEAD -- PATH` (with `--base`, `git checkout COMMIT^ -- "
        "PATH`, COMMIT the one that changed it, and commit that).",
    ),
    "E007": (
        "A merge-conflict marker line (`<<<<<<<`, `=======`, `>>>>>>>`, `|||||||`) in "
        "any memory file.",
        "Resolve the conflict, keeping the facts of both sides.",
    ),
    "E008": (
        "A live or archived fact near an entry of `blocked.md`; the entry is named. Each "
        "item's own text (nested notes left out) is read as normalised content words T "
        "and E (lowercase, filler dropped, plurals and tenses stemmed) and a polarity "
        "(§8); near means the same polarity and T ⊇ E with |E| >= 3, or T ⊆ E with `100 *"
        " |T| >= 80 * |E|`, or `100 * |T∩E| >= 90 * |T∪E|` (DECAY.md, Forgetting).",
        "Delete the fact; only editing `blocked.md` by hand lifts a block.",
    ),
    "E009": (
        "A secret (API key, token, private key, password assignment, credentials in a "
        "URL) in continuity, the archive, any other memory file, or a session log. "
        "Category and position only.",
        "Remove it and rotate the credential. In a committed session log, replace the "
        "value with `[REDACTED]`: the one edit E006 and the hook allow.",
    ),
    "E010": (
        "Text that hides itself or overrides an agent, at its exact line: an injection "
        'phrase ("ignore previous instructions", "you are now …") anywhere, comments '
        "included; invisible or bidirectional-control characters; markup that hides "
        "text from a human reading the rendered file (`<div hidden>`, `display:none`, "
        "zero-size or transparent text, an empty link's long title). A comment (`<!-- "
        "-->`, or `[//]: # (...)`) is in plain sight in the raw file: in prose "
        "(`vision.md`, `instructions.md`, a prose section) only an injection phrase in "
        "it counts; inside a fact's text (above its footer) also more than 40 "
        "characters. A comment left open, or one that swallows another's opening, "
        "always counts. Footers and the notes after them are not markers, nor are "
        "imperative facts.",
        "Delete it: memory must read the same to a person and to an agent.",
    ),
    "W001": (
        "A footer a review would rewrite (uses, last_used, tier, origin, links, "
        "feedback) for a fact the review would not move. A file's stale footers print "
        "as one finding that counts them; `--verbose` and `--json` list each.",
        "Run `mdmem review`.",
    ),
    "W002": (
        "An id-shaped token in a log's `## Memory References` that names no fact (nor a "
        "forgotten one), with the nearest known id by edit distance when one is within "
        "a typo's reach (a third of the token's length, at least 2 edits; ties: the "
        "alphabetically first). A hyphenated word inside a `(...)` note is prose, "
        "reported only when it is a near miss of a known id (a typo).",
        "Correct it while the log is uncommitted; after that, cite the right id in the next log.",
    ),
    "W003": (
        "A `- Key: ...` line in `## Memory References` whose key is none of Referenced, "
        "Created, Reactivated, Superseded, Restored, Helpful, Harmful, Forgotten, Closed (it "
        "counts as Referenced).",
        "Use a known key in new logs.",
    ),
    "W004": (
        "A session log named `YYYY-MM-DD.md`: it sorts before every timed log of its day.",
        "Name new logs `YYYY-MM-DD-HHMMSS[-slug].md`.",
    ),
    "W005": (
        "A `supersedes` or `superseded-by` field naming no fact, nor one forgotten in "
        "`blocked.md` (a link to a forgotten fact stays, as the ledger keeps it).",
        "Correct the id.",
    ),
    "W006": (
        "A `serves:` link (footer field, or `→ serves: ID` in a Blueprint item) of a "
        "live fact pointing at no fact, a forgotten one, an archived one or a "
        "superseded one (DECAY.md, Drift).",
        "Point it at a live fact, or close the item.",
    ),
    "W007": (
        "More than `review_every` session logs after the last review's through-session "
        "(the `last_review` stamp, else the last row of `reviews.md`).",
        "Run `mdmem review`.",
    ),
    "W008": (
        "More than `continuity_max_facts` decaying facts in `continuity.md` (core "
        "facts, invariants, open threads and superseded facts do not count), or more "
        "than `continuity_max_lines` lines.",
        "Merge or supersede overlapping facts; shorten long ones.",
    ),
    "W009": (
        "A fact under `## Architectural Invariants` whose tier is not `core` (the "
        "review treats it as core anyway).",
        "Set `tier: core`, or move the fact to a section where it may decay.",
    ),
    "W010": (
        "A footer key mdmem does not read that is a near miss of one it does (`orgin`, "
        "`tpye`, `supersede`, `tag`): the review would keep it and write the real key "
        "beside it.",
        "Rename it.",
    ),
    "W011": (
        "A `type` other than `rule` or `anti-pattern` (`antipattern`).",
        "Write `type: anti-pattern`, or drop the field for a rule.",
    ),
    "W012": (
        "An `origin` that names no session log (a stem, a file name or a path are all read).",
        "Correct it, or drop it: the review fills it in from the log whose `Created` "
        "line names the fact.",
    ),
    "W013": (
        "Top-level items without a footer in a fact section: one that holds footered "
        "facts, or `## Architectural Invariants`, `## Key Decisions`, `## Open Threads` "
        "(`## Project State` bullets are not facts). Memories kept before footers hold "
        "such legacy facts; the review leaves them as they are, byte for byte. One "
        "finding per section, at its first such item, counting them. Items right above a "
        "footered item (no blank line between, same section) are that fact's group, not "
        "legacy facts. (It replaces E002, an error until then.)",
        "In `continuity.md`: `mdmem backfill` gives each one a footer and writes one "
        "session log that creates them; then `mdmem review` and commit. Elsewhere: add a "
        "footer by hand, or move the items to a prose section.",
    ),
    "W014": (
        "A session log without a `## Memory References` section. When a heading of "
        "another level or case (`### Memory references`) stands where it should, that "
        "line is named: only the exact heading is read as the ledger (as the protocol's "
        "own scripts read it), so the ids under it count for nothing.",
        "Write the heading as `## Memory References` while the log is uncommitted; after "
        "that, cite the ids again in the next log.",
    ),
    "W015": (
        "A file in `sessions/` that is not a `.md` log (`notes.txt`): mdmem reads only "
        "`.md` files there. Dot files are left alone.",
        "Rename it to `YYYY-MM-DD-HHMMSS[-slug].md` if it is a log, else move it out of "
        "`sessions/`.",
    ),
    "W016": (
        "A session log named for a time more than a minute after now (UTC; "
        "`SOURCE_DATE_EPOCH`, when set, is now, so that lint's output need not depend on "
        "the day; `session start` may name a log up to a minute ahead when logs are "
        "started in a burst): it sorts after every log written later, and the review's "
        "ledger date follows it.",
        "Name logs after the UTC time the session ends (`date -u +%Y-%m-%d-%H%M%S`).",
    ),
    "W017": (
        "A `Superseded: OLD` line with neither a successor (`OLD → NEW`; `->`, `=>` and "
        "`OLD to NEW` are read too) nor `(invalidated)`: the fact is retired with nothing"
        " in its place. A successor that names no fact is an unknown id (W002).",
        "Write `Superseded: OLD → NEW`, or `Superseded: OLD (invalidated)` when nothing "
        "replaces it.",
    ),
    "W018": (
        "A log that cites, outside a `(...)` note, a fact superseded by an earlier log's "
        "`Superseded:` line (and not restored since), or one forgotten in `blocked.md` "
        "before the log's day. The finding names the successor or the reason.",
        "Cite the fact that holds now.",
    ),
    "W019": (
        "A live fact with no `created` date that no session log names (a bare `<!-- id: x"
        " -->`): the review cannot tell its age and counts it unused since the first log.",
        "Record `- Created: ID` in the current session log and give the footer its born "
        "fields (`created`, `uses: 1`, `tier: working`, `origin`).",
    ),
    "W020": (
        "An id live in `continuity.md` and also in an archive file, or archived in two "
        "archive files: what two reviews on two branches leave after a merge.",
        "Run `mdmem review`: it keeps one copy, the same on every machine, and opens a "
        "thread when the two texts differ.",
    ),
    "E011": (
        "A mistake that can never be mended once it is committed, in a change not committed "
        "yet: in a session log git does not hold yet, an id that names no fact (W002; the "
        "successor of a `Superseded:` line included), an unknown key (W003), the "
        "references heading at another level (W014), a `Superseded:` line without a "
        "successor (W017); in a line of `continuity.md` or a thread file written since "
        "HEAD, a `supersedes` or `superseded-by` naming no fact (W005). The message names "
        "the warning it becomes once committed, when the log may no longer be edited.",
        "Fix it now, as the hint says: the pre-commit hook and `mdmem review` stop on it. "
        "Outside git nothing is committed and these stay warnings.",
    ),
    "E012": (
        "A fact that HEAD's `continuity.md` (or a thread file) holds and that no file "
        "holds now (not continuity, the archive, a thread file, `blocked.md` nor "
        "`vision.md`): deleted by hand, not retired. Its text is lost, and every log that "
        "cites it names nothing. Where its first line is still there, the finding names "
        "that line: its footer was deleted (its text now runs on into the next item) or its "
        "id changed.",
        "Put it back (`git show HEAD:memory/continuity.md` holds it), or its footer or id, "
        "then retire it: `mdmem supersede ID --by NEW` (or `--by-text TEXT`) when it is "
        "false, `mdmem forget ID --reason WHY` when it must never come back; `mdmem review` "
        "archives a fact that faded.",
    ),
    "W024": (
        "A committed session log that a later commit edited, deleted or renamed. The "
        "ledger is read as it is now; the edit is history, so it is a warning, not an "
        "error that would stop every review from then on (E006 stops the edit while it "
        "is still uncommitted, and in a pull request's check, `lint --base REV`, while "
        "only the pull request holds it).",
        "Nothing to mend now: `git show COMMIT -- PATH` shows the edit; keep later logs "
        "as they were committed.",
    ),
    "W021": (
        "An archived fact that the ledger says is in use again (a review would move it "
        "back into continuity).",
        "Run `mdmem review`.",
    ),
    "W022": (
        "A link in a fact's text that names no fact in continuity, the thread files, the "
        "archive or `vision.md` (a forgotten one included): `[[ID]]`, or `→ proposal: ID`. "
        "The nearest known id is suggested. A link inside a code span is quoted syntax, "
        "not a link.",
        "Correct the id, or drop the link.",
    ),
    "W023": (
        "A done thread (`- [x]`, in `continuity.md` or a thread file) whose text holds more "
        "non-empty lines than `closed_narrative_max_lines` (decay-policy.md, default 150): "
        "a hint, as the protocol's `[closed-thread-bloat]`.",
        "Condense it to a few lines; the whole story stays in the session log that closed it.",
    ),
    "W025": (
        "A fact new since HEAD, outside `## Architectural Invariants`, born `tier: core` "
        "by an edit: core is a person's decision, and the review never lets a core fact "
        "decay.",
        "Write `tier: working`, as a new fact is born; a person who wants it core runs "
        "`mdmem core ID`.",
    ),
    "W026": (
        "A `uses` written or changed since HEAD that is more than the session logs give "
        "(the logs that cite the fact, at least 1): usage is never typed by hand. A review "
        "recounts a fact the logs cite, but keeps the number of one they do not.",
        "Write the number the logs give (`uses: 1` for a new fact); `mdmem review` counts "
        "it from the logs.",
    ),
    "W027": (
        "A live fact, written or edited since HEAD (every one outside git), near a "
        "superseded fact's text, by the blocklist's nearness (E008): a superseded fact "
        "coming back. Its own successor is named only when it says the very same words "
        "(token Jaccard >= 0.90), since a successor often adds a clause to the old text. "
        "The finding names the successor.",
        "Reword it to say what holds now, or delete it and cite the successor.",
    ),
    "W028": (
        "A live fact names a path of the repository that git's list of files "
        "(`git ls-files`) does not hold: a backticked token with no space that holds a `/` "
        "(under a folder the repository holds) or ends in a file extension, or a glob of "
        "its `scope` that matches no file. Where git saw the path renamed, the new path "
        "is named. Checked only in a repository that holds files beyond the memory "
        "folder; paths under the memory folder are not checked.",
        "Write the path the code has now in the fact (or its scope), or supersede the "
        "fact if the code it described is gone.",
    ),
    "W030": (
        "Lines added since HEAD right above a fact's first line, opening with a bullet: "
        "a fact written without a footer above another, which its footer now closes too, "
        "so it is read as the start of that fact's text (a footer closes the list above "
        "it). Checked against HEAD (in git), as the hook does.",
        "Take it out and add it with `mdmem add TEXT --section SECTION`, which gives it a "
        "footer of its own, or write it below the fact's first line if it belongs to that "
        "fact.",
    ),
    "W029": (
        "A fact that is not superseded names in `supersedes` a fact whose `superseded-by` "
        "names another: two facts replace one, as when two branches superseded the same "
        "fact and were merged. Both are served as holding now.",
        "Keep one successor: supersede this fact by the other (`mdmem supersede ID --by "
        "OTHER`), or drop its `supersedes` if it replaces nothing.",
    ),
}
