"""Linking from where the writer is, in Chromium against a real build served with its _headers: the linker opened
with ?text= (the share target's entry) links the text; the bookmarklet on a forum of another origin sends the reply
box's text there and gets the linked text back on Copy; the /embed/ page's live example shows cards."""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from playwright.sync_api import expect

from project import serve
from site_server import served_copy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BOOT_TIMEOUT = 90_000  # Pyodide on a loaded machine
POST = "У моего Creature с Aegis 2 два жетона Burn."
SCREENSHOTS = Path(os.environ.get("CODEX_SCREENSHOTS", "/tmp"))

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective), true);
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_copy(tmp_path_factory.mktemp("share")) as server:
        yield server.url


@pytest.fixture(scope="module")
def codex(glossary, site):
    from codex.api import Codex

    return Codex.from_glossary(glossary, site)


@pytest.fixture()
def context(browser):
    context = browser.new_context(locale="ru-RU")
    context.add_init_script(WATCH)
    yield context
    context.close()


def test_shared_text_opens_the_linker_and_is_linked(context, site, codex):
    page = context.new_page()
    page.goto(f"{site}linker/?text={quote(POST)}")  # what the share sheet opens (manifest share_target, GET)
    expect(page.locator("#linker-input")).to_have_value(POST)
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    linked = codex.link("auto", POST)
    assert linked != POST and "mage-wars/aegis/" in linked
    expect(page.locator("#linker-output")).to_have_value(linked, timeout=15_000)
    expect(page.locator("#linker-copy")).to_be_enabled()
    assert page.evaluate("() => window.__violations") == []


def test_the_former_address_still_opens_the_linker_with_the_shared_text(context, site):
    """/resolver/ was the linker's address (an app installed then shares to it; forum posts link it): the moved
    page (codex.deploy.MOVED) opens /linker/ with the same query string and fragment, under the site's CSP."""
    page = context.new_page()
    page.goto(f"{site}resolver/?text={quote(POST)}#lookup")
    page.wait_for_url(f"{site}linker/?text={quote(POST)}#lookup")
    expect(page.locator("#linker-input")).to_have_value(POST)
    page.goto(f"{site}resolver")  # without the slash, as a post may spell it: the server adds it, then the page
    page.wait_for_url(f"{site}linker/")
    expect(page.locator("#linker-widget")).to_be_attached()
    assert page.evaluate("() => window.__violations") == []


def test_bookmarklet_sends_the_reply_box_and_gets_it_back_linked(context, site, codex, tmp_path):
    page = context.new_page()
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Reply</title></head><body>'
        '<form><textarea id="reply" rows="5"></textarea></form></body></html>', encoding="utf-8")
    page.goto(site + "linker/")  # the bookmarklet, as the linker page offers it
    href = page.locator("a.codex-bookmarklet").get_attribute("href")
    with serve(tmp_path, headers={"Content-Security-Policy": "default-src 'none'"}) as forum:
        page.goto(forum)
        page.locator("#reply").fill(POST)
        page.locator("#reply").focus()
        assert href.startswith("javascript:")
        with page.expect_popup() as opened:
            page.evaluate(unquote(href[len("javascript:"):]))  # what clicking a bookmark runs, in the page
        popup = opened.value
        expect(popup.locator("#linker-input")).to_have_value(POST, timeout=15_000)
        expect(popup.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        linked = codex.link("auto", POST)
        expect(popup.locator("#linker-output")).to_have_value(linked, timeout=15_000)
        assert page.locator("#reply").input_value() == POST  # nothing comes back until asked
        popup.locator("#linker-copy").click()
        expect(page.locator("#reply")).to_have_value(linked, timeout=10_000)


def test_embed_page_shows_a_live_card_in_both_languages(context, site):
    page = context.new_page()
    for lang, heading, names in (("en", "On your forum", "Aegis X · Эгида"), ("ru", "На вашем форуме", "Эгида · Aegis X")):
        page.goto(f"{site}embed/?lang={lang}")
        expect(page.locator(f"h1 [lang={lang}]")).to_have_text(heading)
        expect(page.locator("pre.codex-embed-code")).to_have_text(f'<script src="{site}embed.js" async></script>')
        page.locator(".codex-embed-example a").first.hover()
        card = page.locator("rules-codex-card .card")
        expect(card.locator(".names")).to_have_text(names, timeout=10_000)
        expect(card.locator(".param")).to_have_text("X = 2")
        page.screenshot(path=str(SCREENSHOTS / f"embed-page-{lang}.png"))
        assert page.evaluate("() => window.__violations") == []
