"""The resolver's rules, one test each: forms, parameters, overlaps, protected markup, game filter, escaping."""
from __future__ import annotations

import html
import itertools

import pytest


def found(codex_api, game, text):
    return [(m["text"], m["term"]) for m in codex_api.mentions(game, text)]


@pytest.mark.parametrize("text,term", [
    ("брони", "armor"), ("коррозии", "corrode"), ("бесплотные", "incorporeal"), ("бесплотного", "incorporeal"),
    ("огнеупорны", "burnproof"), ("Эгиду", "aegis"), ("conjurations", "conjuration"), ("healed", "heal"),
    ("pushed", "push"), ("Creatures", "creature"), ("Guard", "guarding"), ("LoS", "los"),
])
def test_word_forms_mage_wars(codex_api, text, term):
    assert found(codex_api, "mage-wars", text) == [(text, term)]


def test_russian_multi_word_names_inflect(codex_api):
    assert found(codex_api, "dnd-miniatures", "нет линии видимости") == [("линии видимости", "line-of-sight")]


@pytest.mark.parametrize("text,term,parameter", [
    ("Aegis 2", "aegis", "2"), ("Эгида 3", "aegis", "3"), ("Melee +2", "melee", "+2"), ("Tough -3", "tough", "-3"),
    ("Tough – 3", "tough", "-3"), ("Armor +1", "armor-modifier", "+1"), ("Bloodthirsty +0", "bloodthirsty", "+0"),
])
def test_parameters_mage_wars(codex_api, text, term, parameter):
    [mention] = codex_api.mentions("mage-wars", f"с {text} и")
    assert (mention["text"], mention["term"], mention["parameter"]) == (text, term, parameter)


@pytest.mark.parametrize("game,text,term,parameter", [
    ("dnd-miniatures", "Smite Evil +10", "smite", "Evil +10"),
    ("dnd-miniatures", "Resist 5 fire", "resist", "5 fire"),
    ("dnd-miniatures", "Powerful Charge +10", "powerful-charge", "+10"),
    ("keyforge", "Опасный 3", "hazardous", "3"),
    ("keyforge", "Hazardous 2", "hazardous", "2"),
])
def test_parameters_whole(codex_api, game, text, term, parameter):
    [mention] = codex_api.mentions(game, text + ".")
    assert (mention["text"], mention["term"], mention["parameter"]) == (text, term, parameter)


def test_a_word_slot_never_swallows_the_next_word(codex_api):
    assert found(codex_api, "dnd-miniatures", "Vulnerable creatures") == [("Vulnerable", "vulnerable")]


def test_longest_match_wins_and_spans_never_overlap(codex_api):
    assert found(codex_api, "mage-wars", "Zone Attack в Zone") == [("Zone Attack", "zone-attack-or-spell"), ("Zone", "zone")]
    spans = codex_api.mentions("mage-wars", "Melee Attack, Melee +2 и Zone Attack or Spell")
    assert [m["text"] for m in spans] == ["Melee Attack", "Melee +2", "Zone Attack or Spell"]
    for a, b in itertools.pairwise(spans):
        assert a["end"] <= b["start"]


def test_case_pairs_pick_the_printed_capitalisation(codex_api):
    assert found(codex_api, "dnd-miniatures", "Melee Attack vs melee attack") == [
        ("Melee Attack", "melee-attack-stat"), ("melee attack", "melee-attack")]


@pytest.mark.parametrize("word", ["боевой", "бойко", "боец"])
def test_short_stems_do_not_over_match(codex_api, word):
    assert found(codex_api, "keyforge", word) == []


@pytest.mark.parametrize("word", ["бой", "боя", "бою", "боем"])
def test_short_words_match_their_own_forms(codex_api, word):
    assert found(codex_api, "keyforge", word) == [(word, "fight")]


