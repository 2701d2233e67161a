"""The browser's protocol (`Codex.handle`): every request and answer as a type, and the one check that turns a
page's JSON object into a typed request (a malformed one is a BadRequest naming the field, never a crash)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Required, TypedDict

from .linkify import FORMATS, Format
from .markup import MARKUPS, Markup

AUTO = "auto"  # the game is the one whose terms explain the text best (resolve.detect)
MAX_LIMIT = 50  # lookup candidates one request may ask for
MAX_SKIP = 1000  # unticked mentions one link request may carry (a long post has a few hundred mentions at most)


class BadRequest(ValueError):
    """A request the protocol does not understand: the message (one line, naming the field) goes to the page."""


# --- requests (game None: detect it from the text) ---------------------------------------------

class GamesRequest(TypedDict):
    op: Literal["games"]


class LinkRequest(TypedDict, total=False):
    op: Required[Literal["link"]]
    game: str | None
    text: str
    format: Format
    every: bool  # link every mention, not only each term's first
    preview: bool  # answer {text, html, mentions}: the same links in HTML for the preview pane, and the mentions
    skip: list[list[int]]  # [start, end] of mentions the reader unticked: not linked (the term's next mention is)


class LookupRequest(TypedDict, total=False):
    op: Required[Literal["lookup"]]
    game: str | None
    query: str
    limit: int


class TraitsRequest(TypedDict, total=False):
    op: Required[Literal["traits"]]
    game: str | None
    traits: list[str]  # trait names (any language, any form) or term ids


class MentionsRequest(TypedDict, total=False):
    op: Required[Literal["mentions"]]
    game: str | None
    text: str
    markup: Markup


Request = GamesRequest | LinkRequest | LookupRequest | TraitsRequest | MentionsRequest
OPS = ("games", "link", "lookup", "traits", "mentions")


# --- what the answers carry --------------------------------------------------------------------

class GameInfo(TypedDict):
    id: str
    name: dict[str, str]


class MentionInfo(TypedDict):
    start: int
    end: int
    text: str
    game: str
    term: str
    name: str  # the term's English name
    url: str
    parameter: str | None  # "2" in "Aegis 2"


class LinkedMention(TypedDict):
    """A mention in a link answer (with preview), for the page's list of links to untick."""
    start: int
    end: int
    text: str  # as written
    term: str
    name: str  # the term's English name
    name_ru: str
    linked: bool  # linked in this answer (false: skipped, a later repeat without `every`, or no safe place)


class Linked(TypedDict, total=False):
    text: Required[str]  # the text with its mentions linked
    game: Required[str | None]  # the game linked (None: none detected, text unchanged)
    html: str  # with preview: the same links in HTML
    mentions: list[LinkedMention]  # with preview: every mention found, in order


class Candidate(TypedDict):
    term: str
    name: str
    name_ru: str
    url: str
    score: float
    parameter: str | None
    game: str


class Trait(TypedDict):
    term: str
    name: str
    name_ru: str
    because: list[str]  # the chain of term ids that implies it, from a given trait
    because_names: dict[str, list[str]]
    url: str


class Cancelled(TypedDict):
    term: str
    name: str
    cancelled_by: str
    cancelled_by_name: dict[str, str]
    because: list[str]
    because_names: dict[str, list[str]]
    url: str


class Traits(TypedDict):
    game: str | None  # None: no trait name found in any game
    traits: list[Trait]
    cancelled: list[Cancelled]
    unknown: list[str]  # the given names no term answers


# --- answers: {"result", "game"} (games: no game), or {"error"} ---------------------------------

class GamesAnswer(TypedDict):
    result: list[GameInfo]


class LinkAnswer(TypedDict):
    result: str | Linked  # the linked text; with preview, Linked
    game: str | None


class LookupAnswer(TypedDict):
    result: list[Candidate]
    game: str | None  # None: every game's candidates


class TraitsAnswer(TypedDict):
    result: Traits
    game: str | None


class MentionsAnswer(TypedDict):
    result: list[MentionInfo]
    game: str | None


class ErrorAnswer(TypedDict):
    error: str  # one line for the reader: what in the request was wrong, or that the linker failed


Answer = GamesAnswer | LinkAnswer | LookupAnswer | TraitsAnswer | MentionsAnswer | ErrorAnswer


def parse(raw: Mapping[str, Any]) -> Request:
    """The page's JSON object as a typed request: every field checked, each default filled in."""
    op = raw.get("op")
    if op == "games":
        return GamesRequest(op="games")
    game = _game(raw)
    if op == "link":
        fmt = raw.get("format") or "markdown"
        if fmt not in FORMATS:
            raise BadRequest(f"unknown format {_shown(fmt)} (use {', '.join(FORMATS)})")
        text = _string(raw, "text")
        return LinkRequest(op="link", game=game, text=text, format=fmt, every=_flag(raw, "every"),
                           preview=_flag(raw, "preview"), skip=spans(raw.get("skip"), len(text)))
    if op == "lookup":
        limit = raw.get("limit") or 10
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise BadRequest("limit must be a positive integer")
        return LookupRequest(op="lookup", game=game, query=_string(raw, "query"), limit=min(limit, MAX_LIMIT))
    if op == "traits":
        given = raw.get("traits")
        if not isinstance(given, list) or not all(isinstance(t, str) for t in given):
            raise BadRequest("traits must be a list of names")
        return TraitsRequest(op="traits", game=game, traits=given)
    if op == "mentions":
        markup = raw.get("markup") or "any"
        if markup not in MARKUPS:
            raise BadRequest(f"unknown markup {_shown(markup)} (use {', '.join(MARKUPS)})")
        return MentionsRequest(op="mentions", game=game, text=_string(raw, "text"), markup=markup)
    raise BadRequest(f"unknown op {_shown(op)} (use {', '.join(OPS)})")


def _shown(value: object) -> str:
    """A request's value in a message: strings quoted, anything else by its JSON type, never echoed at length."""
    if isinstance(value, str):
        return repr(value[:40] + "…" if len(value) > 40 else value)
    return "(none given)" if value is None else "of type " + type(value).__name__


def _game(raw: Mapping[str, Any]) -> str | None:
    """The request's game; absent, empty or "auto" means: detect it (None)."""
    value = raw.get("game")
    if value is None or value in ("", AUTO):
        return None
    if not isinstance(value, str):
        raise BadRequest("game must be a string")
    return value


def _string(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str):
        raise BadRequest(f"{key} must be a string")
    return value


def spans(value: object, length: int) -> list[list[int]]:
    """`skip`: a list of [start, end] character offsets within a text of `length` characters (absent: none)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadRequest("skip must be a list of [start, end] pairs")
    if len(value) > MAX_SKIP:
        raise BadRequest(f"skip has {len(value)} spans (at most {MAX_SKIP})")
    out = []
    for i, pair in enumerate(value):
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair)):
            raise BadRequest(f"skip[{i}] must be a pair of integers [start, end]")
        start, end = pair
        if not 0 <= start < end:
            raise BadRequest(f"skip[{i}] must have 0 <= start < end (got [{start}, {end}])")
        if end > length:
            raise BadRequest(f"skip[{i}] ends at {end}, past the text's end ({length})")
        out.append([start, end])
    return out


def _flag(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if value is not None and not isinstance(value, bool):
        raise BadRequest(f"{key} must be true or false")
    return bool(value)
