"""The generated pages, as HTML: term pages, game indexes and the home page's list of games.

Produced here once per term, not by a Markdown pass over link-heavy text: the hooks give MkDocs only the front
matter and put this HTML in as the page's content. Interface text is in both languages (labels.both); names are
shown as "English · Русский"; definitions carry the `lang` of their text. Links are relative and follow MkDocs'
URL style (`directory_urls`), so the same pages work served (`/game/term/`) and from disk (`game/term.html`).
"""
from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .index import first_sentence
from .forms import fold
from .labels import LANGS, LOCALES, L10N_CLASS, both, both_label, count, label, other
from .linkify import chosen, link
from .links import relative_url
from .model import Game, Lang, SourceDoc, Term
from .resolve import Mention, Resolver

PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
Mentions = dict[str, dict[str, list[Mention]]]  # term -> lang -> mentions in its definition


@dataclass
class GeneratedPage:
    """A page for MkDocs: front matter (title, description, link-preview tags) and the finished content HTML."""

    meta: dict[str, Any]
    html: str
    toc: list[dict[str, Any]] = field(default_factory=list)  # MkDocs toc tokens: level, id, name, children


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def name_pair(names: dict[str, str], first: Lang = "en") -> str:
    """Both names, each marked with its language: "Aegis X · Эгида" (first="ru": "Эгида · Aegis X")."""
    second = other(first)
    return f'<span lang="{first}">{_e(names[first])}</span> · <span lang="{second}">{_e(names[second])}</span>'


def reader_first(names: dict[str, str]) -> str:
    """A pair of names (a category, the site's) with the reader's language first, each part marked with its
    language: rendered for both readers ("object trait · черта объекта" / "черта объекта · object trait")."""
    if names["en"] == names["ru"]:
        return _e(names["en"])
    return both({lang: name_pair(names, lang) for lang in LANGS}, escape=False)


# --- definitions ------------------------------------------------------------------------------


def paragraph_parts(text: str, mentions: list[Mention], exclude: str = "") -> list[list[tuple[str, str | None]]]:
    """Plain text with paragraphs, as (text, term id or None) parts: each other term's first mention is a part of
    its own. Mentions are found on the whole text; one that would straddle a paragraph break is not linked.
    The pages and the PDFs both draw definitions from these parts."""
    spans = []
    pos = 0
    for match in PARAGRAPH_BREAK.finditer(text):
        spans.append((pos, match.start()))
        pos = match.end()
    spans.append((pos, len(text)))
    inside = [m for m in mentions if any(s <= m.start and m.end <= e for s, e in spans)]
    linked = chosen(inside, exclude=frozenset({exclude}))
    out = []
    for start, end in spans:
        chunk = text[start:end]
        body = chunk.strip()
        if not body:
            continue
        offset = start + len(chunk) - len(chunk.lstrip())
        parts: list[tuple[str, str | None]] = []
        cursor = offset
        for mention in linked:
            if offset <= mention.start and mention.end <= offset + len(body):
                parts += [(text[cursor:mention.start], None), (mention.text, mention.term)]
                cursor = mention.end
        parts.append((text[cursor:offset + len(body)], None))
        out.append([part for part in parts if part[0]])
    return out


def definition_html(
    text: str, mentions: list[Mention], url_for: Callable[[str], str],
    title_for: Callable[[str], str] | None = None, exclude: str = "",
) -> str:
    """A definition as <p>s, each other term's first mention linked (with a tooltip); everything else escaped."""
    return "\n".join(
        "<p>" + "".join(html.escape(part, quote=False) if term is None else
                        link(url_for(term), part, "html", title_for(term) if title_for else None)
                        for part, term in paragraph) + "</p>"
        for paragraph in paragraph_parts(text, mentions, exclude)
    )


def tooltip(term: Term, lang: Lang) -> str:
    """What hovering a link to the term shows: its name and its definition's first sentence."""
    return f"{term.name[lang]} ({term.name[other(lang)]}): {first_sentence(term.definition[lang])}"


# --- term pages -------------------------------------------------------------------------------


@dataclass
class Relations:
    """Everything a term page lists besides its own fields, computed once per game."""

    backlinks: dict[str, list[str]]  # term -> terms whose definitions mention it
    implied_by: dict[str, list[str]]  # term -> terms that imply it directly
    implications: dict[str, list[list[str]]]  # term -> every trait it carries, each as a chain from the term


