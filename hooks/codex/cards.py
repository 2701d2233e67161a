"""Card contexts: a term named like a card ("Teleport") that the text counts or lists as the card, not the term."""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping
from itertools import compress
from operator import itemgetter

from . import forms
from .index import CARD
from .mention import Mention, next_word

# Card counts: "Teleport x2", "Teleport ×1", "2x Dispel" (no re.I: it would cost the first-character scan)
_COUNT_AFTER_ANY = re.compile(r"[xX×хХ](?<!\w[xX×хХ])[ \t]?\d(?!\w)")
_COUNT_BEFORE_ANY = re.compile(r"[xX×хХ](?!\w)")  # "2x Dispel": the digit is checked at each (rare) hit


_PUNCTUATION = "\"'«»“”„()[]{}<>.,;:!?*_~`"
_LIST_GAP_BEFORE = r"[ \t]*(?:[,+/&;]|(?<!\w)(?:and|or|и|или))[ \t]*\Z"  # a list's separator, up to the item
_LIST_BEFORE = re.compile(_LIST_GAP_BEFORE, re.I)  # "Tanglevine + "
# Round 17: the item after a counted one in a list ("Исцеление ×2, Рассеивание ×2, Телепорт": real32)
_AFTER_COUNTED = re.compile(r"[xX×хХ][ \t]?\d+" + _LIST_GAP_BEFORE)
_LIST_AFTER = re.compile(r"[ \t]*(?:[,+/&;]|(?:and|or|и|или)(?!\w))[ \t]*", re.I)  # " + Tanglevine"
# Words before a card named like a term that make it the card. A count, in any case: "a second Teleport", "two
# Teleports", "one Dispel, one Teleport" (round 6), «кладёшь 2 телепорта»; the rest only before the card's printed
# capital: «без Teleport», "with Teleport", "cast Teleport" (round 4), «кастует Teleport», «кинул Teleport» (round 6) —
# "can you Teleport a creature" is the act, «лечение и Regrowth Belt» the effect.
COUNT_CUES = frozenset("""
    another second third one two three four один одна одного одну второй второго вторую два две три ещё еще
    more extra spare
    """.split())  # «один» (round 15): «И один Teleport — маловато», «один Dispel. и Teleport»; "I need more Teleports",
# "an extra Heal" (round 16)
CAST_VERBS = frozenset("""
    cast casts casting кастую кастуешь кастует кастуем кастуют кастовал кастовала кастовали скастовал скастовала
    кинул кинула кинули кину кинет кидаю кидает кидал
    """.split())
# not «с» ("with"): «путают с Charge», «с Charge +2 и Fast» are the term (round 15: 2 gold for 1 card)
CARD_CUES = COUNT_CUES | CAST_VERBS | frozenset("with without без".split())
# «кастует на него Teleport», «кинул на меня Teleport», «кастую на себя Teleport»: the card cast at a target named
# between (round 15: 3 in real5, real16, real23, each the card by the policy; "can you Teleport a creature" is the act)
_CAST_AT = frozenset("себя него неё нее меня тебя нас них".split())
# Round 10, from every set's Teleports (57 in 15 sets, 16 the effect): an article before the printed capital ("a
# Teleport that puts my mage out of reach", "a Teleport or two"; not "a Heal spell", a spell of the effect, nor "a
# Teleport to the next zone", the move itself) and a player's possessive in any case ("MY teleport", "their
# teleports") make it a card too.
ARTICLES = frozenset({"a", "an"})
PLAYERS = frozenset("""
    my your their our
    свой своя своё свою своего своей своим своём мой моя моё мою моего моей моим моём твой твоя твою твоего твоим
    """.split())  # round 16: «держи свой Teleport под рукой»
_THE_EFFECT = re.compile(r"[ \t]+(?:spells?|to|into|out)(?!\w)", re.I)
# "Teleport on the Avenger", "that Sleep on Kralathor": a capitalised spell named like a term, put on a target, is
# the card; "Sleep в Mage Wand", "Sleep into a Wand": a spell bound into another card (a card must follow)
_ON_TARGET = re.compile(r"[ \t]+(?:on|onto)[ \t]+(?=\w)")
_INTO_CARD = re.compile(r"[ \t]+(?:в|into|in)[ \t]+(?=\w)")


# Round 17: an effect printed as a spell card ("Teleport", "Heal"), named as printed, is the card unless the words
# around it make it the act or a rule. Of the read sets' printed "Teleport" that round 16's linker proposed or the
# annotators linked (42, 17 the effect; the rule removes 25 false links and loses 1): the card in "Teleport is your
# friend", "No Teleport at all?", "Teleport also targets a zone", «нужен Teleport», «Teleport — дорогой»; the
# act after a subject, a modal or "to" ("can I Teleport my mage", "wanted to Teleport her") or before its object or
# direction ("Teleport past the pile", "Teleport an ENEMY creature?"); a rule before a negation ("Teleport isn't a
# move action", «Teleport это не движение»), after "under" (the codex's entry) or «по» ("a question about":
# «Подскажите по Teleport и Restrained»). A condition or a trait named like a card (Sleep, Charge) is not one: players
# name the marker (the rule would drop 8 printed "Sleep", 7 of them gold).
CARD_EFFECT_CATEGORY = "effect"
_ACT_BEFORE = frozenset("""
    to can could cannot can't will would may might must should i you we they he she just under по действует
    """.split())
