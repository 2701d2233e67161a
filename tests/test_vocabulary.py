"""The English a player recognises: no look-alike letters, each game's official vocabulary, relations the text states."""
from __future__ import annotations

import re

import pytest

from codex.lookalikes import in_english, in_russian


def english_fields(term):
    yield "name.en", term.name["en"]
    for alias in term.aliases.get("en", []):
        yield "aliases.en", alias
    yield "definition.en", term.definition["en"]


# --- look-alike letters ------------------------------------------------------------------------------
def test_no_cyrillic_letter_in_any_english_field(glossary):
    found = [(t.game, t.id, field, text[f.index]) for t in glossary.terms for field, text in english_fields(t)
             for f in in_english(text)]
    assert found == []


def test_no_russian_word_mixes_scripts_except_the_source_typos(glossary):
    """The one word the codex itself misspells (Latin z in «повреждениz») stays verbatim and is declared."""
    found = {(t.game, t.id, f.word) for t in glossary.terms for text in [t.name["ru"], *t.aliases.get("ru", []),
                                                                       t.definition["ru"]] for f in in_russian(text)}
    assert found == {("mage-wars", "poison", "повреждениz")}
    assert glossary.game("mage-wars").term("poison").raw["source_typos"] == ["повреждениz"]


def test_fixed_names_stay_reachable_in_latin(glossary, codex_api):
    mage_wars, dnd = glossary.game("mage-wars"), glossary.game("dnd-miniatures")
    assert mage_wars.term("regenerate").name["en"] == "Regenerate X"
    assert dnd.term("stunning-attack-dc").name["en"] == "Stunning Attack DC [#]"
    for game, text, term in (("mage-wars", "Regenerate 2", "regenerate"), ("mage-wars", "Regenerate", "regenerate"),
                             ("dnd-miniatures", "Stunning Attack DC 15", "stunning-attack-dc")):
        assert [m["term"] for m in codex_api.mentions(game, text)] == [term], text


# --- each game's official English vocabulary ---------------------------------------------------------------
# (game, category id, the label it must not have, the official label). Sources: Compiled Codex 2014 headings
# "Armor (Object Attribute)", "Tainted (Condition Marker)"; the codex data's categories (commit messages).
CATEGORY_LABELS = [
    ("mage-wars", "object-property", "object property", "object attribute"),
    ("mage-wars", "condition-token", "condition token", "condition marker"),
    ("mage-wars", "attack-property", "attack property", "attack attribute"),
    ("mage-wars", "spell-property", "spell property", "spell attribute"),
    ("mage-wars", "game-token", "game token", "game marker"),
]

