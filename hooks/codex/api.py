"""One facade for every caller — the command line, the MkDocs hooks and the browser worker — over all games.

The browser's protocol is `Codex.handle(request) -> response` (plain JSON-able dicts; `handle_json` for strings):
the worker in docs/assets/javascripts/resolver-worker.js passes the page's requests through unchanged, so the
protocol is Python, covered by pytest, and the same in both runtimes.
"""
from __future__ import annotations

import json
from typing import Any

from .index import Index
from .render import FORMATS, chosen, link_text
from .resolve import Resolver


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game '{self.args[0]}'"


class BadRequest(ValueError):
    """A request the protocol does not understand: the message is shown to the reader."""


class Codex:
    """Resolvers for every game, with absolute term URLs under `site_url`."""

    def __init__(self, indexes: dict[str, Index], site_url: str):
        self.resolvers = {gid: Resolver(index) for gid, index in indexes.items()}
        self.site_url = site_url.rstrip("/") + "/"

    @classmethod
    def from_glossary(cls, glossary: Any, site_url: str) -> "Codex":
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

    def mentions(self, game: str, text: str) -> list[dict[str, Any]]:
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

    def lookup(self, game: str, query: str, limit: int = 10) -> list[dict[str, Any]]:
        found = self.resolver(game).lookup(query, limit)
        for candidate in found:
            candidate["url"] = self.site_url + candidate.pop("path")
        return found

    def traits(self, game: str, traits: list[str]) -> dict[str, Any]:
        """Implied traits with their chains (term ids, and the chain's names in both languages) and cancelled pairs."""
        result = self.resolver(game).traits(traits)
        terms = self.resolver(game).index.terms
        for item in result["traits"] + result["cancelled"]:
            item["url"] = self.url(game, item["term"])
            item["because_names"] = {lang: [terms[t].name[lang] for t in item["because"]] for lang in ("en", "ru")}
        for item in result["cancelled"]:
            item["cancelled_by_name"] = dict(terms[item["cancelled_by"]].name)
        return result

    def games(self) -> list[dict[str, Any]]:
        return [{"id": gid, "name": r.index.game_name} for gid, r in self.resolvers.items()]

    # --- the browser's protocol ---------------------------------------------------------------

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """One request from the page: `{"op": ..., ...}` -> `{"result": ...}` or `{"error": "one line"}`.

        Ops: `games`; `link` (game, text, format, every, preview: also the HTML for the preview pane);
        `lookup` (game, query, limit); `traits` (game, traits: [names]); `mentions` (game, text).
        Errors in the request or the text come back as a message; nothing raises across the boundary.
        """
        try:
            return {"result": self._dispatch(request)}
        except (BadRequest, UnknownGame, ValueError, TypeError) as error:
            return {"error": str(error)}

    def handle_json(self, request: str) -> str:
        """`handle` for a runtime that passes strings (Pyodide: no proxies cross into JavaScript)."""
        try:
            parsed = json.loads(request)
        except ValueError as error:
            return json.dumps({"error": f"not JSON: {error}"})
        if not isinstance(parsed, dict):
            return json.dumps({"error": "a request is a JSON object"})
        return json.dumps(self.handle(parsed), ensure_ascii=False)

    def _dispatch(self, request: dict[str, Any]) -> Any:
        op = request.get("op")
        if op == "games":
            return self.games()
        game = _text(request, "game")
        if op == "link":
            text, fmt, every = _text(request, "text"), request.get("format") or "markdown", bool(request.get("every"))
            linked = self.link(game, text, fmt, every)
            if not request.get("preview"):
                return linked
            return {"text": linked, "html": linked if fmt == "html" else self.link(game, text, "html", every)}
        if op == "lookup":
            limit = request.get("limit") or 10
            if not isinstance(limit, int) or limit < 1:
                raise BadRequest("limit must be a positive integer")
            return self.lookup(game, _text(request, "query"), min(limit, 50))
        if op == "traits":
            given = request.get("traits")
            if not isinstance(given, list) or not all(isinstance(t, str) for t in given):
                raise BadRequest("traits must be a list of names")
            return self.traits(game, given)
        if op == "mentions":
            return self.mentions(game, _text(request, "text"))
        raise BadRequest(f"unknown op {op!r}")


def _text(request: dict[str, Any], key: str) -> str:
    value = request.get(key, "")
    if not isinstance(value, str):
        raise BadRequest(f"{key} must be a string")
    return value
