"""Flag text in a memory file that tries to hide itself or to override an agent's instructions.

Where the line is: an injection phrase, an invisible or bidi character, and markup that
only hides (a hidden attribute, a hiding style, an empty link's long title) are found
anywhere. A comment (`<!-- -->`, or a link reference written as one) is in plain sight in
the raw file, so in prose it is found only when it holds an injection phrase; inside a
fact's text, which an agent obeys, also when it hides more than a tooling directive's
length. Footers and the notes after them are the format's own comments. A comment left
open, or one that swallows another's opening (a footer, say), hides text wherever it is.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mdmem.format.fences import fenced_blocks
from mdmem.format.items import fact_text_spans, is_note
from mdmem.format.textfile import split_lines
from mdmem.format.vision import quotes_as_items
from mdmem.safety.lookalikes import PAIRS


@dataclass(frozen=True, slots=True)
class PoisonHit:
    """One suspicious spot: its kind, 1-based line and column, and a printable explanation."""

    kind: str
    line: int
    column: int
    detail: str


# Injection phrases: what a text says to the agent reading it that no fact of a project
# needs to say. Facts are imperatives by nature ("Never mock the database"), so a phrase
# counts only when its point is to replace the reader's instructions, in three families
# (docs/RELIABILITY.md, "Poisoning"), each pattern named in the finding:
# 1. Setting the reader's instructions aside: ignore, disregard, forget or override,
#    said of instructions, directions, prompts, rules or guidelines that are the reader's
#    (yours, or previous, prior, above, earlier, preceding, original, system, safety ones),
#    or of bare ones that end the clause ("override the instructions."): whatever follows
#    bare ones says whose they are ("the rules in .eslintrc", "the prompt npm prints"),
#    a tool's or a document's, which a fact may set aside.
# 2. Taking the reader's place: a new identity ("you are now" with a name, an article or
#    "in charge"/"in ... mode"; a state such as "you are now able to" is not one), an
#    unrestricted role, a new system prompt; and sending secret material to an address.
# 3. Hiding from the person: "don't tell the user".
# A phrase that a negator opens ("never ignore previous instructions", "do not send the
# tokens to ...") forbids the attack rather than making it: a benign mention.
_ORDERS = r"(?:instructions|directions|prompts?|rules|guidelines)"
_READERS = r"(?:previous|prior|above|earlier|preceding|original|system|safety)"
_CLAUSE_ENDS = r"(?=\s*(?:[.,;:!?)]|\Z)|\s+(?:and|or|then|but)\b)"
_SET_ASIDE = (
    rf"\s+(?:all\s+)?(?:of\s+)?(?:your\s+(?:\w+\s+)?{_ORDERS}"
    rf"|(?:the\s+|any\s+)?(?:{_READERS}\s+{_ORDERS}|{_ORDERS}{_CLAUSE_ENDS}))"
)
_INJECTION_FAMILIES: tuple[tuple[str, str], ...] = (
    ("ignore-previous-instructions", "ignore" + _SET_ASIDE),
    ("disregard-previous-instructions", "disregard" + _SET_ASIDE),
    ("forget-instructions", "forget" + _SET_ASIDE),
    ("override-instructions", "override" + _SET_ASIDE),
    ("you-are-now", r"you\s+are\s+now\s+(?:an?\s|(?-i:[A-Z])\w*|in\s+(?:charge|\w+\s+mode))"),
    (
        "act-as-unrestricted",
        r"act\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|unfiltered|uncensored)",
    ),
    ("new-system-prompt", r"new\s+system\s+prompt"),
    ("system-prompt-label", r"system\s+prompt\s*:"),
    ("conceal-from-user", r"(?:do\s+not|don['\u2019]t)\s+tell\s+the\s+user"),
)
_INJECTION = re.compile(
    "|".join(
        rf"\b(?P<{family.replace('-', '_')}>{pattern})(?:(?<=\W)|(?!\w))"
        for family, pattern in _INJECTION_FAMILIES
    ),
    re.IGNORECASE,
)
_NEGATED = re.compile(r"(?:\bnever|\bnot|n['\u2019]t)\s+(?:ever\s+)?$", re.IGNORECASE)

_BIDI = frozenset({0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
_INVISIBLE = frozenset({0x00AD, 0x180E, 0xFEFF, *range(0x200B, 0x2010), *range(0x2060, 0x2065)})
_JOINERS = frozenset({0x200C, 0x200D})
_TAGS = range(0xE0000, 0xE0080)
_CANCEL_TAG = 0xE007F
_BLACK_FLAG = 0x1F3F4  # the base of subdivision flags, which are spelled in tag characters
_SUPPLEMENT_SELECTORS = range(0xE0100, 0xE01F0)
_SELECTORS = frozenset({*range(0xFE00, 0xFE10), *_SUPPLEMENT_SELECTORS})
_JOINABLE_CATEGORIES = frozenset({"So", "Sk", "Lo", "Lm", "Mn", "Mc"})

# `hidden-markup` looks only at text that renders as markup, so code spans and fenced blocks
# (where `<div hidden>` is shown, not obeyed) are blanked out first, offsets kept.
# A backtick fence's info string holds no backtick (```a``` on one line is a code span).
_NOT_NEWLINE = re.compile(r"[^\n]")
_NEWLINE = re.compile(r"\n")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)[^\n]+?(?<!`)\1(?!`)")

_FOOTER_LINE = re.compile(r"[ \t]*(?:>[ \t]?)*<!--[ \t]*id:(?:(?!-->)[^\n])*-->[ \t]*\r?")
_UNCLOSED_FOOTER = re.compile(r"[ \t]*(?:>[ \t]?)*<!--[ \t]*id:(?:(?!-->)[^\n])*")
_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)", re.S)
_COMMENT_HIDES_AT = 40
_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)((?:\s+[^<>]*?)?)\s*/?>")
_ATTRIBUTE = re.compile(
    r"([A-Za-z_:@][-A-Za-z0-9_:.@]*)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+)))?"
)
_ZERO = r"(?:0+(?:\.0*)?|\.0+)"
_HIDING_STYLES = {  # label -> its pattern, searched in a style attribute, any case
    "display:none": r"display\s*:\s*none",
    "visibility:hidden": r"visibility\s*:\s*(?:hidden|collapse)",
    "font-size:0": r"font-size\s*:\s*" + _ZERO + r"(?:px|pt|em|rem|%)?\s*(?:;|!|$)",
    "opacity:0": r"opacity\s*:\s*" + _ZERO + r"%?\s*(?:;|!|$)",
    "white or transparent text": r"(?<![-\w])color\s*:\s*(?:white|transparent|#fff(?:fff)?)\b",
}
_COMMENT_REFERENCE = re.compile(
    r"^ {0,3}\[(?:[^\]\n]*)\]:[ \t]*(?:#|<>|//)[ \t]*"
    r"(?:\((?P<paren>[^\n]*)\)|\"(?P<double>[^\n]*)\"|'(?P<single>[^\n]*)')[ \t]*\r?$",
    re.M,
)
_TITLED_EMPTY_LINK = re.compile(
    r"!?\[[ \t]*\]\([ \t]*(?:<[^>\n]*>|[^\s()]*)[ \t]+"
    r"(?:\"(?P<double>[^\"\n]*)\"|'(?P<single>[^'\n]*)'|\((?P<paren>[^()\n]*)\))[ \t]*\)"
)


def _describe_run(run: str) -> str:
    distinct = list(dict.fromkeys(run))
    names = ", ".join(
        f"U+{ord(c):04X} {unicodedata.name(c, 'UNNAMED CHARACTER')}" for c in distinct[:3]
    )
    if len(distinct) > 3:
        names += f", and {len(distinct) - 3} more"
    return names if len(run) == 1 else f"{len(run)} characters: {names}"


def _is_emoji_or_letter(char: str) -> bool:
    return ord(char) > 0x7F and unicodedata.category(char) in _JOINABLE_CATEGORIES


def _flagged_kind(text: str, index: int) -> str | None:
    """The kind of an invisible character at `index`, or None when it is harmless there."""
    point = ord(text[index])
    if point in _BIDI:
        return "bidi-control"
    if point == 0xFEFF and index == 0:
        return None
    # Emoji sequences (woman + ZWJ + laptop) and scripts such as Persian need joiners.
    if (
        point in _JOINERS
        and 0 < index < len(text) - 1
        and _is_emoji_or_letter(text[index - 1])
        and _is_emoji_or_letter(text[index + 1])
    ):
        return None
    if point in _INVISIBLE or point in _TAGS:
        return "invisible-unicode"
    return None


def _tag_flag_end(text: str, index: int) -> int | None:
    """End of a subdivision flag's tag run (🏴 + up to 7 tags + cancel tag) starting at `index`."""
    if index == 0 or ord(text[index - 1]) != _BLACK_FLAG:
        return None
    for offset in range(index, min(index + 8, len(text))):
        point = ord(text[offset])
        if point == _CANCEL_TAG:
            return offset + 1
        if point not in _TAGS:
            return None
    return None