def term_page(
    game: Game, term: Term, mentions: dict[str, list[Mention]], relations: Relations, share_url: str,
    directory_urls: bool = True,
) -> GeneratedPage:
    """One term page: both names, game › category, aliases, RU/EN tabs, relations, source, share block."""
    here = f"{game.id}/{term.id}.md"

    def url(target: str) -> str:
        return relative_url(here, target, directory_urls)

    def term_url(term_id: str) -> str:
        return url(f"{game.id}/{term_id}.md")

    cat = game.categories.get(term.category, {"en": term.category, "ru": term.category})
    index = url(f"{game.id}/index.md")
    parts = [
        f'<h1 id="{_e(term.id)}">{name_pair(term.name)}</h1>',
        f'<p class="codex-crumbs"><a href="{index}">{both(game.name)}</a> › '
        f'<a href="{index}#{category_anchor(term.category)}">{reader_first(cat)}</a></p>',
    ]
    aliases = [(lang, alias) for lang in LANGS for alias in term.aliases.get(lang, [])]
    if aliases:
        shown = ", ".join(f'<span lang="{lang}">{_e(alias)}</span>' for lang, alias in aliases)
        parts.append(f'<p class="codex-aliases">{both_label("aliases")}: {shown}</p>')
    if term.supplied:
        which = ", ".join(f'<span lang="{lang}">{_e(term.name[lang])}</span>' for lang in term.supplied)
        parts.append(f'<p class="codex-note"><em>{which}</em>: {both_label("supplied")}</p>')
    parts.append(_definition_tabs(game, term, mentions, term_url))
    parts.extend(_relation_sections(game, term, relations, term_url))
    parts.append(f'<h2 id="source">{both_label("source")}</h2>')
    parts.append("<ul>" + "".join(f"<li>{both(source_line(game.sources[doc], term))}</li>"
                                  for doc in term.source_docs) + "</ul>")
    parts.append(share_block(term, share_url))
    description = {lang: first_sentence(term.definition[lang]) for lang in LANGS}
    meta = {
        # Themes print the title unescaped: it goes in as HTML text. codex_* (the <title> and the description in
        # both languages: codex.chrome) and og_* are plain text, escaped by the templates.
        "title": _e(term.title),
        "codex_name": {lang: term.title for lang in LANGS},
        "codex_description": description,
        "codex_term": True,
        "og_title": f"{term.title} — {game.name['en']}",
        "og_description": description["ru"],
        "og_locale": LOCALES["ru"],
        "og_locale_alternate": LOCALES["en"],
        "hide": ["toc"],
        "search": {"exclude": True},  # codex.search indexes the glossary itself, with every word form
    }
    return GeneratedPage(meta, "\n".join(parts) + "\n")


def _definition_tabs(game: Game, term: Term, mentions: dict[str, list[Mention]], term_url: Callable[[str], str]) -> str:
    """RU/EN tabs (the WAI-ARIA tabs pattern; docs/assets/javascripts/tabs.js). Without scripts both show.

    The panels' ids are the languages, so `#ru` and `#en` link to a tab."""
    tabs, panels = [], []
    for lang in ("ru", "en"):
        tabs.append(
            f'<button type="button" role="tab" id="tab-{lang}" aria-controls="{lang}" aria-selected="false" '
            f'tabindex="-1" lang="{lang}">{lang.upper()}'
            f'<span class="codex-sr-only"> — {both_label(f"lang_name_{lang}")}</span></button>'
        )
        body = definition_html(
            term.definition[lang], mentions[lang], term_url, lambda tid: tooltip(game.terms[tid], lang),  # noqa: B023 - called at once
            exclude=term.id,
        )
        panels.append(f'<div class="codex-definition" role="tabpanel" id="{lang}" lang="{lang}" '
                      f'aria-labelledby="tab-{lang}" tabindex="0">\n{body}\n</div>')
    heading = f'<h2 class="codex-sr-only" id="definition">{both_label("definition")}</h2>'
    return (f'{heading}\n<div class="codex-tabs" data-codex-tabs>\n'
            f'<div class="codex-tabs__list" role="tablist" aria-labelledby="definition">{"".join(tabs)}</div>\n'
            + "\n".join(panels) + "\n</div>")


