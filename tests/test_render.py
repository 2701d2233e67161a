"""Generated Markdown: golden files for a term page and a game index; hostile definitions stay text."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from codex.site import build_site

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CODEX_UPDATE_GOLDEN") == "1"  # regenerate on purpose, then review the diff


@pytest.fixture(scope="module")
def content(glossary):
    return build_site(glossary, "ru", "https://example.org/")


@pytest.mark.parametrize("page", ["mage-wars/aegis.md", "mage-wars/conjuration.md", "dnd-miniatures/smite.md",
                                  "keyforge/index.md"])
def test_golden_markdown(content, page):
    golden = GOLDEN / page
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(content.pages[page], encoding="utf-8")
    assert content.pages[page] == golden.read_text(encoding="utf-8")


def test_every_term_has_a_page_and_nothing_else_is_generated(glossary, content):
    expected = {f"{g.id}/{t}.md" for g in glossary.games.values() for t in g.terms}
    expected |= {f"{g}/index.md" for g in glossary.games}
    assert set(content.pages) == expected


def test_browser_files_are_generated(glossary, content):
    assert {f"assets/codex/{g}.json" for g in glossary.games} <= set(content.assets)
    from codex import __version__

    assert f"assets/codex/codex-{__version__}-py3-none-any.whl" in content.assets
    assert b'"site_url": "https://example.org/"' in content.assets["assets/codex/manifest.json"]


def test_english_interface_labels(glossary):
    english = build_site(glossary, "en", "https://example.org/")
    page = english.pages["mage-wars/conjuration.md"]
    assert "## Implies { #implies data-search-exclude }" in page and "## Даёт" not in page
    assert "Mage Wars](index.md) › [spell type · тип заклинания]" in page


HOSTILE = (Path(__file__).parent / "fixtures" / "hostile" / "evil.yml").read_text(encoding="utf-8")


def test_hostile_definitions_are_escaped(tmp_path):
    from codex.check import load

    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "evil.yml").write_text(HOSTILE, encoding="utf-8")
    site = build_site(load(tmp_path / "glossary", tmp_path), "ru", "https://example.org/")
    page = site.pages["evil/xss.md"].split("\n---\n", 1)[1]  # the body; front matter is escaped by the templates
    assert "<script>" not in page and "<img" not in page and "<a href" not in page
    assert "&lt;script&gt;" in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "\\[клик\\](javascript:alert(1))" in page  # shown as typed, not a link
    assert "&amp;" in page
    assert "\\*\\*жирный\\*\\*" in page  # emphasis is shown as typed: definitions are plain text with paragraphs


@pytest.mark.parametrize("number,lang,text", [
    (1, "ru", "1 термин"), (2, "ru", "2 термина"), (17, "ru", "17 терминов"), (124, "ru", "124 термина"),
    (162, "ru", "162 термина"), (111, "ru", "111 терминов"), (21, "ru", "21 термин"), (1, "en", "1 term"),
    (162, "en", "162 terms"),
])
def test_counts_agree_in_number(number, lang, text):
    from codex.labels import count

    assert count(number, "terms", lang) == text
