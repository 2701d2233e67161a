"""The interface in both languages, without a browser: every label complete, Material's chrome rules sound, the
<title> and description tags, the home and linker pages made from labels, nav titles and colour toggles named by
label keys (a wrong key stops the build with one line)."""
from __future__ import annotations

import re
from pathlib import Path
from html.parser import HTMLParser

import pytest

from codex.chrome import MATERIAL_CHROME, description_tag, footer_html, page_title, palette_rules, title_tag
from codex.labels import LABELS, LANGS, MATERIAL_KEYS, fill, l10n_attrs, labels_script
from codex.site import NavigationError, nav_labels, navigation
from codex.site_pages import home_page, linker_page, template_env
from conftest import ROOT
from project import copy_project, mkdocs_build
from test_check import FIXTURE

TEMPLATES = template_env(ROOT / "overrides")  # the home and linker pages' templates, as the theme finds them

PLACE = re.compile(r"\{(\w+)\}")


def test_every_label_has_both_languages_and_the_same_places():
    for key, texts in LABELS.items():
        assert set(texts) == set(LANGS), key
        assert all(texts[lang].strip() for lang in LANGS), key
        assert sorted(PLACE.findall(texts["en"])) == sorted(PLACE.findall(texts["ru"])), key
        assert texts["en"].count("{") == len(PLACE.findall(texts["en"])), key  # no stray brace


def test_every_message_the_widget_words_is_a_label():
    """linker.js and linker-client.js word their messages with t("key"), the worker names them by key: each key is
    a label, and the linker's scripts hold no text of their own in either language."""
    scripts = Path(__file__).resolve().parent.parent / "docs" / "assets" / "javascripts"
    client, page, worker = ((scripts / name).read_text(encoding="utf-8")
                            for name in ("linker-client.js", "linker.js", "linker-worker.js"))
    keys = set(re.findall(r'\bt\("(linker_\w+)"', client + page))
    keys |= set(re.findall(r'(?:progress|LabelledError)\("(linker_\w+)"', worker))
    assert len(keys) > 20
    assert sorted(k for k in keys if k not in LABELS) == []
    assert re.findall(r"[А-Яа-яЁё]+", page.split("function termName", 1)[1].split("\n", 2)[2] + client + worker) == []
    unused = sorted(k for k in LABELS if k.startswith("linker_") and k not in keys
                    and k not in (ROOT / "overrides/partials/linker.html").read_text(encoding="utf-8")
                    and k not in (ROOT / "hooks/codex/site_pages.py").read_text(encoding="utf-8")
                    and k not in Path(scripts.parent.parent.parent / "hooks/codex/__main__.py").read_text(encoding="utf-8"))
    assert unused == []


def test_chrome_rules_name_known_labels_and_kinds():
    for selector, what, key in MATERIAL_CHROME:
        assert key in LABELS or key.removeprefix("material:") in MATERIAL_KEYS, key
        assert what in ("text", "names") or re.fullmatch(r"[a-z-]+", what), what
        assert selector.strip() and "\n" not in selector


def test_palette_rules_follow_the_toggles():
    assert palette_rules(["palette_dark", "palette_light"]) == [
        ("#__palette_0", "aria-label", "palette_dark"), ('label[for="__palette_1"]', "title", "palette_dark"),
        ("#__palette_1", "aria-label", "palette_light"), ('label[for="__palette_0"]', "title", "palette_light"),
    ]


def test_titles_in_both_languages():
    assert page_title(None) == {"en": "Rules Codex · Кодекс правил", "ru": "Кодекс правил · Rules Codex"}
    assert page_title(LABELS["linker_title"]) == {"en": "Term linker — Rules Codex",
                                                  "ru": "Расстановка ссылок на термины — Кодекс правил"}
    tag = title_tag({"en": "A <b> & \"B\"", "ru": "А <b>"}, "ru")
    assert tag.startswith("<title ") and tag.endswith(">А &lt;b&gt; — Кодекс правил</title>")
    assert 'data-codex-text-en="A &lt;b&gt; &amp; &quot;B&quot; — Rules Codex"' in tag
    assert 'data-codex-l10n="text"' in tag


def test_description_falls_back_to_the_sites():
    tag = description_tag(None, "en")
    assert f'content="{LABELS["site_description"]["en"].replace("&", "&amp;")}"' in tag
    assert 'data-codex-l10n="content"' in tag and "data-codex-content-ru=" in tag


