"""One facade for every caller — the command line, the MkDocs hooks and the browser worker — over all games.

The browser's protocol is `Codex.handle(request) -> answer` (plain JSON-able dicts, typed in protocol.py;
`handle_json` for strings):
the worker in docs/assets/javascripts/linker-worker.js passes the page's requests through unchanged, so the
protocol is Python, covered by pytest, and the same in both runtimes.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from .index import Index
from .linkify import FORMATS, MARKUP, Format, Spans, link_text, placed
from .markup import Markup, protected
from .langs import LANGS
from .protocol import (
    AUTO, Answer, BadRequest, Cancelled, Candidate, GameInfo, GamesAnswer, LinkAnswer, Linked, LinkedMention, LinkRequest,
    LookupAnswer, LookupRequest, MentionInfo, MentionsAnswer, MentionsRequest, Request, Trait, Traits,
    TraitsAnswer, TraitsRequest, parse,
)
from .resolve import Detector, Mention, Resolver

__all__ = ["AUTO", "BadRequest", "Codex", "UnknownGame"]

log = logging.getLogger(__name__)

FAILED = "the linker failed on this request (a bug: the details are in the browser's console)"


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game '{self.args[0]}'"


class Codex:
    """Resolvers for every game, with absolute term URLs under `site_url`."""

    def __init__(self, indexes: dict[str, Index], site_url: str):
        self.resolvers = {gid: Resolver(index) for gid, index in indexes.items()}
        self.site_url = site_url.rstrip("/") + "/"
        self._detector: Detector | None = None  # built on the first detection

    @classmethod
    def from_glossary(cls, glossary: Any, site_url: str) -> Codex:
        from . import index

        return cls({gid: index.build(game) for gid, game in glossary.games.items()}, site_url)

    @classmethod
    def from_json(cls, index_texts: Mapping[str, str | bytes], site_url: str) -> Codex:
        """What the browser calls: the indexes arrive as JSON (text, or its UTF-8 bytes), built at site build time."""
        return cls({gid: Index.from_json(text) for gid, text in index_texts.items()}, site_url)

    def resolver(self, game: str) -> Resolver:
        try:
            return self.resolvers[game]
        except KeyError:
            raise UnknownGame(game) from None

    def url(self, game: str, term: str) -> str:
        return self.site_url + self.resolver(game).index.terms[term].path

    def found(self, game: str | None, text: str, markup: Markup = "any") -> tuple[str | None, list[Mention]]:
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

    def mentions(self, game: str | None, text: str, markup: Markup = "any") -> list[MentionInfo]:
        """Every mention, as the JSON contract: start, end, text, game, term, name, url (game None/"auto": detected)."""
        return self._mention_dicts(*self.found(game, text, markup))

    def _mention_dicts(self, found_game: str | None, found: list[Mention]) -> list[MentionInfo]:
        if found_game is None:
            return []
        terms, url_for = self.resolver(found_game).index.terms, self._url_for(found_game)
        return [
            MentionInfo(start=m.start, end=m.end, text=m.text, game=found_game, term=m.term,
                        name=terms[m.term].name["en"], url=url_for(m.term), parameter=m.parameter)
            for m in found
        ]

    def link(self, game: str | None, text: str, fmt: Format = "markdown", every: bool = False,
             skip: Spans = frozenset()) -> str:
        """The text with term mentions linked (each term's first mention, or every one), except those in `skip`."""
        return self.linked(game, text, fmt, every, skip=skip)["text"]

    def linked(self, game: str | None, text: str, fmt: Format = "markdown", every: bool = False,
               preview: bool = False, skip: Spans = frozenset()) -> Linked:
        """{"text": the linked text, "game": the game linked (None: none detected, text unchanged)}; with
        `preview`, also "html": the same links in HTML, for the widget's preview pane, and "mentions": every
        mention found, each saying whether it was linked. A mention whose (start, end) is in `skip` (the reader
        unticked it) is not linked, and each term's first mention is then its next one."""
        if fmt not in FORMATS:
            raise ValueError(f"unknown format '{fmt}' (use {', '.join(FORMATS)})")
        found_game, found = self.found(game, text, MARKUP[fmt])
        mentions = placed(text, found, fmt, every=every, skip=skip)
        url_for = self._url_for(found_game)
        out = Linked(text=link_text(text, mentions, url_for, fmt), game=found_game)
        if preview:
            out["html"] = out["text"] if fmt == "html" else link_text(text, mentions, url_for, "html")
            out["mentions"] = self._linked_mentions(found_game, text, found, mentions)
        return out

    def _linked_mentions(self, game: str | None, text: str, found: list[Mention],
                         linked: list[Mention]) -> list[LinkedMention]:
        """The mentions found, each with whether it is among the `linked` (a sublist of `found`, in order)."""
        if game is None:
            return []
        terms, out, k = self.resolver(game).index.terms, [], 0
        for m in found:
            is_linked = k < len(linked) and linked[k] is m
            k += is_linked
            name = terms[m.term].name
            out.append(LinkedMention(start=m.start, end=m.end, text=text[m.start:m.end], term=m.term,
                                     name=name["en"], name_ru=name["ru"], linked=is_linked))
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

    def lookup(self, game: str | None, query: str, limit: int = 10) -> list[Candidate]:
        """Candidates, best first, each with its game; `game` None/"auto": the detected game's, or every game's."""
        return self._lookup(game, query, limit)[1]

    def _lookup(self, game: str | None, query: str, limit: int) -> tuple[str | None, list[Candidate]]:
        """(the game that answered, None: every game's; its candidates): the query detected once."""
        if game in (None, AUTO):
            game = self.detect(query)
        games = [game] if game else list(self.resolvers)
        found = [
            Candidate(term=c["term"], name=c["name"], name_ru=c["name_ru"], url=self.site_url + c["path"],
                      score=c["score"], parameter=c["parameter"], game=gid)
            for gid in games for c in self.resolver(gid).lookup(query, limit)
        ]
        found.sort(key=lambda c: (-c["score"], c["name"], c["game"]))
        return game, found[:limit]

    def traits(self, game: str | None, traits: list[str]) -> Traits:
        """Implied traits with their chains (term ids, and the chain's names in both languages) and cancelled pairs.

        `game` None/"auto": the game the trait names detect (`"game"` in the result; None: no traits found)."""
        if game in (None, AUTO):
            game = self.detect(", ".join(traits))
            if game is None:
                return Traits(game=None, traits=[], cancelled=[], unknown=list(traits))
        found = self.resolver(game).traits(traits)
        terms = self.resolver(game).index.terms

        def names(chain: list[str]) -> dict[str, list[str]]:
            return {lang: [terms[t].name[lang] for t in chain] for lang in LANGS}

        implied = [Trait(term=t["term"], name=t["name"], name_ru=t["name_ru"], because=t["because"],
                         because_names=names(t["because"]), url=self.url(game, t["term"])) for t in found["traits"]]
        cancelled = [Cancelled(term=c["term"], name=c["name"], cancelled_by=c["cancelled_by"],
                               cancelled_by_name=dict(terms[c["cancelled_by"]].name), because=c["because"],
                               because_names=names(c["because"]), url=self.url(game, c["term"]))
                     for c in found["cancelled"]]
        return Traits(game=game, traits=implied, cancelled=cancelled, unknown=found["unknown"])

    def games(self) -> list[GameInfo]:
        return [GameInfo(id=gid, name=r.index.game_name) for gid, r in self.resolvers.items()]

    # --- the browser's protocol ---------------------------------------------------------------

    def handle(self, request: Mapping[str, Any]) -> Answer:
        """One request from the page (protocol.py types them all) -> `{"result": ..., "game": ...}` or
        `{"error": "one line"}`.

        Ops: `games`; `link` (game, text, format, every, preview: {text, html, mentions} with the HTML for the
        preview pane and every mention found, each with `linked`; skip: [[start, end], ...] character offsets
        of mentions the reader unticked, not linked — the term's next mention takes the link unless `every`);
        `lookup` (game, query, limit); `traits` (game, traits: [names]); `mentions` (game, text, markup).
        `game` absent or "auto": detected from the text (query, trait names); every answer to a game's op carries
        `"game"`, the game that answered (null: none detected — no links, no candidates, no traits).
        A malformed request or an unknown game is answered with a message naming it; anything else is a bug,
        answered with FAILED while its traceback goes to the log (the browser's console): nothing raises
        across the boundary, and no exception's text reaches the reader.
        """
        try:
            return self._dispatch(parse(request))
        except (BadRequest, UnknownGame) as error:
            return {"error": str(error)}
        except Exception:
            log.exception("codex: the request %s failed", json.dumps(request, ensure_ascii=False, default=str)[:200])
            return {"error": FAILED}

    def handle_json(self, request: str) -> str:
        """`handle` for a runtime that passes strings (Pyodide: no proxies cross into JavaScript)."""
        try:
            parsed = json.loads(request)
        except ValueError as error:
            return json.dumps({"error": f"not JSON: {error}"})
        if not isinstance(parsed, dict):
            return json.dumps({"error": "a request is a JSON object"})
        return json.dumps(self.handle(parsed), ensure_ascii=False)

    def _dispatch(self, request: Request) -> Answer:
        if request["op"] == "games":
            return GamesAnswer(result=self.games())
        if request["op"] == "link":
            return self._link_answer(request)
        if request["op"] == "lookup":
            return self._lookup_answer(request)
        if request["op"] == "traits":
            return self._traits_answer(request)
        return self._mentions_answer(request)

    def _link_answer(self, request: LinkRequest) -> LinkAnswer:
        skip = frozenset((start, end) for start, end in request.get("skip", []))
        result = self.linked(request.get("game"), request.get("text", ""), request.get("format", "markdown"),
                             request.get("every", False), preview=request.get("preview", False), skip=skip)
        return LinkAnswer(result=result if request.get("preview") else result["text"], game=result["game"])

    def _lookup_answer(self, request: LookupRequest) -> LookupAnswer:
        game, candidates = self._lookup(request.get("game"), request.get("query", ""), request.get("limit", 10))
        return LookupAnswer(result=candidates, game=game)

    def _traits_answer(self, request: TraitsRequest) -> TraitsAnswer:
        result = self.traits(request.get("game"), request.get("traits", []))
        return TraitsAnswer(result=result, game=result["game"])

    def _mentions_answer(self, request: MentionsRequest) -> MentionsAnswer:
        game, found = self.found(request.get("game"), request.get("text", ""), request.get("markup", "any"))
        return MentionsAnswer(result=self._mention_dicts(game, found), game=game)