def test_ordinary_words_need_a_capital(codex_api):
    text = "It is pretty slow, but my Slow creature in this zone lost its life; Life matters."
    assert found(codex_api, "mage-wars", text) == [("Slow", "slow"), ("creature", "creature"), ("zone", "zone"), ("Life", "life")]
    assert found(codex_api, "dnd-miniatures", "move 2 squares into a space, then Move") == [("Move", "move")]
    assert found(codex_api, "mage-wars", "он не в состоянии, но Состояние") == [("Состояние", "condition")]


def test_game_words_link_in_lower_case(codex_api):
    assert found(codex_api, "keyforge", "deal 2 damage to each enemy creature") == [("damage", "damage"), ("enemy", "enemy")]


def test_the_games_own_name_is_not_a_mention(codex_api):
    assert found(codex_api, "mage-wars", "Mage Wars: can a Mage attack?") == [("Mage", "mage")]


def test_russian_homonyms_follow_the_english_capitalisation(codex_api):
    assert found(codex_api, "dnd-miniatures", "при рукопашной атаке") == [("рукопашной атаке", "melee-attack")]


def test_a_bracketed_parameter_is_part_of_the_mention(codex_api):
    [mention] = codex_api.mentions("keyforge", "у него Опасный (3), а")
    assert (mention["text"], mention["parameter"]) == ("Опасный (3)", "3")


MARKDOWN_MARKUP = ["[Aegis 2](https://example.org/aegis)", "`Aegis 2`", "<span title='Aegis'>",
                   "<a href='/x'>Aegis</a>", "```\nAegis\n```", "~~~\nAegis\n~~~", "    Aegis 2", "[Aegis][ref]"]
BBCODE_MARKUP = ["[url=https://x]Aegis[/url]", "[url]https://x/Aegis[/url]", "[code]Aegis[/code]", "[img]Aegis[/img]"]
ANY_MARKUP = ["https://example.org/Aegis", "www.example.org/Aegis", "Aegis@example.org", "example.org/Aegis"]


@pytest.mark.parametrize("text", MARKDOWN_MARKUP + BBCODE_MARKUP + ANY_MARKUP)
def test_nothing_inside_existing_markup_is_linked(codex_api, text):
    """Plain-text output (and JSON) protects what any markup would; each markup output protects its own (save an
    indented line that reads as prose: text to `any`, code to Markdown — test_markup.py)."""
    if text != "    Aegis 2":
        assert found(codex_api, "mage-wars", text) == []
    fmt = "markdown" if text in MARKDOWN_MARKUP else "bbcode" if text in BBCODE_MARKUP else "html"
    assert codex_api.link("mage-wars", text, fmt) == (text if fmt != "html" else html.escape(text, quote=False))
    for other in ("markdown", "bbcode"):
        if text in ANY_MARKUP:
            assert codex_api.link("mage-wars", text, other) == text


def test_existing_markup_is_preserved_exactly(codex_api):
    text = "**Aegis 2** и _брони_ > [см.](https://x) `код`\n- Burn"
    out = codex_api.link("mage-wars", text)
    assert out == (
        "**[Aegis 2](https://example.org/mage-wars/aegis/)** и _[брони](https://example.org/mage-wars/armor/)_ "
        "> [см.](https://x) `код`\n- [Burn](https://example.org/mage-wars/burn/)"
    )


def test_only_the_chosen_game_is_linked(codex_api):
    assert found(codex_api, "keyforge", "Aegis 2 and Conjuration") == []
    assert found(codex_api, "mage-wars", "Æmber") == []


def test_first_mention_only_unless_all(codex_api):
    text = "Burn, Burn and Burn"
    assert codex_api.link("mage-wars", text).count("](") == 1
    assert codex_api.link("mage-wars", text, every=True).count("](") == 3
    assert len(codex_api.mentions("mage-wars", text)) == 3


def test_html_output_escapes_the_input(codex_api):
    out = codex_api.link("mage-wars", "<script>alert(1)</script> Burn & <b>", "html")
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert '<a href="https://example.org/mage-wars/burn/">Burn</a> &amp; &lt;b&gt;' in out


