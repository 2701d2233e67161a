"""The glossary's content rules that need no seed documents: relations, case pairs, supplied names, both languages."""
from __future__ import annotations

import pytest


def by_name(game, name: str):
    for term in game.terms.values():
        if any(n.casefold() == name.casefold() for lang in ("en", "ru") for n in term.names(lang)):
            return term
    return None


def test_dnd_case_pairs_are_distinct_terms(glossary):
    game = glossary.game("dnd-miniatures")
    assert game.term("melee-attack-stat").name["en"] == "Melee Attack"
    assert game.term("melee-attack").name["en"] == "melee attack"
    assert game.term("melee-attack-stat").category == "creature-statistic"


def test_dnd_sub_entries_stay_inside_their_parent(glossary):
    game = glossary.game("dnd-miniatures")
    assert "Player’s Choice" in game.term("simultaneous-effects").definition["ru"]
    assert by_name(game, "Player’s Choice") is None


def test_supplied_english_names_are_marked(glossary):
    game = glossary.game("keyforge")
    for term_id, name in (("end-of-turn", "End of Turn"), ("house-choice", "House choice"), ("cost", "Cost")):
        assert game.term(term_id).name["en"] == name
        assert "en" in game.term(term_id).supplied


# --- relations ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game,term,relation,targets", [
    ("mage-wars", "conjuration", "implies", {"nonliving", "psychic-immunity", "unmovable"}),
    ("mage-wars", "nonliving", "implies", {"poison-immunity", "finite-life"}),
    ("mage-wars", "incorporeal", "implies", {"nonliving", "burnproof", "uncontainable"}),
    ("mage-wars", "invisible", "implies", {"pest", "elusive"}),
    ("mage-wars", "zombie", "implies", {"psychic-immunity", "slow", "nonliving", "bloodthirsty"}),
    ("mage-wars", "fast", "cancels", {"slow"}),
    ("mage-wars", "slow", "cancels", {"fast"}),
    ("mage-wars", "attack-action", "see_also", {"doublestrike", "triplestrike", "sweeping", "zone-attack-or-spell"}),
    ("dnd-miniatures", "undead", "implies", {"nonliving"}),
    ("dnd-miniatures", "tiny-reach", "see_also", {"no-reach"}),
])
def test_relations_read_from_the_text(glossary, game, term, relation, targets):
    assert targets <= set(getattr(glossary.game(game).term(term), relation))
