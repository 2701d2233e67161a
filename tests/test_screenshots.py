"""Screenshots to look at: a term page in both languages and both colour schemes, and the working linker in English.

Each is taken once the page is in the state it shows (the reader's language, Material's scheme, the tab), and is a
PNG of the viewport. They go to $CODEX_SCREENSHOTS (a folder) when set, else to pytest's temporary folder; with
CODEX_UPDATE_SCREENSHOT=1 the English light term page also becomes the README's docs/assets/images/term-page.png.
"""
from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

from conftest import CHROMIUM, CHROMIUM_ARGS, ROOT  # noqa: E402

VIEWPORT = {"width": 1280, "height": 900}
README_IMAGE = ROOT / "docs" / "assets" / "images" / "term-page.png"
SCHEMES = {"light": "default", "dark": "slate"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    chosen = os.environ.get("CODEX_SCREENSHOTS")
    path = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def shoot(page, path: Path) -> None:
    page.wait_for_function("() => !document.getAnimations().some(a => a instanceof CSSTransition)")
    data = page.screenshot(path=str(path))
    assert png_size(data) == (VIEWPORT["width"], VIEWPORT["height"])


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_term_page(browser, site_server, folder, lang, scheme):
    context = browser.new_context(locale="en-US" if lang == "en" else "ru-RU", color_scheme=scheme, viewport=VIEWPORT)
    page = context.new_page()
    page.goto(site_server + "mage-wars/conjuration/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", SCHEMES[scheme])
    expect(page.locator(f"#tab-{lang}")).to_have_attribute("aria-selected", "true")
    shoot(page, folder / f"term-page-{lang}-{scheme}.png")
    if lang == "en" and scheme == "light" and os.environ.get("CODEX_UPDATE_SCREENSHOT") == "1":
        shoot(page, README_IMAGE)
    context.close()


def test_linker_in_english(browser, site_server, folder):
    context = browser.new_context(locale="en-US", viewport=VIEWPORT)
    page = context.new_page()
    page.goto(site_server + "resolver/")
    expect(page.locator("#resolver")).to_have_attribute("data-state", "ready", timeout=90_000)
    page.locator("#resolver-game").select_option("mage-wars")
    page.locator("#resolver-input").fill("My Conjuration is Nonliving, so it has Poison Immunity. Does Burn hurt it?")
    expect(page.locator("#resolver-preview a").first).to_be_visible(timeout=15_000)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    shoot(page, folder / "linker-en.png")
    context.close()
