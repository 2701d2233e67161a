"""Accessibility in a real browser (Debian's Chromium, the real built site), Material's own parts included.

- axe-core (npm, pinned in package.json) finds no WCAG 2.1 A/AA violation on any page kind, in the light and the
  dark scheme and in both languages, nor in the states a reader reaches: the other definition tab, the search
  with results, the phone layout with its drawer open, the linker with results.
- The keyboard reaches and operates the language switch, the definition tabs, the share buttons and the linker's
  controls, each with a visible focus ring.
- Lighthouse (npm, pinned) rates a term page's accessibility 100; the figures for every page are in the README.

How Material picks the colour scheme: a stored choice (the toggle writes it to localStorage) wins; without one, the
palette whose `media` query matches the browser's prefers-color-scheme. A context's `color_scheme` is that query.
"""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from codex.labels import LABELS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

from conftest import CHROMIUM, ROOT, need, skip_unless_ci  # noqa: E402
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
WCAG = "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
PAGES = {"home": "", "game index": "mage-wars/", "term page": "mage-wars/conjuration/", "linker": "linker/",
         "not found": "mage-wars/no-such-term/"}
SCHEMES = {"light": "default", "dark": "slate"}  # the context's prefers-color-scheme -> Material's scheme
BOOT_TIMEOUT = 90_000  # ms: Pyodide's first start on a loaded machine


@pytest.fixture
def context(browser, site_server):
    made = []

    def new(locale: str = "en-US", scheme: str = "light", **options):
        made.append(browser.new_context(locale=locale, color_scheme=scheme, **{"viewport": {"width": 1280, "height": 900},
                                                                               **options}))
        return made[-1]

    yield new
    for each in made:
        each.close()


def violations(page) -> list[str]:
    """axe's WCAG 2.1 A/AA violations on the page as it is now: one line each, with where.

    After Material's transitions have run (colours read halfway through a fade are neither scheme's)."""
    page.wait_for_function("() => !document.getAnimations().some(a => a instanceof CSSTransition)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(WCAG)["violations"]
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:5]} {v['nodes'][0].get('failureSummary', '')[:200]}"
            for v in found]


def scheme_of(page) -> str:
    return page.locator("body").get_attribute("data-md-color-scheme")


# --- axe ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_axe_finds_nothing_on_any_page_kind(context, site_url, scheme, lang):
    ctx = context("en-US" if lang == "en" else "ru-RU", scheme)
    # The linker as loaded, before Python: the working widget has its own test below (and boots Pyodide once).
    ctx.route("**/assets/javascripts/{linker,linker-client}.js", lambda route: route.abort())
    found = {}
    for kind, path in PAGES.items():
        page = ctx.new_page()
        page.goto(site_url + path)
        expect(page.locator("body")).to_have_attribute("data-md-color-scheme", SCHEMES[scheme])
        found[kind] = violations(page)
        page.close()
    assert found == {kind: [] for kind in PAGES}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_axe_finds_nothing_in_the_states_a_reader_reaches(context, site_url, scheme):
    page = context("en-US", scheme).new_page()
    page.goto(site_url + "mage-wars/aegis/")
    page.locator("#tab-ru").click()
    expect(page.locator("#ru")).to_be_visible()
    assert violations(page) == [], "the other tab"
    page.locator(".md-search__input").click()
    page.keyboard.type("burn")
    expect(page.locator(".md-search-result__item").first).to_be_visible(timeout=15_000)
    assert violations(page) == [], "search results"

    phone = context("en-US", scheme, viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True).new_page()
    phone.goto(site_url + "mage-wars/aegis/")
    phone.locator("label.md-header__button[for=__drawer]").click()
    expect(phone.locator(".md-nav--primary")).to_be_in_viewport()
    assert violations(phone) == [], "the phone layout's drawer"


@pytest.fixture(scope="module")
def linker(browser, site_server):
    """THE working linker (Python booted once for the tests below), light scheme, English, clipboard allowed."""
    ctx = browser.new_context(locale="en-US", color_scheme="light", viewport={"width": 1280, "height": 900})
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    page.goto(site_server + "linker/")
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    yield page
    ctx.close()


