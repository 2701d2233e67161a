"""Under the generated Content-Security-Policy the site still works: pages run no blocked script, Pyodide boots."""
from __future__ import annotations

import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS
from project import serve
from test_deploy import parse_headers

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def csp_server(built_site):
    """The built site served with the headers its `_headers` file gives every path (as Netlify would)."""
    headers = parse_headers((built_site / "_headers").read_text(encoding="utf-8"))["/*"]
    with serve(built_site, headers=headers) as url:
        yield url


def test_pages_and_pyodide_work_under_the_policy(csp_server):
    from playwright.sync_api import expect, sync_playwright

    violations = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(locale="en-US")
        page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        page.goto(csp_server + "mage-wars/aegis/")
        expect(page.locator("#tab-en")).to_have_attribute("aria-selected", "true")  # the head script and tabs ran
        page.locator("#tab-ru").click()
        share_url = page.locator(".codex-share").get_attribute("data-url-ru")
        expect(page.locator(".codex-share__text")).to_have_value(share_url)  # share.js ran
        assert share_url.endswith("/mage-wars/aegis/#ru")
        search = page.locator("input.md-search__input")  # the search worker runs under worker-src 'self'
        search.click()
        search.fill("коррозией")
        search.press("End")
        expect(page.locator(".md-search-result__item").first).to_contain_text("Corrode", timeout=15_000)
        page.goto(csp_server + "linker/")
        expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=90_000)
        browser.close()
    assert violations == []
