"""The site's own pages, the home page and the linker page, in both languages from labels.

docs/index.md and docs/linker.md hold front matter and a marker; the hooks put this HTML in its place, so
their text lives with every other interface string (labels.LABELS) and follows the reader's language the same
way. The linker's markup keeps every id and attribute docs/assets/javascripts/linker.js works with.
"""
from __future__ import annotations

import html

from .labels import LABELS, LANGS, both, both_label, fill, l10n_attrs
from .links import relative_url
from .model import Game
from .pages import GeneratedPage, games_list, reader_first


# What a reader may type in the lookup box, shown as typed in each language's help.
LOOKUP_EXAMPLES = '<code lang="en">Aegis 2</code>, <code lang="ru">горение</code>'


def _toc(h1: tuple[str, str], h2s: list[tuple[str, str]]) -> list[dict[str, object]]:
    """MkDocs toc tokens: the h1 with its h2s (Material shows the h2s; the skip link goes to the h1)."""
    children = [{"level": 2, "id": anchor, "name": name, "children": []} for anchor, name in h2s]
    return [{"level": 1, "id": h1[0], "name": h1[1], "children": children}]


def _section(anchor: str, key: str) -> str:
    return f'<h2 id="{anchor}">{both_label(key)}</h2>'


def home_page(games: list[Game], from_page: str = "index.md", directory_urls: bool = True) -> GeneratedPage:
    """The home page: what the site is, its games, the linker, the PDFs and reading offline."""
    linker = relative_url(from_page, "linker.md", directory_urls)
    link = {lang: f'<a href="{linker}">{html.escape(LABELS["home_linker_link"][lang])}</a>' for lang in LANGS}
    title = reader_first(LABELS["site_name"])
    parts = [
        f'<h1 id="rules-codex">{title}</h1>',
        both_label("home_intro", "p"),
        _section("games", "home_games"),
        games_list(games, from_page, directory_urls),
        _section("linker", "home_linker"),
        both({lang: fill("home_linker_text", lang, link=link[lang]) for lang in LANGS}, "p", escape=False),
        _section("offline", "home_offline"),
        both_label("home_offline_text", "p"),
        both_label("home_install", "p"),
    ]
    toc = _toc(("rules-codex", title), [("games", both_label("home_games")), ("linker", both_label("home_linker")),
                                        ("offline", both_label("home_offline"))])
    return GeneratedPage({"codex_description": LABELS["site_description"]}, "\n".join(parts) + "\n", toc)


def _text(key: str, lang: str) -> str:
    """An element whose text a script replaces wholesale (textContent): one text node, put in the reader's
    language by i18n.js, rather than a pair of spans a script would flatten into one string."""
    return f'{l10n_attrs({"text": LABELS[key]}, lang)}>{html.escape(LABELS[key][lang], quote=False)}'


def _option(value: str, key: str, lang: str, selected: bool = False) -> str:
    chosen = " selected" if selected else ""
    if LABELS[key]["en"] == LABELS[key]["ru"]:
        return f'<option value="{value}"{chosen}>{html.escape(LABELS[key]["en"], quote=False)}</option>'
    return f'<option value="{value}"{chosen}{_text(key, lang)}</option>'


def linker_page(lang: str) -> GeneratedPage:
    """The linker (linker.js): paste a post, get it linked; find a term; traits and what follows from them.

    `lang` is the build's language, for the attributes that can hold only one (placeholders)."""
    def attrs(**keys: str) -> str:
        return l10n_attrs({name.replace("_", "-"): LABELS[key] for name, key in keys.items()}, lang)

    parts = [
        f'<h1 id="linker">{both_label("linker_title")}</h1>',
        both_label("linker_intro", "p"),
        '<div class="linker" id="linker-widget" data-state="idle">',
        '<p class="linker-statusbar" aria-live="polite"><span id="linker-status" class="linker-status" '
        f'role="status">{both_label("linker_loading")}</span>'
        '<span id="linker-status-label" class="linker-status-label"></span></p>',
        f'<noscript><p class="linker-error">{both_label("linker_noscript")}</p></noscript>',
        '<div class="linker-controls">',
        f'<label class="linker-field">{both_label("linker_game")}<select id="linker-game" name="game"></select></label>',
        f'<label class="linker-field">{both_label("linker_format")}<select id="linker-format" name="format">'
        + _option("markdown", "linker_format_markdown", lang, selected=True)
        + _option("bbcode", "linker_format_bbcode", lang) + _option("html", "linker_format_html", lang)
        + "</select></label>",
        '<label class="linker-check"><input type="checkbox" id="linker-every" name="every"> '
        f'{both_label("linker_every")}</label>',
        "</div>",
        '<div class="linker-columns">',
        '<div class="linker-pane">',
        f'<div class="linker-pane-head"><label for="linker-input">{both_label("linker_input")}</label></div>',
        f'<textarea id="linker-input" name="text" rows="14" spellcheck="false"'
        f'{attrs(placeholder="linker_input_placeholder")}></textarea>',
        "</div>",
        '<div class="linker-pane">',
        f'<div class="linker-pane-head"><label for="linker-output">{both_label("linker_output")}</label>'
        f'<button id="linker-copy" class="md-button linker-copy" type="button"{_text("linker_copy", lang)}'
        "</button></div>",
        '<textarea id="linker-output" name="output" rows="9" readonly spellcheck="false"></textarea>',
        f'<div class="linker-pane-head"><span id="linker-preview-label">{both_label("linker_preview")}</span></div>',
        f'<div id="linker-preview" class="linker-preview" role="region" aria-labelledby="linker-preview-label"'
        f'{attrs(data_empty="linker_preview_empty")}></div>',
        '<p id="linker-error" class="linker-error" role="alert" hidden></p>',
        "</div>",
        "</div>",
        "</div>",
        _section("lookup", "linker_lookup_heading"),
        both({lang: fill("linker_lookup_help", lang, examples=LOOKUP_EXAMPLES) for lang in LANGS}, "p", escape=False),
        '<div class="linker linker-tool">',
        f'<label class="linker-field" for="linker-lookup">{both_label("linker_lookup")}<input type="search" '
        f'id="linker-lookup" name="lookup" autocomplete="off" spellcheck="false"'
        f'{attrs(placeholder="linker_lookup_placeholder")}></label>',
        '<div id="linker-lookup-results" class="linker-results" aria-live="polite"></div>',
        "</div>",
        _section("traits", "linker_traits_heading"),
        both_label("linker_traits_help", "p"),
        '<div class="linker linker-tool">',
        f'<label class="linker-field" for="linker-traits">{both_label("linker_traits")}<input type="text" '
        f'id="linker-traits" name="traits" autocomplete="off" spellcheck="false"'
        f'{attrs(placeholder="linker_traits_placeholder")}></label>',
        '<div id="linker-traits-results" class="linker-results" aria-live="polite"></div>',
        "</div>",
        both_label("linker_privacy", "p"),
    ]
    toc = _toc(("linker", both_label("linker_title")),
               [("lookup", both_label("linker_lookup_heading")), ("traits", both_label("linker_traits_heading"))])
    return GeneratedPage({"codex_description": LABELS["linker_description"]}, "\n".join(parts) + "\n", toc)
