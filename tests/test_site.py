"""The built site: a page per term with both tabs, cross-links, working internal links, nothing lost."""
from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from html_text import Page

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pages(built_site) -> dict[str, Page]:
    """Every HTML page of the site, parsed once, by site-relative path."""
    return {p.relative_to(built_site).as_posix(): Page(p.read_text(encoding="utf-8")) for p in built_site.rglob("*.html")}


def term_page(pages, game, term) -> Page:
    return pages[f"{game}/{term}/index.html"]


def plain(markdown_text: str) -> str:
    return " ".join(markdown_text.split())


def test_every_term_has_its_page_with_both_tabs_and_both_definitions(glossary, pages):
    for game in glossary.games.values():
        built = {p.split("/")[1] for p in pages if p.startswith(f"{game.id}/") and p.count("/") == 2}
        assert built - {"index.html"} == set(game.terms), game.id  # one page per term, no more, no less
        for term in game.terms.values():
            page = term_page(pages, game.id, term.id)
            assert {"ru", "en"} <= page.ids, term.id
            for lang in ("ru", "en"):
                assert plain(term.definition[lang]) in page.text, (term.id, lang)
            assert term.name["en"] in page.text and term.name["ru"] in page.text


def test_every_name_alias_and_relation_appears_on_the_term_page(glossary, pages):
    for game in glossary.games.values():
        for term in game.terms.values():
            page = term_page(pages, game.id, term.id)
            for lang in ("en", "ru"):
                for name in term.aliases.get(lang, []):
                    assert name in page.text, (term.id, name)
            targets = {link.rstrip("/").split("/")[-1] for link in page.links if link.startswith("../")}
            for relation in ("implies", "cancels", "see_also"):
                assert set(getattr(term, relation)) <= targets, (term.id, relation)


def test_internal_links_all_resolve(built_site, pages):
    broken = []
    for path, page in pages.items():
        base = Path(path).parent
        for href in page.links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            if not parts.path:
                target = built_site / path
            elif parts.path.startswith("/"):  # 404.html links from the site root
                target = built_site / unquote(parts.path).lstrip("/")
            else:
                target = (built_site / base / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path} -> {href}")
                continue
            if parts.fragment and target.suffix == ".html":
                rel = target.relative_to(built_site.resolve()).as_posix()
                if parts.fragment not in pages[rel].ids:
                    broken.append(f"{path} -> {href} (no #{parts.fragment})")
    assert broken == []


DEFINITION = re.compile(r'<div class="codex-definition" role="tabpanel" id="(ru|en)" lang="\1"[^>]*>(.*?)</div>', re.S)


def definitions(html: str) -> dict[str, str]:
    """A term page's definition panels by language (their ids are the languages: #ru, #en)."""
    return dict(DEFINITION.findall(html))


def test_conjuration_links_its_traits_in_both_languages(built_site):
    html = (built_site / "mage-wars/conjuration/index.html").read_text(encoding="utf-8")
    blocks = list(definitions(html).values())
    assert len(blocks) == 2
    for block in blocks:
        for target in ("nonliving", "psychic-immunity", "unmovable"):
            assert f'href="../{target}/"' in block


def test_corrode_links_armor_from_russian_and_english(built_site):
    html = (built_site / "mage-wars/corrode/index.html").read_text(encoding="utf-8")
    ru, en = definitions(html)["ru"], definitions(html)["en"]
    assert re.search(r'<a href="\.\./armor/"[^>]*>(Armor|брон\w+)</a>', ru)
    assert re.search(r'<a href="\.\./armor/"[^>]*>[Aa]rmor</a>', en)


def test_no_term_page_links_to_itself_from_its_definition(glossary, built_site):
    for game in glossary.games.values():
        for term in game.terms.values():
            html = (built_site / game.id / term.id / "index.html").read_text(encoding="utf-8")
            for block in definitions(html).values():
                assert f'href="../{term.id}/"' not in block, term.id


def test_each_term_is_linked_once_per_definition(built_site):
    html = (built_site / "mage-wars/bloodthirsty/index.html").read_text(encoding="utf-8")
    for block in definitions(html).values():
        hrefs = re.findall(r'href="([^"]+)"', block)
        assert len(hrefs) == len(set(hrefs))


def test_cross_links_have_tooltips(built_site):
    html = (built_site / "mage-wars/conjuration/index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="\.\./nonliving/" title="Неживое \(Nonliving\): [^"]+">', html)


def test_tabs_have_stable_anchors(built_site):
    """#ru and #en name the definition panels; each tab controls its panel (WAI-ARIA tabs)."""
    html = (built_site / "mage-wars/aegis/index.html").read_text(encoding="utf-8")
    assert set(definitions(html)) == {"ru", "en"}
    for lang in ("ru", "en"):
        assert f'role="tab" id="tab-{lang}" aria-controls="{lang}"' in html
        assert f'aria-labelledby="tab-{lang}"' in html


def test_term_pages_show_game_and_category_in_the_readers_language_first(pages):
    page = term_page(pages, "mage-wars", "aegis")
    assert "Mage Wars › черта объекта · object trait" in page.text_in("ru")
    assert "Mage Wars › object trait · черта объекта" in page.text_in("en")
    assert "../#cat-object-trait" in page.links


def test_game_index_lists_every_term_three_ways(glossary, pages):
    for game in glossary.games.values():
        index = pages[f"{game.id}/index.html"]
        for term in game.terms.values():
            assert sum(1 for link in index.links if link.rstrip("/") == term.id) == 3, term.id



def test_search_index_has_names_in_both_languages(built_site, glossary):
    """Site search (codex.search): each term's result record holds both names; Material's config is kept."""
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    data = built_site / index["config"]["codex"]["dir"]
    records = [r for chunk in sorted(data.glob("c*.json")) for r in json.loads(chunk.read_text(encoding="utf-8"))]
    assert ["mage-wars/aegis/", "Aegis X", "Эгида"] in [r[1:4] for r in records]
    assert len(records) == len(glossary.terms)
    assert index["config"]["lang"] == ["ru", "en"]


def test_open_graph_tags(glossary, pages, site_url):
    meta = term_page(pages, "mage-wars", "aegis").meta
    assert meta["og:title"] == "Aegis X · Эгида — Mage Wars"
    assert meta["og:url"] == f"{site_url}mage-wars/aegis/"
    assert meta["og:description"].startswith("Все атаки против этого объекта вычитают X кубиков")
    assert meta["og:locale"] == "ru_RU" and meta["og:locale:alternate"] == "en_US"
    assert meta["og:site_name"] and meta["twitter:card"] == "summary"


def test_navigation_shows_games_not_terms(built_site):
    html = (built_site / "mage-wars/aegis/index.html").read_text(encoding="utf-8")
    nav = html[html.index("md-nav--primary"):html.index("md-content")]
    targets = {posixpath.normpath(posixpath.join("mage-wars/aegis", href))
               for href in re.findall(r'href="([^"#:]+)"', nav)}
    assert {"mage-wars", "dnd-miniatures", "keyforge", "linker", "."} <= targets
    assert "mage-wars/burn" not in targets and len(targets) < 10