def _unicode_hits(text: str) -> Iterator[tuple[int, str, str]]:
    """(offset, kind, detail) for each run of invisible or bidi characters of one kind."""
    index = 0
    while True:
        # Every flagged character is outside ASCII: jump from one such character to the
        # next instead of stepping through a large memory one character at a time.
        found = _NON_ASCII.search(text, index)
        if found is None:
            return
        index = found.start()
        point = ord(text[index])
        if point in _TAGS and (flag_end := _tag_flag_end(text, index)) is not None:
            index = flag_end
            continue
        if point in _SELECTORS:
            end = index
            while end < len(text) and ord(text[end]) in _SELECTORS:
                end += 1
            run = text[index:end]
            # One selector after an ideograph is an ideographic variant; a run of supplement
            # selectors is how bytes are smuggled behind an emoji.
            smuggles = any(ord(char) in _SUPPLEMENT_SELECTORS for char in run) and (
                len(run) > 1 or index == 0 or unicodedata.category(text[index - 1]) != "Lo"
            )
            if smuggles:
                yield index, "invisible-unicode", _describe_run(run)
            index = end
            continue
        kind = _flagged_kind(text, index)
        if kind is None:
            index += 1
            continue
        end = index + 1
        while end < len(text) and _flagged_kind(text, end) == kind:
            end += 1
        yield index, kind, _describe_run(text[index:end])
        index = end


