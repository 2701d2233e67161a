"""embed.js on someone else's forum, in Chromium: the built site on one port (its generated _headers applied), a
forum page on another with a strict CSP that names only the site's origin. Hover, keyboard focus and touch each
show the right card; Escape and a tap outside close it; nothing violates the CSP; one data file per game."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from project import serve
from site_server import served_copy

pytestmark = pytest.mark.slow

FORUM_CSS = """
/* The host's own styles, some of them careless: the card must neither change them nor be changed by them. */
* { letter-spacing: 1px; }
body { font: 16px/1.6 Georgia, serif; margin: 0; padding: 20px; }
p { color: rgb(10, 20, 30); margin: 0 0 12px; }
a { color: rgb(200, 0, 0); }
div { border: 2px solid rgb(0, 128, 0); }
rules-codex-card { display: none; }
.post { padding: 8px; }
"""

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI), true);
"""


def forum_html(site: str, lang: str | None, posts: list[str]) -> str:
    lang_attr = f' lang="{lang}"' if lang else ""
    body = "\n".join(f'<div class="post" id="post-{i}">{post}</div>' for i, post in enumerate(posts, 1))
    return (f'<!doctype html><html{lang_attr}><head><meta charset="utf-8"><title>Forum</title>'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<link rel="stylesheet" href="forum.css"></head><body>\n<p id="top">Thread</p>\n{body}\n'
            f'<p id="after"><button id="reply">Reply</button></p>\n'
            f'<script src="{site}embed.js" async></script></body></html>\n')


@pytest.fixture(scope="module")
def origins(tmp_path_factory):
    """(site URL, forum URL): the built site served with its own _headers, the forum on another port."""
    with served_copy(tmp_path_factory.mktemp("embed")) as site, forum_server(tmp_path_factory.mktemp("forum"), site.url) as forum:
        yield site.url, forum


@contextlib.contextmanager
def forum_server(forum: Path, site_url: str) -> Iterator[str]:
    """Another origin's forum pages, linking the site at `site_url`, under a CSP that names only that site."""
    (forum / "forum.css").write_text(FORUM_CSS, encoding="utf-8")
    (forum / "index.html").write_text(forum_html(site_url, "en", [
        f'<p>Full URL: <a id="full" href="{site_url}mage-wars/aegis/">Aegis 2</a> stops a lot.</p>',
        f'<p>Short link: <a id="short" href="{site_url}t/mage-wars/egida/">Эгида 3</a>, and '
        f'<a id="kf" href="{site_url}keyforge/cost/#en">Cost</a>.</p>',
        f'<p lang="ru">По-русски: <a id="ru-post" href="{site_url}mage-wars/armor/#en">Armor</a> вычитается.</p>',
        f'<p>Not terms: <a id="linker" href="{site_url}linker/">the linker</a>, '
        f'<a id="elsewhere" href="https://example.com/mage-wars/aegis/">elsewhere</a>.</p>',
    ]), encoding="utf-8")
    (forum / "plain.html").write_text(forum_html(site_url, None, [
        f'<p><a id="hash-ru" href="{site_url}mage-wars/armor/#ru">Armor</a> and '
        f'<a id="query-ru" href="{site_url}keyforge/cost/?lang=ru">Cost</a></p>',
    ]), encoding="utf-8")
    csp = (f"default-src 'none'; script-src {site_url.rstrip('/')}; connect-src {site_url.rstrip('/')}; "
           "style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'")
    with serve(forum, headers={"Content-Security-Policy": csp}) as forum_url:
        yield forum_url


@pytest.fixture()
def visit(browser, origins):
    """A fresh context; returns (page, requests) after opening a forum page with its requests recorded."""
    contexts = []

    def open_page(path: str = "", *, touch: bool = False, scheme: str = "light"):
        options = {"locale": "en-US", "color_scheme": scheme}
        if touch:
            options.update(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 760})
        context = browser.new_context(**options)
        contexts.append(context)
        context.add_init_script(WATCH)
        requests: list[str] = []
        context.on("request", lambda request: requests.append(request.url))
        page = context.new_page()
        page.on("dialog", lambda dialog: (requests.append("DIALOG " + dialog.message), dialog.dismiss()))
        page.goto(origins[1] + path)
        expect(page.locator("script[src$='embed.js']")).to_have_count(1)
        page.wait_for_load_state("load")
        return page, requests

    yield open_page
    for context in contexts:
        context.close()


def card(page):
    return page.locator("rules-codex-card .card")


