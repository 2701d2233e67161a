"""The round's phases named in order: "Reset, Channeling, Upkeep, Planning", «Initiative → Reset → Channeling →
Upkeep» name Mage Wars' Channeling Phase and Upkeep Phase (the glossary's not-mentions), not the Channeling and Upkeep
traits a creature or a mage has."""
from __future__ import annotations

import re
from operator import itemgetter

from .mention import Mention, next_word

# Round 16: three teaching notes in the read sets list the round this way (real9, real17, real18: 6 false links, none
# gold); no gold Channeling or Upkeep stood next to another phase's name across a list's separator.
PHASE_TERMS = frozenset({"channeling", "upkeep"})  # Mage Wars' traits named like a phase
PHASE_WORDS = frozenset("initiative reset channeling upkeep planning deployment quickcast actions action".split())
_SEPARATOR = r"[ \t]*(?:,|→|->|=>|>|—|–|-|\|)[ \t]*"
_NOTE = r"(?:[ \t]*\([^()\n]{0,60}\))?"  # a phase's note in brackets: «Channeling (маг получает ману) → Upkeep»
_BEFORE = re.compile(r"(\w+)" + _NOTE + _SEPARATOR + r"\Z")  # the phase before, read back over a short slice
_AFTER = re.compile(_NOTE + _SEPARATOR + r"(\w+)")
PHASE_CHARS = 80


def unphased(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each Channeling or Upkeep named beside another phase of the round, across a list's
    separator. Two bounded looks per such mention: linear."""
    if not any(m.term in PHASE_TERMS for m in found):
        return found
    return [m for m in found if m.term not in PHASE_TERMS or not _in_phase_list(text, m)]


def _in_phase_list(text: str, m: Mention) -> bool:
    before = _BEFORE.search(text, max(0, m.start - PHASE_CHARS), m.start)
    after = _AFTER.match(text, m.end, m.end + PHASE_CHARS)
    return any(hit is not None and hit.group(1).lower() in PHASE_WORDS and hit.group(1).lower() != m.text.lower()
               for hit in (before, after))


# Round 17: a bare "upkeep" (no "+1") is the phase, a time of the round ("each upkeep", "A: Upkeep, one die per
# marker", "press Upkeep", "then upkeep it rolled a blank": the Upkeep Phase, a not-mention), unless a word beside it
# makes it the cost paid there: a pay or forget verb, an article (not "during the"), a possessive, "with", or a
# number, "on", "for", "cost(s)", "math" after it ("forgot upkeep on Plagued", "an upkeep cost", "pay the Upkeep",
# "Upkeep 2", «платим upkeep за чары»). Over the read sets: 9 false links removed, 2 gold lost ("forgot about
# upkeep", "asked for upkeep").
BARE_PHASE_TERMS = {"upkeep": "upkeep"}  # term -> the word that names it bare (no "+1")
_COST_BEFORE = frozenset("""
    pay pays paid paying forgot forget forgets forgetting remember an its his her their with
    платить платим платит платят плати платил платила платили заплатить забыли забывали забыл забыла
    """.split())
_COST_AFTER = frozenset("on for cost costs math за".split())
_TIME_BEFORE = frozenset("in at during after before until till each every next".split())  # "during the upkeep"
_WORDS_BEFORE = re.compile(r"(?:(\w+)[ \t]+)?(\w+)[ \t]+\Z")


def bare_phases(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each bare English "upkeep" with no cost cue beside it: the phase of the round. Two bounded
    looks per such mention: linear."""
    if BARE_PHASE_TERMS.keys().isdisjoint(map(itemgetter(3), found)):  # C speed: most texts name no upkeep
        return found
    return [m for m in found
            if m.term not in BARE_PHASE_TERMS or m.text.lower() != BARE_PHASE_TERMS[m.term] or _a_cost(text, m)]


def _a_cost(text: str, m: Mention) -> bool:
    before = _WORDS_BEFORE.search(text, max(0, m.start - 32), m.start)
    if before is not None:
        first, last = (before.group(1) or "").lower(), before.group(2).lower()
        if last in _COST_BEFORE or (last == "the" and first not in _TIME_BEFORE):
            return True  # "forgot upkeep", "an upkeep cost", "pay the Upkeep", "keep the upkeep"
    after = next_word(text, m.end, 16)
    return after is not None and (after in _COST_AFTER or after.isdigit())  # "Upkeep 2": its value
