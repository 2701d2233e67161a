"""A name's word as the sentence's verb. KeyForge's "keys cost +3", "a key costs 6 æmber" say the game's keys and, with
the verb, its cost — two mentions, not the alias "Key cost" (round 16: the read sets' annotators split 7 of its 8
uses so; `real8`'s two linked "my key costs 7" as the alias). Mage Wars' Stuck in lower case with a place after it
("stuck in traffic", "they get stuck hitting its armor", "stuck in a Tanglevine") is the everyday participle, not the
condition; lower-case "reach" after a modal or "to" ("can't reach anything", "trying to reach me") is the everyday
verb, and "out of (his) reach" the idiom — not Reach; KeyForge's "died in a fight with Krump" is a fight (the noun),
not the instruction "Fight with"; "If you do sleeve" is the emphatic "do", not the card's "If you do"."""
from __future__ import annotations

import re
from collections.abc import Callable

from .mention import Mention

COST_TERMS = frozenset({"cost"})  # the terms with an English name "<noun> cost" whose "cost" can be a verb
# "cost"/"costs" as the verb: an amount follows — a number, a sign, a number word, "more"/"less"
_VERB_COST = re.compile(
    r"([^\W\d_]+)([ \t]+)(costs?)(?=[ \t]+(?:[+\-−–][ \t]?\d|\d|(?:more|less|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|eleven|twelve)(?!\w)))", re.IGNORECASE)


STUCK_TERMS = frozenset({"stuck"})
# Round 16: of the read sets' 15 lower-case "stuck", the 10 false links had a place or a verb in -ing after them (9 of
# 10); the 5 gold ones stood alone ("while stuck,", "does stuck stop that", "while I'm stuck?")
_PLACED = re.compile(r"[ \t]+(?:in|on|into|at|to|back|there|inside|behind|between|under|with|\w+ing)(?!\w)")


REACH_TERMS = frozenset({"reach", "melee-reach"})  # Mage Wars' Reach, D&D's Melee Reach
# Round 16: of the read sets' lower-case "reach" after a modal or "to", 9 were the verb and 1 gold ("the guard can't
# reach a flyer", real11); "out of reach", "out of my reach", "outside your reach", "out of the orc's reach": 5 false
# links, none gold. The two words before, in a short slice.
_VERB_LEAD = re.compile(r"(?:\b(?:can|cannot|can't|can’t|could|couldn't|couldn’t|will|won't|won’t|to)|"
                        r"\bout[ \t]+of(?:[ \t]+[\w'’]+){0,2}|\boutside(?:[ \t]+[\w'’]+){0,2})[ \t]+\Z")


FIGHT_WITH_TERMS = frozenset({"fight-with"})
_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|the|that|this)[ \t]+\Z", re.IGNORECASE)  # "a fight with": the noun (round 16)
_FIGHT_NOUN = re.compile(r"fights?(?=[ \t])", re.IGNORECASE)

# Round 19: KeyForge's "If you do" before a verb is the emphatic "do" ("If you do sleeve, get clear backs", "If you do
# play deck 2", "if you do find a page": blind, real11, real41, real44 — 4 false links); the card's phrase is followed
# by a comma, a quote, a dash or an effect ("If you do, gain 1", '"if you do" part', "if you do 6 dmg": 42 gold links,
# none before a lower-case word).
IF_YOU_DO_TERMS = frozenset({"if-you-do-in-order-to"})
_EMPHATIC_DO = re.compile(r"[ \t]+[a-z]")
_VERB_TERMS = COST_TERMS | STUCK_TERMS | REACH_TERMS | FIGHT_WITH_TERMS | IF_YOU_DO_TERMS  # what unverbed looks at


def unverbed(text: str, found: list[Mention], term_of: Callable[[str], str | None]) -> list[Mention]:
    """The mentions with each "<noun> cost(s)" before an amount split into the noun's own term (`term_of`: the term
    the word alone names, or None) and the cost, and without each lower-case "stuck" somewhere or "reach" as a verb or
    in "out of reach", each "a fight with" as the noun fight, and each "If you do" before a verb. One anchored match
    per such mention, in a short slice: linear."""
    if not any(m.term in _VERB_TERMS for m in found):
        return found
    out: list[Mention] = []
    for m in found:
        if m.term in IF_YOU_DO_TERMS and m.text.lower() == "if you do" and _EMPHATIC_DO.match(text, m.end, m.end + 8):
            continue  # "If you do sleeve": the emphatic "do" before its verb
        if m.term in STUCK_TERMS and m.text == "stuck" and _PLACED.match(text, m.end, m.end + 24):
            continue  # "I'm stuck in traffic": somewhere, not the condition
        if m.term in REACH_TERMS and m.text in ("reach", "reaches") and \
                _VERB_LEAD.search(text, max(0, m.start - 32), m.start):
            continue  # "who can reach you", "out of my reach": the verb, the idiom
        if m.term in FIGHT_WITH_TERMS and _ARTICLE_BEFORE.search(text, max(0, m.start - 8), m.start):
            word = _FIGHT_NOUN.match(text, m.start, m.end)
            fight = term_of(word.group()) if word else None
            if word and fight:
                out.append(Mention(m.start, word.end(), word.group(), fight))
                continue
        verb = _VERB_COST.match(text, m.start) if m.term in COST_TERMS else None
        if verb is None or verb.end() != m.end or verb.group(1)[0].isupper():  # "Key cost +1": the alias, as printed
            out.append(m)
            continue
        noun = term_of(verb.group(1))
        if noun is not None:
            out.append(Mention(m.start, verb.end(1), verb.group(1), noun))
        out.append(Mention(verb.start(3), m.end, verb.group(3), m.term))
    return out
