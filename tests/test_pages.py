"""Generated pages: golden HTML for a term page and a game index (from tests/fixtures/pages, not the live
glossary), links in both URL styles, both languages marked, hostile definitions shown as text."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from codex.check import load
from codex.site import build_site, front_matter

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CODEX_UPDATE_GOLDEN") == "1"  # regenerate on purpose, then review the diff


@pytest.fixture(scope="module")
def duel():
    return load(FIXTURES / "pages", FIXTURES)


@pytest.fixture(scope="module")
def content(duel):
    return build_site(duel, "https://example.org/", pdfs=True)


@pytest.mark.parametrize("page", ["duel/construct.md", "duel/ward.md", "duel/index.md"])
def test_golden_html(content, page):
    generated = content.pages[page]
    text = front_matter(generated) + generated.html
    golden = GOLDEN / page.replace(".md", ".html")
    if UPDATE:  # write, then report: a run that rewrites the golden files proves nothing about them
        golden.parent.mkdir(parents=True, exist_ok=True)
        changed = not golden.is_file() or golden.read_text(encoding="utf-8") != text
        golden.write_text(text, encoding="utf-8")
        pytest.skip(f"{golden.name}: {'rewritten, review the diff' if changed else 'unchanged'} (CODEX_UPDATE_GOLDEN=1)")
    assert text == golden.read_text(encoding="utf-8")


def test_every_term_has_a_page_and_nothing_else_is_generated(duel, content):
    expected = {f"{g.id}/{t}.md" for g in duel.games.values() for t in g.terms} | {"duel/index.md"}
    assert set(content.pages) == expected


def test_browser_files_are_generated(content):
    from codex import __version__

    assert "assets/codex/duel.json" in content.assets
    assert f"assets/codex/codex-{__version__}-py3-none-any.whl" in content.assets
    assert b'"site_url": "https://example.org/"' in content.assets["assets/codex/manifest.json"]
    assert content.assets["assets/codex/labels.js"].startswith(b"window.codexLabels = {")


def test_implied_traits_are_listed_with_their_chain(content):
    page = content.pages["duel/construct.md"].html
    implies = page[page.index('id="implies"'):page.index('id="see-also"')]
    assert implies.index("../nonliving/") < implies.index("../poison-immunity/")  # direct first
    assert ('<span class="codex-l10n" lang="en">Construct → Nonliving → Poison Immunity</span>'
            '<span class="codex-l10n" lang="ru">Конструкт → Неживое → Иммунитет к яду</span>') in implies


def test_links_follow_the_url_style(duel):
    served = build_site(duel, "https://example.org/", pdfs=True).pages
    from_disk = build_site(duel, "https://example.org/", pdfs=True, directory_urls=False).pages
    assert 'href="../nonliving/"' in served["duel/construct.md"].html
    assert 'href="nonliving.html"' in from_disk["duel/construct.md"].html
    assert 'href="../#cat-term"' in served["duel/construct.md"].html
    assert 'href="index.html#cat-term"' in from_disk["duel/construct.md"].html
    assert 'href="construct/"' in served["duel/index.md"].html and 'href="construct.html"' in from_disk["duel/index.md"].html
    assert 'href="../pdf/duel.pdf"' in served["duel/index.md"].html


def test_source_is_named_by_title_and_page_never_by_file(content):
    page = content.pages["duel/nonliving.md"].html
    assert '<span class="codex-l10n" lang="en">Duel rulebook, p. 9</span>' in page
    assert '<span class="codex-l10n" lang="ru">Правила «Дуэли», стр. 9</span>' in page
    assert "duel.txt" not in page


def test_every_interface_string_comes_in_both_languages(content):
    """Each codex-l10n text has a twin in the other language (the А–Я index, a whole section for Russian
    readers, is the one element without one)."""
    for path, page in content.pages.items():
        langs = re.findall(r'<span class="codex-l10n" lang="(en|ru)"', page.html)
        assert langs.count("en") == langs.count("ru"), path


HOSTILE = (FIXTURES / "hostile" / "evil.yml").read_text(encoding="utf-8")


def test_hostile_definitions_are_escaped(tmp_path):
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "evil.yml").write_text(HOSTILE, encoding="utf-8")
    site = build_site(load(tmp_path / "glossary", tmp_path), "https://example.org/")
    page = site.pages["evil/xss.md"].html
    assert "<script>" not in page and "<img" not in page and "<a href='" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "[клик](javascript:alert(1))" in page  # shown as typed, not a link
    assert "**жирный**" in page and "&amp; " in page
    assert "<p>Second &lt;b&gt;paragraph&lt;/b&gt;.</p>" in page  # paragraphs kept, markup escaped
    meta = site.pages["evil/xss.md"].meta
    assert "<" not in meta["title"] and "&lt;script&gt;" in meta["title"]  # themes print titles raw


@pytest.mark.parametrize("number,lang,text", [
    (1, "ru", "1 термин"), (2, "ru", "2 термина"), (17, "ru", "17 терминов"), (124, "ru", "124 термина"),
    (162, "ru", "162 термина"), (111, "ru", "111 терминов"), (21, "ru", "21 термин"), (1, "en", "1 term"),
    (162, "en", "162 terms"),
])
def test_counts_agree_in_number(number, lang, text):
    from codex.labels import count

    assert count(number, "terms", lang) == text
