"""Facts that point at code that is gone: the paths a fact names, checked against git's list
of the repository's files. Pure: the list is given.

Only what is written as a path counts, never a guess from prose: a backticked token with
no space that holds a `/` or ends in a known file extension (`src/api/hooks.py`,
`Makefile.toml`, `docs/`), and each glob of the fact's `scope`. A token with a `/` is
taken for a path of the repository only when its first folder is one the repository
holds or held (`/api/users`, a route, or `and/or`, are not), a bare file name when some
folder holds a file of that name. A path under the memory folder is the memory's own
business, not code. The check runs only where the repository holds files beyond the
memory and mdmem's own (a memory kept alone names paths of a repository it is not in).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mdmem.format.document import Document, Fact
from mdmem.format.scope import globs, matches, normalised

if TYPE_CHECKING:  # `context`'s mark asks for the gone paths, never for findings
    from mdmem.linting.findings import Finding

CODE = "W028"
# Extensions a bare file name must end in to be read as one (`os.path` is no file).
EXTENSIONS = frozenset(
    [
        "py",
        "pyi",
        "js",
        "mjs",
        "cjs",
        "ts",
        "tsx",
        "jsx",
        "json",
        "yaml",
        "yml",
        "toml",
        "ini",
        "cfg",
        "conf",
        "md",
        "rst",
        "txt",
        "sh",
        "bash",
        "zsh",
        "go",
        "rs",
        "java",
        "kt",
        "kts",
        "scala",
        "rb",
        "php",
        "c",
        "h",
        "cc",
        "cpp",
        "hpp",
        "cs",
        "swift",
        "m",
        "mm",
        "sql",
        "html",
        "htm",
        "css",
        "scss",
        "less",
        "vue",
        "svelte",
        "xml",
        "gradle",
        "lock",
        "env",
        "proto",
        "graphql",
        "tf",
        "lua",
        "pl",
        "r",
        "dart",
        "ex",
        "exs",
        "erl",
        "zig",
        "nix",
        "dockerfile",
        "mk",
        "cmake",
        "csv",
        "ipynb",
    ]
)
MDMEM_FILES = frozenset({"DECAY.md", "REVIEW.md"})  # what `mdmem init` adds beside the memory
_TICKED = re.compile(r"(?<!`)`([^`\s]+)`(?!`)")
_GLOB = re.compile(r"[*?\[]")
_SUFFIX = re.compile(r"(?::\d+(?:[-:]\d+)?|#L\d+(?:-L?\d+)?)$")  # a line, `x.py:12`, `#L3`
_NOT_A_PATH = re.compile(r"://|^[~$%@<-]|[(){}<>=|,;'\"]|^\.{1,2}$")


@dataclass(frozen=True)
class GonePath:
    """A path a live fact names that the repository does not hold."""

    fact_id: str
    path: str
    scope: bool  # named by the fact's `scope`, not its text
    renamed_to: str | None  # where git saw it renamed to, when it did
    document: str
    line: int


@dataclass(frozen=True)
class RepoFiles:
    """Git's list of the repository's files, in the forms the check asks of it: the
    folders and names of every file only when a path is asked (a scope glob, which most
    facts name, asks for the code alone, and the memory's logs may be ten thousand)."""

    files: frozenset[str]
    memory: str  # the memory folder, relative to the top ("memory")
    # The files outside the memory folder, which a scope glob is matched against (a
    # memory's own paths are never checked).
    code: tuple[str, ...] = ()

    @classmethod
    def of(cls, files: Iterable[str], memory: str) -> RepoFiles:
        every = frozenset(files)
        memory = memory.strip("/")
        prefix = f"{memory}/" if memory else ""
        code = tuple(sorted(p for p in every if not (prefix and p.startswith(prefix))))
        return cls(every, memory, code)

    @functools.cached_property
    def folders(self) -> frozenset[str]:
        """Every folder that holds a file, at any depth."""
        folders: set[str] = set()
        for path in self.files:  # each folder once: ten thousand logs share one
            folder = path.rpartition("/")[0]
            while folder and folder not in folders:
                folders.add(folder)
                folder = folder.rpartition("/")[0]
        return frozenset(folders)

    @functools.cached_property
    def names(self) -> frozenset[str]:
        return frozenset(path.rsplit("/", 1)[-1] for path in self.files)

    @property
    def tops(self) -> frozenset[str]:
        """The first folder of every path in a folder, the memory's files all in one."""
        found = {path.split("/", 1)[0] for path in self.code if "/" in path}
        if self.memory and len(self.code) < len(self.files):
            found.add(self.memory.split("/", 1)[0])
        return frozenset(found)

    @property
    def holds_code(self) -> bool:
        """Whether the repository holds anything but the memory and mdmem's own files."""
        return any(p not in MDMEM_FILES and not p.startswith(".") for p in self.code)

    def holds(self, path: str) -> bool:
        """A file or a folder of that path; a bare name, a file of that name anywhere."""
        path = path.rstrip("/")
        if "/" not in path:
            return path in self.names or path in self.folders
        return path in self.files or path in self.folders

    def glob_matches(self, glob: str) -> bool:
        return any(matches(glob, path) for path in self.code)


def named_paths(lines: Iterable[str], known_tops: frozenset[str]) -> list[str]:
    """The paths a fact's text names, in order, each once (see the module's docstring).
    `known_tops`: the first folders a path may start with."""
    found: dict[str, None] = {}
    for line in lines:
        for token in _TICKED.findall(line):
            path = path_of(token, known_tops)
            if path is not None:
                found[path] = None
    return list(found)


def path_of(token: str, known_tops: frozenset[str]) -> str | None:
    """The repository path a backticked token names, or None when it names none."""
    token = _SUFFIX.sub("", normalised(token)) if not token.startswith("/") else ""
    if not token or _NOT_A_PATH.search(token) or _GLOB.search(token):
        return None
    if "/" in token:  # a path, or a folder (`docs/`), under a folder the repository knows
        return token if token.split("/", 1)[0] in known_tops else None
    name = token.rstrip("/")
    stem, dot, extension = name.rpartition(".")
    if dot and stem and extension.lower() in EXTENSIONS:
        return name
    return None


def gone_paths(
    documents: Iterable[Document], files: RepoFiles, renamed: Mapping[str, str]
) -> list[GonePath]:
    """Every path a live fact of `documents` names that `files` does not hold: its text's
    paths and its `scope` (a glob that matches no file). Superseded facts and done
    threads are history, not checked."""
    tops = (files.tops | {path.split("/", 1)[0] for path in renamed}) - {files.memory}
    found: list[GonePath] = []
    for document in documents:
        for fact in document.facts:
            if fact.is_superseded or fact.is_done_thread:
                continue
            found += _gone_of(document, fact, files, renamed, tops)
    return found


def _gone_of(
    document: Document,
    fact: Fact,
    files: RepoFiles,
    renamed: Mapping[str, str],
    tops: frozenset[str],
) -> list[GonePath]:
    found = []
    place = (document.path, fact.line)
    for path in named_paths(document.fact_words(fact), tops):
        if not _memory_own(path, files) and not files.holds(path):
            found.append(GonePath(fact.id, path, False, _renamed(path, renamed), *place))
    for glob in globs(fact.get("scope") or ""):
        if _memory_own(glob, files):
            continue
        gone = not files.glob_matches(glob) if _GLOB.search(glob) else not files.holds(glob)
        if gone:
            found.append(GonePath(fact.id, glob, True, _renamed(glob, renamed), *place))
    return found


def _memory_own(path: str, files: RepoFiles) -> bool:
    return bool(files.memory) and normalised(path).startswith(f"{files.memory}/")


def _renamed(path: str, renamed: Mapping[str, str]) -> str | None:
    path = normalised(path).rstrip("/")
    if path in renamed:
        return renamed[path]
    if "/" not in path:  # a bare name: a file of that name renamed, the one git saw last
        moved = sorted(new for old, new in renamed.items() if old.rsplit("/", 1)[-1] == path)
        return moved[0] if moved else None
    return None


def path_findings(gone: Iterable[GonePath]) -> list[Finding]:
    """W028 for each gone path, naming the fact and the path (and the rename git saw)."""
    from mdmem.linting.findings import finding  # lint's, not context's: 11 ms of its start

    found = []
    for item in gone:
        what = "scope glob" if item.scope else "path"
        verb = "matches no file" if item.scope and _GLOB.search(item.path) else "is gone"
        message = f"{item.fact_id} names {what} `{item.path}`, which {verb}"
        if item.renamed_to is not None:
            message += f" (git saw it renamed to `{item.renamed_to}`)"
            hint = f"write `{item.renamed_to}` in the fact, or supersede it if it no longer holds"
        else:
            hint = "correct the path, or supersede the fact if the code it described is gone"
        found.append(finding(CODE, item.document, item.line, message, hint))
    return found