_ACT_AFTER = frozenset("""
    my your his her its their our the a an it him them me you us someone something anything out away past in into to
    onto across back over through behind zero one two next each every this that spell spells
    """.split())  # "a Heal spell": a spell of the effect
_RULE_AFTER = re.compile(r"[ \t]*[—–-]?[ \t]*(?:isn't|is not|is no|doesn't|does not|это не|не)(?!\w)")


def uncounted(text: str, found: list[Mention], names: list[Mention] | None, card_terms: frozenset[str] = frozenset(),
              cards: list[Mention] | None = None, card_effects: Mapping[str, str] | None = None) -> list[Mention]:
    """The mentions less those that name a card: counted like cards in a spellbook or deck list ("Teleport x2",
    "2x Dispel"); and for a term that is also a card ("Teleport"), listed beside another card ("Tanglevine +
    Teleport"), after a number or an ordinal ("2 телепорта", "a second Teleport"), "with"/«без» ("a Wizard with
    Teleport", «без Teleport») or "cast"; capitalised and put "on" a target ("Sleep on Kralathor"), or bound "into"/«в»
    another card ("Sleep в Mage Wand"); after an article or a player's possessive ("a Teleport or two", "MY teleport").
    The card is evidence of the game only. Bounded looks around each mention: linear."""
    counted_ends: set[int] = set()  # where a name followed by a count ends ("Teleport| x2")
    counted_starts: set[int] = set()  # where a name after a count starts ("2x |Dispel")
    for hit in _COUNT_AFTER_ANY.finditer(text):  # C-speed scans keyed on their first character; hits are rare
        end = hit.start()
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        counted_ends.add(end)
    for hit in _COUNT_BEFORE_ANY.finditer(text):  # an "x" ending a word: a count when a lone digit is before it
        digit = hit.start() - 1 - (hit.start() >= 2 and text[hit.start() - 1] in " \t")
        if digit < 0 or not text[digit].isdigit() or (digit > 0 and (text[digit - 1].isalnum() or
                                                                     text[digit - 1] == "_")):
            continue
        start = hit.end()
        while start < len(text) and text[start] in " \t":
            start += 1
        counted_starts.add(start)
    index = range(len(found))
    counted = set(compress(index, map(counted_ends.__contains__, map(itemgetter(1), found)))) if counted_ends else set()
    if counted_starts:
        counted.update(compress(index, map(counted_starts.__contains__, map(itemgetter(0), found))))
    named = compress(index, map(card_terms.__contains__, map(itemgetter(3), found))) if card_terms else ()
    ends = {c.end for c in cards or ()}
    starts = {c.start for c in cards or ()}
    card_effects = card_effects or {}
    for i in named:  # C-speed filters above: only the mentions that may be cards are looked at here
        m = found[i]
        words = text[max(0, m.start - 32):m.start].split()
        previous = forms.fold(words[-1].strip(_PUNCTUATION)) if words else ""
        if previous in _CAST_AT and len(words) >= 3 and words[-2] == "на" and forms.fold(words[-3]) in CAST_VERBS:
            previous = "cast"  # «кастует на него Teleport»: the verb's, with its target between
        if previous.isdigit() and words[-1].endswith((".", ")")):
            previous = ""  # "1. Телепорт из зоны": a numbered list's item, not a count (round 9)
        if previous in PLAYERS or (previous in ARTICLES and m.text[:1].isupper() and
                                   _THE_EFFECT.match(text, m.end, m.end + 8) is None):
            counted.add(i)  # "MY teleport", "a Teleport or two": a player's card
            continue
        if _AFTER_COUNTED.search(text, max(0, m.start - 16), m.start) is not None:
            counted.add(i)  # "Рассеивание ×2, Телепорт": an item of a list whose items are counted cards, in any case
            continue
        if not m.text[:1].isupper():  # a card is named as printed, unless counted: «лечение и Regrowth Belt»
            if previous in COUNT_CUES or previous.isdigit():
                counted.add(i)
            continue
        if m.text == card_effects.get(m.term) and previous not in _ACT_BEFORE:
            after = next_word(text, m.end, 24)
            if after not in _ACT_AFTER and _RULE_AFTER.match(text, m.end, m.end + 24) is None:
                counted.add(i)  # "Teleport is your friend", «нужен Teleport»: the spell card, not its effect
                continue
        cast_after = next_word(text, m.end, 24)
        if cast_after is not None and forms.fold(cast_after) in CAST_VERBS:
            counted.add(i)  # «если Teleport кастовал маг»: the card, the verb's object put first (round 16)
            continue
        gap_before = _LIST_BEFORE.search(text, max(0, m.start - 8), m.start)
        gap_after = _LIST_AFTER.match(text, m.end, m.end + 8)
        into = _INTO_CARD.match(text, m.end, m.end + 8)
        if (previous in CARD_CUES or previous.isdigit() or (gap_before is not None and gap_before.start() in ends)
                or (gap_after is not None and gap_after.end() in starts) or (into is not None and into.end() in starts)
                or (m.text[:1].isupper() and _ON_TARGET.match(text, m.end, m.end + 8) is not None)):
            counted.add(i)
    if cards is not None and counted:  # a term read as a card is a card for what follows it (its translation)
        cards.extend(found[i] for i in sorted(counted))
        cards.sort()
    return _as_cards(found, counted, names)


