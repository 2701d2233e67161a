"""One game's glossary as a standalone, printable HTML document (the source of its PDF); no I/O.

Structure, which the PDF's bookmarks follow (Chromium makes one outline entry per <h1>):
the title page (<h1>), the contents (<h1>), then one <h1> per term, A–Z by English name. Nothing else is a
heading: letter dividers and the RU/EN labels are styled paragraphs, so the outline has exactly 2 + terms entries.
Element ids of the document's own parts contain "_", which a term id (a slug) never does: no collisions.
"""
from __future__ import annotations

import html
import re

from . import index as index_module
from .model import Game, Term
from .labels import count, label
from .pages import initial_letter, sort_key, definition_mentions
from .render import chosen, link_text
from .resolve import Mention, Resolver

FRONT_MATTER = ("_title", "_contents")  # the ids of the non-term headings, in document order
RELATIONS = ("implies", "cancels", "see_also", "related")
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")

CSS = """
@page {
  size: A4;
  margin: 17mm 16mm 17mm 18mm;
  @top-left { content: %(running)s; font: 7.5pt "DejaVu Sans", "Liberation Sans", sans-serif; color: #777; }
  @bottom-right { content: counter(page); font: 8pt "DejaVu Sans", "Liberation Sans", sans-serif; color: #555; }
}
@page :first {
  @top-left { content: none; }
  @bottom-right { content: none; }
}
html { font-family: "DejaVu Serif", "DejaVu Sans", "Liberation Serif", "Liberation Sans", serif;
       font-size: 9.5pt; line-height: 1.38; color: #111; }
body { margin: 0; }
h1, .ui, .meta, .lang-head, .rel, .source, .letter, .toc, .title-page {
  font-family: "DejaVu Sans", "Liberation Sans", sans-serif; }
/* Chromium names a bookmark after its heading's laid-out lines and drops the space where a line wraps;
   a preserved space survives the wrap. (The heading's text is one line with single spaces.) */
h1 { white-space: pre-wrap; }
a { color: #3b1f8f; text-decoration: underline; text-decoration-color: #b7a9e0; text-underline-offset: 1.5pt; }
p { margin: 0 0 0.45em; orphans: 2; widows: 2; }

/* title page */
.title-page { height: 255mm; display: flex; flex-direction: column; justify-content: center; break-after: page; }
.kicker { font-size: 11pt; letter-spacing: 0.08em; text-transform: uppercase; color: #5b3fb3; margin-bottom: 4mm; }
.title-page h1 { font-size: 30pt; line-height: 1.15; margin: 0 0 3mm; border: 0; padding: 0; }
.subtitle { font-size: 17pt; color: #444; margin: 0 0 8mm; }
.count { font-size: 11pt; color: #333; margin-bottom: 10mm; }
.title-head { font-size: 9pt; text-transform: uppercase; letter-spacing: 0.06em; color: #666;
  margin: 6mm 0 2mm; font-weight: bold; }
.title-page ul { list-style: none; padding: 0; margin: 0; font-size: 10pt; }
.title-page li { margin: 0 0 1.5mm; }
.title-page .file { font-family: "DejaVu Sans Mono", monospace; font-size: 8pt; color: #777; }
.cats { columns: 2; column-gap: 8mm; }
.cats li { break-inside: avoid; }
.note { margin-top: 10mm; font-size: 9pt; color: #555; }

/* contents */
.contents { break-after: page; }
.contents h1 { font-size: 18pt; margin: 0 0 3mm; border: 0; padding: 0; }
.letters { font-size: 10pt; margin: 0 0 4mm; word-spacing: 0.25em; }
.letters a { text-decoration: none; font-weight: bold; }
.toc { columns: 2; column-gap: 8mm; font-size: 8.6pt; line-height: 1.3; }
.toc-letter { font-weight: bold; color: #5b3fb3; font-size: 10pt; margin: 2.2mm 0 0.8mm; break-after: avoid; }
.toc-letter:first-child { margin-top: 0; }
.toc ul { list-style: none; margin: 0; padding: 0; }
.toc li { margin: 0 0 0.9mm; padding-left: 3mm; text-indent: -3mm; break-inside: avoid; }
.toc a { text-decoration: none; color: #111; }
.toc .other { color: #555; }

/* terms */
.letter { font-size: 15pt; font-weight: bold; color: #5b3fb3; border-bottom: 1.2pt solid #5b3fb3;
  margin: 6mm 0 2mm; padding-bottom: 0.5mm; break-after: avoid; }
.letter:first-child { margin-top: 0; }
.term { margin: 0 0 4.5mm; }
.term h1 { font-size: 12.5pt; line-height: 1.25; margin: 0 0 0.8mm; padding-top: 2.2mm; border-top: 0.5pt solid #ccc;
  break-after: avoid; }
.letter + .term h1 { border-top: 0; padding-top: 0; }
.term h1 .sep, .toc .sep { color: #999; font-weight: normal; }
.meta { font-size: 8pt; color: #555; margin: 0 0 1.8mm; break-after: avoid; }
.meta .cat { color: #5b3fb3; }
.lang-head { font-size: 7.5pt; font-weight: bold; letter-spacing: 0.06em; color: #777; margin: 1.6mm 0 0.4mm;
  break-after: avoid; }
.lang-head .code { color: #fff; background: #5b3fb3; border-radius: 1.2pt; padding: 0 1.2mm; margin-right: 1.2mm; }
.def p:last-child { margin-bottom: 0; }
.rel, .source { font-size: 8.3pt; margin: 1.4mm 0 0; color: #333; }
.rel + .rel { margin-top: 0.4mm; }
.rel .what, .source .what { font-weight: bold; color: #555; }
.source { color: #666; }
"""


