"""Dropping a wrong link on the linker page, in Debian's Chromium against the real built site: the list of links
under the output, one checkbox each; unticking one asks again with its span in `skip`.

The post links "Rage" inside the card name "Rage Unleashed" (wrong): unticked, the output no longer links it and the
Rage marker later in the post takes the link — the same string `python -m codex link --skip 14:18` prints.
"""
from __future__ import annotations

import os

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

from conftest import cli_link, need  # noqa: E402
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect

BOOT_TIMEOUT = 120_000
LINK_TIMEOUT = 20_000
POST = "I opened with Rage Unleashed on my bear. Then it got a Rage marker and hit hard with Burn."
CARD = (14, 18)  # "Rage" in the card name


def open_linker(browser, site_url: str, locale: str = "en-US", scheme: str = "light", viewport: dict | None = None):
    """The linker page in a fresh context, once Python is up; its page errors collected in `.errors`."""
    context = browser.new_context(locale=locale, color_scheme=scheme, viewport=viewport or {"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(site_url + "linker/")
    expect(tab.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    tab.errors = errors  # type: ignore[attr-defined]
    return tab


@pytest.fixture(scope="module")
def page(browser, site_server, site_url):
    tab = open_linker(browser, site_url)
    yield tab
    tab.context.close()


def named(codex, term: str, lang: str = "en") -> str:
    """The term's name as the list shows it, in the reader's language."""
    return codex.resolver("mage-wars").index.terms[term].name[lang]


def emptied(page) -> None:
    """An empty post: no output, no list, and the unticked mentions forgotten (another test's among them)."""
    page.locator("#linker-input").fill("")
    expect(page.locator("#linker-links")).to_be_hidden()
    expect(page.locator("#linker-output")).to_have_value("")


def checked(boxes) -> list[bool]:
    return [boxes.nth(i).is_checked() for i in range(boxes.count())]


def test_untick_a_wrong_link_and_tick_it_back(page, codex, site_url):
    emptied(page)
    page.locator("#linker-format").select_option("markdown")
    page.locator("#linker-every").set_checked(False)
    page.locator("#linker-input").fill(POST)
    output, links = page.locator("#linker-output"), page.locator("#linker-links")
    first = codex.link("auto", POST)
    expect(output).to_have_value(first, timeout=LINK_TIMEOUT)
    assert first.count("/mage-wars/rage/") == 1 and first.index("/mage-wars/rage/") < POST.index("marker")

    expect(links).to_be_visible()
    expect(links.locator("legend")).to_have_text("Links", use_inner_text=True)
    boxes = links.get_by_role("checkbox")
    expect(boxes).to_have_count(2)  # Rage (the card name's) and Burn: the later Rage is a repeat, not listed
    expect(boxes.nth(0)).to_have_accessible_name(f"Rage links to {named(codex, 'rage')}")
    expect(boxes.nth(1)).to_have_accessible_name(f"Burn links to {named(codex, 'burn')}")
    assert checked(boxes) == [True, True]

    boxes.nth(0).focus()  # by keyboard: Space unticks it
    page.keyboard.press(" ")
    skipped = codex.link("auto", POST, skip=frozenset({CARD}))
    expect(output).to_have_value(skipped, timeout=LINK_TIMEOUT)
    assert skipped.startswith("I opened with Rage Unleashed on my bear. Then it got a [Rage](")
    assert skipped == cli_link(site_url, POST, "--skip", "14:18")
    expect(boxes).to_have_count(3)  # the unticked one stays, unchecked; the marker's Rage took the link
    assert checked(boxes) == [False, True, True]
    # the same words twice in the list (one unticked, one linked): the second is numbered
    expect(boxes.nth(1)).to_have_accessible_name(f"Rage (2) links to {named(codex, 'rage')}")
    expect(boxes.nth(0)).to_be_focused()  # the list was redrawn: the reader's box keeps the focus
    preview = page.locator("#linker-preview a")
    expect(preview).to_have_text(["Rage", "Burn"])
    assert page.locator("#linker-preview").inner_text().startswith("I opened with Rage Unleashed")

    page.keyboard.press(" ")  # ticked back: the first output again
    expect(output).to_have_value(first, timeout=LINK_TIMEOUT)
    expect(boxes).to_have_count(2)
    assert checked(boxes) == [True, True]
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_skip_lasts_while_its_text_stands_where_it_was(page, codex):
    emptied(page)
    page.locator("#linker-format").select_option("bbcode")
    page.locator("#linker-every").set_checked(False)
    page.locator("#linker-input").fill(POST)
    output, boxes = page.locator("#linker-output"), page.locator("#linker-links-list input")
    expect(output).to_have_value(codex.link("auto", POST, "bbcode"), timeout=LINK_TIMEOUT)
    boxes.nth(0).uncheck()
    expect(output).to_have_value(codex.link("auto", POST, "bbcode", skip=frozenset({CARD})), timeout=LINK_TIMEOUT)

    longer = POST + " Burn again."  # typed after it: the card name's Rage stays unlinked
    page.locator("#linker-input").fill(longer)
    expect(output).to_have_value(codex.link("auto", longer, "bbcode", skip=frozenset({CARD})), timeout=LINK_TIMEOUT)
    assert checked(boxes) == [False, True, True]

    moved = "So. " + POST  # typed before it: the span no longer holds "Rage", the skip is dropped
    page.locator("#linker-input").fill(moved)
    expect(output).to_have_value(codex.link("auto", moved, "bbcode"), timeout=LINK_TIMEOUT)
    expect(boxes).to_have_count(2)
    assert checked(boxes) == [True, True]


def test_with_every_mention_linked_each_one_has_its_box(page, codex):
    emptied(page)
    page.locator("#linker-format").select_option("html")
    page.locator("#linker-every").set_checked(True)
    text = "🔥 " + POST  # an emoji first: two UTF-16 units in JavaScript, one character to Python
    page.locator("#linker-input").fill(text)
    output, boxes = page.locator("#linker-output"), page.locator("#linker-links-list input")
    expect(output).to_have_value(codex.link("auto", text, "html", every=True), timeout=LINK_TIMEOUT)
    expect(boxes).to_have_count(3)
    expect(boxes.nth(1)).to_have_accessible_name(f"Rage (2) links to {named(codex, 'rage')}")  # the same words twice: numbered
    boxes.nth(1).uncheck()
    marker = (CARD[0] + 2 + 41, CARD[1] + 2 + 41)
    assert text[marker[0]:marker[1]] == "Rage"
    expect(output).to_have_value(codex.link("auto", text, "html", every=True, skip=frozenset({marker})),
                                 timeout=LINK_TIMEOUT)
    page.locator("#linker-input").fill(text + " ")  # the text before the span unchanged: the skip stands
    expect(output).to_have_value(codex.link("auto", text + " ", "html", every=True, skip=frozenset({marker})),
                                 timeout=LINK_TIMEOUT)
    assert checked(boxes) == [True, False, True]
    page.locator("#linker-every").set_checked(False)
    page.locator("#linker-input").fill("")
    expect(page.locator("#linker-links")).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]


PHONE = {"width": 390, "height": 800}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """$CODEX_SCREENSHOTS (a folder) when set, to look at; else pytest's temporary folder."""
    from pathlib import Path

    chosen = os.environ.get("CODEX_SCREENSHOTS")
    path = Path(chosen) if chosen else tmp_path_factory.mktemp("untick")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize("locale, scheme, legend, links_to, viewport", [
    ("ru-RU", "dark", "Ссылки", "ссылка на", "phone"),
    ("en-US", "light", "Links", "links to", "phone"),
    ("en-US", "dark", "Links", "links to", "wide"),
])
def test_the_list_on_a_phone(browser, site_server, site_url, codex, folder, locale, scheme, legend, links_to,
                             viewport):
    """On a phone (and a wide screen), in each language and scheme: the list fits the width, its words are the
    reader's language, and hostile text in the post stays text. The screenshots are to be looked at
    ($CODEX_SCREENSHOTS)."""
    tab = open_linker(browser, site_url, locale, scheme, PHONE if viewport == "phone" else None)
    try:
        text = '<img src=x onerror="window.pwned=1"> ' + POST + " Aegis 2, Горение."
        tab.locator("#linker-input").fill(text)
        expect(tab.locator("#linker-output")).to_have_value(codex.link("auto", text), timeout=LINK_TIMEOUT)
        links = tab.locator("#linker-links")
        expect(links.locator("legend")).to_have_text(legend, use_inner_text=True)
        boxes = links.get_by_role("checkbox")
        rage = named(codex, "rage", locale[:2])
        expect(boxes.nth(0)).to_have_accessible_name(f"Rage {links_to} {rage}")
        boxes.nth(0).uncheck()
        card = text.index("Rage")
        expect(tab.locator("#linker-output")).to_have_value(
            codex.link("auto", text, skip=frozenset({(card, card + 4)})), timeout=LINK_TIMEOUT)
        links.scroll_into_view_if_needed()
        overflow = tab.evaluate("""() => [document.documentElement.scrollWidth, window.innerWidth,
            document.getElementById('linker-links').getBoundingClientRect().right]""")
        assert overflow[0] <= overflow[1] and overflow[2] <= overflow[1], overflow
        assert tab.evaluate("window.pwned") is None and tab.locator("#linker-preview img").count() == 0
        tab.screenshot(path=str(folder / f"linker-untick-{locale[:2]}-{scheme}-{viewport}.png"))
        assert tab.errors == []  # type: ignore[attr-defined]
    finally:
        tab.context.close()


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_a_long_detected_game_fits_a_phone(browser, site_server, site_url, codex, locale):
    """The game selector names the game it detected ("Авто: Dungeons & Dragons: игра с миниатюрами"): on a phone it
    stays inside the width and the page scrolls only down (it stood 45 px past a 390 px screen before)."""
    tab = open_linker(browser, site_url, locale, "light", PHONE)
    try:
        text = "Resist Fire 10 and Vulnerable Cold on the ogre: does Turn Undead still work?"
        tab.locator("#linker-input").fill(text)
        expect(tab.locator("#linker-output")).to_have_value(codex.link("auto", text), timeout=LINK_TIMEOUT)
        expect(tab.locator("#linker-game option:checked")).to_contain_text("Dungeons")
        widths = tab.evaluate("""() => [document.documentElement.scrollWidth, window.innerWidth,
            document.getElementById('linker-game').getBoundingClientRect().right]""")
        assert widths[0] <= widths[1] and widths[2] <= widths[1], widths
        assert tab.errors == []  # type: ignore[attr-defined]
    finally:
        tab.context.close()
