"""The site's own pages, the home page and the linker page, rendered from Jinja templates with the labels.

docs/index.md and docs/linker.md hold front matter and a marker; the hooks put the rendered HTML in its place. The
markup is in templates where a Material user looks for it (overrides/partials/home.html, linker.html), rendered by
the theme's Jinja environment; their text is every other interface string's (labels.LABELS), handed in here in
both languages, so it follows the reader's language the same way. The linker's template keeps every id and
attribute docs/assets/javascripts/linker.js works with.
"""
from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from .labels import LABELS, LANGS, both, both_label, fill, l10n_attrs
from .links import relative_url
from .model import Game, Lang
from .pages import GeneratedPage, games_list, reader_first

if TYPE_CHECKING:
    from jinja2 import Environment

# The templates, by their path in the theme (overrides/ is the theme's custom_dir).
HOME_TEMPLATE = "partials/home.html"
LINKER_TEMPLATE = "partials/linker.html"

# What a reader may type in the lookup box, shown as typed in each language's help.
LOOKUP_EXAMPLES = '<code lang="en">Aegis 2</code>, <code lang="ru">горение</code>'


def template_env(overrides: Path) -> Environment:
    """The templates outside MkDocs (tests, tools): an environment over overrides/ that escapes as the theme's
    does (not at all: the helpers below hand in HTML, and label text is escaped by them)."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(loader=FileSystemLoader(overrides), undefined=StrictUndefined, auto_reload=False)


def _helpers(lang: Lang) -> dict[str, object]:
    """What both templates word their text with: labels in both languages as HTML, or in `lang` (the build's
    language) where an attribute or an element holds one."""
    def both_html(key: str, tag: str = "span", **parts: str | Callable[[str], str]) -> Markup:
        """A label in both languages with its {places} filled: a part is HTML, or a function of the language."""
        return Markup(both({each: fill(key, each, **{name: str(part(each) if callable(part) else part)
                                                     for name, part in parts.items()}) for each in LANGS},
                           tag, escape=False))

    return {
        "both_label": lambda key, tag="span": Markup(both_label(key, tag)),
        "both_html": both_html,
        "text": lambda key, in_lang=None: Markup(html.escape(LABELS[key][in_lang or lang], quote=False)),
        "attrs": lambda **keys: Markup(l10n_attrs({name.replace("_", "-"): LABELS[key] for name, key in keys.items()},
                                                  lang)),
        "same": lambda key: LABELS[key]["en"] == LABELS[key]["ru"],
    }


def _toc(h1: tuple[str, str], h2s: list[tuple[str, str]]) -> list[dict[str, object]]:
    """MkDocs toc tokens: the h1 with its h2s (Material shows the h2s; the skip link goes to the h1)."""
    children = [{"level": 2, "id": anchor, "name": name, "children": []} for anchor, name in h2s]
    return [{"level": 1, "id": h1[0], "name": h1[1], "children": children}]


def home_page(env: Environment, games: list[Game], from_page: str = "index.md", directory_urls: bool = True,
              lang: Lang = "en") -> GeneratedPage:
    """The home page: what the site is, its games, the linker, the PDFs and reading offline."""
    title = reader_first(LABELS["site_name"])
    content = env.get_template(HOME_TEMPLATE).render(
        **_helpers(lang), title=Markup(title), games=Markup(games_list(games, from_page, directory_urls)),
        linker=relative_url(from_page, "linker.md", directory_urls))
    toc = _toc(("rules-codex", title), [("games", both_label("home_games")), ("linker", both_label("home_linker")),
                                        ("offline", both_label("home_offline"))])
    return GeneratedPage({"codex_description": LABELS["site_description"]}, content.strip() + "\n", toc)


def linker_page(env: Environment, lang: Lang) -> GeneratedPage:
    """The linker (linker.js): paste a post, get it linked; find a term; traits and what follows from them.

    `lang` is the build's language, for the attributes that can hold only one (placeholders)."""
    content = env.get_template(LINKER_TEMPLATE).render(**_helpers(lang), examples=Markup(LOOKUP_EXAMPLES))
    toc = _toc(("linker", both_label("linker_title")),
               [("lookup", both_label("linker_lookup_heading")), ("traits", both_label("linker_traits_heading"))])
    # codex_linker: overrides/main.html starts the linker's worker first thing in this page's head
    return GeneratedPage({"codex_description": LABELS["linker_description"], "codex_linker": True},
                         content.strip() + "\n", toc)