def print_html(game: Game, lang: str, mentions: dict[str, dict[str, list[Mention]]] | None = None) -> str:
    """The whole printable document for one game; interface words in `lang` ("en" or "ru"). `mentions` are the
    definitions' mentions when the caller (the site build) has found them already."""
    if mentions is None:
        mentions = definition_mentions(game, Resolver(index_module.build(game)))
    ordered = sorted(game.terms.values(), key=lambda t: (sort_key(t.name["en"]), t.id))
    groups: list[tuple[str, list[Term]]] = []
    for term in ordered:
        initial = initial_letter(term.name["en"])
        if not groups or groups[-1][0] != initial:
            groups.append((initial, []))
        groups[-1][1].append(term)
    running = f"{game.name[lang]} — {label('rules_glossary', lang)}"
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_e(lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{_e(running)}</title>",
        f"<style>{CSS % {'running': css_string(running)}}</style>",
        "</head>",
        "<body>",
        _title_page(game, lang),
        _contents(groups, lang),
        '<main class="terms">',
    ]
    for number, (initial, terms) in enumerate(groups):
        parts.append(f'<p class="letter" id="_letter-{number}">{_e(initial)}</p>')
        for term in terms:
            parts.append(_term_section(game, term, mentions[term.id], lang))
    parts += ["</main>", "</body>", "</html>", ""]
    return "\n".join(parts)


def _title_page(game: Game, lang: str) -> str:
    other = _other(lang)
    out = ['<section class="title-page" id="_title">',
           f'<p class="kicker">{_e(label("rules_glossary", lang))} · {_e(label("rules_glossary", other))}</p>',
           f'<h1 lang="{lang}">{_e(_line(game.name[lang]))}</h1>']
    if game.name[other] != game.name[lang]:
        out.append(f'<p class="subtitle" lang="{other}">{_e(game.name[other])}</p>')
    out.append(f'<p class="count">{_e(count(len(game.terms), "terms", lang))}</p>')
    out.append(f'<p class="title-head">{_e(label("sources", lang))}</p>')
    out.append("<ul>")
    for doc in game.sources.values():
        page = f", {_e(label('page', lang))} {_e(str(doc.page))}" if doc.page else ""
        second = f" · {_e(doc.title[other])}" if doc.title[other] != doc.title[lang] else ""
        out.append(f'<li>{_e(doc.title[lang])}{second}{page} <span class="file">{_e(doc.file)}</span></li>')
    out.append("</ul>")
    counts = {cat_id: 0 for cat_id in game.categories}
    for term in game.terms.values():
        counts[term.category] = counts.get(term.category, 0) + 1
    out.append(f'<p class="title-head">{_e(label("categories", lang))}</p>')
    out.append('<ul class="cats">')
    for cat_id, cat in game.categories.items():
        if counts.get(cat_id):
            out.append(f"<li>{_e(cat[lang])} · {_e(cat[other])} — {counts[cat_id]}</li>")
    out.append("</ul>")
    out.append(f'<p class="note">{_e(label("print_note", lang))}</p>')
    out.append("</section>")
    return "\n".join(out)


def _contents(groups: list[tuple[str, list[Term]]], lang: str) -> str:
    out = ['<section class="contents" id="_contents">', f"<h1>{_e(label('contents', lang))}</h1>"]
    letters = " ".join(f'<a href="#_letter-{n}">{_e(initial)}</a>' for n, (initial, _) in enumerate(groups))
    out.append(f'<p class="letters ui">{letters}</p>')
    out.append('<div class="toc">')
    for initial, terms in groups:
        out.append(f'<p class="toc-letter">{_e(initial)}</p>')
        out.append("<ul>")
        for term in terms:
            out.append(f'<li><a href="#{_e(term.id)}"><span lang="en">{_e(term.name["en"])}</span>'
                       f'<span class="sep"> · </span><span class="other" lang="ru">{_e(term.name["ru"])}</span></a></li>')
        out.append("</ul>")
    out += ["</div>", "</section>"]
    return "\n".join(out)


