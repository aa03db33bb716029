"""Files mdmem ships: the demo memory, DECAY.md, REVIEW.md and the CI template.

In a wheel they live in `mdmem/templates/`; in a source checkout, in the
repository's `templates/` folder and at its root.
"""

from __future__ import annotations

from pathlib import Path

from mdmem.errors import MdmemError

_PACKAGE = Path(__file__).resolve().parent.parent  # mdmem/
_CHECKOUT = _PACKAGE.parent


def templates_dir() -> Path:
    """The folder of shipped templates."""
    for candidate in (_PACKAGE / "templates", _CHECKOUT / "templates"):
        if candidate.is_dir():
            return candidate
    raise MdmemError("mdmem's templates are missing from this installation; reinstall mdmem")


def shipped(name: str) -> Path:
    """A shipped top-level document such as DECAY.md or REVIEW.md."""
    for candidate in (_PACKAGE / "templates" / name, _CHECKOUT / name):
        if candidate.is_file():
            return candidate
    raise MdmemError(f"{name} is missing from this installation; reinstall mdmem")


def read_shipped(source: Path) -> str:
    """The text of a shipped file; a clear error when the installation lost it."""
    try:
        return source.read_text("utf-8")
    except OSError:
        raise MdmemError(f"{source} is missing from this installation; reinstall mdmem") from None
