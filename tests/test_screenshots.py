"""Screenshots to look at: a term page in both languages and both colour schemes, the working linker in English,
search on a phone in Russian, dark.

Each is taken once the page is in the state it shows (the reader's language, Material's scheme, the tab), and is a
PNG of the viewport. They go to $CODEX_SCREENSHOTS (a folder) when set, else to pytest's temporary folder; with
CODEX_UPDATE_SCREENSHOT=1 the README's own (README_IMAGES) are also written to screenshots/ — outside docs/, so
readers of the site never download them.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

from conftest import ROOT, need, png_size  # noqa: E402
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect


VIEWPORT = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 800}
README_IMAGES = ROOT / "screenshots"
README_NAMES = {"term-page-en-light.png", "linker-en.png", "search-ru-dark-phone.png"}
SCHEMES = {"light": "default", "dark": "slate"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    chosen = os.environ.get("CODEX_SCREENSHOTS")
    path = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def shoot(page, folder: Path, name: str, viewport: dict = VIEWPORT) -> None:
    page.wait_for_function("() => !document.getAnimations().some(a => a instanceof CSSTransition)")
    data = page.screenshot(path=str(folder / name))
    assert png_size(data) == (viewport["width"], viewport["height"])
    if name in README_NAMES and os.environ.get("CODEX_UPDATE_SCREENSHOT") == "1":
        (README_IMAGES / name).write_bytes(data)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_term_page(browser, site_server, folder, lang, scheme):
    context = browser.new_context(locale="en-US" if lang == "en" else "ru-RU", color_scheme=scheme, viewport=VIEWPORT)
    page = context.new_page()
    page.goto(site_server + "mage-wars/conjuration/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", SCHEMES[scheme])
    expect(page.locator(f"#tab-{lang}")).to_have_attribute("aria-selected", "true")
    shoot(page, folder, f"term-page-{lang}-{scheme}.png")
    context.close()


def test_linker_in_english(browser, site_server, folder):
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(site_server + "linker/")
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=90_000)
    expect(page.locator("#linker-game")).to_have_value("auto")  # the game is detected from the post
    page.locator("#linker-input").fill("My Conjuration is Nonliving, so it has Poison Immunity. Does Burn hurt it?")
    expect(page.locator("#linker-preview a").first).to_be_visible(timeout=15_000)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    shoot(page, folder, "linker-en.png")
    context.close()


def test_search_on_a_phone_in_russian_dark(browser, site_server, folder):
    context = browser.new_context(locale="ru-RU", color_scheme="dark", viewport=PHONE, is_mobile=True, has_touch=True,
                                  service_workers="block")
    page = context.new_page()
    page.goto(site_server + "mage-wars/")
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    page.locator('label.md-header__button[for="__search"]').click()
    box = page.locator("input.md-search__input")
    box.fill("эгиды")
    box.press("End")  # a real key event: Material queries on keyup
    expect(page.locator(".md-search-result__item").first).to_contain_text("Эгида")
    shoot(page, folder, "search-ru-dark-phone.png", PHONE)
    context.close()
