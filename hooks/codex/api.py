"""One facade for every caller — the command line, the MkDocs hooks and the browser worker — over all games."""
from __future__ import annotations

from .index import Index
from .render import FORMATS, chosen, link_text
from .resolve import Resolver


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game '{self.args[0]}'"


class Codex:
    """Resolvers for every game, with absolute term URLs under `site_url`."""

    def __init__(self, indexes: dict[str, Index], site_url: str):
        self.resolvers = {gid: Resolver(index) for gid, index in indexes.items()}
        self.site_url = site_url.rstrip("/") + "/"

    @classmethod
    def from_glossary(cls, glossary, site_url: str) -> "Codex":
        from . import index

        return cls({gid: index.build(game) for gid, game in glossary.games.items()}, site_url)

    @classmethod
    def from_json(cls, index_texts: dict[str, str], site_url: str) -> "Codex":
        """What the browser calls: the indexes arrive as JSON text, built at site build time."""
        return cls({gid: Index.from_json(text) for gid, text in index_texts.items()}, site_url)

    def resolver(self, game: str) -> Resolver:
        try:
            return self.resolvers[game]
        except KeyError:
            raise UnknownGame(game) from None

    def url(self, game: str, term: str) -> str:
        return self.site_url + self.resolver(game).index.terms[term].path

    def mentions(self, game: str, text: str) -> list[dict]:
        """Every mention, as the JSON contract: start, end, text, game, term, name, url."""
        resolver = self.resolver(game)
        return [
            {"start": m.start, "end": m.end, "text": m.text, "game": game, "term": m.term,
             "name": resolver.index.terms[m.term].name["en"], "url": self.url(game, m.term),
             "parameter": m.parameter}
            for m in resolver.mentions(text)
        ]

    def link(self, game: str, text: str, fmt: str = "markdown", every: bool = False) -> str:
        """The text with term mentions linked (each term's first mention, or every one)."""
        if fmt not in FORMATS:
            raise ValueError(f"unknown format '{fmt}' (use {', '.join(FORMATS)})")
        mentions = chosen(self.resolver(game).mentions(text), every=every)
        return link_text(text, mentions, lambda term: self.url(game, term), fmt)

    def lookup(self, game: str, query: str, limit: int = 10) -> list[dict]:
        found = self.resolver(game).lookup(query, limit)
        for candidate in found:
            candidate["url"] = self.site_url + candidate.pop("path")
        return found

    def traits(self, game: str, traits: list[str]) -> dict:
        result = self.resolver(game).traits(traits)
        for item in result["traits"] + result["cancelled"]:
            item["url"] = self.url(game, item["term"])
        return result

    def games(self) -> list[dict]:
        return [{"id": gid, "name": r.index.game_name} for gid, r in self.resolvers.items()]