def data_requests(requests: list[str], site_url: str) -> list[str]:
    return [url for url in requests if url.startswith(site_url + "api/")]


def violations(page) -> list[str]:
    return page.evaluate("() => window.__violations")


def test_hover_shows_the_card_with_both_names_and_the_parameter(visit, origins, glossary):
    site_url, _ = origins
    page, requests = visit()
    page.locator("#full").hover()
    shown = card(page)
    expect(shown).to_be_visible(timeout=10_000)
    expect(shown.locator(".names")).to_have_text("Aegis X · Эгида")
    expect(shown.locator('.names [lang="ru"]')).to_have_text("Эгида")
    expect(shown.locator(".meta")).to_contain_text("Mage Wars")
    expect(shown.locator(".param")).to_have_text("X = 2")
    first_paragraph = glossary.game("mage-wars").term("aegis").definition["en"].split("\n\n")[0]
    expect(shown.locator(".text")).to_have_text(first_paragraph)  # the glossary's own text, whatever it says
    expect(shown.locator(".open")).to_have_attribute("href", site_url + "mage-wars/aegis/#en")
    # onto the card within the grace period: it stays; away from both: it closes
    box = shown.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=4)
    page.wait_for_timeout(600)  # longer than the grace period: the card must still be there
    expect(shown).to_be_visible()
    page.locator("#top").hover()
    expect(shown).to_be_hidden(timeout=5_000)
    # the short link with the Russian name and a number; another game; links that are no terms get nothing
    page.locator("#short").hover()
    expect(shown.locator(".names")).to_have_text("Aegis X · Эгида", timeout=10_000)
    expect(shown.locator(".param")).to_have_text("X = 3")
    page.locator("#kf").hover()
    expect(shown.locator(".meta")).to_contain_text("KeyForge", timeout=10_000)
    expect(shown.locator(".names")).to_have_text("Cost · Цена")
    page.locator("#top").hover()
    expect(shown).to_be_hidden(timeout=5_000)
    for quiet in ("#linker", "#elsewhere"):
        page.locator(quiet).hover()
        page.wait_for_timeout(500)  # well past the dwell: a card would be showing
        expect(shown).to_be_hidden()
    data = data_requests(requests, site_url)
    assert sorted(data) == sorted(set(data)) and len(data) == 2, data  # mage-wars and keyforge, once each
    assert all("/api/v1/data/" in url for url in data)
    assert {url.split("/")[2] for url in requests} <= {site_url.split("/")[2], origins[1].split("/")[2]}
    from_site = [url for url in requests if url.startswith(site_url)]
    assert from_site == [site_url + "embed.js", *data], from_site  # no font, image or stylesheet of ours
    assert violations(page) == []
    assert not [r for r in requests if r.startswith("DIALOG")]


def test_the_reader_language_comes_from_the_page_then_the_link(visit):
    page, _ = visit()
    page.locator("#ru-post").hover()  # the post says lang="ru": it wins over the link's #en
    shown = card(page)
    expect(shown.locator(".names")).to_have_text("Броня · Armor", timeout=10_000)
    expect(shown.locator(".text")).to_contain_text("Во время атаки")
    expect(shown.locator(".open")).to_have_text("Открыть")
    expect(shown.locator(".text")).to_have_attribute("lang", "ru")
    page, _ = visit("plain.html")  # no lang on the page: the link's #ru, then its ?lang=ru
    page.locator("#hash-ru").hover()
    shown = card(page)
    expect(shown.locator(".names")).to_have_text("Броня · Armor", timeout=10_000)
    page.locator("#query-ru").hover()
    expect(shown.locator(".names")).to_have_text("Цена · Cost", timeout=10_000)
    page.locator("#kf, #top").first.hover()
    assert violations(page) == []


def test_keyboard_focus_opens_and_announces_escape_closes(visit):
    page, _ = visit()
    page.locator("#top").click()
    page.keyboard.press("Tab")
    expect(page.locator("#full")).to_be_focused()
    shown = card(page)
    expect(shown).to_be_visible(timeout=10_000)
    expect(shown).to_have_attribute("role", "tooltip")
    live = page.locator("rules-codex-card [role=status]")
    expect(live).to_have_attribute("aria-live", "polite")
    expect(live).to_contain_text("Aegis X · Эгида")
    expect(live).to_contain_text("X = 2")
    page.keyboard.press("Escape")
    expect(shown).to_be_hidden(timeout=5_000)
    expect(page.locator("#full")).to_be_focused()
    page.keyboard.press("Tab")  # the next link: its own card
    expect(page.locator("#short")).to_be_focused()
    expect(shown.locator(".param")).to_have_text("X = 3", timeout=10_000)
    assert violations(page) == []


