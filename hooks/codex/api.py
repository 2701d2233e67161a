"""One facade for every caller — the command line, the MkDocs hooks and the browser worker — over all games.

The browser's protocol is `Codex.handle(request) -> response` (plain JSON-able dicts; `handle_json` for strings):
the worker in docs/assets/javascripts/resolver-worker.js passes the page's requests through unchanged, so the
protocol is Python, covered by pytest, and the same in both runtimes.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from .index import Index
from .markup import protected
from .render import FORMATS, MARKUP, link_text, placed
from .resolve import Detector, Mention, Resolver

AUTO = "auto"  # the game is the one whose terms explain the text best (resolve.detect)


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
        self._detector: Detector | None = None  # built on the first detection

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

    def found(self, game: str | None, text: str, markup: str = "any") -> tuple[str | None, list[Mention]]:
        """(the game, its mentions): `game` None or "auto" detects it; (None, []) when no game explains the text."""
        if game not in (None, AUTO):
            return game, self.resolver(str(game)).mentions(text, markup)
        spans = protected(text, markup)  # the markup does not depend on the game: found once
        names: dict[str, list[Mention]] = {gid: [] for gid in self.resolvers}  # card names and titles found
        every = {gid: r.mentions(text, markup, spans, names[gid]) for gid, r in self.resolvers.items()}
        if self._detector is None:
            self._detector = Detector(self.resolvers)
        best = self._detector.detect(text, every, names)
        return best, every[best] if best else []

    def detect(self, text: str) -> str | None:
        """The game whose terms explain the text best, or None (no mention, or a tie)."""
        return self.found(AUTO, text)[0]

    def mentions(self, game: str | None, text: str, markup: str = "any") -> list[dict[str, Any]]:
        """Every mention, as the JSON contract: start, end, text, game, term, name, url (game None/"auto": detected)."""
        return self._mention_dicts(*self.found(game, text, markup))

    def _mention_dicts(self, found_game: str | None, found: list[Mention]) -> list[dict[str, Any]]:
        if found_game is None:
            return []
        terms, url_for = self.resolver(found_game).index.terms, self._url_for(found_game)
        return [
            {"start": m.start, "end": m.end, "text": m.text, "game": found_game, "term": m.term,
             "name": terms[m.term].name["en"], "url": url_for(m.term), "parameter": m.parameter}
            for m in found
        ]

    def link(self, game: str | None, text: str, fmt: str = "markdown", every: bool = False) -> str:
        """The text with term mentions linked (each term's first mention, or every one)."""
        return str(self.linked(game, text, fmt, every)["text"])

    def linked(self, game: str | None, text: str, fmt: str = "markdown", every: bool = False,
               preview: bool = False) -> dict[str, Any]:
        """{"text": the linked text, "game": the game linked (None: none detected, text unchanged)}; with
        `preview`, also "html": the same links in HTML, for the widget's preview pane."""
        if fmt not in FORMATS:
            raise ValueError(f"unknown format '{fmt}' (use {', '.join(FORMATS)})")
        found_game, found = self.found(game, text, MARKUP[fmt])
        mentions = placed(text, found, fmt, every=every)
        url_for = self._url_for(found_game)
        out: dict[str, Any] = {"text": link_text(text, mentions, url_for, fmt), "game": found_game}
        if preview:
            out["html"] = out["text"] if fmt == "html" else link_text(text, mentions, url_for, "html")
        return out

    def _url_for(self, game: str | None) -> Callable[[str], str]:
        """`url` for one game, each term's computed once (a long post mentions the same terms many times)."""
        if game is None:
            return lambda term: ""
        cache: dict[str, str] = {}

        def url(term: str) -> str:
            found = cache.get(term)
            if found is None:
                found = cache[term] = self.url(game, term)
            return found

        return url

    def lookup(self, game: str | None, query: str, limit: int = 10) -> list[dict[str, Any]]:
        """Candidates, best first, each with its game; `game` None/"auto": the detected game's, or every game's."""
        return self._lookup(game, query, limit)[1]

    def _lookup(self, game: str | None, query: str, limit: int) -> tuple[str | None, list[dict[str, Any]]]:
        """(the game that answered, None: every game's; its candidates): the query detected once."""
        if game in (None, AUTO):
            game = self.detect(query)
        games = [game] if game else list(self.resolvers)
        found = []
        for gid in games:
            for candidate in self.resolver(gid).lookup(query, limit):
                candidate["url"] = self.site_url + candidate.pop("path")
                candidate["game"] = gid
                found.append(candidate)
        found.sort(key=lambda c: (-c["score"], c["name"], c["game"]))
        return game, found[:limit]

    def traits(self, game: str | None, traits: list[str]) -> dict[str, Any]:
        """Implied traits with their chains (term ids, and the chain's names in both languages) and cancelled pairs.

        `game` None/"auto": the game the trait names detect (`"game"` in the result; None: no traits found)."""
        if game in (None, AUTO):
            game = self.detect(", ".join(traits))
            if game is None:
                return {"game": None, "traits": [], "cancelled": [], "unknown": list(traits)}
        result = self.resolver(game).traits(traits)
        result["game"] = game
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

        Ops: `games`; `link` (game, text, format, every, preview: {text, html} with the HTML for the preview
        pane); `lookup` (game, query, limit); `traits` (game, traits: [names]); `mentions` (game, text, markup).
        `game` absent or "auto": detected from the text (query, trait names); every answer to a game's op carries
        `"game"`, the game that answered (null: none detected — no links, no candidates, no traits).
        Errors in the request or the text come back as a message; nothing raises across the boundary.
        """
        try:
            answer = self._dispatch(request)
        except (BadRequest, UnknownGame, ValueError, TypeError) as error:
            return {"error": str(error)}
        if isinstance(answer, _Answer):
            return {"result": answer.result, "game": answer.game}
        return {"result": answer}

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
        game = _game(request)
        if op == "link":
            text, fmt, every = _text(request, "text"), request.get("format") or "markdown", bool(request.get("every"))
            result = self.linked(game, text, fmt, every, preview=bool(request.get("preview")))
            return _Answer(result if request.get("preview") else result["text"], result["game"])
        if op == "lookup":
            limit = request.get("limit") or 10
            if not isinstance(limit, int) or limit < 1:
                raise BadRequest("limit must be a positive integer")
            found_game, candidates = self._lookup(game, _text(request, "query"), min(limit, 50))
            return _Answer(candidates, found_game)
        if op == "traits":
            given = request.get("traits")
            if not isinstance(given, list) or not all(isinstance(t, str) for t in given):
                raise BadRequest("traits must be a list of names")
            result = self.traits(game, given)
            return _Answer(result, result["game"])
        if op == "mentions":
            markup = request.get("markup") or "any"
            if not isinstance(markup, str):
                raise BadRequest("markup must be a string")
            found_game, found = self.found(game, _text(request, "text"), markup)
            return _Answer(self._mention_dicts(found_game, found), found_game)
        raise BadRequest(f"unknown op {op!r}")


class _Answer:
    """A result and the game that produced it: the protocol puts the game beside the result."""

    def __init__(self, result: Any, game: str | None):
        self.result, self.game = result, game


def _game(request: dict[str, Any]) -> str | None:
    """The request's game; absent, empty or "auto" means: detect it (None)."""
    value = request.get("game")
    if value in (None, "", AUTO):
        return None
    if not isinstance(value, str):
        raise BadRequest("game must be a string")
    return value


def _text(request: dict[str, Any], key: str) -> str:
    value = request.get(key, "")
    if not isinstance(value, str):
        raise BadRequest(f"{key} must be a string")
    return value
