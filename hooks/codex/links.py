"""Where things live on the site: term URLs, former ids and short links, all derived from the glossary."""
from __future__ import annotations

import posixpath

from .model import LANGS, Game, Term
from .slugs import slugify


def term_path(game_id: str, term_id: str) -> str:
    """The site-relative URL of a term page: never changes once published."""
    return f"{game_id}/{term_id}/"


def page_url(src_uri: str, directory_urls: bool = True) -> str:
    """Where MkDocs puts a docs-relative file: `g/t.md` -> `g/t/` (or `g/t.html`), `g/index.md` -> `g/`; others as is."""
    if not src_uri.endswith(".md"):
        return src_uri
    stem = src_uri[:-3]
    if stem == "index" or stem.endswith("/index"):
        folder = stem[: -len("index")]
        return folder if directory_urls else folder + "index.html"
    return stem + "/" if directory_urls else stem + ".html"


def relative_url(from_src: str, to_src: str, directory_urls: bool = True) -> str:
    """A link from one docs-relative file to another, as MkDocs would write it in the built site."""
    here, there = page_url(from_src, directory_urls), page_url(to_src, directory_urls)
    base = here if here.endswith("/") or not here else posixpath.dirname(here) + "/"
    relative = posixpath.relpath(there or ".", base.rstrip("/") or ".")
    if there.endswith("/") or not there:
        relative = "./" if relative == "." else relative + "/"
    return relative


def short_links(game: Game) -> dict[str, list[Term]]:
    """`/t/<game>/<slug>/` for every name and alias in both languages: slug -> the terms that claim it.

    Several terms claim one slug only when they are homonyms (the rulebook prints the same name, such as
    D&D's "Melee Attack" and "melee attack"): then a term whose id is the slug keeps it, otherwise the short
    link lists them all. Any other shared slug is a `codex check` error (see `collisions`).
    """
    claims: dict[str, list[Term]] = {}
    for term in game.terms.values():
        for lang in LANGS:
            for text in term.names(lang):
                slug = slugify(text)
                if slug and term not in claims.setdefault(slug, []):
                    claims[slug].append(term)
    for slug, terms in claims.items():
        if len(terms) > 1 and homonyms(terms) and slug in game.terms and game.terms[slug] in terms:
            claims[slug] = [game.terms[slug]]
    return claims


def homonyms(terms: list[Term]) -> bool:
    """Terms whose names the rulebook prints alike in one language (ignoring case)."""
    return any(len({t.name[lang].casefold() for t in terms}) == 1 for lang in LANGS)


def collisions(game: Game) -> dict[str, list[Term]]:
    """Short links claimed by terms that are not homonyms: each is an error naming both terms."""
    return {slug: terms for slug, terms in short_links(game).items() if len(terms) > 1 and not homonyms(terms)}


def redirects(game: Game) -> dict[str, str]:
    """Old URL path -> new term path, for every former id of every term."""
    return {term_path(game.id, old): term_path(game.id, term.id) for term in game.terms.values() for old in term.former_ids}
