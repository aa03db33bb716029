"""The report's facts: live facts by section and tier, pitfalls apart, open threads.

Each fact is its markdown rendered safely (`mdmem.report.markdown`), then its id, tier,
uses, last use, origin and feedback, as the review would write its footer now.
"""

from __future__ import annotations

from collections.abc import Mapping

from mdmem.format.document import Document, Fact
from mdmem.report.markdown import item_markdown, render_markdown, text
from mdmem.reviewing.decide import Decision
from mdmem.reviewing.rows import TIER_COLUMNS

TIER_ORDER = (*TIER_COLUMNS, "open")
OPEN_FROM = 25  # a section with more facts starts folded, so a big memory stays readable


def is_pitfall(fact: Fact) -> bool:
    return fact.get("type") == "anti-pattern"


def tier_of(fact: Fact, decisions: Mapping[str, Decision]) -> str:
    decision = decisions.get(fact.id)
    return decision.tier if decision else fact.get("tier") or "working"


def fact_item(document: Document, fact: Fact, decisions: Mapping[str, Decision]) -> str:
    """One fact as an `<li>`: its text, then what its footer says."""
    decision = decisions.get(fact.id)
    footer = decision.footer(fact) if decision else fact.footer
    tier = tier_of(fact, decisions)
    body = render_markdown(item_markdown(document.fact_words(fact)))
    meta = [
        f'<code class="id">{text(fact.id)}</code>',
        f'<span class="tier t-{text(tier)}">{text(tier)}</span>',
        f"uses {text(footer.get('uses') or 0)}",
    ]
    for key, label in (("last_used", "last used"), ("origin", "origin"), ("scope", "scope")):
        value = footer.get(key)
        if value:
            meta.append(f"{label} <code>{text(value)}</code>")
    maturity = footer.get("maturity")
    if maturity:
        meta.append(
            f"{text(maturity)} (helpful {text(footer.get('helpful') or 0)}, "
            f"harmful {text(footer.get('harmful') or 0)})"
        )
    for key in ("supersedes", "superseded-by"):
        value = footer.get(key)
        if value:
            meta.append(f'{key} <a href="#f-{text(value)}"><code>{text(value)}</code></a>')
    classes = f"fact t-{text(tier)}-edge" + (" pitfall" if is_pitfall(fact) else "")
    return (
        f'<li class="{classes}" id="f-{text(fact.id)}"><div class="body">{body}</div>'
        f'<div class="meta">{"".join(f"<span>{part}</span>" for part in meta)}</div></li>'
    )


def chips(counts: Mapping[str, int]) -> str:
    return (
        '<span class="chips">'
        + "".join(
            f'<span class="tier t-{tier}">{tier} {counts[tier]}</span>'
            for tier in TIER_ORDER
            if counts.get(tier)
        )
        + "</span>"
    )


def sections_html(continuity: Document, decisions: Mapping[str, Decision]) -> str:
    """Every section holding facts, in file order, folded when large; tiers inside it."""
    by_section: dict[str, list[Fact]] = {}
    for fact in continuity.facts:
        if not is_pitfall(fact) and not fact.is_open_thread:
            by_section.setdefault(fact.section or "(before any section)", []).append(fact)
    if not by_section:
        return '<p class="empty">No live facts.</p>'
    parts = []
    for title, facts in by_section.items():
        groups: dict[str, list[Fact]] = {}
        for fact in facts:
            groups.setdefault(tier_of(fact, decisions), []).append(fact)
        counts = {tier: len(group) for tier, group in groups.items()}
        opened = " open" if len(facts) <= OPEN_FROM else ""
        parts.append(
            f'<details class="group"{opened}><summary><h3>{text(title)}</h3>'
            f'<span class="muted">{len(facts)} fact{"" if len(facts) == 1 else "s"}</span>'
            f"{chips(counts)}</summary>"
        )
        for tier in sorted(groups, key=_tier_rank):
            items = "".join(fact_item(continuity, fact, decisions) for fact in groups[tier])
            parts.append(
                f'<h4>{text(tier)} ({len(groups[tier])})</h4><ol class="facts">{items}</ol>'
            )
        parts.append("</details>")
    return "".join(parts)


def pitfalls_html(continuity: Document, decisions: Mapping[str, Decision]) -> str:
    """Anti-patterns, apart from the rules: a prohibition is never read as an instruction."""
    facts = [fact for fact in continuity.facts if is_pitfall(fact)]
    return _listed(continuity, facts, decisions, "No anti-patterns recorded.")


def threads_html(continuity: Document, decisions: Mapping[str, Decision]) -> str:
    facts = [fact for fact in continuity.facts if fact.is_open_thread and not is_pitfall(fact)]
    return _listed(continuity, facts, decisions, "No open threads.")


def _listed(
    document: Document, facts: list[Fact], decisions: Mapping[str, Decision], empty: str
) -> str:
    if not facts:
        return f'<p class="empty">{empty}</p>'
    items = "".join(fact_item(document, fact, decisions) for fact in facts)
    return f'<ol class="facts">{items}</ol>'


def _tier_rank(tier: str) -> int:
    return TIER_ORDER.index(tier) if tier in TIER_ORDER else len(TIER_ORDER)
