"""One game's glossary as a printable document: a fixed Typst template plus the glossary as JSON data; no I/O.

Every glossary string reaches Typst as data (a JSON value read by the template), never as markup, so hostile text
prints as typed. Structure, which the PDF's bookmarks follow (Typst makes one outline entry per heading): the
title page (a heading), the contents (a heading), then one heading per term, A–Z by English name. Nothing else is
a heading: letter dividers and the RU/EN labels are styled text, so the outline has exactly 2 + terms entries.
Term ids (slugs) are the link targets; the document's own targets start with "_", which a slug never does.
"""
from __future__ import annotations

import json
from typing import Any

from . import index as index_module
from .labels import count, label, other
from .model import Game, Lang, Term
from .pages import Mentions, definition_mentions, initial_letter, paragraph_parts, sort_key, source_line
from .resolve import Mention, Resolver

FRONT_MATTER = ("_title", "_contents")  # the targets of the non-term headings, in document order
RELATIONS = ("implies", "cancels", "see_also", "related")

# The layout. It reads only `data` (sys.inputs.data, JSON): strings are shown as text, whatever they contain.
TEMPLATE = r"""
#let data = json(bytes(sys.inputs.data))
#let accent = rgb("#5b3fb3")
#let grey = luma(100)
#let sans = ("DejaVu Sans", "Libertinus Serif")
#set document(title: data.running, author: "Rules Codex")
#set text(font: ("DejaVu Serif", "Libertinus Serif"), size: 9.5pt, lang: data.lang)
#set par(leading: 0.52em, spacing: 0.7em)
#set page(paper: "a4", margin: (top: 17mm, bottom: 17mm, left: 18mm, right: 16mm),
  header: context if counter(page).get().first() > 1 { text(font: sans, size: 7.5pt, fill: grey, data.running) },
  footer: context if counter(page).get().first() > 1 {
    align(right, text(font: sans, size: 8pt, fill: grey, counter(page).display())) })
#show heading: set text(font: sans)
// A cross-reference: underlined in the text (the contents' links are plain).
#let xref(to, body) = link(label(to), underline(stroke: 0.4pt + rgb("#b7a9e0"), offset: 1.5pt,
  text(fill: rgb("#3b1f8f"), body)))
#let names(n) = [#text(lang: "en", n.en)#text(fill: luma(150), weight: "regular", " · ")#text(lang: "ru", n.ru)]
#let linked(parts) = for p in parts { if "to" in p { xref(p.to, p.text) } else { p.text } }

// The title page.
#block(height: 100%, width: 100%, align(horizon)[
  #text(font: sans, size: 11pt, tracking: 0.08em, fill: accent, upper(data.kicker))
  #v(4mm)
  #heading(level: 1, outlined: true, bookmarked: true, text(size: 30pt, data.game.at(data.lang)))
  #label("_title")
  #if data.game.at(data.other) != data.game.at(data.lang) [
    #text(font: sans, size: 17pt, fill: luma(70), lang: data.other, data.game.at(data.other))
  ]
  #v(6mm)
  #text(font: sans, size: 11pt, data.count)
  #if data.scope != none [ \ #text(font: sans, size: 10pt, fill: luma(70), data.scope) ]
  #v(8mm)
  #text(font: sans, size: 9pt, weight: "bold", fill: grey, upper(data.labels.sources))
  #for s in data.sources [ #text(font: sans, size: 10pt, s) \ ]
  #v(4mm)
  #text(font: sans, size: 9pt, weight: "bold", fill: grey, upper(data.labels.categories))
  #columns(2, for c in data.categories [ #text(font: sans, size: 10pt, c) \ ])
  #v(8mm)
  #text(font: sans, size: 9pt, fill: grey, data.labels.note)
])
#pagebreak()

// The contents: every term, linked, by letter.
#heading(level: 1, text(size: 18pt, data.labels.contents))
#label("_contents")
#text(font: sans, size: 10pt, weight: "bold",
  data.groups.enumerate().map(((i, g)) => link(label("_letter-" + str(i)), g.letter)).join(h(0.6em)))
#v(2mm)
#columns(2, gutter: 8mm, text(font: sans, size: 8.6pt, for g in data.groups [
  #text(size: 10pt, weight: "bold", fill: accent, g.letter) \
  #for t in g.terms [ #link(label(t.id), names(t.name)) \ ]
]))
#pagebreak()

// The terms.
#for (i, g) in data.groups.enumerate() [
  #block(below: 2mm, sticky: true, stroke: (bottom: 1.2pt + accent), width: 100%, inset: (bottom: 0.5mm),
    text(font: sans, size: 15pt, weight: "bold", fill: accent, g.letter))
  #label("_letter-" + str(i))
  #for t in g.terms [
    #block(breakable: true, below: 4.5mm)[
      #heading(level: 1, text(size: 12.5pt, names(t.name)))
      #label(t.id)
      #text(font: sans, size: 8pt, fill: luma(80), t.meta.join(" · "))
      #for d in t.definitions [
        #block(below: 1.6mm)[
          #block(above: 1.6mm, below: 1.2mm, sticky: true, box(fill: accent, inset: (x: 1.1mm, y: 0.7mm), radius: 1.2pt,
            text(font: sans, size: 6.5pt, weight: "bold", fill: white, d.head)))
          #set text(lang: d.lang)
          #for p in d.paragraphs [ #linked(p) #parbreak() ]
        ]
      ]
      #for r in t.relations [
        #text(font: sans, size: 8.3pt)[#text(weight: "bold", fill: luma(80), r.label + ":") #r.terms.map(x => xref(x.id, names(x.name))).join(", ")] \
      ]
      #if t.source != none [ #text(font: sans, size: 8.3pt, fill: luma(90))[#text(weight: "bold", data.labels.source + ":") #t.source] ]
    ]
  ]
]
"""