# (game, what, the wording no English definition may use, (term, the wording its definition must use))
WORDING = [
    ("mage-wars", "condition markers are markers",
     r"\b(?:Bleed|Burn|Corrode|Daze|Disable|Growth|Ichthellid Larva|Slam|Sleep|Stuck|Stun|Tainted|Weak|Guard|Taunt|"
     r"condition) tokens?\b", ("corrode", "Each Corrode marker")),
    ("mage-wars", "Burn is a Flame condition", r"\bfire (?:condition|attacks|or lightning)\b",
     ("burn", "This is a Flame condition")),
    ("mage-wars", "Removal Cost: N, written one way", r"Removal cost\b|Removal Cost(?!:)", ("bleed", "Removal Cost: 2.")),
    ("mage-wars", "phases by their names", r"\baction phases?\b|\bready phase\b", ("quickcast-action", "any Action Phase")),
    ("mage-wars", "the Action Stage holds the Quickcast Phases", r"\baction step\b", ("quickcast-phase", "Action Stage")),
    ("mage-wars", "attack steps by their names", r"\b(?:declare attack|avoid attack|Counterstrike|Additional Strikes)[”]? step\b",
     ("intercept", "after the Declare Attack Step and before the Avoid Attack Step")),
    ("mage-wars", "Armor, Channeling, Life are attributes", r"\b(?:Channeling|Life) (?:property|trait of)\b",
     ("life", "the Life attribute")),
    ("dnd-miniatures", "the acting creature (the one moving, attacking or producing the effect)",
     r"\bactive player\b|\bactive creature's\b|\b(?:from|to|of|see) the active creature\b|"
     r"\b(?:only|The) (?:the )?active creature (?:switches|has)?", ("self", "affects only the acting creature")),
    ("dnd-miniatures", "creatures are eliminated", r"\bdestroy", ("summon-summoned", "is eliminated immediately")),
    ("dnd-miniatures", "the starting area", r"\bstart area\b", ("scout", "in your starting area")),
    ("keyforge", "a player's turn, not a round", r"\brounds?\b", ("house-choice", "they start the turn")),
    ("keyforge", "Æmber, spelt as printed", r"\b(?:Aember|Amber|amber)\b", ("cost", "6 Æmber")),
    ("keyforge", "the battleline, one word", r"\bbattle line\b", ("flank", "of the battleline")),
    ("keyforge", "Elusive: when the creature is the attacker", r"\battack themselves\b",
     ("elusive", "When they are the attacker")),
    ("keyforge", "the opponent's discard pile", r"\benemy discard pile\b", ("discard-pile", "their opponent’s discard")),
    ("keyforge", "If you do / In order to: no 'before … before'", r"\bbefore those phrases\b",
     ("if-you-do-in-order-to", "preceding those phrases")),
    # Second pass (issue 19). Sources: Mage Wars Compiled Codex, November 2014 (vdocument.in copy) and the codex pages
    # (scribd 624887267); WotC D&D Miniatures online glossary (wizards.com dnd/mi/20050707b) and errata; KeyForge
    # rulebook glossary and Archon Arcana.
    ("mage-wars", "the board is the arena", r"\b(?:playing field|battlefield|game board)\b",
     ("hidden-enchantment", "cast face down in the arena")),
    ("mage-wars", "equipment takes up a location, not a slot", r"\bslots?\b",
     ("autonomous", "does not take up an equipment location")),
    ("mage-wars", "Burn rolls an attack die", r"\b(?:roll|rolls) (?:\d+|X) dic?e of\b", ("burn", "roll 1 attack die of direct damage")),
    ("mage-wars", "Aegis subtracts attack dice", r"\bsubtracts? X dice\b", ("aegis", "subtract X attack dice before rolling")),
    ("mage-wars", "a bonus of attack dice", r"[+]X dice\b|\badds X dice\b|\bnumber of dice by\b",
     ("melee", "gets +X attack dice on a melee attack")),
    ("mage-wars", "Tainted, Cripple, Weak are poison conditions", r"\bcondition – poisoned\b|\bPoison properties\b",
     ("cripple", "A poison condition.")),
    ("mage-wars", "Unmovable is the trait", r"\bare unmovable\b", ("unmovable", "All Conjurations are Unmovable.")),
    ("mage-wars", "a creature guards; it does not become a Guard", r"\b(?:becomes?|act as|such) a Guard\b",
     ("guarding", "can guard (a Guard marker is placed on it)")),
    ("mage-wars", "canceled, as the codex spells it", r"\bcancell(?:ed|ing)\b", ("cancel", "is canceled")),
    # Second reader: a guard is a creature with a guard marker (the rulebook's Guarding section, quoted on
    # reddit.com/r/magewars "Domination rule question"); each creature's action marker (codex, Activate).
    ("mage-wars", "a guard, in lower case, as the rulebook names a guarding creature", r"\battack a Guard\b",
     ("melee-attack", "you must attack a guard if")),
    ("mage-wars", "the action marker, by its name", r"\bits marker is\b", ("incapacitated", "only its action marker is flipped")),
    ("dnd-miniatures", "“replaces attacks”, the WotC errata wording", r"\b[Rr]eplaces attack\b",
     ("replace-replaces", "“replaces attacks”")),
    ("dnd-miniatures", "the battle map", r"\bon the battlefield\b", ("radius-2", "exactly on the battle map")),
    # Second reader (issue 19). Source: the War Drums rulebook as kept by the DDM Guild (yumpu.com document 24065253:
    # "under command", "battle maps", "is eliminated", "Commander rating", "HP (hit points)"); "penalty" as the
    # glossary's own Stun writes it ("-2 penalty to AC").
    ("dnd-miniatures", "a creature is under command", r"\b(?:is|are) commanded\b", ("rally", "if it is under command")),
    ("dnd-miniatures", "off the battle map, never the battlefield", r"\bbattlefield\b",
     ("morale-save", "routing off the battle map")),
    ("dnd-miniatures", "a creature is eliminated, not destroyed", r"\bdestruction\b",
     ("poison-poisoned", "outright elimination of the poisoned creature")),
    ("dnd-miniatures", "a negative modifier is a penalty", r"\bmodifiers of -\d", ("stench", "take a -2 penalty on attacks")),
    ("dnd-miniatures", "the Commander rating, capitalised as the stat card prints it", r"\bcommander rating\b",
     ("tied-die-rolls", "the highest Commander rating wins")),
    ("dnd-miniatures", "HP, as the rulebook abbreviates hit points", r"\bhp\b", ("wounded", "its HP (hit points)")),
    ("dnd-miniatures", "abilities keep their printed capitals (Unique, Burrow)", r"\b(?:unique creature|burrow ability)\b",
     ("unique", "a Unique creature")),
    ("dnd-miniatures", "heal effects, after the keyword heal", r"\bHealing effects\b", ("undead", "Heal effects damage Undead")),
    ("keyforge", "a constant ability, not a passive one", r"\bpassive abilit", ("fight", "has a constant ability")),
    ("keyforge", "If you do / In order to: one adverb, not a doublet", r"\bfully and completely\b",
     ("if-you-do-in-order-to", "must fully meet the conditions")),
    ("keyforge", "Elusive: no redundant parenthesis", r"\(when they are attacked\)", ("elusive", "they take no damage, but")),
]


