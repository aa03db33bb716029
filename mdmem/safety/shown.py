"""A refusal as it leaves the process, to a user or to an agent through a tool: `mdmem: `
and the message, any secret in it masked, the last line of defence for user text it quotes.

A message quotes values with `repr`, whose escapes can hide a secret from its pattern, and
a value may reveal a secret only with the rest of its line (`password: VALUE`): so every
word of the line a value came from (the error's `context`) that the line's redaction takes
away is masked too, as is or as quoted.
"""

from __future__ import annotations

import re

from mdmem.errors import MdmemError, ParseError
from mdmem.format.leftout import left_out
from mdmem.safety.secrets import find_secrets, redact

_MARKER = re.compile(r"\[REDACTED[^\]]*\]")


def masked(text: str, context: str | None) -> str:
    """`text` (an error's message) with its secrets masked, and the words of `context` (the
    line a value it quotes came from) that are secret only there."""
    text = redact(text)
    if context is not None and find_secrets(context):
        hidden = redact(context)
        mark = _MARKER.search(hidden)
        mask = "[REDACTED]" if mark is None else mark[0]
        words = {word for word in re.split(r"[\s|]+", context) if word and word not in hidden}
        for word in sorted(words, key=len, reverse=True):
            # as quoted (`repr`, whose escapes a secret's pattern no longer matches) and as is
            text = text.replace(repr(word)[1:-1], mask).replace(word, mask)
        run = re.escape(mask)
        text = re.sub(rf"{run}(?:(?:\s|\\n)*{run})+", lambda _: mask, text)
    return text


def shown(exc: MdmemError) -> str:
    return f"mdmem: {masked(str(exc), exc.context)}"


def warnings(errors: list[ParseError] | None = None) -> list[dict[str, object]]:
    """The items left out (`format.leftout.left_out`) as a JSON answer's `warnings` name
    them, each message masked as a refusal's is."""
    return [
        {"path": e.path, "line": e.line, "message": masked(e.message, e.context)}
        for e in left_out(errors)
    ]
