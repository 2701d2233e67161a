"""Markdown for term and index pages, and linked text as Markdown, BBCode or HTML."""
from __future__ import annotations

import html
import re
from typing import Callable

from .index import first_sentence
from .model import LANGS, Game, Term
from .resolve import Mention, Resolver

FORMATS = ("markdown", "bbcode", "html")

# Generated headings and labels, in both languages; the site's language (theme.language) picks one.
LABELS = {
    "implies": {"en": "Implies", "ru": "Даёт"},
    "implied_by": {"en": "Implied by", "ru": "Следует из"},
    "cancels": {"en": "Cancels", "ru": "Отменяет"},
    "see_also": {"en": "See also", "ru": "См. также"},
    "referenced_by": {"en": "Referenced by", "ru": "Упоминается в"},
    "source": {"en": "Source", "ru": "Источник"},
    "aliases": {"en": "Also called", "ru": "Другие названия"},
    "page": {"en": "page", "ru": "стр."},
    "by_en": {"en": "A–Z (English names)", "ru": "A–Z (английские названия)"},
    "by_ru": {"en": "А–Я (Russian names)", "ru": "А–Я (русские названия)"},
    "by_category": {"en": "By category", "ru": "По категориям"},
    "terms": {"en": "term terms", "ru": "термин термина терминов"},  # plural forms, see count()
    "supplied": {"en": "name supplied by the project: the source gives none",
                 "ru": "название дано проектом: в источнике его нет"},
    "download_pdf": {"en": "Download this glossary as PDF", "ru": "Скачать глоссарий в PDF"},
    "share": {"en": "Share", "ru": "Поделиться"},
    "copy_link": {"en": "Link", "ru": "Ссылка"},
    # the printable (PDF) glossary
    "rules_glossary": {"en": "Rules glossary", "ru": "Глоссарий правил"},
    "contents": {"en": "Contents", "ru": "Содержание"},
    "sources": {"en": "Sources", "ru": "Источники"},
    "categories": {"en": "Categories", "ru": "Категории"},
    "category": {"en": "Category", "ru": "Категория"},
    "lang_ru": {"en": "Russian", "ru": "Русский"},
    "lang_en": {"en": "English", "ru": "Английский"},
    "print_note": {"en": "Terms are ordered A–Z by English name; underlined words link to their terms.",
                   "ru": "Термины упорядочены по английским названиям (A–Z); подчёркнутые слова — ссылки на термины."},
}

LOCALES = {"en": "en_US", "ru": "ru_RU"}
RELATION_SECTIONS = ("implies", "implied_by", "cancels", "see_also", "referenced_by")


def label(key: str, lang: str) -> str:
    return LABELS[key][lang]


def count(number: int, key: str, lang: str) -> str:
    """"162 термина", "17 терминов", "1 term": the label's plural forms chosen by the language's rule."""
    forms = LABELS[key][lang].split()
    if lang == "ru":
        tens, ones = number % 100, number % 10
        form = forms[2] if 11 <= tens <= 14 else forms[0] if ones == 1 else forms[1] if 2 <= ones <= 4 else forms[2]
    else:
        form = forms[0] if number == 1 else forms[1]
    return f"{number} {form}"


# --- linked text ----------------------------------------------------------------------------


def chosen(mentions: list[Mention], every: bool = False, exclude: frozenset[str] = frozenset()) -> list[Mention]:
    """The mentions to turn into links: each term's first mention only, unless every one is wanted."""
    seen: set[str] = set()
    out = []
    for mention in mentions:
        if mention.term in exclude or (not every and mention.term in seen):
            continue
        seen.add(mention.term)
        out.append(mention)
    return out


