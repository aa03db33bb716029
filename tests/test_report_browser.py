"""The report in a real browser: headless Chromium renders it, a screenshot is taken, and
the DOM it ends with shows the facts, the chart and no trace of script from memory.

Skipped only where Chromium is missing outside CI; with CI=true a missing Chromium fails,
so CI (which installs it, see .ci/run) always runs this.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import pytest

from mdmem.report.build import write_report
from tests.helpers import load_script
from tests.test_report import hostile_memory

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "browser.py"


@pytest.fixture(scope="module")
def browser() -> tuple[ModuleType, str]:
    module = load_script(SCRIPT, "mdmem_browser")
    found = module.find_chromium()
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no Chromium is installed: .ci/run installs it")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return module, found


def test_report_in_headless_chromium(browser: tuple[ModuleType, str], tmp_path: Path) -> None:
    module, chromium = browser
    page = tmp_path / "report.html"
    write_report(hostile_memory(tmp_path), page)
    dom = module.dump_dom(chromium, page)
    # What the page shows: its title (no script changed it), the facts, the chart, the trend.
    assert "<title>mdmem report: memory</title>" in dom
    assert "PWNED</title>" not in dom
    assert 'id="f-markdown-rich-fact"' in dom and "<code>make test</code>" in dom
    assert "&lt;script&gt;document.title='PWNED'&lt;/script&gt;" in dom
    assert "<svg" in dom and "<rect" in dom and "DECLINING" in dom
    assert "<script" not in dom and "<img" not in dom and 'href="javascript:' not in dom
    shot = tmp_path / "report.png"
    module.screenshot(chromium, page, shot)
    assert module.png_size(shot) == (module.WIDTH, module.HEIGHT)
    assert shot.stat().st_size > 20_000
    assert module.distinct_rows(shot) > 100  # text and chart, not a blank page


def test_blank_page_is_told_apart(browser: tuple[ModuleType, str], tmp_path: Path) -> None:
    # The check above must be able to fail: an empty page gives a handful of rows.
    module, chromium = browser
    page = tmp_path / "blank.html"
    page.write_text("<!DOCTYPE html><title>blank</title>", "utf-8")
    shot = tmp_path / "blank.png"
    module.screenshot(chromium, page, shot)
    assert module.distinct_rows(shot) < 5