def test_bbcode_output_keeps_every_character_of_the_post(codex_api):
    """The writer's "<" stays "<" (no full-width "＜"): the linker adds links and changes nothing else."""
    out = codex_api.link("mage-wars", "a < b and Burn <3", "bbcode")
    assert out == "a < b and [url=https://example.org/mage-wars/burn/]Burn[/url] <3"


def test_markdown_output_format(codex_api):
    assert codex_api.link("mage-wars", "Burn") == "[Burn](https://example.org/mage-wars/burn/)"


def test_unknown_format_is_an_error(codex_api):
    with pytest.raises(ValueError):
        codex_api.link("mage-wars", "Burn", "rtf")


# --- lookup ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game,query,term,parameter", [
    ("mage-wars", "эгида 3", "aegis", "3"), ("mage-wars", "Aegis 4", "aegis", "4"),
    ("mage-wars", "Incorporal", "incorporeal", None), ("mage-wars", "бесплотного", "incorporeal", None),
    ("dnd-miniatures", "Smite Evil +10", "smite", "Evil +10"), ("dnd-miniatures", "Resist 5 fire", "resist", "5 fire"),
    ("keyforge", "Hazardous 3", "hazardous", "3"), ("mage-wars", "Conjuraton", "conjuration", None),
])
def test_lookup_best_first(codex_api, game, query, term, parameter):
    best = codex_api.lookup(game, query)[0]
    assert (best["term"], best["parameter"]) == (term, parameter)
    assert best["url"] == f"https://example.org/{game}/{term}/"


def test_lookup_scores_are_ordered(codex_api):
    scores = [c["score"] for c in codex_api.lookup("mage-wars", "Corporeal")]
    assert scores == sorted(scores, reverse=True) and scores[0] == 1.0


def test_lookup_of_nonsense_is_empty(codex_api):
    assert codex_api.lookup("mage-wars", "qwxyz") == []


# --- traits ----------------------------------------------------------------------------------
def test_traits_follow_implications_with_chains(codex_api):
    result = codex_api.traits("mage-wars", ["Conjuration"])
    chains = {t["term"]: t["because"] for t in result["traits"]}
    assert chains["poison-immunity"] == ["conjuration", "nonliving", "poison-immunity"]
    assert chains["unmovable"] == ["conjuration", "unmovable"]
    assert chains["conjuration"] == ["conjuration"]


def test_traits_cancel_in_pairs(codex_api):
    result = codex_api.traits("mage-wars", ["Fast", "Slow", "Flying"])
    assert [t["term"] for t in result["traits"]] == ["flying"]
    assert {c["term"] for c in result["cancelled"]} == {"fast", "slow"}


def test_traits_accept_russian_and_ids(codex_api):
    result = codex_api.traits("mage-wars", ["Бесплотный", "zombie"])
    terms = {t["term"] for t in result["traits"]}
    assert {"incorporeal", "nonliving", "burnproof", "uncontainable", "zombie", "psychic-immunity"} <= terms


def test_index_entries_are_named_and_survive_the_browsers_json(codex_api):
    """The browser loads the index from JSON (arrays there): it gets back the same named entries the build made."""
    from codex.index import Accept, Index

    for gid, resolver in codex_api.resolvers.items():
        built = resolver.index
        loaded = Index.from_json(built.to_json())
        assert loaded.trie == built.trie, gid
        stack, entries = [loaded.trie], []
        while stack:
            node = stack.pop()
            entries.extend(node.get("a", ()))
            stack.extend(node.get("c", {}).values())
        assert entries and all(type(e) is Accept for e in entries), gid
        assert {e.term for e in entries} >= set(built.terms), gid  # every term is reachable by some name
        assert {e.is_name for e in entries} == {True, False}, gid  # names and aliases both, told apart
