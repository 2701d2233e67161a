"""Site search as a reader uses it: typing into the header search box of the real built site, in Chromium.

One browser for the module, a fresh page (its own browser context) for each test, so the tests hold in any order
(the query set's hundred-odd searches share its page). Each search clears the box, types the query (Playwright
inserts Cyrillic without key events and Material searches on keyup, so End is pressed after typing), waits until
Material's result count changes and reads the rendered list.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml


pytestmark = [pytest.mark.browser, pytest.mark.slow]

from conftest import need  # noqa: E402
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect

QUERIES = yaml.safe_load((Path(__file__).parent / "search_queries.yml").read_text(encoding="utf-8"))
RESULT_TIMEOUT = 15_000  # ms


@pytest.fixture
def requests_seen() -> list[str]:
    return []


@pytest.fixture
def page(browser, site_server, requests_seen):
    # No service worker: every request seen is the page's or its search worker's (the app's precache, which
    # fetches the whole site after the first visit, is tested in test_offline_browser.py).
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", service_workers="block")
    context.on("request", lambda request: requests_seen.append(request.url))
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(site_server + "mage-wars/aegis/")
    yield tab
    context.close()
    assert errors == []


class Results:
    """The rendered result list: each item's page path ("mage-wars/aegis") and its locator."""

    def __init__(self, page, site_url: str):
        self.items = page.locator(".md-search-result__item")
        base = urlsplit(site_url).path
        hrefs = self.items.evaluate_all("items => items.map(i => i.querySelector('a').getAttribute('href'))")
        self.paths = [urlsplit(h).path[len(base):].strip("/").removesuffix(".html") for h in hrefs]

    def rank(self, path: str) -> int | None:
        return self.paths.index(path) + 1 if path in self.paths else None


def search(page, site_url: str, query: str) -> Results:
    box = page.locator("input.md-search__input")
    meta = page.locator(".md-search-result__meta")
    box.click()
    if box.input_value():
        box.fill("")
        box.press("End")
        expect(page.locator(".md-search-result__item")).to_have_count(0, timeout=RESULT_TIMEOUT)
    # Ready for a query: Material's placeholder, not "Initializing search" (its worker not set up yet, which on a
    # loaded machine outlasts the page's load: the change to the placeholder was then taken for the results).
    placeholder = page.evaluate("JSON.parse(document.getElementById('__config').textContent)"
                                ".translations['search.result.placeholder']")
    expect(meta).to_have_text(placeholder, timeout=RESULT_TIMEOUT)
    box.fill(query)
    box.press("End")  # a real key event: Material queries on keyup
    expect(meta).not_to_have_text(placeholder, timeout=RESULT_TIMEOUT)
    return Results(page, site_url)


def test_the_query_set(page, site_url):
    """The expected term first for >= 95% of the queries, in the top three for all (failures are printed)."""
    first = top3 = 0
    failures = []
    for q in QUERIES:
        rank = search(page, site_url, q["query"]).rank(q["first"])
        first += rank == 1
        top3 += rank is not None and rank <= 3
        if rank != 1:
            failures.append(f"{q['query']!r} ({q['rule']}): {q['first']} at {rank}")
    count = len(QUERIES)
    print(f"\nsearch query set: top-1 {first}/{count} = {first / count:.1%}, top-3 {top3}/{count} = {top3 / count:.1%}")
    for failure in failures:
        print("  " + failure)
    assert first / count >= 0.95, failures
    assert top3 == count, failures


def test_a_result_shows_both_names_the_game_and_a_snippet(page, site_url, glossary):
    results = search(page, site_url, "эгиды")
    assert results.paths[0] == "mage-wars/aegis"
    item = results.items.first
    title = item.locator("h1")
    expect(title).to_contain_text("Aegis X")
    expect(title).to_contain_text("Эгида")
    expect(title.locator("mark")).to_have_text("Эгида")  # the matched name word, highlighted
    expect(item.locator(".codex-search-game")).to_have_text("Mage Wars")
    snippet = item.locator(".codex-search-snippet")
    expect(snippet).to_be_visible()
    definition = glossary.games["mage-wars"].terms["aegis"].definition["en"]  # the reader's language: en-US
    shown = snippet.inner_text().strip()
    assert shown and " ".join(definition.split()).startswith(shown.rstrip("…"))
    expect(snippet.locator('.codex-l10n[lang="ru"]')).to_be_hidden()  # the other language is in the page, hidden