def test_axe_finds_nothing_on_the_working_linker_in_both_schemes(linker):
    """The linker with a linked post, lookup and traits results; then the same after Material's scheme toggle."""
    page = linker
    if scheme_of(page) != "default":  # another test left it dark: back by the toggle
        page.locator('label[for="__palette_0"]').click()
    page.locator("#linker-game").select_option("mage-wars")
    page.locator("#linker-input").fill("Aegis 2 и Горение, Conjuration")
    page.locator("#linker-lookup").fill("эгида 3")
    page.locator("#linker-traits").fill("Conjuration, Slow, Fast, Nonsense")
    expect(page.locator("#linker-preview a").first).to_be_visible(timeout=15_000)
    expect(page.locator("#linker-lookup-results li").first).to_be_visible(timeout=15_000)
    expect(page.locator("#linker-traits-results li").first).to_be_visible(timeout=15_000)
    links = page.locator("#linker-links-list input")  # the links made, one unticked (linked again anew)
    expect(links).to_have_count(3, timeout=15_000)
    links.first.uncheck()
    expect(page.locator("#linker-preview a")).to_have_count(2, timeout=15_000)
    expect(links).to_have_count(3)
    assert violations(page) == [], "light"
    toggle = page.locator('label[for="__palette_1"]')
    assert tooltip(page, toggle) == LABELS["palette_dark"]["en"]
    expect(page.locator("#__palette_0")).to_have_attribute("aria-label", LABELS["palette_dark"]["en"])
    toggle.click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    assert tooltip(page, page.locator('label[for="__palette_0"]')) == LABELS["palette_light"]["en"]
    assert violations(page) == [], "dark, by the toggle"


def tooltip(page, element) -> str:
    """An element's title: Material's tooltips (content.tooltips) move it into a described-by element."""
    described = element.get_attribute("aria-describedby")
    return page.locator(f"#{described}").text_content().strip() if described else element.get_attribute("title")


# --- keyboard ------------------------------------------------------------------------------------

FOCUS = """() => {
  const el = document.activeElement, style = getComputedStyle(el);
  return {id: el.id, text: (el.innerText || "").trim(), share: el.dataset.share || null,
          lang: el.dataset.codexLangLink || null, role: el.getAttribute("role"), tag: el.tagName.toLowerCase(),
          ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1};
}"""


def tab_through(page, limit: int = 80) -> list[dict]:
    """Press Tab from the header's logo (the first stop after the skip link) until focus leaves the page or comes
    back round; what each press focused."""
    page.locator(".md-header [data-md-component=logo]").focus()
    seen = [page.evaluate(FOCUS)]
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUS)
        if focused["tag"] == "body" or (seen and focused == seen[0]):
            break
        seen.append(focused)
    return seen


def test_the_keyboard_reaches_the_switch_tabs_and_share_buttons_with_a_visible_ring(context, site_url):
    page = context("en-US").new_page()
    page.goto(site_url + "mage-wars/aegis/")
    stops = tab_through(page)
    ours = [s for s in stops if s["lang"] or s["role"] in ("tab", "tabpanel") or s["share"] or s["id"] == "codex-share-text"]
    assert [s["lang"] for s in ours if s["lang"]] == ["ru", "en"]
    assert [s["id"] for s in ours if s["role"] == "tab"] == ["tab-en"]  # one stop: arrows move between tabs
    assert [s["share"] for s in ours if s["share"]] == ["url", "markdown", "bbcode"]
    assert all(s["ring"] for s in ours), [s for s in ours if not s["ring"]]


