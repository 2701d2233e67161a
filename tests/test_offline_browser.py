"""Reading offline in a real browser (Debian's Chromium through Playwright) against the real site, built once for
this module and served with the headers its `_headers` gives each path (the CSP included).

One online visit to the home page, then until the worker controls the page (it takes over once everything is
saved); one online visit to the linker and one PDF opened. Then the network goes: the host drops every
connection AND the context is offline (Playwright's offline switch does not reach the service worker's own
requests, so the host going down is what proves nothing came from the network). Every offline test checks that
the host was asked for nothing but the browser's own update check of /sw.js.
"""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS, need, search_until_found
from project import build_in_process
from site_server import CACHES, CONTROLLED, SiteServer, build_data, free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect

BOOT_TIMEOUT = 90_000  # ms: Pyodide's start on a slow, shared machine
@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The real site (real mkdocs.yml, PDFs included), built for the port it is served from, and its host."""
    port = free_port()
    site = build_in_process(tmp_path_factory.mktemp("app-site"), f"http://127.0.0.1:{port}/")
    with SiteServer(site, port) as server:
        yield server


@pytest.fixture(scope="module")
def problems() -> list[str]:
    """Page errors and CSP violations on any page of the offline context (none allowed)."""
    return []


def watch(page, problems: list[str]) -> None:
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    page.on("console", lambda m: problems.append(f"{page.url}: {m.text}") if "Content Security Policy" in m.text else None)


@pytest.fixture(scope="module")
def offline(browser, app, problems):
    """A reader's browser after one online visit (home, the linker, a PDF opened); `tab` takes the network away."""
    context = browser.new_context(locale="ru-RU", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    watch(page, problems)
    page.goto(app.url)
    assert page.evaluate(CONTROLLED) == app.url + "sw.js"
    page.goto(app.url + "linker/")
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    # the linker's memory snapshot for later starts (linker-worker.js), saved a moment after ready
    page.wait_for_function("() => window.codex.linker.state.snapshot > 0", timeout=BOOT_TIMEOUT)
    response = page.goto(app.url + "pdf/keyforge.pdf")  # opened in the browser: saved on the way
    assert response.ok and response.from_service_worker
    page.goto(app.url)
    saved = page.evaluate(CACHES)
    page.close()
    yield context, saved
    context.close()


def network_asked(app: SiteServer) -> list[str]:
    """What the host was asked since the network went, apart from the browser's own update checks of the worker
    (refused, or answered when one was already on its way as the network went) and connections opened ahead
    without a request (Chromium preconnects)."""
    update_check = re.compile(r"(DOWN GET )?/sw\.js(\?\S*)?( HTTP/1\.1)?|DOWN ")
    return [line for line in app.served if not update_check.fullmatch(line)]


@pytest.fixture
def tab(offline, app, problems):
    """A new tab of that browser, with the network gone for the test (the host down, the context offline)."""
    context, _ = offline
    app.down = True
    context.set_offline(True)
    app.served.clear()
    page = context.new_page()
    watch(page, problems)
    try:
        yield page
        asked = network_asked(app)  # before the network comes back
        if page.url.startswith(app.url):  # a language chosen here (?lang=) is stored: the next tab starts afresh
            page.evaluate("() => localStorage.removeItem('codex-lang')")
    finally:
        page.close()
        context.set_offline(False)
        app.down = False
    assert asked == [], "the page needed the network"
    assert problems == []


def term_heading(page):
    return page.locator("article h1").first


# --- the first visit --------------------------------------------------------------------------------------------


def test_the_first_visit_saved_the_whole_site_and_nothing_else(offline, app):
    _, saved = offline
    build = build_data(app.directory)
    scope = app.url
    precache = saved[f"codex-precache-{scope}"]
    expected = {f"{scope}{e['url'].removeprefix('./')}?__WB_REVISION__={e['revision']}" for e in build["precache"]}
    assert set(precache) == expected
    runtime = {r["prefix"]: f"codex-{r['cache']}-{scope}" for r in build["runtime"]}
    pyodide = next(p for p in runtime if p.startswith("assets/pyodide/"))
    # the linker's fast start: the build's precompiled stdlib (beside the wheel), not Pyodide's own
    assert {urlsplit(u).path.rsplit("/", 1)[-1] for u in saved[runtime[pyodide]]} >= {
        "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"}
    linker = {urlsplit(u).path for u in saved[runtime["assets/codex/"]]}
    assert any(p.endswith(".whl") for p in linker) and "/assets/codex/mage-wars.json" in linker
    manifest = json.loads((app.directory / "assets" / "codex" / "manifest.json").read_text(encoding="utf-8"))
    assert f"/assets/codex/{manifest['stdlib']}" in linker
    assert saved[runtime["pdf/"]] == [f"{scope}pdf/keyforge.pdf"]  # opened once; the others were not
    # and the snapshot the worker made of the started linker (its own cache, which the service worker leaves alone)
    assert saved["codex-linker-snapshot"] == [f"{scope}assets/codex/linker-snapshot-{manifest['snapshot']}"]
    assert set(saved) == {f"codex-precache-{scope}", "codex-linker-snapshot", *runtime.values()}
    assert all(url.startswith(scope) for urls in saved.values() for url in urls)


# --- reading offline --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game, term", [("mage-wars", "zone-exclusive"), ("dnd-miniatures", "your-warband"),
                                        ("keyforge", "keys")])