def _relation_sections(game: Game, term: Term, relations: Relations, term_url: Callable[[str], str]) -> list[str]:
    chains = relations.implications.get(term.id, [])
    lists: dict[str, list[str]] = {
        "implies": [chain[-1] for chain in chains],
        "implied_by": relations.implied_by.get(term.id, []),
        "cancels": term.cancels,
        "see_also": term.see_also,
        "related": term.related,
        "referenced_by": relations.backlinks.get(term.id, []),
    }
    by_target = {chain[-1]: chain for chain in chains}
    out = []
    for key, ids in lists.items():
        if not ids:
            continue
        items = []
        for tid in ids:
            item = f'<a href="{term_url(tid)}">{name_pair(game.terms[tid].name)}</a>'
            chain = by_target.get(tid, [])
            if key == "implies" and len(chain) > 2:  # carried through another trait: show the chain
                item += ' <span class="codex-chain">' + both(
                    {lang: " → ".join(game.terms[t].name[lang] for t in chain) for lang in LANGS}) + "</span>"
            items.append(f"<li>{item}</li>")
        out.append(f'<h2 id="{key.replace("_", "-")}">{both_label(key)}</h2>')
        out.append(f'<ul class="codex-relations">{"".join(items)}</ul>')
    return out


def source_line(doc: SourceDoc, term: Term) -> dict[str, str]:
    """The source by its title and page, never its file name: "Mage Wars Compiled codex, November 2014, p. 4"."""
    page = term.source_page or doc.page
    return {lang: doc.title[lang] + (f", {label('page', lang)} {page}" if page else "") for lang in LANGS}


def share_block(term: Term, url: str) -> str:
    """Copy the link, a Markdown link or a BBCode link (docs/assets/javascripts/share.js), for the tab shown.

    Every string is made here, by the one link formatter (linkify.link), for both languages."""
    data = []
    for lang in LANGS:
        target = f"{url}#{lang}"
        name = term.name[lang]
        for fmt, text in (("url", target), ("markdown", link(target, _markdown_label(name), "markdown")),
                          ("bbcode", link(target, name.replace("[", "(").replace("]", ")"), "bbcode"))):
            data.append(f'data-{fmt}-{lang}="{_e(text)}"')
    buttons = "".join(
        f'<button type="button" class="md-button" data-share="{fmt}">{text}</button>'
        for fmt, text in (("url", both_label("share_link")), ("markdown", "Markdown"), ("bbcode", "BBCode"))
    )
    return (f'<div class="codex-share" {" ".join(data)}>'
            f'<label class="codex-share__label" for="codex-share-text">{both_label("share")}:</label>'
            f'<input class="codex-share__text" id="codex-share-text" readonly value="{_e(url)}">{buttons}'
            f'<span class="codex-share__status" role="status" aria-live="polite"></span></div>')


def _markdown_label(text: str) -> str:
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def category_anchor(category_id: str) -> str:
    return f"cat-{category_id}"


# --- game indexes -----------------------------------------------------------------------------