_LOOKALIKES = {word[0]: word[1:] for word in PAIRS.split()}


def _reading(char: str) -> str:
    """What a person reads a character outside ASCII as: nothing when it is invisible, else
    its NFKC form (full-width and mathematical letters become plain ones) with each letter
    that only looks like ASCII letters (Unicode's confusables, `lookalikes`) read as them."""
    if unicodedata.category(char) == "Cf" or ord(char) in _SELECTORS:
        return ""
    return "".join(_LOOKALIKES.get(part, part) for part in unicodedata.normalize("NFKC", char))


def _visible(text: str) -> tuple[str, list[tuple[int, str]]]:
    """`text` as a person reads it, and each character outside ASCII with its reading
    (`_reading`), from which `_origin` finds where a stretch of the reading starts."""
    found = [(match.start(), _reading(match[0])) for match in _NON_ASCII.finditer(text)]
    if not found:
        return text, found
    pieces = []
    done = 0
    for index, read in found:
        pieces += [text[done:index], read]
        done = index + 1
    return "".join([*pieces, text[done:]]), found


def _origin(found: list[tuple[int, str]], position: int) -> int:
    """The offset in the text of `position` in its reading (see `_visible`)."""
    shift = 0
    for index, read in found:
        if position < index + shift:
            break
        if position < index + shift + len(read):
            return index
        shift += len(read) - 1
    return position - shift


def _injection_hits(text: str) -> Iterator[tuple[int, str, str]]:
    """Injection phrases as (offset, kind, family), read as a person reads the text; a
    phrase a negator opens forbids the attack, and is left alone."""
    visible, found = _visible(text)
    for match in _INJECTION.finditer(visible):
        if not _NEGATED.search(visible, max(0, match.start() - 16), match.start()):
            family = str(match.lastgroup).replace("_", "-")
            yield _origin(found, match.start()), "injection-phrase", family


def _hides_text(hidden: str, *, in_fact: bool = True) -> str | None:
    """Why hidden text matters (an injection; or, in a fact's text or markup that only
    hides, too long to be a tooling directive), or None."""
    if any(_injection_hits(hidden)):
        return "an injection phrase"
    visible, _found = _visible(hidden.strip())
    if in_fact and len(visible) > _COMMENT_HIDES_AT:
        return f"{len(visible)} characters"
    return None


def _blank_code(text: str) -> str:
    """`text` with code spans and fenced blocks replaced by spaces, newlines and offsets kept."""
    parts = []
    done = 0
    for first, last in fenced_blocks(text):
        end = text.find("\n", last)
        end = len(text) if end < 0 else end
        parts += [text[done:first], _NOT_NEWLINE.sub(" ", text[first:end])]
        done = end
    markup = "".join(parts) + text[done:] if parts else text
    return _CODE_SPAN.sub(lambda span: _NOT_NEWLINE.sub(" ", span.group()), markup)


