"""Where things live on the site: term URLs, former ids and short links, all derived from the glossary."""
from __future__ import annotations

from .model import LANGS, Game, Term
from .slugs import slugify


def term_path(game_id: str, term_id: str) -> str:
    """The site-relative URL of a term page: never changes once published."""
    return f"{game_id}/{term_id}/"


def term_url(site_url: str, term: Term) -> str:
    return site_url.rstrip("/") + "/" + term_path(term.game, term.id)


def short_links(game: Game, strict: bool = True) -> dict[str, list[Term]]:
    """`/t/<game>/<slug>/` for every name and alias in both languages, slug -> the terms that claim it.

    A term's own id always wins its slug (the lower-case D&D "melee attack" keeps melee-attack); with strict,
    slugs still shared after that are the homonyms `codex check` allows, kept as disambiguation lists.
    """
    claims: dict[str, list[Term]] = {}
    for term in game.terms.values():
        for lang in LANGS:
            for text in term.names(lang):
                slug = slugify(text)
                if slug and term not in claims.setdefault(slug, []):
                    claims[slug].append(term)
    for slug, terms in claims.items():
        if len(terms) > 1 and slug in game.terms and game.terms[slug] in terms:
            claims[slug] = [game.terms[slug]]
    return claims


def redirects(game: Game) -> dict[str, str]:
    """Old URL path -> new term path, for every former id of every term."""
    return {term_path(game.id, old): term_path(game.id, term.id) for term in game.terms.values() for old in term.former_ids}
