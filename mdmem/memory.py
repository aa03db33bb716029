"""Loading a memory folder from disk into plain, immutable data for the pure review."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mdmem.document import Document, parse_document
from mdmem.errors import MdmemError, ParseError
from mdmem.ledger import Session, SessionName, parse_session, parse_session_name
from mdmem.policy import Policy, parse_policy
from mdmem.textfile import TextFile, read

CONTINUITY = "continuity.md"
SESSIONS = "sessions"
ARCHIVE = "archive"
INDEX = "INDEX.md"
POLICY = "decay-policy.md"
REVIEWS = "reviews.md"


@dataclass(frozen=True)
class Memory:
    """Everything a review reads. `files` maps each path (relative to root) to its text."""

    root: Path
    continuity: Document
    archives: tuple[Document, ...]
    sessions: tuple[Session, ...]
    policy: Policy
    reviews: TextFile | None
    index: TextFile | None

    @property
    def label(self) -> str:
        return self.root.name

    def display(self, relative: str) -> str:
        return f"{self.label}/{relative}"


def find_root(start: Path, explicit: Path | None = None) -> Path:
    """The memory folder: `--root` (the folder itself or one holding `memory/`), else search up."""
    if explicit is not None:
        for candidate in (explicit, explicit / "memory"):
            if (candidate / CONTINUITY).is_file():
                return candidate.resolve()
        raise MdmemError(
            f"no {CONTINUITY} in {explicit} or {explicit / 'memory'}; run 'mdmem init'"
        )
    for folder in (start, *start.parents):
        if (folder / "memory" / CONTINUITY).is_file():
            return (folder / "memory").resolve()
    raise MdmemError(f"no memory/{CONTINUITY} here or in any parent folder; run 'mdmem init'")


def session_files(root: Path) -> list[tuple[SessionName, Path]]:
    """Session logs in ledger order; names that break the convention are errors."""
    folder = root / SESSIONS
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        if not path.name.endswith(".md"):
            continue
        display = f"{root.name}/{SESSIONS}/{path.name}"
        name = parse_session_name(path.name, display)
        if path.is_symlink():
            raise ParseError("is a symbolic link; mdmem does not follow links", display)
        found.append((name, path))
    found.sort()
    return found


def read_sessions(root: Path) -> tuple[Session, ...]:
    sessions = []
    for name, path in session_files(root):
        display = f"{root.name}/{SESSIONS}/{name.filename}"
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ParseError(f"cannot be read: {exc.strerror}", display) from None
        sessions.append(parse_session(name, data, display))
    return tuple(sessions)


def archive_paths(root: Path) -> list[Path]:
    folder = root / ARCHIVE
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name.endswith(".md") and p.name != INDEX)


def _optional(root: Path, relative: str) -> TextFile | None:
    path = root / relative
    if not path.exists() and not path.is_symlink():
        return None
    return read(path, f"{root.name}/{relative}")


def load(root: Path, *, strict_ids: bool = True) -> Memory:
    """Read and validate a memory folder; any problem raises a ParseError naming file and line.

    `strict_ids=False` accepts an id that appears twice (lint reports it as a finding).
    """
    root = Path(root).resolve()
    label = root.name
    continuity = parse_document(
        read(root / CONTINUITY, f"{label}/{CONTINUITY}"), unique_ids=strict_ids
    )
    archives = tuple(
        parse_document(read(path, f"{label}/{ARCHIVE}/{path.name}"), unique_ids=strict_ids)
        for path in archive_paths(root)
    )
    if strict_ids:
        _check_ids_once(continuity, archives)
    return Memory(
        root=root,
        continuity=continuity,
        archives=archives,
        sessions=read_sessions(root),
        policy=parse_policy(_optional(root, POLICY)),
        reviews=_optional(root, REVIEWS),
        index=_optional(root, f"{ARCHIVE}/{INDEX}"),
    )


def _check_ids_once(continuity: Document, archives: tuple[Document, ...]) -> None:
    seen = {fact.id: (continuity.path, fact.footer_index + 1) for fact in continuity.facts}
    for document in archives:
        for fact in document.facts:
            if fact.id in seen:
                path, line = seen[fact.id]
                raise ParseError(
                    f"id {fact.id!r} is also at {path}:{line}; an id lives in one place",
                    document.path,
                    fact.footer_index + 1,
                )
            seen[fact.id] = (document.path, fact.footer_index + 1)