def document(game: Game, lang: Lang, mentions: Mentions | None = None) -> dict[str, Any]:
    """The data the template prints for one game; interface words in `lang`. `mentions`: the definitions'
    mentions when the caller (the site build) has found them already."""
    if mentions is None:
        mentions = definition_mentions(game, Resolver(index_module.build(game)))
    ordered = sorted(game.terms.values(), key=lambda t: (sort_key(t.name["en"]), t.id))
    groups: list[dict[str, Any]] = []
    for term in ordered:
        letter = initial_letter(term.name["en"])
        if not groups or groups[-1]["letter"] != letter:
            groups.append({"letter": letter, "terms": []})
        groups[-1]["terms"].append(_term(game, term, mentions[term.id], lang))
    counts: dict[str, int] = {}
    for term in game.terms.values():
        counts[term.category] = counts.get(term.category, 0) + 1
    return {
        "lang": lang, "other": other(lang), "game": dict(game.name),
        "running": f"{game.name[lang]} — {label('rules_glossary', lang)}",
        "kicker": f"{label('rules_glossary', lang)} · {label('rules_glossary', other(lang))}",
        "count": count(len(game.terms), "terms", lang),
        "scope": game.scope.get(lang),  # None: the glossary says nothing of its coverage
        "sources": [doc.title[lang] + (f", {label('page', lang)} {doc.page}" if doc.page else "")
                    for doc in game.sources.values()],
        "categories": [f"{cat[lang]} · {cat[other(lang)]} — {counts[cid]}"
                       for cid, cat in game.categories.items() if counts.get(cid)],
        "labels": {key: label(key, lang) for key in ("sources", "categories", "contents", "source")}
        | {"note": label("print_note", lang)},
        "groups": groups,
    }


def _term(game: Game, term: Term, mentions: dict[str, list[Mention]], lang: Lang) -> dict[str, Any]:
    cat = game.categories.get(term.category, {"en": term.category, "ru": term.category})
    meta = [f"{label('category', lang)}: {cat[lang]} · {cat[other(lang)]}"]
    aliases = [a for lang_ in (lang, other(lang)) for a in term.aliases.get(lang_, [])]
    if aliases:
        meta.append(f"{label('aliases', lang)}: {', '.join(aliases)}")
    if term.supplied:
        meta.append(f"{', '.join(term.name[lang_] for lang_ in term.supplied)}: {label('supplied', lang)}")
    relations = []
    for key in RELATIONS:
        ids = [tid for tid in getattr(term, key) if tid in game.terms]
        if ids:
            relations.append({"label": label(key, lang),
                              "terms": [{"id": tid, "name": dict(game.terms[tid].name)} for tid in ids]})
    sources = [source_line(game.sources[doc], term)[lang] for doc in term.source_docs if doc in game.sources]
    return {
        "id": term.id, "name": dict(term.name), "meta": meta, "relations": relations,
        "source": "; ".join(sources) or None,
        "definitions": [{"lang": d, "head": d.upper(),
                         "paragraphs": paragraphs(term.definition[d], mentions[d], exclude=term.id)}
                        for d in ("ru", "en")],
    }


def paragraphs(text: str, mentions: list[Mention], exclude: str = "") -> list[list[dict[str, str]]]:
    """A definition's paragraphs as the template's parts: {"text"}, or {"text", "to": term id} for a link."""
    return [[{"text": part} if term is None else {"text": part, "to": term} for part, term in paragraph]
            for paragraph in paragraph_parts(text, mentions, exclude)]


def document_json(game: Game, lang: Lang, mentions: Mentions | None = None) -> str:
    """The document's data as the template reads it (also what the PDF cache keys on)."""
    return json.dumps(document(game, lang, mentions), ensure_ascii=False, sort_keys=True)

