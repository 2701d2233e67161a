"""The parts of each page around its content in the reader's language: Material's chrome, the title, the description.

Material renders its interface once, at build time, in theme.language. Where the markup is ours (overrides/), it
carries both languages (labels.both, labels.l10n_attrs). Where it is Material's, `MATERIAL_CHROME` names each
place exactly (a CSS selector, what to set, a label key) and docs/assets/javascripts/i18n.js applies it on the
first load and to each part instant navigation brings in: known elements and attributes, never a search through
the page's text.
"""
from __future__ import annotations

import html

from .labels import LABELS, LANGS, both, both_label, fill, l10n_attrs, other
from .model import Lang

MATERIAL_SITE = "https://squidfunk.github.io/mkdocs-material/"

# What a rule sets: "text" is the element's own text (its child elements stay), "names" the site's two names with
# the reader's first, each marked with its language; any other word is an attribute.
ChromeRule = tuple[str, str, str]  # (CSS selector, "text" | "names" | attribute, label key)

MATERIAL_CHROME: tuple[ChromeRule, ...] = (
    # the header
    (".md-header__inner", "aria-label", "material:header"),
    ("[data-md-component=logo]", "title", "site_name"),
    ("[data-md-component=logo]", "aria-label", "site_name"),
    (".md-header__title .md-header__topic:first-child > .md-ellipsis", "names", "site_name"),
    # search: its dialog (Material gives it no name), field, options, reset button and first message
    (".md-search", "aria-label", "material:search"),
    (".md-search__input", "aria-label", "material:search"),
    (".md-search__input", "placeholder", "material:search.placeholder"),
    (".md-search__options", "aria-label", "material:search"),
    (".md-search__options [type=reset]", "title", "material:search.reset"),
    (".md-search__options [type=reset]", "aria-label", "material:search.reset"),
    (".md-search-result__meta", "text", "material:search.result.initializer"),
    # navigation, the table of contents, the skip link
    (".md-nav--primary", "aria-label", "material:nav"),
    (".md-nav--primary > .md-nav__title", "names", "site_name"),
    (".md-nav--secondary", "aria-label", "material:toc"),
    (".md-nav--secondary > .md-nav__title", "text", "material:toc"),
    (".md-skip", "text", "material:action.skip"),
)


def palette_rules(toggle_keys: list[str]) -> list[ChromeRule]:
    """The colour-scheme toggles: scheme i's toggle (the radio input, and the label that leads to scheme i+1).

    `toggle_keys[i]` is the label key of mkdocs.yml's theme.palette[i].toggle.name."""
    count = len(toggle_keys)
    rules: list[ChromeRule] = []
    for i, key in enumerate(toggle_keys):
        rules.append((f"#__palette_{i}", "aria-label", key))
        rules.append((f'label[for="__palette_{(i + 1) % count}"]', "title", key))
    return rules


def page_title(name: dict[str, str] | None) -> dict[str, str]:
    """The <title> in each language: "Aegis X · Эгида — Rules Codex"; the home page (no name): both site names."""
    site = LABELS["site_name"]
    if name is None:
        return {lang: f"{site[lang]} · {site[other(lang)]}" for lang in LANGS}
    return {lang: f"{name[lang]} — {site[lang]}" for lang in LANGS}


def title_tag(name: dict[str, str] | None, lang: Lang) -> str:
    """`<title>` in `lang` (the build's language), with both for i18n.js."""
    titles = page_title(name)
    return f"<title{l10n_attrs({'text': titles}, lang)}>{html.escape(titles[lang], quote=False)}</title>"


def description_tag(description: dict[str, str] | None, lang: Lang) -> str:
    """`<meta name="description">` in `lang`, with both for i18n.js; the site's description when the page has none."""
    return f'<meta name="description"{l10n_attrs({"content": description or LABELS["site_description"]}, lang)}>'


def footer_html() -> str:
    """The footer's text (overrides/partials/copyright.html): the rights, and what the site is made with."""
    product = f'<a href="{MATERIAL_SITE}" target="_blank" rel="noopener">Material for MkDocs</a>'
    made_with = both({lang: fill("made_with", lang, link=product) for lang in LANGS}, escape=False)
    return f'<div class="md-copyright__highlight">{both_label("copyright")}</div>\n{made_with}'