def test_a_name_two_games_share_shows_both_each_with_its_game(page, site_url):
    results = search(page, site_url, "elusive")
    assert set(results.paths[:2]) == {"keyforge/elusive", "mage-wars/elusive"}
    for i, path in enumerate(results.paths[:2]):
        game = {"keyforge": "KeyForge", "mage-wars": "Mage Wars"}[path.split("/")[0]]
        expect(results.items.nth(i).locator(".codex-search-game")).to_have_text(game)


def test_a_terms_page_ranks_above_the_pages_that_mention_it(page, site_url, codex_api, glossary):
    for game, term, query in (("mage-wars", "guarding", "стража"), ("mage-wars", "conjuration", "conjurations"),
                              ("dnd-miniatures", "spell", "заклинаний")):
        mentioning = {  # the pages whose definitions the resolver finds the term in
            f"{game}/{other.id}" for other in glossary.games[game].terms.values() if other.id != term
            and any(m["term"] == term for lang in ("en", "ru") for m in codex_api.mentions(game, other.definition[lang]))
        }
        assert mentioning, f"no definition mentions {term}: pick another term"
        results = search(page, site_url, query)
        assert results.paths[0] == f"{game}/{term}"
        found = mentioning & set(results.paths)
        assert found, f"{query}: no page that mentions {term} among {results.paths}"  # they are found, lower


def test_definition_words_find_pages_ranked_below_names(page, site_url):
    results = search(page, site_url, "кубиков")  # "dice": in many definitions, and in the name «Кубик эффектов»
    assert results.paths[0] == "mage-wars/effect-die"
    assert len(results.paths) > 3
    scores = [float(s) for s in results.items.evaluate_all(
        "items => items.map(i => i.querySelector('article').dataset.mdScore)")]
    assert scores[0] > 1 > scores[1]


def test_the_box_suggests_the_rest_of_a_name_word(page, site_url):
    results = search(page, site_url, "counters")
    assert results.paths[0] == "mage-wars/counterstrike"
    expect(page.locator(".md-search__suggest")).to_have_text("counterstrike")  # Material's ghost text


def test_hand_written_pages_are_still_found(page, site_url):
    results = search(page, site_url, "linker")
    assert results.paths and all(p in ("", "linker") for p in results.paths[:2]), results.paths


def test_enter_opens_the_best_result(page, site_url):
    search(page, site_url, "teleprot")
    page.locator("input.md-search__input").press("Enter")
    page.wait_for_url(re.compile(r"/mage-wars/teleport/"))
    expect(page.locator("h1").first).to_contain_text("Teleport")


def test_a_result_link_highlights_the_word_forms_on_the_term_page(page, site_url):
    search(page, site_url, "коррозией")
    page.locator(".md-search-result__item a").first.click()
    page.wait_for_url(re.compile(r"/mage-wars/corrode/"))
    marks = page.locator("article mark")
    expect(marks.first).to_be_attached()
    assert any(t.lower().startswith("корроз") for t in marks.all_text_contents())


def test_the_search_box_works_on_a_phone_screen(browser, site_server, site_url):
    context = browser.new_context(viewport={"width": 390, "height": 800}, locale="ru-RU", has_touch=True,
                                  is_mobile=True, service_workers="block")
    phone = context.new_page()
    try:
        phone.goto(site_server + "keyforge/")
        phone.locator('label.md-header__button[for="__search"]').click()
        results = search(phone, site_url, "неуловимого")
        assert results.paths[0] == "keyforge/elusive"
        expect(results.items.first).to_be_visible()
    finally:
        context.close()


def test_our_worker_answers_and_nothing_leaves_the_site(page, site_url, requests_seen):
    assert search(page, site_url, "эгиды").paths[0] == "mage-wars/aegis"
    assert [w.url.rsplit("/", 1)[-1] for w in page.workers] == ["search-worker.js"]  # the page's one worker
    assert any(url.endswith("/assets/javascripts/search-worker.js") for url in requests_seen)
    assert not [url for url in requests_seen if "/workers/search." in url]  # Material's lunr worker is not started
    assert any("/search/codex/" in url for url in requests_seen)  # shards fetched on demand
    assert {urlsplit(url).hostname for url in requests_seen} == {"127.0.0.1"}
