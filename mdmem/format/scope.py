"""A fact's `scope`: the path globs it applies to, matched as git matches ignore patterns.

`scope: src/api/**, docs/*.md` holds comma-separated globs over '/'-separated paths
relative to the repository's top folder:

- `*` matches any run of characters inside one path segment, `?` one character, and
  `[abc]` / `[!abc]` one character of (or not of) a set; none of them matches '/'.
- `**` as a whole segment matches any number of segments: `src/**` everything below
  `src`, `**/test_*.py` a test file at any depth (the top folder included),
  `a/**/b` `a/b`, `a/x/b`, `a/x/y/b`.
- A glob without '/' matches a file's name at any depth (`*.py`, `Makefile`).
- A leading `./` or `/` is dropped; `\\` in a path is read as '/'.

Pure and deterministic: the globs are turned into regular expressions here, never by
`fnmatch` (whose `*` crosses '/') nor by the file system.
"""

from __future__ import annotations

import functools
import re


def in_scope(scope: str | None, path: str | None) -> bool:
    """Whether a fact with this `scope` field applies to `path`: always when either is
    missing or the field is empty."""
    if not scope or path is None:
        return True
    found = globs(scope)
    if not found:
        return True
    return any(matches(glob, path) for glob in found)


def globs(scope: str) -> list[str]:
    """The globs of a `scope` field, in order, blanks left out."""
    return [glob.strip() for glob in scope.split(",") if glob.strip()]


def matches(glob: str, path: str) -> bool:
    """Whether one glob of a `scope` matches `path`."""
    return _compiled(glob).fullmatch(normalised(path)) is not None


def normalised(path: str) -> str:
    """A path as the globs read it: '/'-separated, without `./` or a leading '/'."""
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.lstrip("/")


@functools.lru_cache(maxsize=1024)
def _compiled(glob: str) -> re.Pattern[str]:
    glob = normalised(glob).rstrip("/") or "**"
    if "/" not in glob:
        glob = "**/" + glob  # a name alone: at any depth
    segments = glob.split("/")
    pattern = ""
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            pattern += ".*" if last else "(?:[^/]*/)*"
        else:
            pattern += _segment(segment) + ("" if last else "/")
    return re.compile(pattern, re.DOTALL)


def _segment(segment: str) -> str:
    """One segment's glob as a regular expression that never matches '/'."""
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            while index + 1 < len(segment) and segment[index + 1] == "*":
                index += 1  # `a**b` inside a segment reads as `a*b`
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (close := _class_end(segment, index)) > 0:
            body = segment[index + 1 : close]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            escaped = body.replace("\\", "\\\\").replace("[", "\\[")
            out.append(f"[^/{escaped}]" if negate else f"[{escaped}]")
            index = close
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def _class_end(segment: str, start: int) -> int:
    """Index of the `]` that closes the set opened at `start`, or -1 (then `[` is literal)."""
    index = start + 1
    if index < len(segment) and segment[index] in ("!", "^"):
        index += 1
    if index < len(segment) and segment[index] == "]":
        index += 1  # `[]a]`: a leading ] is a member
    close = segment.find("]", index)
    return close if close > 0 and "/" not in segment[start:close] else -1
