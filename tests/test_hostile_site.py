"""Hostile glossary text is shown as text everywhere in the built site, and nothing runs in a real browser."""
from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from project import build_site, copy_project

HOSTILE_DIR = Path(__file__).parent / "fixtures" / "hostile"

pytestmark = pytest.mark.slow
class _Live(HTMLParser):
    """Collects what a browser would run or load from a piece of HTML (not the escaped text)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_script = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value}>")
        if tag == "img" and dict(attrs).get("src") == "x":
            self.found.append("<img src=x>")
        # A JSON data block (the linker page hands its worker the manifest so) is never run: text, not code. Were
        # the glossary's text to break out of it, the tags that follow would be seen here as live markup.
        self._in_script = tag == "script" and dict(attrs).get("type") != "application/json"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and "alert(" in data:
            self.found.append(f"<script>{data[:40]}")


def live_markup(html: str) -> list[str]:
    return _Live(html).found


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    base = copy_project(tmp_path_factory.mktemp("hostile"), HOSTILE_DIR, home="# Home\n\n<!-- codex:games -->\n")
    return build_site(base, pdf=True, timeout=300)


def test_no_page_carries_raw_markup_from_the_glossary(hostile_site):
    from codex.webapi import bookmarklet

    # The one javascript: link the site makes on purpose: the linker's bookmarklet, exactly as codex.webapi writes it.
    ours = f"<a href={bookmarklet('https://rules-codex.netlify.app/linker/')}>"
    for page in hostile_site.rglob("*.html"):
        assert [found for found in live_markup(page.read_text(encoding="utf-8")) if found != ours] == [], page
    term = (hostile_site / "evil/xss/index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in term  # shown, as text
    index = (hostile_site / "evil/index.html").read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(2)&gt;" in index  # the game's scope too


def test_search_index_keeps_it_as_text(hostile_site):
    index = json.loads((hostile_site / "search/search_index.json").read_text(encoding="utf-8"))
    for doc in index["docs"]:
        assert live_markup(doc["title"]) == [] and live_markup(doc["text"]) == [], doc["location"]


def test_the_linker_index_and_pages_stay_data(hostile_site):
    data = json.loads((hostile_site / "assets/codex/evil.json").read_text(encoding="utf-8"))
    assert data["terms"]["xss"]["name"]["en"] == "<script>alert(1)</script>"  # data, escaped where shown


def test_nothing_runs_in_a_browser(hostile_site):
    from playwright.sync_api import sync_playwright

    from conftest import CHROMIUM, CHROMIUM_ARGS

    dialogs = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for path in ("evil/xss/index.html", "evil/index.html"):
            page.goto((hostile_site / path).as_uri())  # waits for the load event: every <img> has fired by then
            assert page.locator("img[src=x]").count() == 0
        browser.close()
    assert dialogs == []


def test_search_results_show_it_as_text(hostile_site):
    """Typed into the search box of the hostile site (served over HTTP, as the worker fetches its shards)."""
    from playwright.sync_api import expect, sync_playwright

    from conftest import CHROMIUM, CHROMIUM_ARGS
    from project import serve

    dialogs = []
    with serve(hostile_site) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(locale="en-US")
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(url + "evil/armor/")
        box = page.locator("input.md-search__input")
        results = page.locator(".md-search-result__list")
        for query, shown in (("script alert", "<script>alert(1)</script>"), ("img onerror", "<img src=x onerror")):
            box.click()
            box.fill(query)
            box.press("End")
            expect(results.locator(".md-search-result__item").first).to_contain_text(shown, timeout=15_000)
            assert results.locator("script, img, b, a[href^='javascript']").count() == 0  # no <img> to fire onerror
        browser.close()
    assert dialogs == []


def test_embed_cards_show_it_as_text_on_another_site(hostile_site, tmp_path):
    """The hovercard script on a forum of another origin: the hostile names and definition are characters."""
    from playwright.sync_api import expect, sync_playwright

    from conftest import CHROMIUM, CHROMIUM_ARGS
    from project import serve
    from site_server import SiteServer

    dialogs = []
    with SiteServer(hostile_site) as site, sync_playwright() as p:
        (tmp_path / "index.html").write_text(
            f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Forum</title></head><body>'
            f'<p>Look: <a id="evil" href="{site.url}evil/xss/">this</a></p>'
            f'<script src="{site.url}embed.js" async></script></body></html>', encoding="utf-8")
        csp = f"default-src 'none'; script-src {site.url.rstrip('/')}; connect-src {site.url.rstrip('/')}"
        with serve(tmp_path, headers={"Content-Security-Policy": csp}) as forum:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page(locale="en-US")
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(forum)
            page.locator("#evil").hover()
            card = page.locator("rules-codex-card .card")
            expect(card.locator(".names")).to_have_text(
                "<script>alert(1)</script> · <img src=x onerror=alert(1)>", timeout=15_000)
            expect(card.locator(".text")).to_have_text("See <img src=x onerror=alert(2)> and <a href='#armor'>a</a> & Armor.")
            expect(card.locator(".meta")).to_contain_text("Evil</style><script>alert(0)</script>")
            assert card.locator("img, script, b, a:not(.open)").count() == 0  # nothing but text and the Open link
            page.wait_for_timeout(300)  # time for an onerror handler to have fired, had an <img> been made
            browser.close()
    assert dialogs == []
