"""A fact's lead: what `mdmem context` shows of a fact when the whole would crowd out
others. Real facts are paragraphs (500 to 1,500 characters); their lead, the bold title
they open with or else their first sentence, says what the fact is about in a tenth of
that, so that many more facts fit a budget and an agent asks for the whole of the ones
it needs (`mdmem show ID`). Pure.
"""

from __future__ import annotations

import re

MOST_CHARACTERS = 200  # a lead longer than this is cut at a word, with an ellipsis
LEAST_TITLE = 12  # a bold opening shorter than this ("**Note:**") is no title
MORE = " …"  # ends a lead that is not the whole text

_BOLD = re.compile(r"^(\*\*|__)(.+?)\1")
_SENTENCE = re.compile(r"^(.+?[.!?])(?=\s+[^\s.!?])", re.DOTALL)


def lead(text: str) -> str:
    """The fact's lead: its bold title (`**Title**` as written), else its first sentence,
    at most `MOST_CHARACTERS`, with `MORE` after it when the text goes on; a text that is
    its own lead as it is."""
    if len(text) <= MOST_CHARACTERS:
        return text
    bold = _BOLD.match(text)
    if bold and len(bold[2]) >= LEAST_TITLE:
        first = bold[0]
    else:
        sentence = _SENTENCE.match(text)
        first = sentence[1] if sentence else text
    if len(first) > MOST_CHARACTERS:
        cut = first[: MOST_CHARACTERS + 1].rsplit(" ", 1)[0]
        first = cut if len(cut) > MOST_CHARACTERS // 2 else first[:MOST_CHARACTERS]
        first = first.rstrip(" ,;:—-")
    return first if first == text else first + MORE