def _term_section(game: Game, term: Term, mentions: dict[str, list[Mention]], lang: str) -> str:
    other = _other(lang)
    cat = game.categories.get(term.category, {"en": term.category, "ru": term.category})
    out = [f'<section class="term" id="{_e(term.id)}">',
           f'<h1><span lang="en">{_e(_line(term.name["en"]))}</span><span class="sep"> · </span>'
           f'<span lang="ru">{_e(_line(term.name["ru"]))}</span></h1>']
    meta = [f'{_e(label("category", lang))}: <span class="cat">{_e(cat[lang])} · {_e(cat[other])}</span>']
    aliases = [a for lang_ in (lang, other) for a in term.aliases.get(lang_, [])]
    if aliases:
        meta.append(f'{_e(label("aliases", lang))}: {_e(", ".join(aliases))}')
    if term.supplied:
        which = ", ".join(term.name[lang_] for lang_ in term.supplied)
        meta.append(f"<i>{_e(which)}</i>: {_e(label('supplied', lang))}")
    out.append(f'<p class="meta">{" · ".join(meta)}</p>')
    for def_lang in ("ru", "en"):
        out.append(f'<div class="def" lang="{def_lang}">')
        out.append(f'<p class="lang-head"><span class="code">{def_lang.upper()}</span>'
                   f'{_e(label("lang_" + def_lang, lang))}</p>')
        out.append(definition_html(term.definition[def_lang], mentions[def_lang], exclude=term.id))
        out.append("</div>")
    for key in RELATIONS:
        ids = [tid for tid in getattr(term, key) if tid in game.terms]
        if ids:
            links = ", ".join(_term_link(game.terms[tid]) for tid in ids)
            out.append(f'<p class="rel"><span class="what">{_e(label(key, lang))}:</span> {links}</p>')
    sources = []
    for doc_id in term.source_docs:
        doc = game.sources.get(doc_id)
        if doc is None:
            continue
        page = term.source_page or doc.page
        sources.append(_e(doc.title[lang]) + (f", {_e(label('page', lang))} {_e(str(page))}" if page else ""))
    if sources:
        out.append(f'<p class="source"><span class="what">{_e(label("source", lang))}:</span> {"; ".join(sources)}</p>')
    out.append("</section>")
    return "\n".join(out)


def definition_html(text: str, mentions: list[Mention], exclude: str = "") -> str:
    """Plain text with paragraphs as <p>s; each other term's first mention links to `#term-id`; all else escaped.

    Mentions are found on the whole text; one that would straddle a paragraph break is not linked.
    """
    paragraphs = []
    pos = 0
    for match in PARAGRAPH_BREAK.finditer(text):
        paragraphs.append((pos, match.start()))
        pos = match.end()
    paragraphs.append((pos, len(text)))
    inside = [m for m in mentions if any(s <= m.start and m.end <= e for s, e in paragraphs)]
    linked = chosen(inside, exclude=frozenset({exclude}))
    out = []
    for start, end in paragraphs:
        body = text[start:end].strip()
        if not body:
            continue
        lead = len(text[start:end]) - len(text[start:end].lstrip())
        offset = start + lead
        local = [
            Mention(m.start - offset, m.end - offset, m.text, m.term, m.parameter)
            for m in linked if offset <= m.start and m.end <= offset + len(body)
        ]
        out.append(f"<p>{link_text(body, local, url_for=lambda tid: f'#{tid}', fmt='html')}</p>")
    return "\n".join(out)


def _term_link(term: Term) -> str:
    return (f'<a href="#{_e(term.id)}"><span lang="en">{_e(term.name["en"])}</span> · '
            f'<span lang="ru">{_e(term.name["ru"])}</span></a>')


def css_string(text: str) -> str:
    """A CSS string literal that cannot end the string or the <style> element it sits in."""
    out = []
    for char in text:
        if char in '"\\<>&' or ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\{ord(char):x} ")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _line(text: str) -> str:
    """Heading text as one line with single spaces (headings keep their spaces: see the CSS)."""
    return " ".join(text.split())


def _other(lang: str) -> str:
    return "en" if lang == "ru" else "ru"


def _e(text: str) -> str:
    return html.escape(text, quote=True)
