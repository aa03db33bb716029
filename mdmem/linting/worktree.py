"""What HEAD holds of the live files, for the checks of hand edits (`handedits.py`) and for
lint's one rule on changes not committed yet (`findings.MEND_BEFORE_COMMIT`).

I/O: asks git for HEAD's continuity and thread files, and parses them. A file HEAD holds
that does not parse gives its lines and no facts: nothing is reported as deleted from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mdmem.errors import ParseError
from mdmem.format.document import parse_document
from mdmem.format.leftout import leaving_out
from mdmem.format.memory import CONTINUITY, OPEN_THREADS, is_thread_name
from mdmem.format.textfile import body, decode
from mdmem.format.threads import parse_thread
from mdmem.git.plumbing import blob_bytes, has_head, head_blobs, relative_path, top_folder
from mdmem.git.revisions import committed_in
from mdmem.linting.handedits import Committed

if TYPE_CHECKING:
    import git


def committed_state(root: Path, repo: git.Repo) -> Committed | None:
    """HEAD's continuity and thread files, as facts and lines; None when HEAD holds no
    continuity (a memory not committed yet: nothing in it is a hand edit of a commit)."""
    continuity = relative_path(repo, root / CONTINUITY)
    if continuity is None or not has_head(repo):
        return None
    top = top_folder(repo)
    threads = relative_path(repo, root / OPEN_THREADS)
    paths = [continuity]
    if threads is not None:
        paths += sorted(p for p in committed_in(top, threads) if is_thread_name(Path(p).name))
    blobs = head_blobs(repo, paths)
    if continuity not in blobs:
        return None
    facts: dict[str, dict[str, str]] = {}
    lines: dict[str, frozenset[str]] = {}
    items: dict[str, tuple[str, ...]] = {}
    for path, blob in blobs.items():
        shown = f"{root.name}/{(top / path).relative_to(root).as_posix()}"
        try:
            file = decode(blob_bytes(repo, blob), shown)
        except ParseError:
            continue
        lines[shown] = frozenset(body(line) for line in file.lines)
        parse = parse_document if path == continuity else parse_thread
        try:
            with leaving_out():
                document = parse(file)
        except ParseError:
            continue
        for fact in document.facts:
            facts.setdefault(fact.id, fact.footer.as_dict())
            items.setdefault(
                fact.id, tuple(body(line) for line in file.lines[fact.start : fact.end])
            )
    return Committed(facts, lines, items)
