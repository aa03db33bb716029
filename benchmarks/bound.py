"""The least a review written in Python could do with this memory: a bound, not a review.

It starts the interpreter, imports what `mdmem review` imports, lists the session logs,
reads every log and finds the id-shaped tokens of its Memory References section with one
regular expression, and reads each document and splits it into lines. It checks nothing,
parses no fact, decides nothing and writes nothing: the review does all of that too, so
its time can only be longer. `run.py` times it beside the floor, to show how much of
the review's ratio to the floor is the cost of doing the least in Python at all.

Usage: python benchmarks/bound.py MEMORY_FOLDER  (prints the logs and document lines read)
"""

from __future__ import annotations

import functools
import os
import re
import sys

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def references(token: re.Pattern[str], heading: str, path: str) -> list[str]:
    """The tokens between the heading and the next heading: no fence, no check."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        text = os.read(descriptor, os.fstat(descriptor).st_size + 1).decode("utf-8")
    finally:
        os.close(descriptor)
    start = text.find(heading)
    if start < 0:
        return []
    end = text.find("\n#", start + len(heading))
    return token.findall(text, start, len(text) if end < 0 else end)


def main(root: str) -> int:
    sys.path.insert(0, REPOSITORY)  # as `python -m mdmem` from the repository finds it
    # What `mdmem review` imports, for their cost, then what this bound uses of mdmem.
    import mdmem.cli
    import mdmem.linting.gate  # noqa: F401
    from mdmem.format.footer import ID_PATTERN
    from mdmem.format.sessionlog import REFERENCES_HEADING

    token = re.compile(rf"(?<![\w-]){ID_PATTERN}(?![\w-])")
    scan = functools.partial(references, token, REFERENCES_HEADING)
    with os.scandir(os.path.join(root, "sessions")) as entries:
        logs = sorted(entry.path for entry in entries if entry.name.endswith(".md"))
    archive = os.path.join(root, "archive")
    documents = [os.path.join(root, "continuity.md")]
    if os.path.isdir(archive):
        documents += sorted(os.path.join(archive, name) for name in os.listdir(archive))
    lines = 0
    for path in documents:
        with open(path, encoding="utf-8") as handle:
            lines += len(handle.read().splitlines())
    found = [scan(path) for path in logs]
    print(f"{len(found)} logs, {sum(map(len, found))} references, {lines} document lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
