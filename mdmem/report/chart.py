"""The report's chart: facts per tier at each review, stacked bars drawn as inline SVG.

Coordinates are whole numbers computed with integer division, so the same rows draw the
same bytes on any machine; each bar carries a `<title>` with its counts (a tooltip).
"""

from __future__ import annotations

from collections.abc import Sequence

from mdmem.report.markdown import text
from mdmem.reviewing.rows import TIER_COLUMNS, ReviewRow

WIDEST_STEP = 40  # pixels per review, so that a few reviews still look like bars
MOST_BARS = 240  # the last reviews shown; older ones are counted in the caption
WIDTH, HEIGHT = 760, 260
LEFT, TOP, PLOT_WIDTH, PLOT_HEIGHT = 48, 16, 696, 180
COLORS = {
    "core": "#5b4db7",
    "active": "#2e8b57",
    "working": "#4a90c2",
    "archive-candidate": "#e0a030",
    "archived": "#b0b0b0",
    "superseded": "#c25450",
}


def tier_chart(rows: Sequence[ReviewRow]) -> str:
    """An `<svg>` of the tier counts over `rows` (in ledger order); a note when none."""
    if not rows:
        return '<p class="muted">No review yet: the chart starts with the first review.</p>'
    shown = rows[-MOST_BARS:]
    top = max(max(sum(row.tiers) for row in shown), 1)
    step = min(max(PLOT_WIDTH // len(shown), 1), WIDEST_STEP)
    bar = max(step - max(step // 5, 1), 1) if step > 1 else 1
    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="facts per tier at each review">',
        *_axis(top),
    ]
    for index, row in enumerate(shown):
        parts.append(_bar(row, LEFT + index * step, bar, top))
    parts += _legend()
    label_y = TOP + PLOT_HEIGHT + 16
    parts.append(f'<text x="{LEFT}" y="{label_y}" class="tick">{text(shown[0].ledger_date)}</text>')
    if len(shown) > 1:
        right = LEFT + (len(shown) - 1) * step + bar
        parts.append(
            f'<text x="{right}" y="{label_y}" class="tick" text-anchor="end">'
            f"{text(shown[-1].ledger_date)}</text>"
        )
    parts.append("</svg>")
    caption = f"Facts per tier at each of the last {len(shown)} reviews"
    if len(rows) > len(shown):
        caption += f" (of {len(rows)})"
    return f"<figure>{''.join(parts)}<figcaption>{caption}.</figcaption></figure>"


def _axis(top: int) -> list[str]:
    bottom = TOP + PLOT_HEIGHT
    return [
        f'<line x1="{LEFT}" y1="{bottom}" x2="{LEFT + PLOT_WIDTH}" y2="{bottom}" class="axis"/>',
        f'<text x="{LEFT - 6}" y="{TOP + 4}" class="tick" text-anchor="end">{top}</text>',
        f'<text x="{LEFT - 6}" y="{bottom}" class="tick" text-anchor="end">0</text>',
    ]


def _bar(row: ReviewRow, x: int, width: int, top: int) -> str:
    """One review's stacked bar, the first tier at the bottom."""
    bottom = TOP + PLOT_HEIGHT
    rects = []
    below = 0
    for tier, count in zip(TIER_COLUMNS, row.tiers, strict=True):
        if not count:
            continue
        y0 = bottom - below * PLOT_HEIGHT // top
        below += count
        y1 = bottom - below * PLOT_HEIGHT // top
        rects.append(
            f'<rect x="{x}" y="{y1}" width="{width}" height="{max(y0 - y1, 1)}" '
            f'fill="{COLORS[tier]}"/>'
        )
    counts = ", ".join(
        f"{tier} {count}" for tier, count in zip(TIER_COLUMNS, row.tiers, strict=True)
    )
    title = f"{row.through}: {counts}"
    return f"<g><title>{text(title)}</title>{''.join(rects)}</g>"


def _legend() -> list[str]:
    y = HEIGHT - 22
    parts = []
    x = LEFT
    for tier in TIER_COLUMNS:
        parts.append(f'<rect x="{x}" y="{y}" width="12" height="12" fill="{COLORS[tier]}"/>')
        parts.append(f'<text x="{x + 17}" y="{y + 11}" class="legend">{tier}</text>')
        x += 17 + 7 * len(tier) + 18  # about 7 pixels a character at 11px
    return parts
