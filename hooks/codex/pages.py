"""The generated pages' Markdown: term pages, game indexes and the home page's list of games."""
from __future__ import annotations

import html

from .index import first_sentence
from .labels import LOCALES, RELATION_SECTIONS, count, label
from .model import LANGS, Game, Term
from .render import _escape_markdown, _title_attr, chosen, link_text
from .resolve import Mention, Resolver

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
        for term in sorted(game.terms.values(), key=lambda t: sort_key(t.name[name_lang])):
            initial = initial_letter(term.name[name_lang])
            if initial != current:
                lines += ["", f"**{_escape_markdown(initial)}**", ""]
                current = initial
            second = "ru" if name_lang == "en" else "en"
            lines.append(f"- [{_escape_markdown(term.name[name_lang])}]({term.id}.md) · "
                         f"{_escape_markdown(term.name[second])}")
        lines.append("")
    lines += [f"## {label('by_category', lang)} {{ #by-category }}", ""]
    for cat_id, cat in game.categories.items():
        members = sorted((t for t in game.terms.values() if t.category == cat_id), key=lambda t: sort_key(t.name[lang]))
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


def sort_key(name: str) -> str:
    return name.casefold().replace("ё", "е").lstrip("«\"'(")


def initial_letter(name: str) -> str:
    stripped = sort_key(name)
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