# Round 17: a card's name glossed by its Russian translation on the same line ("Wall of Thorns — стена шипов", "Force
# Push — «Силовой толчок»", "3) Teleport — ну телепорт": real19, real31) is the card again, not the terms its words
# name. Short (a few words to the line's end, no sentence), so an explanation ("Tanglevine — лиана, держит существо")
# keeps its mentions.
_TRANSLATION = re.compile(r"[ \t]*[—–=:-][ \t]*«?[а-яёА-ЯЁ][а-яёА-ЯЁ-]*(?:[ \t]+[а-яёА-ЯЁ-]+){0,2}»?[ \t]*(?=\n|\Z)")
TRANSLATION_CHARS = 48


def untranslated(text: str, found: list[Mention], cards: list[Mention]) -> list[Mention]:
    """The mentions less those inside a card's Russian translation right after it on its line. A bounded match after
    each card: linear."""
    spans = [(hit.start(), hit.end()) for card in cards
             if (hit := _TRANSLATION.match(text, card.end, card.end + TRANSLATION_CHARS)) is not None]
    if not spans:
        return found
    kept, j = [], 0
    for m in found:  # both in text order: one merge, linear
        while j < len(spans) and spans[j][1] <= m.start:
            j += 1
        if not (j < len(spans) and spans[j][0] <= m.start and m.end <= spans[j][1]):
            kept.append(m)
    return kept


def _as_cards(found: list[Mention], cards: set[int], names: list[Mention] | None) -> list[Mention]:
    """The mentions less those at `cards` (indexes into `found`), which go to `names` as cards, in text order."""
    if not cards:
        return found
    if names is not None:
        names.extend(Mention(found[i].start, found[i].end, found[i].text, CARD) for i in sorted(cards))
    return [m for i, m in enumerate(found) if i not in cards]


# A list line that names a figure or card with its cost: "Wild Elf Barbarian (25)", "Warforged Scout — 8",
# "Mialee, Elf Wizard — 6", "Xen'drik Champion x3 (69)" (round 4). A term inside it ("Wild", "Scout") is part of the
# name when the line's capitalised words are more than its mentions: a word that begins no term makes it a name.
_FIGURE_LINE = re.compile(
    r"[ \t]*(?:[-*•][ \t]*)?(?:\d+[ \t]*[xх×][ \t]*)?[A-Z][\w'’-]*(?:(?:[ \t]+|,[ \t]*)(?:of|the|[A-Z][\w'’-]*))+"
    r"[ \t]*(?:[xх×][ \t]?\d+[ \t]*)?(?:[—–-][ \t]*\d+|\(\d+\))[ \t]*(?:pts?|points)?[ \t]*")
_CAPITALISED = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*")
_COST_ENDS = frozenset("0123456789)s \t")  # the last character of a line that may end with a cost ("(25)", "8 pts")
LIST_LINE = 120  # the longest line read as a list entry


def listed_figures(text: str, found: list[Mention], names: list[Mention] | None) -> list[Mention]:
    """The mentions less those inside a figure's or card's name on a list line with its cost ("Warforged Scout —
    8"): the name is one card, evidence of the game only. The lines are split once (C speed); only a short line
    ending in a number is matched, and its mentions are found by bisection: linear."""
    starts: list[int] = []
    figures: list[int] = []
    position = 0
    for line in text.split("\n"):
        start, position = position, position + len(line) + 1
        if line[-1:] not in _COST_ENDS or len(line) > LIST_LINE or not line:
            continue
        end = start + len(line)
        if not _FIGURE_LINE.fullmatch(text, start, end):
            continue
        if not starts:
            starts = [m.start for m in found]
        first, last = bisect_left(starts, start), bisect_left(starts, end)
        inside = [(found[i].start, found[i].end) for i in range(first, last) if found[i].end <= end]
        if inside and any(not any(s <= w.start() < e for s, e in inside)
                          for w in _CAPITALISED.finditer(text, start, end)):
            figures.extend(i for i in range(first, last) if found[i].end <= end)
    return _as_cards(found, set(figures), names)
