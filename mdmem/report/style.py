"""The report's stylesheet, inlined in the page: system fonts only, nothing fetched."""

from __future__ import annotations

from mdmem.report.chart import COLORS

_BASE = """
:root { color-scheme: light; --ink: #1d2330; --muted: #5d6675; --line: #dde1e8;
  --paper: #ffffff; --wash: #f5f6f9; --accent: #3557c5; --bad: #b3261e; --warn: #8a5a00; }
* { box-sizing: border-box; }
html { scroll-padding-top: 6.5rem; }
body { margin: 0; background: var(--wash); color: var(--ink);
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono",
  monospace; font-size: 0.88em; }
code { background: #eef0f4; border-radius: 4px; padding: 0.05em 0.3em; }
pre { background: #f0f2f6; border: 1px solid var(--line); border-radius: 6px; padding: 0.6em;
  overflow-x: auto; }
pre code { background: none; padding: 0; }
a { color: var(--accent); }
header.top { position: sticky; top: 0; z-index: 10; background: #1f2a44; color: #fff;
  padding: 0.6rem 1.5rem; box-shadow: 0 2px 6px rgba(0,0,0,0.15); }
header.top h1 { margin: 0; font-size: 1.15rem; font-weight: 600; }
header.top .sub { color: #c9d2e6; font-size: 0.85rem; }
header.top nav { margin-top: 0.35rem; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; }
header.top nav a { color: #fff; text-decoration: none; font-size: 0.9rem; opacity: 0.9; }
header.top nav a:hover { text-decoration: underline; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
section.panel { background: var(--paper); border: 1px solid var(--line); border-radius: 8px;
  padding: 1rem 1.25rem; margin: 1rem 0; }
section.panel > h2 { margin: 0 0 0.6rem; font-size: 1.2rem; }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr));
  gap: 0.6rem; margin: 0.4rem 0 0.8rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.7rem;
  background: var(--wash); }
.card .n { font-size: 1.45rem; font-weight: 600; }
.card .k { color: var(--muted); font-size: 0.8rem; }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr));
  gap: 0 1.5rem; align-items: start; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td code { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { display: inline-block; font-weight: 700; padding: 0.1rem 0.6rem;
  border-radius: 999px; background: #e7ebf5; }
.verdict.IMPROVING { background: #dcf1e3; color: #1d6b3c; }
.verdict.DECLINING { background: #f8dedc; color: var(--bad); }
figure { margin: 0.5rem 0; }
svg.chart { width: 100%; max-width: 760px; height: auto; }
svg .tick, svg .legend { font-size: 11px; fill: var(--muted); }
svg .axis { stroke: var(--line); }
figcaption { color: var(--muted); font-size: 0.85rem; }
details.group { border-top: 1px solid var(--line); }
details.group > summary { cursor: pointer; padding: 0.55rem 0.2rem; list-style: none;
  display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.4rem 0.8rem; }
details.group > summary::-webkit-details-marker { display: none; }
details.group > summary::before { content: "\\25B8"; color: var(--muted); width: 0.8rem; }
details.group[open] > summary::before { content: "\\25BE"; }
details.group > summary h3 { margin: 0; font-size: 1.05rem; }
h4 { margin: 0.7rem 0 0.3rem; font-size: 0.8rem; text-transform: uppercase;
  letter-spacing: 0.05em; color: var(--muted); }
ol.facts { list-style: none; margin: 0; padding: 0 0 0.6rem 1rem; }
li.fact { border-left: 3px solid var(--line); padding: 0.25rem 0 0.35rem 0.75rem;
  margin: 0.35rem 0; }
li.fact .body > :first-child { margin-top: 0; }
li.fact .body > :last-child { margin-bottom: 0.15rem; }
li.fact .body p { margin: 0.3rem 0; }
.meta { color: var(--muted); font-size: 0.8rem; display: flex; flex-wrap: wrap;
  gap: 0.1rem 0.8rem; }
.meta code.id { color: var(--ink); font-weight: 600; }
.tier { display: inline-block; border-radius: 999px; padding: 0 0.5rem; font-size: 0.75rem;
  font-weight: 600; color: #fff; }
.chips { display: inline-flex; flex-wrap: wrap; gap: 0.25rem; }
.pitfall { border-left-color: var(--bad) !important; background: #fdf3f2; }
.sev-error { color: var(--bad); font-weight: 600; }
.sev-warning { color: var(--warn); font-weight: 600; }
.empty { color: var(--muted); font-style: italic; }
@media print { header.top { position: static; } details.group { page-break-inside: avoid; } }
"""


def stylesheet() -> str:
    """The CSS, with one rule per tier in the chart's colors."""
    tiers = "".join(
        f".t-{tier} {{ background: {color}; }}\n"
        f"li.fact.t-{tier}-edge {{ border-left-color: {color}; }}\n"
        for tier, color in COLORS.items()
    )
    return _BASE + tiers + ".t-open { background: #7a6fa8; }\n"