@pytest.mark.parametrize("game,category,forbidden,required", CATEGORY_LABELS, ids=[r[1] for r in CATEGORY_LABELS])
def test_category_labels_are_the_official_ones(glossary, game, category, forbidden, required):
    label = glossary.game(game).categories[category]["en"]
    assert label == required and forbidden not in label


@pytest.mark.parametrize("game,what,forbidden,required", WORDING, ids=[r[1] for r in WORDING])
def test_official_wording(glossary, game, what, forbidden, required):
    terms = glossary.game(game).terms
    offending = [(t.id, m.group()) for t in terms.values() for m in re.finditer(forbidden, t.definition["en"])]
    assert offending == []
    term, wording = required
    assert wording in terms[term].definition["en"]


def test_no_condition_marker_is_called_a_token(glossary):
    game = glossary.game("mage-wars")
    called_token = [t.id for t in game.terms.values()
                    if t.category == "condition-token" and re.search(r"\btokens?\b", t.definition["en"], re.I)]
    assert called_token == []


def test_tokens_stay_tokens_where_the_codex_says_token(glossary):
    """Token is the codex's word for a spell's own counters (Rage, Dissipate): those are not condition markers."""
    terms = glossary.game("mage-wars").terms
    assert "Rage token" in terms["rage"].definition["en"]
    assert "Dissipate tokens" in terms["dissipate"].definition["en"]


# --- relations ---------------------------------------------------------------------------------------
def test_keyforge_editorial_links_are_related_not_see_also(glossary):
    """The KeyForge glossary states no references of its own: the project's links are `related`, validated like
    see_also (an existing term of the game, not the term itself) and kept on Term.related."""
    game = glossary.game("keyforge")
    assert [t.id for t in game.terms.values() if t.see_also] == []
    assert len([t for t in game.terms.values() if t.related]) == 13
    assert game.term("cost").related == ["forge", "keys"]
    assert all(target in game.terms and target != t.id for t in game.terms.values() for target in t.related)


# (game, term, see_also target, the words of definition.ru that state the reference, where the target is named)
STATED = [
    ("mage-wars", "mana-transfer", "mana-drain", "То же, что Mana Drain", "Mana Drain"),
    ("mage-wars", "snatch", "push", "Похоже на эффект Push", "Push"),
    ("mage-wars", "unique", "legendary", "Черта похоже на Legendary", "Legendary"),
    ("dnd-miniatures", "no-reach", "tiny-reach", "эту способность называли Tiny Reach", "Tiny Reach"),
    ("dnd-miniatures", "psionics", "spell", "используют те же правила и ключевые слова, что и заклинания", "заклинани"),
]


@pytest.mark.parametrize("game,term,target,statement,named", STATED, ids=[f"{r[1]}->{r[2]}" for r in STATED])
def test_added_see_also_is_stated_by_the_text(glossary, game, term, target, statement, named):
    entry, linked = glossary.game(game).term(term), glossary.game(game).term(target)
    assert target in entry.see_also
    assert statement in entry.definition["ru"] and named in statement
    assert any(named.casefold() in name.casefold() for lang in ("en", "ru") for name in linked.names(lang))