def link_text(
    text: str,
    mentions: list[Mention],
    url_for: Callable[[str], str],
    fmt: str = "markdown",
    title_for: Callable[[str], str] | None = None,
    escape_markdown: bool = False,
) -> str:
    """The text with the given mentions replaced by links; everything else is copied (or escaped, for HTML)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (use {', '.join(FORMATS)})")
    outside = {
        "markdown": _escape_markdown if escape_markdown else (lambda s: s),
        "bbcode": lambda s: s.replace("<", "＜"),  # BoardGameGeek cuts a post at a bare '<'
        "html": lambda s: html.escape(s, quote=False),
    }[fmt]
    out, pos = [], 0
    for mention in mentions:
        out.append(outside(text[pos:mention.start]))
        url, shown = url_for(mention.term), mention.text
        if fmt == "markdown":
            title = f' "{_title_attr(title_for(mention.term))}"' if title_for else ""
            out.append(f"[{_escape_markdown(shown) if escape_markdown else shown}]({url}{title})")
        elif fmt == "bbcode":
            out.append(f"[url={url}]{shown.replace('<', '＜')}[/url]")
        else:
            out.append(f'<a href="{html.escape(url)}">{html.escape(shown, quote=False)}</a>')
        pos = mention.end
    out.append(outside(text[pos:]))
    return "".join(out)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>&!|])")


def _escape_markdown(text: str) -> str:
    """Glossary Markdown is plain text plus paragraphs: raw HTML, links and emphasis show as typed."""
    return _MD_SPECIAL.sub(lambda m: {"<": "&lt;", ">": "&gt;", "&": "&amp;"}.get(m.group(1), "\\" + m.group(1)), text)


def _title_attr(text: str) -> str:
    return text.replace("\\", "").replace('"', "”").replace("\n", " ")


# --- pages ----------------------------------------------------------------------------------


def tooltip(term: Term, lang: str) -> str:
    """What hovering a link to the term shows: its name and its definition's first sentence."""
    other = "en" if lang == "ru" else "ru"
    return f"{term.name[lang]} ({term.name[other]}): {first_sentence(term.definition[lang])}"


def term_page(
    game: Game,
    term: Term,
    mentions: dict[str, list[Mention]],
    lang: str,
    backlinks: dict[str, list[str]],
    implied_by: dict[str, list[str]],
    url: str = "",
) -> str:
    """The Markdown of one term page: names, game › category, RU/EN tabs, relations, source (share data in front matter)."""
    cat = game.categories.get(term.category, {"en": term.category, "ru": term.category})
    other = "en" if lang == "ru" else "ru"
    lines = [
        "---",
        # Themes print title and description unescaped: they go in as HTML text; og_* are escaped by overrides/.
        f"title: {_yaml_str(html.escape(term.title))}",
        f"description: {_yaml_str(html.escape(first_sentence(term.definition[lang])))}",
        "codex_term: true",
        f"og_title: {_yaml_str(f'{term.title} — {game.name[lang]}')}",
        f"og_description: {_yaml_str(first_sentence(term.definition[lang]))}",
        f"og_locale: {LOCALES[lang]}",
        f"og_locale_alternate: {LOCALES[other]}",
    ]
    if url:  # the Share block, drawn by overrides/main.html (the template escapes these values)
        lines += [
            f"share_url: {_yaml_str(url)}",
            f"share_name_en: {_yaml_str(term.name['en'])}",
            f"share_name_ru: {_yaml_str(term.name['ru'])}",
            f"share_label: {_yaml_str(label('share', lang))}",
            f"share_link_label: {_yaml_str(label('copy_link', lang))}",
        ]
    lines += [
        "---",
        "",
        f"# {_escape_markdown(term.title)}",
        "",
        # Paragraph classes by attr_list: cheaper to convert than md_in_html blocks, on every term page.
        f"[{_escape_markdown(game.name[lang])}](index.md) › "
        f"[{_escape_markdown(cat[lang])} · {_escape_markdown(cat[other])}](index.md#{_category_anchor(term.category)})",
        "{: .codex-crumbs }",
        "",
    ]
    aliases = [a for lang_ in (lang, other) for a in term.aliases.get(lang_, [])]
    if aliases:
        shown = ", ".join(_escape_markdown(a) for a in aliases)
        lines += [f"{label('aliases', lang)}: {shown}", "{: .codex-aliases }", ""]
    if term.supplied:
        which = ", ".join(term.name[lang_] for lang_ in term.supplied)
        lines += [f"*{_escape_markdown(which)}*: {label('supplied', lang)}", "{: .codex-note }", ""]
    for tab_lang in ("ru", "en"):
        body = linked_definition(game, term, mentions[tab_lang], tab_lang)
        lines.append(f'=== "{tab_lang.upper()}"')
        lines.append("")
        lines.extend(("    " + line) if line.strip() else "" for line in body.split("\n"))
        lines.append("")
    relations = {
        "implies": term.implies,
        "implied_by": implied_by.get(term.id, []),
        "cancels": term.cancels,
        "see_also": term.see_also,
        "referenced_by": backlinks.get(term.id, []),
    }
    for key in RELATION_SECTIONS:
        ids = relations[key]
        if not ids:
            continue
        # Relation lists are navigation, not content: kept out of the search index (Material's exclusion).
        lines += [f"## {label(key, lang)} {{ #{key.replace('_', '-')} data-search-exclude }}", ""]
        lines += [f"- {_term_link(game.terms[tid], lang)}" for tid in ids]
        lines.append("")
    lines += [f"## {label('source', lang)} {{ #source data-search-exclude }}", ""]
    for doc_id in term.source_docs:
        doc = game.sources[doc_id]
        page = term.source_page or doc.page
        where = f", {label('page', lang)} {page}" if page else ""
        lines.append(f"- {_escape_markdown(doc.title[lang])}{where} (`{doc.file}`)")
    lines.append("")
    return "\n".join(lines)


