"""The reader's language in a real browser (Debian's Chromium, the real built site): the first visit follows the
browser's languages, the choice persists across instant navigation, reloads and visits, `?lang=` and `#ru`/`#en`
links work, and every page kind speaks the chosen language only, Material's chrome included.

The text rule. In English, the visible text (`innerText`) holds no Cyrillic word except inside a name: an
element whose whole text is a name from the glossary (a term's name or alias, a game's, a category's) or the
site's own name (labels' site_name). Definitions (the tab panels) and typed examples (`code`) are the glossary's
and the reader's text, not interface. In Russian, the reverse: no Latin word of two or more letters outside the
same places and a short list of proper names (formats, products, the games' English names — a source's title
names its game —, the language codes on the switch and tabs).
"""
from __future__ import annotations

import re

import pytest

from codex.chrome import MATERIAL_CHROME
from codex.index import first_sentence
from codex.labels import LABELS, LANGS, count, other

pytestmark = [pytest.mark.browser, pytest.mark.slow]

from conftest import need  # noqa: E402
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect


PAGES = {  # one page of each kind
    "home": "",
    "game index": "mage-wars/",
    "term page": "mage-wars/conjuration/",
    "linker": "linker/",
    "not found": "mage-wars/no-such-term/",
}
LOCALES = {"en": "en-US", "ru": "ru-RU"}
TERM = "mage-wars/aegis/"
PROPER_NAMES = ("Material for MkDocs", "Rules Codex", "BoardGameGeek", "Markdown", "BBCode", "HTML", "PDF",
                "JavaScript", "Python", "Pyodide", "RU", "EN")
SCRIPTS = {"en": "[А-Яа-яЁё]+", "ru": "[A-Za-z]{2,}"}  # the other language's words, as the reader of `lang` sees them

# Words of the other script in the visible text, less those inside names, definitions and typed examples, less
# the proper names: what is left is interface text in the wrong language.
STRAY_WORDS = """([names, script, proper]) => {
  const allowed = new Set(names), re = new RegExp(script, "g"), left = new Map();
  const add = (text, n) => { for (const w of text.match(re) || []) left.set(w, (left.get(w) || 0) + n); };
  const norm = (text) => text.replace(/\\s+/g, " ").trim();
  const body = document.body.innerText;
  add(body, 1);
  const exempt = new WeakSet();
  for (const el of document.body.querySelectorAll("*")) {
    let up = el.parentElement, inside = false;
    for (; up && !inside; up = up.parentElement) inside = exempt.has(up);
    if (inside) continue;
    if (!allowed.has(norm(el.textContent)) && !el.matches("[role=tabpanel], code")) continue;
    if (!el.checkVisibility()) continue;
    exempt.add(el);
    add(el.innerText, -1);
  }
  for (const name of proper) add(Array(body.split(name).length).join(name + " "), -1);
  return [...left].filter(([, n]) => n > 0).map(([w]) => w);
}"""


@pytest.fixture
def visit(browser, site_server):
    """A fresh browser (no stored choice) with the given locale; closed after the test."""
    contexts = []

    def open_page(locale: str, path: str = "", block_linker: bool = False):
        context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
        contexts.append(context)
        if block_linker:  # the linker's static page only: its script's messages are checked on their own
            context.route("**/assets/javascripts/{linker,linker-client}.js", lambda route: route.abort())
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        if path is not None:
            page.goto(site_server + path)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def shown(browser, site_server):
    """Each page kind as each reader sees it, loaded once for the checks that only read it."""
    contexts: dict[str, object] = {}
    pages: dict[tuple[str, str], object] = {}

    def get(kind: str, lang: str):
        if (kind, lang) not in pages:
            if lang not in contexts:
                context = contexts[lang] = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900})
                # The linker's static page: its script's messages are checked on their own (xfail below).
                context.route("**/assets/javascripts/{linker,linker-client}.js", lambda route: route.abort())
            page = pages[kind, lang] = contexts[lang].new_page()
            page.goto(site_server + PAGES[kind])
        return pages[kind, lang]

    yield get
    for context in contexts.values():
        context.close()


@pytest.fixture(scope="module")
def names(glossary) -> list[str]:
    found = set(LABELS["site_name"].values())
    for game in glossary.games.values():
        found |= set(game.name.values())
        for category in game.categories.values():
            found |= set(category.values())
        for term in game.terms.values():
            found |= set(term.name.values())
            for aliases in term.aliases.values():
                found |= set(aliases)
    return sorted(found)


def material(key: str, lang: str, built_site) -> str:
    """One of Material's strings in `lang`, from the built labels.js (Material's language files at build time)."""
    import json

    script = (built_site / "assets/codex/labels.js").read_text(encoding="utf-8")
    table = json.loads(script[script.index("{"):script.index(";\nwindow.codexChrome")])
    return table[f"material:{key}"][lang]


def chosen(page) -> str:
    return page.locator("html").get_attribute("data-codex-lang")


