"""A fact's markdown as safe HTML for the report: mistune, with every HTML tag escaped.

Memory text is written by agents and may hold anything, so nothing in it may run or load
when the page is viewed: raw HTML is escaped (`escape=True`), links to harmful protocols
(`javascript:`, `vbscript:`, `data:`) lose their target (mistune's `safe_url`), and an
image becomes a link to its address, never fetched. Secret material is masked
(`mdmem.safety.secrets.redact`) before anything is rendered: a page is shared more widely
than the repository.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from html import escape
from typing import Any

import mistune

from mdmem.safety.secrets import redact

_MARKER = re.compile(r"^\s*[-*+][ \t]+(?:\[[ xX]\][ \t]+)?")


class _Renderer(mistune.HTMLRenderer):
    """mistune's HTML, but an image is a link: a report loads nothing when it is viewed."""

    def image(self, text: str, url: str, title: str | None = None) -> str:
        return '<span class="image">' + self.link(f"image: {text}", url, title) + "</span>"

    def link(self, text: str, url: str, title: str | None = None) -> str:
        html = super().link(text, url, title)
        return html.replace("<a ", '<a rel="noopener noreferrer" ', 1)


@functools.lru_cache(maxsize=1)
def _markdown() -> Any:
    return mistune.create_markdown(
        escape=True, renderer=_Renderer(escape=True), plugins=["strikethrough", "table"]
    )


def item_markdown(lines: Sequence[str]) -> str:
    """A list item's own markdown: its bullet (and checkbox) taken off, its continuation
    lines out-dented by as much, so that nested bullets and code blocks stay as written."""
    if not lines:
        return ""
    first = lines[0].rstrip("\r\n")
    marker = _MARKER.match(first)
    width = marker.end() if marker else 0
    out = [first[width:]]
    for raw in lines[1:]:
        line = raw.rstrip("\r\n")
        indent = len(line) - len(line.lstrip(" "))
        out.append(line[min(indent, width) :])
    return "\n".join(out) + "\n"


def render_markdown(text: str) -> str:
    """`text` (markdown) as HTML with every tag of the text escaped and secrets masked."""
    return str(_markdown()(redact(text)))


def text(value: object) -> str:
    """Any value as HTML text, quotes included (safe in an attribute too), secrets masked."""
    return escape(redact(str(value)), quote=True)
