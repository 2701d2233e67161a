"""The codex for other sites: the static JSON API (/api/v1/), oEmbed documents, the hovercard script's build data,
the share target and the bookmarklet. Every document is made here from the glossary, once per build.

The API's shape is the JSON Schema in docs/api/v1/schema.json (served beside the files); the README documents it.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any
from urllib.parse import quote

from .labels import LABELS, LANGS
from .links import short_links, term_path
from .model import Game, Glossary, Term

API_VERSION = "v1"
API_DIR = f"api/{API_VERSION}/"
DATA_DIR = API_DIR + "data/"  # hashed copies of the cards files: cached as immutable, fetched once per host site
OEMBED_DIR = API_DIR + "oembed/"
SCHEMA = API_DIR + "schema.json"  # hand-written: docs/api/v1/schema.json
EMBED_SCRIPT = "embed.js"  # at the site root: the one line a forum adds
EMBED_SOURCE = "assets/javascripts/embed.js"  # docs/-relative; the build fills its BUILD line and serves /embed.js
EMBED_MARKER = "({}); // codex:embed-build"
OEMBED_CACHE_AGE = 86_400  # seconds: a glossary changes rarely, previews may be kept a day
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# The labels embed.js shows (in both languages, baked into the script: it cannot read the site's labels.js).
EMBED_LABELS = ("embed_open", "site_name")


def first_paragraph(text: str) -> str:
    """A definition's first paragraph, as one line of plain text."""
    return " ".join(PARAGRAPH_BREAK.split(text.strip(), maxsplit=1)[0].split())


def _hashed(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def _unique_short_links(game: Game) -> dict[str, str]:
    """slug -> term id, for the short links that name one term (a shared one is a list page, no card)."""
    return {slug: terms[0].id for slug, terms in short_links(game).items() if len(terms) == 1}


def term_document(game: Game, term: Term, base: str, shorts: list[str]) -> dict[str, Any]:
    """One term as the API gives it: names, aliases, category, URLs, both texts, parameters, relations."""
    return {
        "id": term.id,
        "name": dict(term.name),
        "aliases": {lang: list(term.aliases.get(lang, [])) for lang in LANGS},
        "category": term.category,
        "url": base + term_path(game.id, term.id),
        "short_links": [f"{base}t/{game.id}/{slug}/" for slug in shorts],
        "former_ids": list(term.former_ids),
        "params": [{"en": p.en, "ru": p.ru, "kind": p.kind} for p in term.params],
        "summary": {lang: first_paragraph(term.definition[lang]) for lang in LANGS},
        "definition": {lang: term.definition[lang] for lang in LANGS},
        "relations": {"implies": list(term.implies), "cancels": list(term.cancels),
                      "see_also": list(term.see_also), "related": list(term.related)},
        "oembed": base + oembed_path(game.id, term.id),
    }


def game_document(game: Game, base: str) -> dict[str, Any]:
    """api/v1/<game>.json: the game and every term in full."""
    shorts: dict[str, list[str]] = {}
    for slug, term_id in _unique_short_links(game).items():
        shorts.setdefault(term_id, []).append(slug)
    return {
        "api": API_VERSION,
        "game": _game_head(game, base),
        "terms": [term_document(game, term, base, shorts.get(term.id, [])) for term in game.terms.values()],
    }


def _game_head(game: Game, base: str) -> dict[str, Any]:
    return {"id": game.id, "name": dict(game.name), "url": f"{base}{game.id}/",
            "categories": {key: dict(names) for key, names in game.categories.items()}}


def cards_document(game: Game, base: str) -> dict[str, Any]:
    """api/v1/data/<game>.<hash>.json: what a hovercard shows, keyed for finding a term from a link's path."""
    terms: dict[str, Any] = {}
    for term in game.terms.values():
        card: dict[str, Any] = {"name": dict(term.name), "category": term.category,
                                "summary": {lang: first_paragraph(term.definition[lang]) for lang in LANGS}}
        if term.params:  # what fills "Aegis 2" -> X = 2: the placeholders and every name they stand in
            card["params"] = [{"en": p.en, "ru": p.ru, "kind": p.kind} for p in term.params]
            card["names"] = {lang: term.names(lang) for lang in LANGS}
        terms[term.id] = card
    return {
        "api": API_VERSION,
        "game": _game_head(game, base),
        "terms": terms,
        "short_links": _unique_short_links(game),
        "former_ids": {old: term.id for term in game.terms.values() for old in term.former_ids},
    }


def oembed_path(game_id: str, term_id: str) -> str:
    return f"{OEMBED_DIR}{game_id}/{term_id}.json"


def oembed_document(game: Game, term: Term, base: str) -> dict[str, Any]:
    """oEmbed 1.0, type "link": a forum building previews from oEmbed shows both names and the game."""
    return {
        "version": "1.0",
        "type": "link",
        "title": f"{term.title} — {game.name['en']}" + (
            f" · {game.name['ru']}" if game.name["ru"] != game.name["en"] else ""),
        "provider_name": " · ".join(LABELS["site_name"][lang] for lang in LANGS),
        "provider_url": base,
        "cache_age": OEMBED_CACHE_AGE,
    }


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False).encode()