def test_a_term_page_never_opened_reads_offline(tab, app, glossary, game, term):
    entry = glossary.games[game].terms[term]
    response = tab.goto(f"{app.url}{game}/{term}/")
    assert response.ok and response.from_service_worker
    expect(term_heading(tab)).to_contain_text(entry.name["en"])
    first_words = " ".join(entry.definition["en"].split()[:4])
    expect(tab.locator("article")).to_contain_text(first_words)
    assert tab.evaluate("() => getComputedStyle(document.querySelector('.md-header')).position") == "sticky"  # CSS


def test_a_game_index_reads_offline_and_says_it_is_saved(tab, app):
    tab.goto(app.url + "dnd-miniatures/")
    expect(tab.locator("article h1").first).to_contain_text("Dungeons & Dragons")
    status = tab.locator(".codex-offline")
    expect(status).to_have_attribute("data-state", "automatic")
    expect(status.locator("[lang=ru]")).to_be_visible()  # the reader's language (ru-RU)
    expect(status.locator("[lang=en]")).to_be_hidden()


def test_a_short_link_lands_on_its_term_offline(tab, app):
    tab.goto(app.url + "t/mage-wars/egida/")
    tab.wait_for_url(app.url + "mage-wars/aegis/")
    expect(term_heading(tab)).to_contain_text("Aegis")


def test_the_language_switch_and_search_highlight_links_read_offline(tab, app):
    tab.goto(app.url + "keyforge/cost/?lang=en")
    expect(tab.locator("html")).to_have_attribute("data-codex-lang", "en")
    expect(term_heading(tab)).to_contain_text("Cost")
    tab.goto(app.url + "keyforge/cost/?h=%D1%86%D0%B5%D0%BD%D0%B0#ru")  # a search result's link form
    expect(term_heading(tab)).to_contain_text("Цена")


def test_search_with_a_russian_query_offline(tab, app):
    tab.goto(app.url + "mage-wars/")
    found = tab.locator(".md-search-result__item").filter(has_text="Incorporeal")
    search_until_found(tab, "Бесплотный", found)
    found.first.locator("a").first.click()
    tab.wait_for_url(re.compile(re.escape(app.url + "mage-wars/incorporeal/")))
    expect(term_heading(tab)).to_contain_text("Incorporeal")


def test_search_finds_word_forms_and_near_spellings_offline(tab, app):
    """The search worker's shards, vocabulary and result chunks come from the precache, as its index does."""
    tab.goto(app.url + "keyforge/")
    search = tab.locator("input.md-search__input")
    for query, name in (("бесплотного", "Incorporeal"), ("teleprot", "Teleport"), ("неуловимого", "Elusive")):
        search.click()
        search.fill(query)
        search.press("End")
        expect(tab.locator(".md-search-result__item").first).to_contain_text(name, timeout=15_000)


def test_instant_navigation_offline(tab, app):
    tab.goto(app.url + "keyforge/")
    tab.evaluate("window.__codexMarker = 'same document'")
    tab.locator("article a[href$='/keyforge/keys/'] >> visible=true").first.click()  # Material made it absolute
    tab.wait_for_url(re.compile(re.escape(app.url + "keyforge/keys/")))
    expect(term_heading(tab)).to_contain_text("Keys")
    assert tab.evaluate("window.__codexMarker") == "same document"  # Material fetched the page: from the worker


