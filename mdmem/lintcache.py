"""A derived cache of lint's findings per file (secrets, conflict markers, poisoning).

Scanning every session log for secrets costs more than a review, and committed
logs never change: a file whose size and modification time (ns) match what was
cached keeps its findings. The cache sits beside the review's session cache,
outside the tracked tree; it is dropped whole when the scanners' code changes
(a fingerprint of their source), and MDMEM_NO_CACHE=1 bypasses it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mdmem import cache, findings, poison, secrets, textfile
from mdmem.findings import Finding, finding

FORMAT = 1
# By module path: the package also exports a `lint` function under the same name.
_SCANNERS = (findings, importlib.import_module("mdmem.lint"), poison, secrets, textfile)


def _fingerprint() -> str:
    digest = hashlib.sha256(str(FORMAT).encode())
    for module in _SCANNERS:
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


class TextCache:
    """Findings per display path, each kept with the size and mtime of the file it came from."""

    def __init__(self, root: Path) -> None:
        sessions = cache.location(root)
        self._path = None if sessions is None else sessions.with_name(f"lint-{sessions.name[9:]}")
        self._fingerprint = _fingerprint() if self._path is not None else ""
        self._entries = self._load()
        self._fresh: dict[str, list[Any]] = {}

    def findings(
        self, display: str, stat: os.stat_result, scan: Callable[[], list[Finding]]
    ) -> list[Finding]:
        """The cached findings for an unchanged file, else `scan()` (stat taken before reading)."""
        key = [stat.st_size, stat.st_mtime_ns]
        entry = self._entries.get(display)
        fresh = isinstance(entry, list) and len(entry) == 3 and entry[:2] == key
        found = _decode(display, entry[2]) if fresh and entry is not None else None
        if found is None:
            found = scan()
        self._fresh[display] = [*key, [[f.code, f.line, f.message, f.hint] for f in found]]
        return found

    def save(self) -> None:
        """Best effort: a cache that cannot be written is simply rebuilt next time."""
        if self._path is None or self._fresh == self._entries:
            return
        payload = {"format": FORMAT, "fingerprint": self._fingerprint, "entries": self._fresh}
        with contextlib.suppress(OSError):
            self._path.parent.mkdir(parents=True, exist_ok=True)
            temp = self._path.with_name(f"{self._path.name}.{os.getpid()}.tmp")
            temp.write_text(json.dumps(payload), "utf-8")
            os.replace(temp, self._path)

    def _load(self) -> dict[str, list[Any]]:
        if self._path is None:
            return {}
        try:
            payload = json.loads(self._path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(payload, dict) or payload.get("fingerprint") != self._fingerprint:
            return {}
        entries = payload.get("entries")
        return entries if isinstance(entries, dict) else {}


def _decode(display: str, rows: Any) -> list[Finding] | None:
    """The cached findings, or None when the entry is malformed (then the file is scanned)."""
    try:
        return [finding(str(code), display, int(line), str(m), str(h)) for code, line, m, h in rows]
    except (TypeError, ValueError, KeyError):
        return None
