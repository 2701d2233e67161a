"""The linker widget's game detection and its failure handling, in Debian's Chromium against the real built site.

Its own page (tests here kill the worker on purpose, which test_browser.py's shared page must never see).
"""
from __future__ import annotations


import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

from conftest import CHROMIUM, CHROMIUM_ARGS, need, skip_unless_ci  # noqa: E402
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect


BOOT_TIMEOUT = 90_000
LINK_TIMEOUT = 15_000
POST = "У моего Creature с Aegis 2 два жетона Burn, и броня не помогает."


@pytest.fixture(scope="module")
def page(site_server, site_url):
    if not CHROMIUM.exists():
        skip_unless_ci(f"{CHROMIUM} is not installed")
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(locale="ru-RU")
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(site_url + "linker/")
        expect(tab.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
        tab.errors = errors  # type: ignore[attr-defined]
        yield tab
        browser.close()


def test_the_game_selector_starts_at_auto_and_shows_the_detected_game(page, codex):
    select = page.locator("#linker-game")
    assert select.input_value() == "auto"
    page.locator("#linker-format").select_option("markdown")
    page.locator("#linker-input").fill(POST)
    expect(page.locator("#linker-output")).to_have_value(codex.link("auto", POST), timeout=LINK_TIMEOUT)
    assert codex.link("auto", POST) == codex.link("mage-wars", POST)
    expect(select.locator('option[value="auto"]')).to_have_text("Авто: Mage Wars")
    expect(page.locator("#linker-widget")).to_have_attribute("data-detected", "mage-wars")
    page.locator("#linker-input").fill("Просто текст без терминов.")
    expect(select.locator('option[value="auto"]')).to_have_text("Авто: игра не распознана", timeout=LINK_TIMEOUT)
    expect(page.locator("#linker-output")).to_have_value("Просто текст без терминов.")


def _restarts(page) -> int:
    return page.evaluate("window.codex.linker.restarts")


# Every text the error line shows, as it is shown: a restarted worker links the text again and clears the line, on
# a loaded machine sometimes before a look at the page could read it.
WATCH_ERRORS = """() => {
  const line = document.getElementById("linker-error");
  window.__shownErrors = [];
  new MutationObserver(() => {
    if (!line.hidden && line.textContent) window.__shownErrors.push(line.textContent);
  }).observe(line, {attributes: true, childList: true, characterData: true, subtree: true});
}"""


def _shown_errors(page) -> list[str]:
    page.wait_for_function("() => window.__shownErrors.length > 0", timeout=LINK_TIMEOUT)
    return page.evaluate("window.__shownErrors")


def test_a_killed_worker_times_out_shows_an_error_and_comes_back(page, codex):
    before = _restarts(page)
    page.evaluate(WATCH_ERRORS)
    page.evaluate("window.codex.linker.timeoutMs = 1500; window.codex.linker.state.worker.terminate()")
    text = "Aegis 3 и Горение"
    page.locator("#linker-input").fill(text)
    error = page.locator("#linker-error")
    shown = _shown_errors(page)
    assert any("фоновый процесс связывателя остановился" in line and "нет ответа за 2 с" in line
               for line in shown), shown
    assert not [line for line in shown if line.count("Ошибка") != 1], shown  # worded "Ошибка: …" once, never twice
    assert _restarts(page) == before + 1
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    expect(page.locator("#linker-output")).to_have_value(codex.link("auto", text), timeout=LINK_TIMEOUT)
    expect(error).to_be_hidden()


def test_a_worker_error_after_ready_is_shown_and_the_worker_restarts(page, codex):
    before = _restarts(page)
    page.evaluate(WATCH_ERRORS)
    page.evaluate("window.codex.linker.timeoutMs = 8000;"
                  "window.codex.linker.state.worker.dispatchEvent(new ErrorEvent('error', {message: 'boom'}))")
    assert any("boom" in shown for shown in _shown_errors(page)), _shown_errors(page)
    assert _restarts(page) == before + 1
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    text = "Burn и Эгида"
    page.locator("#linker-input").fill(text)
    expect(page.locator("#linker-output")).to_have_value(codex.link("auto", text), timeout=LINK_TIMEOUT)
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_worker_reports_where_start_up_time_went(page):
    marks = page.evaluate("window.codex.linker.state.marks")
    # A restarted worker (the tests above restart it) may start from the snapshot the first start saved: codex is
    # imported and the indexes loaded in it already (tests/test_linker_fast.py covers each way to start).
    assert marks["boot"] in ("snapshot", "fast", "stock"), marks
    steps = ["start", "manifest", "pyodide_module", "pyodide_ready", "wheel", "codex_imported", "indexes_fetched",
             "indexes_loaded"]
    if marks["boot"] == "snapshot":
        steps = [step for step in steps if step not in ("codex_imported", "indexes_fetched")]
    assert all(step in marks for step in steps), marks
    times = [marks[step] for step in steps]
    assert times == sorted(times)
