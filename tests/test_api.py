"""The browser's protocol, `Codex.handle`: what the worker passes through from the page, answered in Python."""
from __future__ import annotations

import json

import pytest


def test_link_with_preview_gives_text_and_html(codex_api):
    answer = codex_api.handle({"op": "link", "game": "mage-wars", "text": "Aegis 2 <b>", "format": "bbcode",
                               "preview": True})
    assert answer == {"result": {
        "text": "[url=https://example.org/mage-wars/aegis/]Aegis 2[/url] <b>",
        "html": '<a href="https://example.org/mage-wars/aegis/">Aegis 2</a> &lt;b&gt;',
        "game": "mage-wars",
    }, "game": "mage-wars"}


def test_link_without_preview_is_the_linked_string(codex_api):
    text = "Горение и Эгида"
    answer = codex_api.handle({"op": "link", "game": "mage-wars", "text": text})
    assert answer == {"result": codex_api.link("mage-wars", text), "game": "mage-wars"}


def test_traits_carry_chains_in_both_languages(codex_api):
    result = codex_api.handle({"op": "traits", "game": "mage-wars", "traits": ["Conjuration"]})["result"]
    immunity = next(t for t in result["traits"] if t["term"] == "poison-immunity")
    assert immunity["because"] == ["conjuration", "nonliving", "poison-immunity"]
    assert immunity["because_names"]["en"] == ["Conjuration", "Nonliving", "Poison Immunity"]
    assert immunity["because_names"]["ru"][0] == codex_api.resolver("mage-wars").index.terms["conjuration"].name["ru"]
    assert immunity["url"] == "https://example.org/mage-wars/poison-immunity/"


def test_lookup_and_games(codex_api):
    found = codex_api.handle({"op": "lookup", "game": "mage-wars", "query": "эгида 3", "limit": 3})["result"]
    assert found[0]["term"] == "aegis" and found[0]["parameter"] == "3" and len(found) <= 3
    games = codex_api.handle({"op": "games"})["result"]
    assert {g["id"] for g in games} == {"mage-wars", "dnd-miniatures", "keyforge"}


@pytest.mark.parametrize("request_, message", [
    ({"op": "link", "game": "chess", "text": "x"}, "unknown game 'chess'"),
    ({"op": "link", "game": "mage-wars", "text": "x", "format": "rtf"}, "unknown format 'rtf'"),
    ({"op": "link", "game": "mage-wars", "text": 5}, "text must be a string"),
    ({"op": "traits", "game": "mage-wars", "traits": "Fast"}, "traits must be a list of names"),
    ({"op": "lookup", "game": "mage-wars", "query": "x", "limit": -1}, "limit must be a positive integer"),
    ({"op": "explode"}, "unknown op 'explode'"),
])
def test_bad_requests_are_one_line_errors(codex_api, request_, message):
    answer = codex_api.handle(request_)
    assert set(answer) == {"error"} and answer["error"].startswith(message)


def test_handle_json_round_trip(codex_api):
    assert json.loads(codex_api.handle_json("[1]")) == {"error": "a request is a JSON object"}
    assert json.loads(codex_api.handle_json("{oops"))["error"].startswith("not JSON")
    answer = json.loads(codex_api.handle_json(json.dumps({"op": "mentions", "game": "keyforge", "text": "Forge a key: Hazardous 2"})))
    assert [m["term"] for m in answer["result"]] == ["forge", "hazardous"]