def test_touch_first_tap_shows_second_tap_opens_outside_closes(visit, origins):
    site_url, forum_url = origins
    page, _ = visit(touch=True)
    page.locator("#full").tap()
    shown = card(page)
    expect(shown).to_be_visible(timeout=10_000)
    expect(shown.locator(".names")).to_have_text("Aegis X · Эгида")
    assert page.url == forum_url  # the first tap did not navigate
    box = shown.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # on screen on a phone
    page.locator("#top").tap()
    expect(shown).to_be_hidden(timeout=5_000)
    page.locator("#short").tap()
    expect(shown.locator(".param")).to_have_text("X = 3", timeout=10_000)
    shown.locator(".open").tap()
    page.wait_for_url(site_url + "mage-wars/aegis/#en", timeout=15_000)
    page.go_back()
    page.locator("#kf").tap()
    expect(card(page).locator(".names")).to_have_text("Cost · Цена", timeout=10_000)
    page.locator("#kf").tap()  # the second tap on the same link follows it
    page.wait_for_url(site_url + "keyforge/cost/#en", timeout=15_000)


def test_a_link_added_later_gets_a_card(visit, origins):
    site_url, _ = origins
    page, requests = visit()
    page.locator("#full").hover()
    expect(card(page)).to_be_visible(timeout=10_000)
    page.locator("#top").hover()
    expect(card(page)).to_be_hidden(timeout=5_000)
    page.evaluate("""(site) => {
        const post = document.createElement("div");
        post.className = "post";
        post.innerHTML = `<p>New post: <a id="later" href="${site}mage-wars/armor/">Armor</a> and
          <a id="later-dnd" href="${site}dnd-miniatures/line-of-sight/">line of sight</a></p>`;
        document.body.append(post);
    }""", site_url)
    page.locator("#later").hover()
    expect(card(page).locator(".names")).to_have_text("Armor · Броня", timeout=10_000)
    page.locator("#later-dnd").hover()
    expect(card(page).locator(".names")).to_have_text("line of sight · линия видимости", timeout=10_000)
    data = data_requests(requests, site_url)
    assert len(data) == 2 and len(set(data)) == 2, data  # mage-wars fetched once for both of its links
    assert violations(page) == []


def test_dark_scheme_and_the_host_styles_stay_apart(visit):
    page, _ = visit(scheme="dark")
    post = page.locator("#post-1 p")
    before = post.evaluate("(p) => [getComputedStyle(p).color, p.getBoundingClientRect().top]")
    posts_before = page.locator(".post").evaluate_all("(ps) => ps.map((p) => p.getBoundingClientRect().toJSON())")
    page.locator("#full").hover()
    shown = card(page)
    expect(shown).to_be_visible(timeout=10_000)  # the host's `rules-codex-card {display: none}` did not hide it
    style = shown.evaluate("""(c) => { const s = getComputedStyle(c); const t = getComputedStyle(c.querySelector('.text'));
        return {bg: s.backgroundColor, color: s.color, text: t.color, spacing: t.letterSpacing, border: s.borderTopColor,
                font: t.fontFamily}; }""")
    assert style["bg"] == "rgb(34, 33, 43)" and style["color"] == "rgb(232, 230, 240)"  # the dark card
    assert style["text"] != "rgb(10, 20, 30)" and style["spacing"] == "normal"  # the host's p and * rules stop outside
    assert style["border"] != "rgb(0, 128, 0)" and "Georgia" not in style["font"]
    after = post.evaluate("(p) => [getComputedStyle(p).color, p.getBoundingClientRect().top]")
    assert after == before  # the host's own styles unchanged, nothing moved
    posts_after = page.locator(".post").evaluate_all("(ps) => ps.map((p) => p.getBoundingClientRect().toJSON())")
    assert posts_after == posts_before  # no layout shift
    assert page.locator("link[rel=stylesheet]").count() == 1 and page.locator("style").count() == 0
    assert violations(page) == []


def test_light_scheme_card(visit):
    page, _ = visit(scheme="light")
    page.locator("#full").hover()
    shown = card(page)
    expect(shown).to_be_visible(timeout=10_000)
    assert shown.evaluate("(c) => getComputedStyle(c).backgroundColor") == "rgb(255, 255, 255)"