def api_files(glossary: Glossary, site_url: str) -> tuple[dict[str, bytes], dict[str, str]]:
    """Every API file (site path -> bytes), and game id -> its hashed cards file (for embed.js)."""
    base = site_url.rstrip("/") + "/"
    files: dict[str, bytes] = {}
    cards: dict[str, str] = {}
    games = []
    for game in glossary.games.values():
        files[f"{API_DIR}{game.id}.json"] = _json(game_document(game, base))
        data = _json(cards_document(game, base))
        cards[game.id] = f"{DATA_DIR}{game.id}.{_hashed(data)}.json"
        files[cards[game.id]] = data
        for term in game.terms.values():
            files[oembed_path(game.id, term.id)] = _json(oembed_document(game, term, base))
        games.append({"id": game.id, "name": dict(game.name), "url": f"{base}{game.id}/", "terms": len(game.terms),
                      "api": f"{base}{API_DIR}{game.id}.json", "cards": base + cards[game.id]})
    files[f"{API_DIR}games.json"] = _json({"api": API_VERSION, "site_url": base, "schema": base + SCHEMA,
                                           "games": games})
    return files, cards


def embed_build(glossary: Glossary, site_url: str, cards: dict[str, str]) -> dict[str, Any]:
    """What embed.js knows before any request: the site, each game's cards file, its labels."""
    return {
        "site": site_url.rstrip("/") + "/",
        "games": {game_id: path for game_id, path in cards.items() if game_id in glossary.games},
        "labels": {key: LABELS[key] for key in EMBED_LABELS},
    }


class EmbedSourceError(ValueError):
    """docs/assets/javascripts/embed.js lost the line the build fills (the hooks raise it as a PluginError)."""


def fill_embed(source: str, build: dict[str, Any]) -> str:
    """embed.js with its build data in place of the marker (JSON is a JavaScript expression)."""
    if source.count(EMBED_MARKER) != 1:
        raise EmbedSourceError(f"{EMBED_SOURCE}: the line 'const BUILD = /** @type {{Build}} */ {EMBED_MARKER}' must appear once")
    data = json.dumps(build, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return source.replace(EMBED_MARKER, f"({data});")


def share_target(linker: str = "linker/") -> dict[str, Any]:
    """The web manifest's share_target: shared text opens the linker with it (`?text=`), as the bookmarklet does."""
    return {"action": linker, "method": "GET", "enctype": "application/x-www-form-urlencoded",  # Chromium wants it
            "params": {"text": "text", "url": "url"}}


def bookmarklet(linker_url: str) -> str:
    """A javascript: URL run on a forum page: the focused text box's text goes to the linker (`?text=…&reply=…`);
    the linker's Copy sends the linked text back by postMessage, and it replaces the box's text. Only a message
    from the linker's origin is taken."""
    no_box = " · ".join(LABELS["bookmarklet_no_box"][lang] for lang in LANGS)
    origin = re.match(r"^[a-z]+://[^/]+", linker_url)
    if origin is None:
        raise ValueError(f"the linker's URL must be absolute: {linker_url}")
    code = (
        "(()=>{const a=document.activeElement;"
        f"if(!a||!('value'in a)){{alert({json.dumps(no_box)});return}}"
        f"const o={json.dumps(origin.group(0))};"
        f"window.open({json.dumps(linker_url)}+'?text='+encodeURIComponent(a.value)"
        "+'&reply='+encodeURIComponent(location.origin),'codex');"
        "addEventListener('message',e=>{if(e.origin===o&&e.data&&typeof e.data.codexLinked==='string')"
        "{a.value=e.data.codexLinked;a.dispatchEvent(new Event('input',{bubbles:true}))}})})()"
    )
    return "javascript:" + quote(code, safe="(){}[];:,.=&|!'+/?<>*_-$~@")
