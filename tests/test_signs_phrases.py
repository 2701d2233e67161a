"""Signed parameters ("Armor +/- X" takes only a signed number) and the glossary's `not_mentions:` phrases."""
from __future__ import annotations


import pytest

from conftest import armor_with, with_block



def found(codex_api, game, text):
    return [(m["text"], m["term"], m["parameter"]) for m in codex_api.mentions(game, text)]


# --- signs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ("Armor 0", [("Armor", "armor", None)]),                       # the armour value, not Armor +/- X
    ("броня 0", [("броня", "armor", None)]),
    ("Armor +1", [("Armor +1", "armor-modifier", "+1")]),
    ("Armor -1", [("Armor -1", "armor-modifier", "-1")]),
    ("Armor +/- 2", [("Armor +/- 2", "armor-modifier", "+/-2")]),
    ("Upkeep 2", [("Upkeep", "upkeep", None)]),                    # a bare number is not Upkeep's parameter
    ("Upkeep +2", [("Upkeep +2", "upkeep", "+2")]),
    ("Melee 3", [("Melee", "melee", None)]),
    ("Tough – 3", [("Tough – 3", "tough", "-3")]),
    ("Aegis 2", [("Aegis 2", "aegis", "2")]),                      # an unsigned placeholder takes a bare number
    ("Dissipate 3", [("Dissipate 3", "dissipate", "3")]),
])
def test_a_signed_placeholder_takes_only_a_signed_number(codex_api, text, expected):
    assert found(codex_api, "mage-wars", text + ".") == expected


@pytest.mark.parametrize("text,expected", [
    ("Rend 3", [("Rend", "rend", None)]),
    ("Rend +3", [("Rend +3", "rend", "+3")]),
    ("Trample 2", [("Trample 2", "trample", "2")]),
    ("Smite Evil 10", [("Smite", "smite", None)]),
    ("Smite Evil +10", [("Smite Evil +10", "smite", "Evil +10")]),
])
def test_signs_in_dnd(codex_api, text, expected):
    assert found(codex_api, "dnd-miniatures", text + ".") == expected


# --- phrases that contain a name but are something else --------------------------------------


@pytest.mark.parametrize("text", [
    "In each Upkeep Phase, roll a die", "during the upkeep phase", "в фазу содержания", "в каждом этапе содержания",
    "в фазу Upkeep", "во время фазы Приток маны", "during the Channeling Phase",
])
def test_not_mention_phrases_link_nothing(codex_api, text):
    assert [m for m in found(codex_api, "mage-wars", text) if m[1] in ("upkeep", "channeling")] == []


def test_the_name_alone_still_links(codex_api):
    assert found(codex_api, "mage-wars", "Upkeep +1 and Channeling") == [
        ("Upkeep +1", "upkeep", "+1"), ("Channeling", "channeling", None)]


def test_the_sites_cross_links_follow_the_phrases(glossary):
    """Burn's definition ("In each Upkeep Phase…") no longer links Upkeep +X, and Upkeep is not referenced by it."""
    from codex.index import build
    from codex.pages import definition_mentions
    from codex.resolve import Resolver

    game = glossary.game("mage-wars")
    mentions = definition_mentions(game, Resolver(build(game)))
    for term in ("burn", "bleed", "regenerate", "rot"):
        assert "upkeep" not in {m.term for m in mentions[term]["en"]}, term
    definition = game.term("channeling").definition["en"]
    phase = definition.index("Channeling Phase")
    assert [m.start for m in mentions["channeling"]["en"] if m.term == "channeling"] == [definition.index("Channeling")]
    assert phase > definition.index("Channeling")


# --- the validator --------------------------------------------------------------------------------


def test_a_valid_block_passes_and_reaches_the_index(project):
    assert with_block(project, "not_mentions:\n  en: [Armor Class]\n  ru: [класс брони]\n") == []
    from codex.check import load
    from codex.index import build
    from codex.resolve import Resolver

    game = load(project / "glossary", project).game("alpha")
    assert game.not_mentions == {"en": ["Armor Class"], "ru": ["класс брони"]}
    resolver = Resolver(build(game))
    assert [m.term for m in resolver.mentions("Armor Class and Armor; класса брони и брони")] == ["armor", "armor"]


@pytest.mark.parametrize("block,message", [
    ("not_mentions:\n  en: [Upkeep Phase]\n",
     "glossary/alpha.yml:11:8: not_mentions: not_mentions.en: 'Upkeep Phase' contains no name (nor derived word) "
     "of a alpha term"),
    ("not_mentions:\n  en: [Armor Class, armor  class]\n",
     "glossary/alpha.yml:11:21: not_mentions: not_mentions.en: 'armor class' is listed twice"),
    ("not_mentions:\n  en: ['']\n", "glossary/alpha.yml:11:8: not_mentions: not_mentions.en: empty phrase"),
    ("not_mentions:\n  en: [Aegis]\n",
     "glossary/alpha.yml:11:8: not_mentions: not_mentions.en: 'Aegis' is a name of 'aegis' itself"),
    ("not_mentions:\n  de: [Rüstung]\n", "glossary/alpha.yml:11:3: not_mentions: unknown language 'de' (use en and ru)"),
    ("not_mentions: [Armor Class]\n",
     "glossary/alpha.yml:10:15: not_mentions: not_mentions must be a mapping {en: [...], ru: [...]}"),
])
def test_the_validator_rejects_bad_phrases(project, block, message):
    assert with_block(project, block) == [message]


def test_a_phrase_may_hold_a_derived_word_in_any_form(project):
    # round 8: «куй, пока горячо» holds «куй», a form of KeyForge's derived «ковать», not of a name: the linker
    # matches derived words, so a not-mention may name one (here the fixture's «бронировать» for Armor)
    path = project / "glossary" / "alpha.yml"
    path.write_text(armor_with(path.read_text(encoding="utf-8"), "derived: {ru: [бронировать]}"), encoding="utf-8")
    assert with_block(project, "not_mentions:\n  ru: [бронируй заранее]\n") == []
    from codex.check import load
    from codex.index import build
    from codex.resolve import Resolver

    resolver = Resolver(build(load(project / "glossary", project).game("alpha")))
    assert [m.text for m in resolver.mentions("бронируй заранее, а потом бронируй стену")] == ["бронируй"]


def test_the_real_glossary_has_the_phase_phrases(glossary):
    phrases = glossary.game("mage-wars").not_mentions
    assert "Upkeep Phase" in phrases["en"] and "фаза содержания" in phrases["ru"]