def test_the_linker_works_offline_after_one_visit(tab, app, glossary):
    from codex.api import Codex

    tab.goto(app.url + "linker/")
    expect(tab.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    tab.locator("#linker-every").set_checked(False)
    tab.locator("#linker-game").select_option("mage-wars")
    text = "У моего мага Эгида 2, а Горение на него не действует."
    tab.locator("#linker-input").fill(text)
    expected = Codex.from_glossary(glossary, app.url).link("mage-wars", text, "markdown")
    assert "mage-wars/aegis/" in expected
    expect(tab.locator("#linker-output")).to_have_value(expected, timeout=15_000)
    # offline it starts as a warm visit does: from the snapshot the online visit saved, on the cached stdlib
    assert tab.evaluate("window.codex.linker.state.marks.boot") == "snapshot"


# Before any page script: the linker's state each time the page registers a service worker.
WATCH_REGISTER = """(() => {
  const seen = window.__codexRegistered = [];
  const register = ServiceWorkerContainer.prototype.register;
  ServiceWorkerContainer.prototype.register = function (...args) {
    const widget = document.getElementById("linker-widget");
    seen.push(widget ? widget.dataset.state : "no linker");
    return register.apply(this, args);
  };
})()"""


def test_a_first_visit_to_the_linker_installs_the_app_once_the_linker_is_ready(browser, app):
    """The install downloads the site's core in parallel: beside a starting linker it would share the network and
    both cores with it (offline.js), so on the linker page it waits for "ready" — and then installs."""
    context = browser.new_context()
    try:
        context.add_init_script(WATCH_REGISTER)
        page = context.new_page()
        page.goto(app.url + "linker/")
        expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        assert page.evaluate(CONTROLLED) == app.url + "sw.js"
        assert page.evaluate("window.__codexRegistered") == ["ready"]
        # any other page registers it at once
        other = context.new_page()
        other.goto(app.url + "keyforge/")
        other.wait_for_function("() => window.__codexRegistered.length > 0")
        assert other.evaluate("window.__codexRegistered") == ["no linker"]
    finally:
        context.close()


def test_an_opened_pdf_reads_offline(tab, app):
    tab.goto(app.url)
    size = tab.evaluate("async () => (await (await fetch('pdf/keyforge.pdf')).arrayBuffer()).byteLength")
    assert size == (app.directory / "pdf" / "keyforge.pdf").stat().st_size


def test_a_page_that_cannot_load_offline_shows_the_sites_404_page(tab, app):
    tab.goto(app.url + "no/such/page/")
    expect(tab.locator("article h1#not-found")).to_be_visible()  # the site's own 404 page
    expect(tab.locator("input.md-search__input")).to_be_visible()  # search and navigation still there


# --- what is never saved, and installability (their own browsers, online) -----------------------------------------


def test_other_origins_and_error_responses_are_never_saved(browser, app):
    """A page asks another origin (the same site on another port) for files whose paths the worker saves, and its
    own host for error responses under every folder saved on first use; none of them may end up in a cache.

    The site's CSP stops a page from asking another origin at all (connect-src 'self'); this context bypasses it
    to test the worker itself, which must not handle such a request even when one comes."""
    pyodide = next(r["prefix"] for r in build_data(app.directory)["runtime"] if r["prefix"].startswith("assets/pyodide"))
    errors = {"/pdf/gone.pdf": 404, "/assets/codex/broken.json": 500, f"/{pyodide}missing.js": 503}
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    try:
        with SiteServer(app.directory) as foreign:
            page.goto(app.url)
            page.evaluate(CONTROLLED)
            app.status_for.update(errors)
            statuses = page.evaluate("""async ([paths, other, pyodide]) => {
              const out = [];
              for (const path of paths) out.push((await fetch(path.slice(1))).status);
              for (const path of ["mage-wars/aegis/", pyodide + "pyodide-lock.json", "pdf/keyforge.pdf"]) {
                out.push((await fetch(other + path, {mode: "no-cors"})).type);  // opaque: another origin
              }
              out.push((await fetch("mage-wars/aegis/?lang=en")).status);  // saved already: not saved twice
              return out;
            }""", [list(errors), foreign.url, pyodide])
            assert [p for p in foreign.served if p != "/favicon.ico"] == [
                "/mage-wars/aegis/", f"/{pyodide}pyodide-lock.json", "/pdf/keyforge.pdf"]  # it was asked
        assert statuses == [404, 500, 503, "opaque", "opaque", "opaque", 200]
        saved = page.evaluate(CACHES)
        urls = [url for urls in saved.values() for url in urls]
        assert urls, "nothing was saved at all: the check would prove nothing"
        assert not [u for u in urls if not u.startswith(app.url)], "another origin's response was saved"
        assert not [u for u in urls if urlsplit(u).path in errors], "an error response was saved"
        assert not [u for u in urls if "lang=" in u]
    finally:
        for path in errors:
            app.status_for.pop(path, None)
        context.close()


def test_chromium_finds_the_site_installable(browser, app, tmp_path):
    """Chromium's own check (the one behind its Install button): no installability errors once the worker runs.
    A persistent profile: in an incognito-like context Chromium reports only that."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
    try:
        page = context.new_page()
        page.goto(app.url + "mage-wars/")
        page.evaluate(CONTROLLED)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == app.url + "manifest.webmanifest"
        assert manifest.get("errors") == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()