def test_the_keyboard_operates_tabs_and_share_buttons(context, site_url):
    ctx = context("en-US")
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    page.goto(site_url + "mage-wars/aegis/")
    page.locator("#tab-en").focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#tab-ru")).to_be_focused()
    expect(page.locator("#tab-ru")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#ru")).to_be_visible()
    expect(page.locator("#en")).to_be_hidden()
    page.keyboard.press("End")
    expect(page.locator("#tab-en")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Home")
    expect(page.locator("#tab-ru")).to_have_attribute("aria-selected", "true")

    share = page.locator(".codex-share")
    status = page.locator(".codex-share__status")
    for key, fmt in (("Enter", "markdown"), (" ", "bbcode")):
        page.locator(f'[data-share="{fmt}"]').focus()
        page.keyboard.press(key)
        expect(status).to_have_text(LABELS["share_copied"]["en"])
        assert page.evaluate("navigator.clipboard.readText()") == share.get_attribute(f"data-{fmt}-ru")  # the tab shown
        expect(status).to_have_text("")


def test_the_keyboard_operates_the_language_switch(context, site_url):
    page = context("en-US").new_page()
    page.goto(site_url + "mage-wars/aegis/")
    switch = page.locator('[data-codex-lang-link="ru"]')
    expect(switch).to_have_attribute("aria-label", f"RU, {LABELS['lang_ru']['ru']}")
    expect(page.locator(".codex-switch")).to_have_attribute("aria-labelledby", "codex-switch-label")
    switch.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/mage-wars/aegis/?lang=ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator('[data-codex-lang-link="ru"]')).to_have_attribute("aria-current", "true")
    assert page.locator("#codex-switch-label").inner_text() == LABELS["language"]["ru"]  # its name, in Russian


def test_the_keyboard_uses_the_linker(linker, site_url):
    """Every control in turn: choose the game and format with arrows, tick "every mention" with Space, type the
    post, copy the result with Enter, type a lookup and traits."""
    page = linker
    page.locator("#linker-input").fill("")
    page.locator("#linker-format").select_option("markdown")
    page.locator("#linker-every").set_checked(False)
    stops = [s["id"] for s in tab_through(page)]
    for control in ("linker-game", "linker-format", "linker-every", "linker-input", "linker-output",
                    "linker-lookup", "linker-traits"):
        assert control in stops, control
    assert stops.index("linker-game") < stops.index("linker-input") < stops.index("linker-lookup")

    page.locator("#linker-game").focus()
    page.locator("#linker-game").select_option("keyforge")  # put it away from Mage Wars, then come back by keys
    while page.locator("#linker-game").input_value() != "mage-wars":
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    expect(page.locator("#linker-format")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator("#linker-format")).to_have_value("bbcode")
    page.keyboard.press("Tab")
    expect(page.locator("#linker-every")).to_be_focused()
    page.keyboard.press(" ")
    expect(page.locator("#linker-every")).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.locator("#linker-input")).to_be_focused()
    page.keyboard.type("Aegis 2 and Aegis 3")
    output = page.locator("#linker-output")
    expect(output).to_have_value(
        "[url=" + site_url + "mage-wars/aegis/]Aegis 2[/url] and [url=" + site_url + "mage-wars/aegis/]Aegis 3[/url]",
        timeout=15_000)
    page.locator("#linker-copy").focus()
    page.keyboard.press("Enter")  # copied once the button has stored its label to show "copied" in its place
    page.wait_for_function("() => document.getElementById('linker-copy').dataset.label !== undefined")
    assert page.evaluate("navigator.clipboard.readText()") == output.input_value()
    page.locator("#linker-lookup").focus()
    page.keyboard.type("burn")
    expect(page.locator("#linker-lookup-results li a").first).to_contain_text("Burn", timeout=15_000)


# --- Lighthouse ------------------------------------------------------------------------------------


def test_lighthouse_rates_a_term_page_100(site_server, tmp_path):
    """Lighthouse's accessibility category (one mobile run, ~15 s): the README has the figures for every page."""
    if not LIGHTHOUSE.exists():
        skip_unless_ci("npm's lighthouse is not installed (npm ci)")
    report = tmp_path / "lighthouse.json"
    result = subprocess.run(
        [str(LIGHTHOUSE), site_server + "mage-wars/conjuration/", "--only-categories=accessibility", "--quiet",
         "--output=json", f"--output-path={report}", "--chrome-flags=--headless --no-sandbox --disable-gpu"],
        env={**os.environ, "CHROME_PATH": str(CHROMIUM)}, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    failed = [key for key, audit in data["audits"].items()
              if audit.get("scoreDisplayMode") == "binary" and audit.get("score") == 0]
    assert (data["categories"]["accessibility"]["score"], failed) == (1, [])