def assert_reads_as(page, lang: str, built_site, title_name: str | None = None) -> None:
    """The page's interface is in `lang`: html lang, the switch, Material's chrome, the title."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert chosen(page) == lang
    expect(page.locator(f'[data-codex-lang-link="{lang}"]')).to_have_attribute("aria-current", "true")
    expect(page.locator(f'[data-codex-lang-link="{other(lang)}"]')).not_to_have_attribute(
        "aria-current", "true")
    expect(page.locator(".md-search__input")).to_have_attribute("placeholder", material("search.placeholder", lang, built_site))
    expect(page.locator(".md-header__inner")).to_have_attribute("aria-label", material("header", lang, built_site))
    expect(page.locator(".md-nav--primary")).to_have_attribute("aria-label", material("nav", lang, built_site))
    expect(page.locator("[data-md-component=logo]").first).to_have_attribute("title", LABELS["site_name"][lang])
    expect(page.locator(f'.md-top [lang="{lang}"]')).to_have_text(material("top", lang, built_site))
    expect(page.locator(f'.md-top [lang="{other(lang)}"]')).to_have_css("display", "none")
    if title_name is not None:  # after an instant navigation, once Material has swapped the head
        expect(page).to_have_title(f"{title_name} — {LABELS['site_name'][lang]}")


# --- the first visit, the link forms ------------------------------------------------------------


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("ru-RU", "ru"), ("ru", "ru"), ("de-DE", "en")])
def test_first_visit_follows_the_browsers_language(visit, built_site, glossary, locale, lang):
    page = visit(locale, TERM)
    aegis = glossary.game("mage-wars").term("aegis")
    assert_reads_as(page, lang, built_site, aegis.title)
    expect(page.locator(f"#tab-{lang}")).to_have_attribute("aria-selected", "true")
    expect(page.locator(f"#{lang}")).to_be_visible()
    expect(page.locator(f"#{other(lang)}")).to_be_hidden()
    expect(page.locator("#source")).to_have_text(LABELS["source"][lang], use_inner_text=True)
    expect(page.locator('meta[name="description"]')).to_have_attribute("content", first_sentence(aegis.definition[lang]))
    assert page.errors == []


def test_lang_link_chooses_and_is_remembered(visit, built_site, site_url):
    page = visit("ru-RU", "mage-wars/?lang=en")
    assert_reads_as(page, "en", built_site, "Mage Wars")
    assert page.evaluate("localStorage.getItem('codex-lang')") == "en"
    page.goto(site_url + TERM)  # a later visit, no ?lang=
    assert_reads_as(page, "en", built_site)
    expect(page.locator("#tab-en")).to_have_attribute("aria-selected", "true")


@pytest.mark.parametrize("locale,tab", [("en-US", "ru"), ("ru-RU", "en")])
def test_tab_links_open_that_tab_and_keep_the_interface(visit, built_site, locale, tab):
    page = visit(locale, TERM + f"#{tab}")
    lang = locale[:2]
    expect(page.locator(f"#tab-{tab}")).to_have_attribute("aria-selected", "true")
    expect(page.locator(f"#{tab}")).to_be_visible()
    assert_reads_as(page, lang, built_site)
    share = page.locator(".codex-share")
    expect(page.locator(".codex-share__text")).to_have_value(share.get_attribute(f"data-url-{tab}"))


def test_choosing_a_tab_does_not_switch_the_interface(visit, built_site):
    page = visit("en-US", TERM)
    page.locator("#tab-ru").click()
    expect(page.locator("#ru")).to_be_visible()
    assert page.url.endswith("#ru")  # the address names the tab shown: copying it keeps the definition
    assert chosen(page) == "en"
    expect(page.locator("#source")).to_have_text(LABELS["source"]["en"], use_inner_text=True)
    page.reload()
    expect(page.locator("#tab-ru")).to_have_attribute("aria-selected", "true")
    assert_reads_as(page, "en", built_site)


def test_the_switch_reloads_the_page_in_the_other_language(visit, built_site):
    page = visit("en-US", TERM)
    page.locator('[data-codex-lang-link="ru"]').click()
    page.wait_for_url("**/mage-wars/aegis/?lang=ru")
    assert_reads_as(page, "ru", built_site)
    expect(page.locator("#tab-ru")).to_have_attribute("aria-selected", "true")


# --- persistence across instant navigation and reloads ------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_choice_holds_across_instant_navigation_and_reloads(visit, built_site, site_url, glossary, lang):
    """Material swaps parts of the page (built in theme.language) without a reload: they follow the choice too."""
    page = visit(LOCALES[other(lang)], f"?lang={lang}")  # the choice, against the browser's language
    assert_reads_as(page, lang, built_site, None)
    page.evaluate("window.__codexSameDocument = true")
    page.locator('.md-content a[href$="mage-wars/"]').first.click()
    page.wait_for_url(f"{site_url}mage-wars/")
    assert page.evaluate("window.__codexSameDocument") is True, "the click did a full load: nothing was tested"
    assert_reads_as(page, lang, built_site, "Mage Wars")
    expect(page.locator(".md-nav--secondary > .md-nav__title").first).to_have_text(material("toc", lang, built_site))
    expect(page.locator(".md-skip")).to_have_text(material("action.skip", lang, built_site))
    terms = count(len(glossary.game("mage-wars").terms), "terms", lang)
    expect(page.locator('meta[name="description"]')).to_have_attribute(
        "content", LABELS["game_description"][lang].format(game="Mage Wars", terms=terms))

    page.locator('.md-content a[href$="/burn/"]:visible, .md-content a[href="burn/"]:visible').first.click()
    page.wait_for_url(f"{site_url}mage-wars/burn/")
    assert page.evaluate("window.__codexSameDocument") is True
    burn = glossary.game("mage-wars").term("burn")
    assert_reads_as(page, lang, built_site, burn.title)
    expect(page.locator(f"#tab-{lang}")).to_have_attribute("aria-selected", "true")
    topic = page.locator("[data-md-component=header-topic] > .md-ellipsis")
    expect(topic.locator('[lang="ru"]')).to_have_text(burn.name["ru"])  # the names keep their marks of language

    page.reload()
    assert_reads_as(page, lang, built_site, burn.title)
    assert page.errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_title_written_back_by_material_returns_to_the_readers_language(visit, lang):
    """Material's tooltips write back the title they captured when they mounted — the build's, when they mounted
    before i18n.js ran (after an instant navigation) — whenever they close or are torn down: i18n.js puts the
    reader's back."""
    page = visit(LOCALES[lang], TERM)
    logo = page.locator("[data-md-component=logo]").first
    expect(logo).to_have_attribute("title", LABELS["site_name"][lang])
    built = f"{LABELS['site_name']['ru']} · {LABELS['site_name']['en']}"  # what the build writes (theme.language ru)
    page.evaluate("title => document.querySelector('[data-md-component=logo]').setAttribute('title', title)", built)
    expect(logo).to_have_attribute("title", LABELS["site_name"][lang])
    assert page.errors == []