# --- capitalisation: a term's name is capitalised mid-sentence only where it names the term ---------------------
# The common nouns that are also term names. D&D writes its game terms and keywords in lower case, so every
# lower-case name of that glossary joins the list. Allowed capitals: a sentence's first word, a word inside a longer
# name of the game ("Zone Attack", "Powerful Charge", "End of Turn"), a printed ability label (“Fight:”), a rulebook
# section named in a page reference ("See Saves on page 19", "See Fight (page 13)"), and the exceptions listed below.
COMMON_NOUNS = {
    "mage-wars": ["Creature", "Defender", "Object", "Zone", "Enemy", "Owner", "Controller", "Token", "Wall", "Level",
                  "Condition", "Initiative"],
    "dnd-miniatures": ["Creature", "Charge"],
    "keyforge": ["Creature", "Damage", "Enemy", "Friendly", "Cost", "Heal", "Key", "Keys", "Turn", "Destroyed",
                 "Flank", "Forge", "Fight"],
}
# (game, term, the phrase in which the capital names a type or a heading): the only exceptions.
CAPITALS_ALLOWED = {
    ("mage-wars", "summon", "Creature spell"),  # the spell type printed on the card
    ("dnd-miniatures", "psionics", "Spells entry"),  # the stat card's line
    ("dnd-miniatures", "spellcaster", "Spells entry"),
    ("dnd-miniatures", "simultaneous-effects", "Player Whose Creature is Taking a Turn First"),  # the rule's heading
}
SENTENCE_END = ".!?:\n—–"
PAGE_REFERENCE = re.compile(r"\bSee [^.]*?(?: on page \d+| \(page \d+\))")


def miscapitalised(text, words, longer_names, allowed_phrases=()):
    """The capitalised common nouns in `text` that neither start a sentence nor sit inside a name, label or heading."""
    covered = [m.span() for name in longer_names for m in re.finditer(re.escape(name), text)]
    covered += [m.span() for m in PAGE_REFERENCE.finditer(text)]
    covered += [m.span() for phrase in allowed_phrases for m in re.finditer(re.escape(phrase), text)]
    found = []
    for m in re.finditer(r"\b(?:" + "|".join(map(re.escape, words)) + r")s?\b", text):
        before = text[:m.start()].rstrip(" “\"(")
        if not before or before[-1] in SENTENCE_END:
            continue
        if text.startswith(":”", m.end()) or any(a <= m.start() and m.end() <= b for a, b in covered):
            continue
        found.append(m.group())
    return found


def common_nouns(game):
    words = set(COMMON_NOUNS[game.id])
    for term in game.terms.values():
        words |= {name[0].upper() + name[1:] for name in term.names("en") if name[:1].islower()}
    return sorted(words)


def longer_names(game):
    return sorted({name for t in game.terms.values() for name in t.names("en") if " " in name})


@pytest.mark.parametrize("game_id", sorted(COMMON_NOUNS))
def test_term_names_capitalised_mid_sentence_only_where_they_name_the_term(glossary, game_id):
    game = glossary.game(game_id)
    words, names = common_nouns(game), longer_names(game)
    offending = [(t.id, word) for t in game.terms.values()
                 for word in miscapitalised(t.definition["en"], words, names,
                                            [p for g, term, p in CAPITALS_ALLOWED if (g, term) == (game_id, t.id)])]
    assert offending == []


def test_every_capital_exception_is_still_needed(glossary):
    """An exception the text no longer contains is dropped, so the list stays the whole truth."""
    for game_id, term, phrase in CAPITALS_ALLOWED:
        game = glossary.game(game_id)
        text = game.term(term).definition["en"]
        assert phrase in text
        assert miscapitalised(text, common_nouns(game), longer_names(game)) != [], (term, phrase)


def test_the_capitalisation_check_finds_a_stray_capital():
    words, names = ["Creature", "Zone"], ["Zone Attack"]
    assert miscapitalised("The Creature moves. Creature spells, a Zone Attack.", words, names) == ["Creature"]
    assert miscapitalised("It hits a Creature in a Zone.", words, names) == ["Creature", "Zone"]
    assert miscapitalised("Its “Fight:” abilities. See Creatures on page 5.", ["Fight", "Creature"], []) == []
    assert miscapitalised("a Creature spell", words, names, ["Creature spell"]) == []