def linked_definition(game: Game, term: Term, mentions: list[Mention], lang: str) -> str:
    """A definition with each other term's first mention linked (with a tooltip); never a link to itself."""
    return link_text(
        term.definition[lang], chosen(mentions, exclude=frozenset({term.id})),
        url_for=lambda tid: f"{tid}.md",
        title_for=lambda tid: tooltip(game.terms[tid], lang),
        escape_markdown=True,
    )


def _term_link(term: Term, lang: str) -> str:
    other = "en" if lang == "ru" else "ru"
    return f"[{_escape_markdown(term.name[lang])} · {_escape_markdown(term.name[other])}]({term.id}.md)"


def _category_anchor(category_id: str) -> str:
    return f"cat-{category_id}"


def game_index_page(game: Game, lang: str, pdf_name: str | None = None) -> str:
    """A game's index: every term A–Z by English name, А–Я by Russian name, and by category."""
    other = "en" if lang == "ru" else "ru"
    lines = [
        "---",
        f"title: {_yaml_str(html.escape(game.name[lang]))}",
        "---",
        "",
        f"# {_escape_markdown(game.name[lang])}",
        "",
        f"{count(len(game.terms), 'terms', lang)}.",
        "",
    ]
    if pdf_name:
        lines += [f"[{label('download_pdf', lang)}](../pdf/{pdf_name}){{ .md-button }}", ""]
    lines += ['<div class="codex-index" markdown>', ""]
    for key, name_lang in (("by_en", "en"), ("by_ru", "ru")):
        lines += [f"## {label(key, lang)} {{ #{key.replace('_', '-')} }}", ""]
        current = None
        for term in sorted(game.terms.values(), key=lambda t: _sort_key(t.name[name_lang])):
            initial = _initial(term.name[name_lang])
            if initial != current:
                lines += ["", f"**{_escape_markdown(initial)}**", ""]
                current = initial
            second = "ru" if name_lang == "en" else "en"
            lines.append(f"- [{_escape_markdown(term.name[name_lang])}]({term.id}.md) · "
                         f"{_escape_markdown(term.name[second])}")
        lines.append("")
    lines += [f"## {label('by_category', lang)} {{ #by-category }}", ""]
    for cat_id, cat in game.categories.items():
        members = sorted((t for t in game.terms.values() if t.category == cat_id), key=lambda t: _sort_key(t.name[lang]))
        if not members:
            continue
        lines += [f"### {_escape_markdown(cat[lang])} · {_escape_markdown(cat[other])} {{ #{_category_anchor(cat_id)} }}", ""]
        lines += [f"- {_term_link(t, lang)}" for t in members]
        lines.append("")
    lines += ["</div>", ""]
    return "\n".join(lines)


def games_list(games: list[Game], lang: str) -> str:
    """The home page's list of games, each with its index and size."""
    return "\n".join(
        f"- [{_escape_markdown(g.name[lang])}]({g.id}/index.md) — {count(len(g.terms), 'terms', lang)}" for g in games
    )


def _sort_key(name: str) -> str:
    return name.casefold().replace("ё", "е").lstrip("«\"'(")


def _initial(name: str) -> str:
    stripped = _sort_key(name)
    return stripped[:1].upper() if stripped else "#"


def _yaml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def definition_mentions(game: Game, resolver: Resolver) -> dict[str, dict[str, list[Mention]]]:
    """Every definition's mentions, found once per build and shared by links and backlinks."""
    return {t.id: {lang: resolver.mentions(t.definition[lang]) for lang in LANGS} for t in game.terms.values()}


def relation_maps(
    game: Game, mentions: dict[str, dict[str, list[Mention]]]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """"Referenced by" and "Implied by" for every term, in one pass (not per page)."""
    backlinks: dict[str, list[str]] = {}
    implied_by: dict[str, list[str]] = {}
    for term in game.terms.values():
        mentioned = {m.term for lang in LANGS for m in mentions[term.id][lang]} - {term.id}
        for target in sorted(mentioned):
            backlinks.setdefault(target, []).append(term.id)
        for target in term.implies:
            implied_by.setdefault(target, []).append(term.id)
    return backlinks, implied_by