# --- every page kind speaks the reader's language -------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", PAGES)
def test_no_interface_text_in_the_other_language(shown, names, glossary, kind, lang):
    games = sorted({game.name["en"] for game in glossary.games.values()})  # a source's title names its game
    page = shown(kind, lang)
    assert chosen(page) == lang
    proper = [*PROPER_NAMES, *games] if lang == "ru" else []
    stray = page.evaluate(STRAY_WORDS, [names, SCRIPTS[lang], proper])
    assert stray == [], f"{kind} in {lang}: {stray}"
    if kind == "not found":
        expect(page.locator("h1")).to_have_text(LABELS["not_found"][lang], use_inner_text=True)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", PAGES)
def test_every_text_carries_the_lang_of_its_script(shown, kind, lang):
    """Language of parts: no Cyrillic word sits in an element whose language is English (a screen reader would
    speak it with an English voice). Words of two letters and more: one-letter slips in the glossary data
    ("Regenerate Х" with a Cyrillic Х) are the glossary's to fix."""
    page = shown(kind, lang)
    wrong = page.evaluate("""() => {
      const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const owner = node.parentElement.closest("[lang]");
        if ((owner ? owner.lang : "") === "en" && /[А-Яа-яЁё]{2,}/.test(node.data) && node.parentElement.checkVisibility())
          out.push(node.data.trim());
      }
      return out;
    }""")
    assert wrong == []


def test_every_chrome_rule_finds_its_element(shown):
    """Material's markup is named exactly (codex.chrome): a Material upgrade that moves a part fails here."""
    missing = set(map(tuple, MATERIAL_CHROME))
    for kind in PAGES:
        page = shown(kind, "en")
        found = page.evaluate("rules => rules.filter(r => document.querySelector(r[0])).map(r => r.join('|'))",
                              [list(rule) for rule in MATERIAL_CHROME])
        missing -= {tuple(rule.split("|")) for rule in found}
    assert missing == set()


def test_the_games_russian_index_is_for_russian_readers(shown):
    for lang in LANGS:
        page = shown("game index", lang)
        russian, english = page.locator("#by-ru"), page.locator("#by-en")
        toc_ru = page.locator('.md-sidebar--secondary a.md-nav__link[href$="#by-ru"]')
        if lang == "en":
            expect(russian).to_be_hidden()
            expect(toc_ru).to_be_hidden()
        else:
            expect(russian).to_be_visible()
            expect(toc_ru).to_be_visible()
            assert russian.bounding_box()["y"] < english.bounding_box()["y"]  # А–Я first for Russian readers
        expect(english).to_be_visible()


def test_the_linkers_messages_follow_the_language(visit, names):
    page = visit("en-US", "linker/")
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=90_000)
    stray = page.evaluate(STRAY_WORDS, [names, SCRIPTS["en"], []])
    assert stray == []


def test_cyrillic_pattern_sees_cyrillic():
    """The checks above rely on these patterns: they find what they should."""
    assert re.findall(SCRIPTS["en"], "Burn · Горение, ёж") == ["Горение", "ёж"]
    assert re.findall(SCRIPTS["ru"], "Горение · Burn, X") == ["Burn"]
