"""The linker widget in a real browser: Debian's Chromium, driven by Playwright, against the real built site.

One browser, one context and ONE linker page for most of the module: booting Pyodide is the slow part, so the
page is loaded once and those tests reuse it; the test of where requests go has a context of its own.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

from conftest import cli_link, need  # noqa: E402
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect

from corpus_eval import load_posts  # noqa: E402  (tests/ is on sys.path, as for test_corpus.py)

BOOT_TIMEOUT = 90_000  # ms: Pyodide's first start on a slow, shared machine
LINK_TIMEOUT = 15_000  # ms: one link request (debounced ~150 ms) once Python is up
FORMATS = ("markdown", "bbcode", "html")
CORPORA = ("posts.yml", "blind.yml")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")

# Installed before the page's own scripts: counts animation frames until the status says `ready`,
# so the test can tell whether the main thread kept painting while Python started.
FRAME_PROBE = """
(() => {
  const rec = window.__codexBootFrames = {count: 0, gaps: [], first: null, last: null, readyAt: null};
  function tick(t) {
    if (rec.last === null) rec.first = t; else rec.gaps.push(t - rec.last);
    rec.last = t;
    rec.count++;
    const widget = document.getElementById("linker-widget");
    if (widget && widget.dataset.state === "ready") { rec.readyAt = t; return; }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
"""


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def requests_seen() -> list[str]:
    """Every request URL the browser context made, across all its pages (and the workers they start)."""
    return []


@pytest.fixture(scope="module")
def dialogs() -> list[str]:
    """Every alert/confirm/prompt any page opened (none should)."""
    return []


@pytest.fixture(scope="module")
def context(browser, site_server, requests_seen):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    ctx.on("request", lambda request: requests_seen.append(request.url))
    yield ctx
    ctx.close()


def _watch(page, dialogs: list[str], errors: list[str]) -> None:
    def on_dialog(dialog):
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda error: errors.append(str(error)))


@pytest.fixture(scope="module")
def page_errors() -> list[str]:
    return []


@pytest.fixture(scope="module")
def page(context, site_url, dialogs, page_errors):
    """THE linker page, loaded once and waited on until Python is up."""
    linker = context.new_page()
    _watch(linker, dialogs, page_errors)
    linker.add_init_script(FRAME_PROBE)
    linker.goto(site_url + "linker/")
    status = linker.locator("#linker-status")
    try:
        expect(linker.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    except AssertionError:
        pytest.fail(
            f"the linker never became ready: status {status.text_content()!r}, "
            f"error {linker.locator('#linker-error').text_content()!r}, page errors {page_errors}"
        )
    linker.locator("#linker-every").set_checked(False)
    yield linker
    linker.close()


@pytest.fixture(scope="module")
def corpora(root) -> dict[str, list[dict]]:
    return {name: load_posts(root / "tests" / "corpus" / name) for name in CORPORA}


# --- helpers ----------------------------------------------------------------------------------


def choose(page, game: str, fmt: str) -> None:
    page.locator("#linker-game").select_option(game)
    page.locator("#linker-format").select_option(fmt)


def linked(page, game: str, fmt: str, text: str, expected: str) -> str:
    """Type `text` for `game` in `fmt`, wait until the output is `expected`, return what it holds."""
    choose(page, game, fmt)
    page.locator("#linker-input").fill(text)
    output = page.locator("#linker-output")
    expect(output).to_have_value(expected, timeout=LINK_TIMEOUT)
    return output.input_value()


def term_url(site_url: str, game: str, term: str) -> str:
    return f"{site_url}{game}/{term}/"


# --- 1. start-up ------------------------------------------------------------------------------


def test_page_reaches_ready(page, page_errors):
    assert page.locator("#linker-widget").get_attribute("data-state") == "ready"
    assert page.locator("#linker-status").text_content() == "готово"  # the context reads Russian
    expect(page.locator("#linker-error")).to_be_hidden()
    games = page.locator("#linker-game option")
    assert set(games.evaluate_all("options => options.map(o => o.value)")) >= {"mage-wars", "dnd-miniatures", "keyforge"}
    expect(page.locator("#linker-game")).to_be_enabled()
    assert page_errors == []


def test_main_thread_keeps_painting_while_python_starts(page):
    """Python boots in a Web Worker: animation frames keep coming during the whole start-up."""
    frames = page.evaluate("window.__codexBootFrames")
    assert frames["readyAt"] is not None, "the frame probe never saw `ready`"
    duration = frames["readyAt"] - frames["first"]
    gaps = frames["gaps"]
    longest = max(gaps, default=0.0)
    stalled = sum(gap for gap in gaps if gap > 250)
    # Python on the main thread would freeze it for seconds (instantiating the runtime, unpacking the wheel,
    # building the indexes); here the longest gap is ~0.2 s. The bounds leave room for a loaded machine.
    assert longest < 2500, f"the page froze for {longest:.0f} ms while Python started ({duration:.0f} ms)"
    assert stalled < 0.5 * duration, f"{stalled:.0f} of {duration:.0f} ms spent in frames longer than 250 ms"
    assert frames["count"] >= duration / 500, f"only {frames['count']} frames in {duration:.0f} ms"


# --- 2. every corpus post, every format, exactly as the Python API --------------------------


@pytest.mark.parametrize("corpus", CORPORA)
def test_every_post_links_exactly_as_the_python_api(page, codex, corpora, corpus):
    posts = corpora[corpus]
    assert posts, corpus
    output = page.locator("#linker-output")
    mismatches: list[str] = []
    for post in posts:
        game, text = post["game"], post["text"]
        page.locator("#linker-game").select_option(game)
        for i, fmt in enumerate(FORMATS):
            expected = codex.link(game, text, fmt)
            page.locator("#linker-format").select_option(fmt)
            if i == 0:
                page.locator("#linker-input").fill(text)
            try:
                expect(output).to_have_value(expected, timeout=LINK_TIMEOUT)
            except AssertionError:
                mismatches.append(f"{post['id']} [{fmt}]\n  python:  {expected!r}\n  browser: {output.input_value()!r}")
                if len(mismatches) >= 3:  # each mismatch costs a timeout: enough to diagnose
                    break
            else:
                assert output.input_value() == expected  # byte for byte, not only what the matcher compares
        if len(mismatches) >= 3:
            break
    assert not mismatches, "the widget and codex.api.Codex.link disagree:\n" + "\n".join(mismatches)


def _two_posts(corpora) -> list[dict]:
    posts = [post for name in CORPORA for post in corpora[name]]
    russian = next(p for p in posts if len(CYRILLIC.findall(p["text"])) > len(p["text"]) // 4)
    english = next(p for p in posts if not CYRILLIC.search(p["text"]))
    return [russian, english]


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_gives_the_same_string_as_the_widget(page, codex, corpora, site_url, fmt):
    """The CLI contract: `python -m codex link` prints exactly what the page shows (SITE_URL names the site)."""
    for post in _two_posts(corpora):
        game, text = post["game"], post["text"]
        shown = linked(page, game, fmt, text, codex.link(game, text, fmt))
        assert cli_link(site_url, text, "--game", game, "--format", fmt, timeout=120) == shown, post["id"]


# --- 3. the preview: working links, hostile text shown as text -----------------------------


def test_preview_shows_working_links(page, codex, site_url):
    text = "У моего Creature есть Aegis 2, а Эгида не действует на Горение."
    linked(page, "mage-wars", "markdown", text, codex.link("mage-wars", text, "markdown"))
    preview = page.locator("#linker-preview")
    aegis = preview.locator(f'a[href="{term_url(site_url, "mage-wars", "aegis")}"]')
    expect(aegis).to_have_count(1)  # the first mention only
    expect(aegis).to_have_text("Aegis 2")
    expect(aegis).to_have_attribute("target", "_blank")
    expect(aegis).to_have_attribute("rel", "noopener")
    expect(preview.locator(f'a[href="{term_url(site_url, "mage-wars", "burn")}"]')).to_have_text("Горение")
    expect(preview).to_have_text(text)  # the preview reads as the post itself


@pytest.mark.parametrize("fmt", ["html", "markdown"])
def test_hostile_markup_in_a_post_shows_as_text(page, codex, site_url, dialogs, requests_seen, fmt):
    img, script = "<img src=x onerror=alert(1)>", "<script>alert(2)</script>"
    text = f"Aegis 2 {img} и ещё {script} конец"
    linked(page, "mage-wars", fmt, text, codex.link("mage-wars", text, fmt))
    preview = page.locator("#linker-preview")
    expect(preview.locator(f'a[href="{term_url(site_url, "mage-wars", "aegis")}"]')).to_have_text("Aegis 2")
    expect(preview).to_contain_text(img)
    expect(preview).to_contain_text(script)
    expect(preview.locator("img")).to_have_count(0)
    expect(preview.locator("script")).to_have_count(0)
    expect(preview.locator("*:not(a)")).to_have_count(0)  # nothing but the links became markup
    assert dialogs == []  # no <img> exists to fire an onerror (no fixed wait for one: the count above decides)
    assert not [url for url in requests_seen if urlsplit(url).path.endswith("/x")]


# --- 4. the lookup and traits boxes -----------------------------------------------------------


def test_lookup_finds_a_term_with_its_parameter(page, site_url):
    page.locator("#linker-game").select_option("mage-wars")
    page.locator("#linker-lookup").fill("эгида 3")
    first = page.locator("#linker-lookup-results li").first
    link = first.locator("a")
    expect(link).to_have_attribute("href", term_url(site_url, "mage-wars", "aegis"), timeout=LINK_TIMEOUT)
    expect(link).to_contain_text("Aegis X")
    expect(link).to_contain_text("Эгида")
    expect(first.locator(".linker-param")).to_have_text(re.compile(r"\b3$"))


def test_traits_show_what_follows_with_the_chain(page, site_url):
    page.locator("#linker-game").select_option("mage-wars")
    page.locator("#linker-traits").fill("Conjuration")
    results = page.locator("#linker-traits-results")

    def item(term):
        return results.locator("li").filter(has=page.locator(f'a[href="{term_url(site_url, "mage-wars", term)}"]'))

    expect(item("poison-immunity")).to_have_count(1, timeout=LINK_TIMEOUT)
    expect(item("poison-immunity").locator("a")).to_contain_text("Poison Immunity")
    # The context reads Russian: chains are in Russian names.
    expect(item("poison-immunity").locator(".linker-chain")).to_have_text("Конструкция → Неживое → Иммунитет к яду")
    expect(item("nonliving").locator("a")).to_contain_text("Nonliving")
    expect(item("nonliving").locator(".linker-chain")).to_have_text("Конструкция → Неживое")
    expect(item("conjuration").locator(".linker-chain")).to_have_text("задана")


# --- 5. instant navigation --------------------------------------------------------------------


def test_instant_navigation_to_the_linker(context, site_url, codex, dialogs):
    tab = context.new_page()
    errors: list[str] = []
    _watch(tab, dialogs, errors)
    seen: list[str] = []
    loads: list[str] = []
    tab.on("request", lambda request: seen.append(request.url))
    tab.on("load", lambda: loads.append(tab.url))
    try:
        tab.goto(term_url(site_url, "mage-wars", "aegis"))
        expect(tab.locator("h1").first).to_be_visible()
        tab.wait_for_load_state("networkidle")
        assert not [u for u in seen if "/assets/pyodide/" in u], "a term page loaded Pyodide"
        assert not [u for u in seen if "linker-worker.js" in u], "a term page started the linker's worker"

        tab.evaluate("window.__codexTestMarker = 'same document'")
        tab.locator('nav.md-nav--primary a.md-nav__link[href$="linker/"]').click()
        tab.wait_for_url(f"{site_url}linker/")
        expect(tab.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        assert tab.evaluate("window.__codexTestMarker") == "same document", "the click did a full page load"
        assert loads == [term_url(site_url, "mage-wars", "aegis")]
        assert [u for u in seen if "/assets/pyodide/" in u], "the recorder saw no Pyodide request: it proves nothing"

        text = "Aegis 2 и Горение"
        linked(tab, "mage-wars", "bbcode", text, codex.link("mage-wars", text, "bbcode"))

        # Away and back again, still instantly: the same worker answers, Python is not started a second time.
        booted = len([u for u in seen if "/assets/pyodide/" in u])
        tab.locator('nav.md-nav--primary a.md-nav__link[href$="mage-wars/"]').first.click()
        tab.wait_for_url(f"{site_url}mage-wars/")
        expect(tab.locator("#linker-input")).to_have_count(0)
        tab.locator('nav.md-nav--primary a.md-nav__link[href$="linker/"]').click()
        tab.wait_for_url(f"{site_url}linker/")
        expect(tab.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        linked(tab, "mage-wars", "html", text, codex.link("mage-wars", text, "html"))
        assert len([u for u in seen if "/assets/pyodide/" in u]) == booted
        assert tab.evaluate("window.__codexTestMarker") == "same document"
        assert errors == []
    finally:
        tab.close()


# --- 6. nothing leaves the machine ---------------------------------------------------------------


def test_no_request_leaves_127_0_0_1(browser, site_server, site_url, codex):
    """A reader's whole visit in a fresh context of its own — a term page, instant navigation to the linker, Python
    booting in the worker, a post linked — asks nothing of any other host (requests of the page and its worker)."""
    context = browser.new_context(locale="ru-RU")
    seen: list[str] = []
    context.on("request", lambda request: seen.append(request.url))
    try:
        tab = context.new_page()
        tab.goto(term_url(site_url, "mage-wars", "aegis"))
        tab.locator('nav.md-nav--primary a.md-nav__link[href$="linker/"]').click()
        expect(tab.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        text = "Aegis 2 и Горение"
        linked(tab, "mage-wars", "markdown", text, codex.link("mage-wars", text, "markdown"))
    finally:
        context.close()
    assert [u for u in seen if "/assets/pyodide/" in u], "the worker's requests were not recorded: this proves nothing"
    assert sorted({url for url in seen if urlsplit(url).hostname != "127.0.0.1"}) == []