def test_attributes_keep_both_languages_escaped():
    attrs = l10n_attrs({"placeholder": {"en": 'say "hi"', "ru": "<скажи>"}}, "en")
    assert attrs == (' placeholder="say &quot;hi&quot;" data-codex-placeholder-en="say &quot;hi&quot;"'
                     ' data-codex-placeholder-ru="&lt;скажи&gt;" data-codex-l10n="placeholder"')
    assert fill("made_with", "ru", link="<a>x</a>") == "Сделано на <a>x</a>"


def test_labels_script_carries_the_chrome_rules():
    script = labels_script({"material:top": {"en": "Back to top", "ru": "К началу"}}, list(MATERIAL_CHROME))
    assert script.startswith("window.codexLabels = {") and "\nwindow.codexChrome = [[" in script
    assert '"material:top":{"en":"Back to top","ru":"К началу"}' in script


class _Ids(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.ids: dict[str, dict[str, str | None]] = {}
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids[attrs["id"]] = attrs


@pytest.mark.parametrize("lang", LANGS)
def test_the_linker_page_keeps_every_id_the_widget_uses(lang):
    script = (ROOT / "docs/assets/javascripts/linker.js").read_text(encoding="utf-8")
    wanted = set(re.findall(r'\$\("([\w-]+)"\)', script)) | set(re.findall(r'getElementById\("([\w-]+)"\)', script))
    assert "linker-input" in wanted and len(wanted) > 10
    page = linker_page(TEMPLATES, lang)
    ids = _Ids(page.html).ids
    assert wanted <= set(ids)
    assert ids["linker-widget"]["data-state"] == "idle"
    assert ids["linker-preview"]["data-empty"] == LABELS["linker_preview_empty"][lang]
    assert ids["linker-input"]["placeholder"] == LABELS["linker_input_placeholder"][lang]
    assert ids["linker-copy"]["data-codex-text-en"] == LABELS["linker_copy"]["en"]
    assert page.meta["codex_description"] == LABELS["linker_description"]
    assert [entry["id"] for entry in page.toc[0]["children"]] == ["lookup", "traits"]


def test_the_site_pages_carry_their_interface_in_both_languages(glossary):
    for page in (linker_page(TEMPLATES, "ru"), home_page(TEMPLATES, list(glossary.games.values()))):
        langs = re.findall(r'class="codex-l10n" lang="(en|ru)"', page.html)
        assert langs.count("en") == langs.count("ru") > 5
    home = home_page(TEMPLATES, list(glossary.games.values())).html
    assert '<a href="linker/">open the linker</a>' in home and '<a href="linker/">расставить ссылки</a>' in home
    assert all(f'href="{game}/"' in home for game in glossary.games)
    assert "Material for MkDocs" in footer_html()


def test_nav_titles_are_label_keys():
    assert nav_labels([{"site_name": "index.md"}, "other.md", {"linker_title": "linker.md"}]) == {
        "index.md": "site_name", "linker.md": "linker_title"}
    with pytest.raises(NavigationError, match=r"mkdocs.yml: nav: 'Home' \(index.md\) is not a label"):
        nav_labels([{"Home": "index.md"}])


def test_navigation_puts_games_after_the_home_page(glossary):
    nav = navigation(glossary, [{"site_name": "index.md"}, {"linker_title": "linker.md"}])
    titles = [next(iter(entry)) for entry in nav]
    assert titles[0] == '<span class="codex-l10n" lang="en">Rules Codex</span><span class="codex-l10n" lang="ru">Кодекс правил</span>'
    assert [next(iter(entry.values())) for entry in nav][1:-1] == [f"{g}/index.md" for g in glossary.games]
    assert "Term linker" in titles[-1] and "Расстановка ссылок на термины" in titles[-1]


@pytest.mark.slow
@pytest.mark.parametrize("old,new,message", [
    ("  - linker_title: linker.md", "  - Linker: linker.md",
     "mkdocs.yml: nav: 'Linker' (linker.md) is not a label in hooks/codex/labels.py"),
    ("name: palette_dark}", "name: Dark}",
     "mkdocs.yml: theme.palette[0].toggle.name: 'Dark' is not a label in hooks/codex/labels.py"),
])
def test_a_wrong_label_key_in_mkdocs_yml_stops_the_build(tmp_path, old, new, message):
    project = copy_project(tmp_path, FIXTURE)
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert old in text
    config.write_text(text.replace(old, new), encoding="utf-8")
    result = mkdocs_build(project, timeout=300)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr
