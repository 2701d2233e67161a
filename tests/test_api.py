"""The browser's protocol, `Codex.handle`: what the worker passes through from the page, answered in Python."""
from __future__ import annotations

import json

import pytest


def test_link_with_preview_gives_text_and_html(codex_api):
    answer = codex_api.handle({"op": "link", "game": "mage-wars", "text": "Aegis 2 <b>", "format": "bbcode",
                               "preview": True})
    aegis = codex_api.resolver("mage-wars").index.terms["aegis"].name
    assert answer == {"result": {
        "text": "[url=https://example.org/mage-wars/aegis/]Aegis 2[/url] <b>",
        "html": '<a href="https://example.org/mage-wars/aegis/">Aegis 2</a> &lt;b&gt;',
        "game": "mage-wars",
        "mentions": [{"start": 0, "end": 7, "text": "Aegis 2", "term": "aegis", "name": aegis["en"],
                      "name_ru": aegis["ru"], "linked": True}],
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


@pytest.mark.parametrize("request_, message", [
    ({"op": "link", "game": "mage-wars", "text": "x", "format": 5}, "unknown format of type int"),
    ({"op": "link", "game": "mage-wars", "text": "x", "every": "yes"}, "every must be true or false"),
    ({"op": "link", "game": "mage-wars", "text": "x", "preview": [1]}, "preview must be true or false"),
    ({"op": "link", "game": 7, "text": "x"}, "game must be a string"),
    ({"op": "lookup", "game": "mage-wars", "query": ["x"]}, "query must be a string"),
    ({"op": "lookup", "game": "mage-wars", "query": "x", "limit": True}, "limit must be a positive integer"),
    ({"op": "lookup", "game": "mage-wars", "query": "x", "limit": "3"}, "limit must be a positive integer"),
    ({"op": "traits", "game": "mage-wars", "traits": ["Fast", 3]}, "traits must be a list of names"),
    ({"op": "mentions", "game": "mage-wars", "text": "x", "markup": "rst"}, "unknown markup 'rst'"),
    ({"op": "mentions", "game": "mage-wars", "text": "x", "markup": {"a": 1}}, "unknown markup of type dict"),
    ({"text": "x"}, "unknown op (none given)"),
    ({"op": ["link"]}, "unknown op of type list"),
])
def test_malformed_requests_are_answered_by_field(codex_api, request_, message):
    answer = codex_api.handle(request_)
    assert answer == {"error": answer["error"]} and answer["error"].startswith(message)


def test_a_bug_is_answered_without_its_text_and_logged_with_its_traceback(codex_api, monkeypatch, caplog):
    """A programming error inside is no reader's business: the answer says the linker failed, the log has the rest."""
    from codex.api import FAILED

    def broken(*args, **kwargs):
        raise TypeError("unsupported operand type(s) for +: 'int' and 'str'")

    monkeypatch.setattr(codex_api, "found", broken)
    with caplog.at_level("ERROR", logger="codex.api"):
        answer = codex_api.handle({"op": "mentions", "game": "mage-wars", "text": "Aegis"})
    assert answer == {"error": FAILED}
    assert "unsupported operand" not in FAILED
    record = next(r for r in caplog.records if r.name == "codex.api")
    assert record.exc_info is not None and record.exc_info[0] is TypeError


@pytest.mark.parametrize("request_, answer_type", [
    ({"op": "games"}, "GamesAnswer"),
    ({"op": "link", "text": "Aegis 2 and Burn"}, "LinkAnswer"),
    ({"op": "link", "game": "mage-wars", "text": "Aegis", "preview": True}, "LinkAnswer"),
    ({"op": "lookup", "query": "Aegis"}, "LookupAnswer"),
    ({"op": "traits", "game": "mage-wars", "traits": ["Conjuration", "Living"]}, "TraitsAnswer"),
    ({"op": "mentions", "text": "Aegis 2 and Burn", "markup": "markdown"}, "MentionsAnswer"),
])
def test_answers_have_the_shape_of_their_types(codex_api, request_, answer_type):
    """Each answer carries exactly the keys its TypedDict in codex.protocol names, down to the items of its result."""
    from codex import protocol

    answer = codex_api.handle(request_)
    assert set(answer) == set(getattr(protocol, answer_type).__annotations__)
    result = answer["result"]
    items = {"GamesAnswer": ("GameInfo", result), "LookupAnswer": ("Candidate", result),
             "MentionsAnswer": ("MentionInfo", result)}
    if answer_type in items:
        item_type, listed = items[answer_type]
        assert listed and all(set(item) == set(getattr(protocol, item_type).__annotations__) for item in listed)
    if answer_type == "TraitsAnswer":
        assert set(result) == set(protocol.Traits.__annotations__)
        assert result["traits"] and all(set(t) == set(protocol.Trait.__annotations__) for t in result["traits"])
        assert all(set(c) == set(protocol.Cancelled.__annotations__) for c in result["cancelled"])
    if request_.get("preview"):
        assert set(result) == {"text", "html", "game", "mentions"}
        assert result["mentions"] and all(set(m) == set(protocol.LinkedMention.__annotations__)
                                          for m in result["mentions"])