def game_index_page(game: Game, pdf: bool = False, directory_urls: bool = True) -> GeneratedPage:
    """A game's index: А–Я by Russian name (for Russian readers), A–Z by English name, and by category."""
    here = f"{game.id}/index.md"

    def term_url(term: Term) -> str:
        return relative_url(here, f"{game.id}/{term.id}.md", directory_urls)

    title = name_pair(game.name) if game.name["en"] != game.name["ru"] else _e(game.name["en"])
    # the count, then what of its sources the glossary covers (game.scope), when the editor said so
    intro: dict[str, str] = {lang: " ".join(filter(None, (count(len(game.terms), "terms", lang) + ".",
                                                         game.scope.get(lang)))) for lang in LANGS}
    parts = [f'<h1 id="{_e(game.id)}">{title}</h1>', f"<p>{both(intro)}</p>"]
    if pdf:
        href = relative_url(here, f"pdf/{game.id}.pdf", directory_urls)
        parts.append(f'<p><a class="md-button" href="{href}" download>{both_label("download_pdf")}</a></p>')
    # Filled by offline.js when a service worker runs: saved with the site, or a "keep this game offline" control.
    parts.append(f'<div class="codex-offline" data-codex-offline-game="{_e(game.id)}" hidden></div>')
    parts.append('<div class="codex-index">')
    orders: tuple[tuple[str, Lang], ...] = (("by_ru", "ru"), ("by_en", "en"))
    for key, name_lang in orders:
        # The Russian-name index is for Russian readers; English readers see A–Z first.
        wrapper = f'<section class="{L10N_CLASS}" lang="ru">' if name_lang == "ru" else "<section>"
        parts += [wrapper, f'<h2 id="{key.replace("_", "-")}">{both_label(key)}</h2>']
        current = None
        for term in sorted(game.terms.values(), key=lambda t: sort_key(t.name[name_lang])):
            letter = initial_letter(term.name[name_lang])
            if letter != current:
                if current is not None:
                    parts.append("</ul>")
                parts += [f'<p class="codex-letter" lang="{name_lang}"><strong>{_e(letter)}</strong></p>', "<ul>"]
                current = letter
            parts.append(f'<li><a href="{term_url(term)}">{name_pair(term.name, name_lang)}</a></li>')
        if current is not None:
            parts.append("</ul>")
        parts.append("</section>")
    parts += ["<section>", f'<h2 id="by-category">{both_label("by_category")}</h2>']
    for cat_id, cat in game.categories.items():
        members = sorted((t for t in game.terms.values() if t.category == cat_id), key=lambda t: sort_key(t.name["en"]))
        if members:
            parts.append(f'<h3 id="{category_anchor(cat_id)}">{reader_first(cat)}</h3>')
            parts.append("<ul>" + "".join(f'<li><a href="{term_url(t)}">{name_pair(t.name)}</a></li>'
                                          for t in members) + "</ul>")
    parts += ["</section>", "</div>"]
    toc = [{"level": 2, "id": key, "name": both_label(label_key), "children": []}
           for key, label_key in (("by-ru", "by_ru"), ("by-en", "by_en"), ("by-category", "by_category"))]
    names = {lang: game.name[lang] if game.name["en"] == game.name["ru"] else f"{game.name[lang]} · {game.name[other(lang)]}"
             for lang in LANGS}
    meta = {
        "title": _e(names["en"]),
        "codex_name": names,
        "codex_description": {lang: label("game_description", lang).format(
            game=game.name[lang], terms=count(len(game.terms), "terms", lang)) for lang in LANGS},
        "search": {"exclude": True},  # codex.search has the game's every term (the index's lists are names)
    }
    return GeneratedPage(meta, "\n".join(parts) + "\n", toc)


def games_list(games: list[Game], from_page: str = "index.md", directory_urls: bool = True) -> str:
    """The home page's list of games, each with its index and size (HTML, both languages)."""
    items = []
    for game in games:
        href = relative_url(from_page, f"{game.id}/index.md", directory_urls)
        size = both({lang: count(len(game.terms), "terms", lang) for lang in LANGS})
        items.append(f'<li><a href="{href}">{both(game.name)}</a> — {size}</li>')
    return '<ul class="codex-games">' + "".join(items) + "</ul>"


def sort_key(name: str) -> str:
    """Alphabetical order: the comparison spelling (forms.fold), opening quotes and brackets ignored."""
    return fold(name).lstrip("«\"'(")


def initial_letter(name: str) -> str:
    stripped = sort_key(name)
    return stripped[:1].upper() if stripped else "#"


# --- shared by the pages and the PDFs ----------------------------------------------------------


def definition_mentions(game: Game, resolver: Resolver) -> Mentions:
    """Every definition's mentions, found once per build and shared by links, backlinks and PDFs."""
    return {t.id: {lang: resolver.mentions(t.definition[lang]) for lang in LANGS} for t in game.terms.values()}


def relations(game: Game, mentions: Mentions, resolver: Resolver) -> Relations:
    """"Referenced by", "Implied by" and every implied trait with its chain, for every term in one pass."""
    backlinks: dict[str, list[str]] = {}
    implied_by: dict[str, list[str]] = {}
    implications: dict[str, list[list[str]]] = {}
    for term in game.terms.values():
        mentioned = {m.term for lang in LANGS for m in mentions[term.id][lang]} - {term.id}
        for target in sorted(mentioned):
            backlinks.setdefault(target, []).append(term.id)
        for target in term.implies:
            implied_by.setdefault(target, []).append(term.id)
        if term.implies:
            traits = resolver.traits([term.id])["traits"]
            implications[term.id] = [t["because"] for t in traits if t["term"] != term.id]
    return Relations(backlinks, implied_by, implications)

