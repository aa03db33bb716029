"""`mdmem report --html`: one self-contained page, built as a string from parsed values.

Nothing is fetched when the page is viewed (inline CSS and SVG, system fonts, no script),
and a Content-Security-Policy says so to the browser too, so that even text that slipped
past escaping could neither run nor load. The same inputs give the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

from mdmem.format.memory import Memory
from mdmem.format.textfile import TextFile, body
from mdmem.linting.findings import Finding
from mdmem.report.chart import tier_chart
from mdmem.report.facts import pitfalls_html, sections_html, threads_html
from mdmem.report.markdown import text
from mdmem.report.stats import Stats
from mdmem.report.style import stylesheet
from mdmem.report.trend import Trend, trend_of
from mdmem.reviewing.plan import ReviewPlan
from mdmem.reviewing.rows import read_rows

POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'"
FOLD_FROM = 50  # rows: a longer table (findings, archive index) starts folded


def render_page(memory: Memory, plan: ReviewPlan, stats: Stats, findings: Sequence[Finding]) -> str:
    """The page of `memory`, from its review's plan, its stats and lint's findings."""
    continuity, rows = memory.continuity, tuple(read_rows(memory.reviews))
    decisions = {decision.fact_id: decision for decision in plan.decisions}
    panels = [
        ("summary", "Summary", _summary(stats, trend_of(rows)) + tier_chart(rows)),
        ("facts", "Live facts", sections_html(continuity, decisions)),
        ("pitfalls", "Pitfalls (anti-patterns)", pitfalls_html(continuity, decisions)),
        ("threads", "Open threads", threads_html(continuity, decisions)),
        ("findings", f"Lint findings ({len(findings)})", _findings(findings)),
        ("archive", "Archive index", _archive(memory.index)),
    ]
    title = f"mdmem report: {memory.label}"
    through = f"through {stats.through}" if stats.through else "no session logs yet"
    nav = "".join(f'<a href="#{key}">{text(label)}</a>' for key, label, _ in panels)
    sections = "".join(
        f'<section class="panel" id="{key}"><h2>{text(label)}</h2>{html}</section>'
        for key, label, html in panels
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{text(title)}</title><style>{stylesheet()}</style></head>"
        f'<body><header class="top"><h1>{text(title)}</h1>'
        f'<div class="sub">{stats.sessions} sessions {text(through)}</div>'
        f"<nav>{nav}</nav></header><main>{sections}</main></body></html>\n"
    )


def _summary(stats: Stats, trend: Trend) -> str:
    cards = [(str(count), tier) for tier, count in stats.tiers]
    cards += [(str(c.since), f"sessions since {c.name} (every {c.every})") for c in stats.cadences]
    card_html = "".join(
        f'<div class="card"><div class="n">{text(n)}</div><div class="k">{text(k)}</div></div>'
        for n, k in cards
    )
    verdict = trend.verdict or "NO TREND YET"
    trend_html = (
        f'<p>Trend: <span class="verdict {text(verdict)}">{text(verdict)}</span> '
        f'<span class="muted">{text(trend.render().splitlines()[0])}</span></p>'
    )
    maturity = _table(("maturity", "live facts"), [(m, n) for m, n in stats.maturity])
    closest = _table(
        ("closest to archival", "tier", "margin"),
        [(_link(m.fact_id), m.tier, m.margin) for m in stats.closest_to_archival],
    )
    used = _table(
        (f"most used (last {stats.active_window} sessions)", "sessions"),
        [(_link(fact_id), count) for fact_id, count in stats.most_used],
    )
    sections = _table(
        ("largest sections", "facts", "lines"),
        [(s.title, s.facts, s.lines) for s in stats.sections],
    )
    proposals = ""
    if stats.inversions:
        proposals = _table(
            ("proposed inversion to anti-pattern", "helpful", "harmful"),
            [(_link(i.fact_id), i.helpful, i.harmful) for i in stats.inversions],
        )
    return (
        f'<div class="cards">{card_html}</div>{trend_html}'
        f'<div class="columns">{maturity}{sections}{closest}{used}{proposals}</div>'
    )


class _Html(str):
    """Text already made HTML (a link), which `_table` leaves unescaped."""


def _link(fact_id: str) -> _Html:
    return _Html(f'<a href="#f-{text(fact_id)}"><code>{text(fact_id)}</code></a>')


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A table; numbers right-aligned, `_Html` cells as they are, other cells escaped."""

    def cell(tag: str, value: object) -> str:
        numeric = ' class="num"' if isinstance(value, int) else ""
        html = value if isinstance(value, _Html) else text(value)
        return f"<{tag}{numeric}>{html}</{tag}>"

    header = "".join(cell("th", name) for name in head)
    if not rows:
        return f'<table><tr>{header}</tr><tr><td class="empty">none</td></tr></table>'
    body_rows = "".join("<tr>" + "".join(cell("td", v) for v in row) + "</tr>" for row in rows)
    return f"<table><tr>{header}</tr>{body_rows}</table>"


def _findings(findings: Sequence[Finding]) -> str:
    if not findings:
        return '<p class="empty">No lint findings.</p>'
    rows = "".join(
        f'<tr><td class="sev-{text(f.severity)}">{text(f.code)}</td>'
        f"<td><code>{text(f.path)}:{f.line}</code></td>"
        f'<td>{text(f.message)}<div class="muted">{text(f.hint)}</div></td></tr>'
        for f in findings
    )
    table = f"<table><tr><th>code</th><th>where</th><th>finding</th></tr>{rows}</table>"
    errors = sum(1 for finding in findings if finding.is_error)
    return _folded(f"{errors} errors, {len(findings) - errors} warnings", table, len(findings))


def _archive(index: TextFile | None) -> str:
    """INDEX.md's lines as a table: id, summary, reason, quarter file."""
    lines = [
        body(line)[2:] for line in (index.lines if index else ()) if body(line).startswith("- ")
    ]
    if not lines:
        return '<p class="empty">The archive is empty.</p>'
    rows = []
    for line in lines:
        cells = [*line.split(" — ", 3), "", "", ""][:4]
        rows.append((_Html(f"<code>{text(cells[0])}</code>"), *cells[1:]))
    table = _table(("id", "summary", "reason", "file"), rows)
    return _folded(f"{len(rows)} archived fact{'' if len(rows) == 1 else 's'}", table, len(rows))


def _folded(title: str, html: str, count: int) -> str:
    """`html` under a heading that opens and closes it, closed when it is long."""
    opened = " open" if count <= FOLD_FROM else ""
    return (
        f'<details class="group"{opened}><summary><h3>{text(title)}</h3></summary>{html}</details>'
    )