def _follows_a_footer(markup: str, line_start: int, line: str) -> bool:
    """A whole-line comment right after a fact's footer (or after such a note): a note a
    person or agent left about the fact, in plain sight in the file, as the footer is."""
    while is_note(line):
        if line_start == 0:
            return False
        previous_start = markup.rfind("\n", 0, line_start - 1) + 1
        line = markup[previous_start : line_start - 1]
        line_start = previous_start
        if _FOOTER_LINE.fullmatch(line):
            return True
    return False


def _fact_text(text: str, line_starts: list[int]) -> Callable[[int], bool]:
    """Whether an offset of `text` lies in a fact's text."""
    lines = quotes_as_items(split_lines(text))
    in_fact = [False] * (len(lines) + 1)
    for span in fact_text_spans(lines):
        in_fact[span.start : span.stop] = [True] * len(span)
    return lambda offset: in_fact[bisect.bisect_right(line_starts, offset) - 1]


def _comment_hits(markup: str, in_fact: Callable[[int], bool]) -> Iterator[tuple[int, str, str]]:
    for match in _COMMENT.finditer(markup):
        line_start = markup.rfind("\n", 0, match.start()) + 1
        line_end = markup.find("\n", match.end())
        line = markup[line_start : len(markup) if line_end == -1 else line_end]
        if _FOOTER_LINE.fullmatch(line) or _follows_a_footer(markup, line_start, line):
            continue
        first_end = markup.find("\n", line_start)
        if _UNCLOSED_FOOTER.fullmatch(
            markup, line_start, len(markup) if first_end < 0 else first_end
        ):
            continue  # a footer's line left open: the footer's error (E001), with its own hint
        if not match.group().endswith("-->"):
            yield match.start(), "hidden-markup", "unterminated HTML comment hides the rest"
        elif "<!--" in match[1]:
            yield match.start(), "hidden-markup", "HTML comment hides another comment's opening"
        elif (reason := _hides_text(match[1], in_fact=in_fact(match.start()))) is not None:
            yield match.start(), "hidden-markup", f"HTML comment hides {reason}"


def _tag_hits(markup: str) -> Iterator[tuple[int, str, str]]:
    for tag in _TAG.finditer(markup):
        for attribute in _ATTRIBUTE.finditer(tag[2]):
            name = attribute[1].lower()
            value = attribute[2] or attribute[3] or attribute[4] or ""
            if name == "hidden":
                yield tag.start(), "hidden-markup", f"<{tag[1]}> with the hidden attribute"
            elif name == "style":
                for label, style in _HIDING_STYLES.items():
                    if re.search(style, value, re.IGNORECASE):
                        yield tag.start(), "hidden-markup", f"<{tag[1]}> styled {label}"


def _reference_hits(markup: str, in_fact: Callable[[int], bool]) -> Iterator[tuple[int, str, str]]:
    for match in _COMMENT_REFERENCE.finditer(markup):
        hidden = match["paren"] or match["double"] or match["single"] or ""
        start = match.start() + len(match.group()) - len(match.group().lstrip())
        if (reason := _hides_text(hidden, in_fact=in_fact(start))) is not None:
            yield start, "hidden-markup", f"link reference used as a comment hides {reason}"
    for match in _TITLED_EMPTY_LINK.finditer(markup):
        title = match["double"] or match["single"] or match["paren"] or ""
        if (reason := _hides_text(title)) is not None:
            yield match.start(), "hidden-markup", f"empty link whose title hides {reason}"


def find_poison(text: str) -> tuple[PoisonHit, ...]:
    """Every injection phrase, invisible or bidi character run, and hiding markup, sorted."""
    markup = _blank_code(text)
    line_starts = [0] + [newline.end() for newline in _NEWLINE.finditer(text)]
    in_fact = _fact_text(text, line_starts)
    found = [
        *_injection_hits(text),
        *_unicode_hits(text),
        *_comment_hits(markup, in_fact),
        *_tag_hits(markup),
        *_reference_hits(markup, in_fact),
    ]
    hits = set()
    for offset, kind, detail in found:
        line_index = bisect.bisect_right(line_starts, offset) - 1
        hits.add(PoisonHit(kind, line_index + 1, offset - line_starts[line_index] + 1, detail))
    return tuple(sorted(hits, key=lambda hit: (hit.line, hit.column, hit.kind, hit.detail)))
