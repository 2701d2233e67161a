"""Ordinary words in lower case ("move", "save"): linked only in a game role, in a text about the game."""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable

from . import forms
from .attributes import FUNCTION_WORDS, stands_alone
from .mention import Mention

# An ordinary word ("move", "friendly") links in lower case only when the text is about the game and the word
# stands in a game role, read from its neighbours (see "How it matches" in the README): an adjective before a
# game noun ("a friendly creature", not "a friendly game"), a noun after a creature's possessive ("fails its save",
# "next to its space"), a verb after a modal ("can it move", "still move up to", not "feel free to move this
# thread"). Round 3 (issue 20): an English word written into a Russian sentence, a rules statement about the word
# ("counts as friendly", "Friendly just means"), a roll ("rolls a save"), a game object's statistic ("the monster's
# size"), a participle before a game noun ("a sleeping creature"), and a word in one list with a mention ("fast and
# flying", «жетонов и состояний»). Russian otherwise has only the quantity and the adjective before a creature.
# Round 10: a move with its way or its squares ("move up", "moves 1 square"), life with what is left of it ("no life
# left", "a life total"). Round 11: a move of a kind ("a double move", "a free 1 square move"), a word quoted beside
# another as the rules' pair ('"friendly" vs "enemy"'), and what a Russian rules sentence says a thing is («Burn — это
# состояние», «guard — не состояние»). Round 12: a Russian word said of a creature where its clause ends («зомби
# медленные,», «голем слишком медленный,»).

CONTEXT_MENTIONS = 2  # other mentions a text needs before a lower-case ordinary word may link
CONTEXT_CHARS = 400  # ...and one of them this close (characters between the two)
ADJECTIVES = frozenset("fast friendly large living medium slow small tiny weak".split())
GAME_NOUNS = frozenset("""
    ally allies attack attacks card cards character characters creature creatures enemies enemy figure figures
    mage mages mini minis miniature miniatures minion minions model models monster monsters object objects spell
    spells unit units warband
    """.split())
NOUNS = frozenset("cost life move reach save sight size space type".split())
# "lost its life", "risk your life", "the time of my life": a life lived, not the game's (round 6 let "life" take the
# possessive role: "my life is fine", "her life at the start of the round", "his own life as a resource")
LIVED = frozenset("lose loses lost losing risk risks risked save saves saved of".split())
POSSESSIVES = frozenset("its their his her my your".split())
COPULAS = frozenset("it's is are was were".split())  # "it's slow": an adjective said of a game object
# Round 18: Mage Wars' Slow and Fast said of creatures — "Zombies are slow.", "walk past them, they're slow," — 4 of 5
# such uses in the annotated sets (not "they're friendly about it", "Burn is slow damage": no clause ends there)
SPEEDS = frozenset("slow fast".split())
PLURAL_COPULAS = frozenset("they're they’re".split())
_CLAUSE_ENDS = r"[ \t]*(?:[,.!?;:)\n]|\Z"  # where a clause ends: punctuation, a line's or the text's end...
_CLAUSE_END = re.compile(_CLAUSE_ENDS + r"|(?:and|but|so)\b)")  # ...in English also before "and", "but", "so"
# not "ignore": in Mage Wars text "can ignore guards", "critical damage ignores armor" never meant the Ignore trait
# (0 of 11 in the annotated corpora, 4 of them linked by this list before round 10)
VERBS = frozenset("cancel move reach remove save sleep touch".split())
# "move up", "moving out past the orc", "moves adjacent", "moves 1 square": a figure's move on the map (round 10;
# not "move on", "moved in upstairs")
MOVE_WAYS = frozenset("up adjacent through around out away past toward towards into next back forward".split())
LIFE_LEFT = frozenset("left total totals counting value".split())  # "no life left", "a life total" (round 10)
# Round 18: life as the quantity players spend, compare and track — "losing life on purpose", "spending life on
# stuff", "at half life", "Lowest life first", "lots of life", "his own life as a resource", "ahead on life,", "drop
# life to 32", "Tracks life, mana and channeling", "the life and mana cubes" (20 of the 29 lower-case gold "life" the
# rules missed in the annotated sets, none false; no everyday use stands so: "in real life", "started life as",
# "draining life out of people")
LIFE_SPENT = frozenset("lose loses losing spend spends spending leak leaks leaking gain gains gaining".split())
LIFE_MEASURES = frozenset("lowest highest half full".split())
LIFE_AMOUNTS = frozenset("lots points plenty".split())  # "lots of life", "a couple points of life"
_LIFE_LISTED_BEFORE = re.compile(r"(?:,[ \t]*|[ \t]+(?:and|or|&)[ \t]+)(?:mana|channeling|damage)\b")
_LISTED_BEFORE_LIFE = re.compile(r"\b(?:mana|channeling)(?:,[ \t]*|[ \t]+(?:and|or|&)[ \t]+)\Z")
_LIFE_TO = re.compile(r"[ \t]+to[ \t]+(?:\d|zero\b)")
# "a double move", "a second full move", "a free 1 square move": a move of a kind, a figure's (round 11: 3 of 3 in
# three sets were D&D's Move; lower-case "move" else needs a way, a modal or a condition)
MOVE_KINDS = frozenset("double full free extra second whole normal single another square".split())
# Round 18: the move as a thing a figure gets, finishes or splits — "they only get the move", "finish the move",
# "take a move action" (9 of the 10 uses of "the/a move" in the annotated sets; the tenth "counts as a move", which
# posts.yml's annotators did not link) — and moving as what a figure does or stops doing: "after it finishes
# moving", "keep moving", "a phase he isn't moving a Chraal", "same as moving" (8 of 8)
MOVE_GERUND_BEFORE = frozenset("""
    finish finishes finished finishing keep keeps kept spend spends spent stop stops stopped not isn't isn’t as normal
    """.split())
# Round 18: Mage Wars' Counter as what Nullify does to a spell — "Nullify counters it", "If it's countered", "it gets
# countered", "Countered spells don't resolve" (6 gold links in two read sets, none false; not "the counter" of a
# shop, "a load counter", "she countered with the Porcupine")
COUNTERING = frozenset(["nullify"])
BEING = frozenset("is it's it’s gets get got be been was were".split())
# Round 18: a figure that has or has not moved ("who had moved", "before it ever moved", "after he's already moved
# his": 6 of 7 such uses in the read sets; not "whatever had moved in upstairs") and the imperative that opens a
# sentence with its figure ("Move them first, then shoot.", "Move it one square": 3 of 3)
MOVED_AFTER = frozenset("had has have hasn't haven't never ever already not".split())
MOVED_ELSEWHERE = frozenset("in on house to away".split())
MOVED_OBJECTS = frozenset("them it that those the your each one".split())
MOVE_NOT_AFTER = frozenset(["as"])  # "counts as a move"; and not "the move to 4e", "the move from 1.0" (a change)
# '"friendly" vs "enemy"', '"friendly" and "enemy" definitions', '"friendly" on a card means': the word quoted as the
# rules' own, beside its pair or its reading (round 11: 3 of 3 in three sets; not a lone scare quote, '"magic"')
_QUOTES = "\"“”'‘’«»"
_QUOTED_PAIR = re.compile(r"[\"”'’»]\s*(?:vs\.?|versus|and|or|/)\s*[\"“'‘«]\w|[\"”'’»]\s+on\s+(?:a\s+)?cards?\s+means?\b")
# «Burn — это состояние», «guard — не состояние»: a rules sentence saying what a thing is (round 11: 3 of 3 in three
# sets; only the word right after «это» or «не», so never the everyday «в хорошем состоянии»)
RU_PREDICATE_NOUNS = frozenset(["состояние"])
_RU_IS = frozenset(["это", "не"])
_RU_GAME_NOUN = re.compile(r"существ\w*|маг(?:а|у|ом|е|и|ов|ам|ами|ах)?|объект\w*")
_RU_OF_A_KEY = re.compile(r"[ \t]+[Кк]люч(?:а|ей|ам)?(?!\w)")  # right after it: «цену ключа», not «цену. Ключ…»
# Round 18: «поднимают цену», «подняв цену», «снижает цену всем»: what cards do to KeyForge's cost, and the cost
# «по текущей цене» (7 gold links in seven read sets; a price is paid, asked, haggled or justified, never raised by a
# card, nor "current", in them)
_RU_RAISED_OR_LOWERED = re.compile(r"(?:подн|подым|повы[сш]|сни[зж]|увелич|уменьш)\w*")
# «зомби медленные, переигрываем», «они же медленные,», «голем слишком медленный,»: an adjective (by its ending) said
# of a creature, ending its clause — after a pronoun, an intensifier, a game noun or a term's word (round 12: 5 of 6 in
# the annotated sets, one of them a noun the ending admits: «это одно и то же состояние,»; not «медленная как
# черепаха», a comparison)
_RU_SUBJECTS = frozenset("он она оно они же слишком очень тоже такой такая такие совсем довольно".split())
_RU_CLAUSE_END = re.compile(_CLAUSE_ENDS + ")")
_RU_ADJECTIVES_THEN_NOUN = re.compile(r"[ \t]+(?:и|или)[ \t]+\w+[ \t]+(?:существ\w*|объект\w*)\b")  # round 9
_RU_CHANGED_BY = re.compile(r"[ \t]+\w+[ \t]+на[ \t]+\d")
# «среднего размера», «маленького и среднего размера»: a size (not «средние подставки», «у среднего рядом», round 7)
_RU_OF_SIZE = re.compile(r"[ \t]+(?:(?:и|или)[ \t]+\w+[ \t]+)?размер\w*")
# «состояние называется «Ожог»»: a rules statement about the word, as English "Friendly just means" (round 7)
_RU_MEANS = re.compile(r"[ \t]+(?:называ|означа)\w*")
_RU_ADJECTIVE_ENDINGS = frozenset("ый ий ой ая яя ое ее ые ие ого его ому ему ым им ых их ую юю ою ею".split())
# Mage Wars' spellbook arithmetic — a spell costs its level, ×2 from another school, ×3 from an opposed one: «уровень»
# beside a school or a multiplier on its line is the spell's Level (round 15: 4 of the 5 such uses the annotators
# linked in real9, real18, real20; not «Уровень игры у нас разный», «Уровень средний»)
_RU_SPELLBOOK_COST = re.compile(r"[×xх][ \t]?[23](?!\d)|умнож|школ")
LINE_CHARS = 80  # how far along its line a spellbook cue is looked for


def _spellbook_cost_on_line(text: str, m: Mention) -> bool:
    """A spellbook cue within LINE_CHARS of the word, on the word's own line: a bounded look."""
    hit = _RU_SPELLBOOK_COST.search(text, max(0, m.start - LINE_CHARS), m.end + LINE_CHARS)
    while hit is not None:
        lo, hi = sorted((hit.start(), m.start))
        if "\n" not in text[lo:hi]:
            return True
        hit = _RU_SPELLBOOK_COST.search(text, hit.end(), m.end + LINE_CHARS)
    return False


# Plurals of Russian ordinary words that everyday speech hardly uses («в состоянии», «состояние отличное» are
# singular): in a text about the game they are its conditions (round 4). «состояния» is also the singular's genitive.
RU_GAME_PLURALS = frozenset("состояний состояниям состояниями состояниях".split())
# KeyForge's Hazardous, «Опасный», which players name by the adjective alone, as the keyword («если опасный — мой
# умирает до удара», «вместо опасного,», «забывать про опасных.»): round 15, 9 gold links in five sets and 1 false
# («Опасный (Х)», annotated with its X); before a noun it is the everyday "dangerous" («довольно опасный момент») or
# the role before a creature above.
RU_SUBSTANTIVES = frozenset(["опасный"])
# ...a full form after a preposition, a clause-opening conjunction, an opening quote or bracket, or a line's start —
# not said of something («Самый опасный — Shadows», «Дис опасный,», «слишком опасно»: "dangerous")
_RU_FULL_ADJECTIVE = re.compile(r"\w+(?:ый|ий|ой|ая|яя|ое|ее|ые|ие|ого|его|ому|ему|ым|им|ых|их|ую|юю)")
_RU_LEADS = frozenset("""
    вместо про от из-за из у для без с на по после до против при если когда чем есть что
    """.split())
_RU_OPENERS = frozenset("«\"„“(\n")
# ...or the subject of its own verb («Опасный бьёт по вашему», «если бы опасный убил», «Ксюша: опасный срабатывает
# перед боем»), or alone after a clause's end («бой заканчивается, опасный уже некому применять», «неуловимость?
# опасный + неуловимый»): round 18, 8 gold links in six sets, none of the adjective's everyday uses (a noun follows
# those: «опасный момент», «опасный народ»)
_RU_FINITE_VERB = re.compile(r"\w+(?:ает|яет|ует|еет|ьет|ит|ил|ал|ял|ел|нул)(?:ся)?")  # folded: ё is е
_RU_CLAUSE_BEFORE = re.compile(r"[,.?!:;][ \t]*\Z")
# "two life back", "he had more life left": a quantity
NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten twelve twenty more less fewer".split())
ROLLS = frozenset("make makes made making fail fails failed pass passes passed roll rolls rolled rolling".split())
COUNTS_AS = frozenset("count counts counted counting treat treats treated".split())  # "counts as friendly"
_MEANS = re.compile(r"\W{1,3}(?:(?:just|only|still|simply|always|also)\s+){0,2}means?\b", re.IGNORECASE)
JOIN_CHARS = 12  # the most a list's joint (", and ", « или ») spans: a bounded look, linear
# "fast and flying", «жетонов и состояний», "life, mana and channeling" (a bare comma too, round 9): one list
_JOINED = re.compile(r",?\s+(?:and|or|и|или)\s+|,[ \t]*")
ARTICLES = frozenset("a an the".split())
MODALS = frozenset("can cannot can't could may might must shall should still will would".split())
PRONOUNS = frozenset("it he she they i you we".split())
CREATURES = frozenset("it he she they".split())  # a creature as the subject
CONDITIONS = frozenset("if when whenever once unless".split())  # "if I move up": a rules question's condition
# D&D's "replaces attack", "replaces move": an ability that stands for an action (not "replaced the Ogre", round 6)
REPLACING = frozenset("replace replaces".split())
ACTIONS = frozenset("attack attacks move moves action actions".split())
# and Russian: «не заменяет атаки», «заменяет этим действием свои собственные атаки» (D&D's own definitions)
_RU_REPLACES_AN_ACTION = re.compile(r"(?:[ \t]+\w+){0,4}?[ \t]+(?:атак|движени|перемещени|действи)\w*")
_BEFORE = re.compile(r"([\w'’]+)[^\w'’]{1,3}(?:([\w'’]+)[^\w'’]{1,3})?\Z")  # the one or two words before, in a short slice
_AFTER = re.compile(r"\W{1,3}([\w']+)")
_ENDS = frozenset(".!?\n")  # a sentence's or a line's end: a number past it counts nothing before it (round 18)


def game_role(text: str, m: Mention, starts: set[int], keys: Callable[[str], tuple[str, ...]]) -> bool:
    """The lower-case ordinary word at m stands in a game role (see above); looks at most 40 characters around.
    `keys` gives the name words a text word stands for ("moves" -> move)."""
    after = _AFTER.match(text, m.end, m.end + 40)
    before = _BEFORE.search(text[max(0, m.start - 40):m.start])
    previous = forms.fold(before.group(2) or before.group(1)) if before else ""
    earlier = forms.fold(before.group(1)) if before and before.group(2) else ""
    folded = forms.fold(m.text)
    words = {folded, *keys(folded)}
    # "3 life", "life 12"; not a number that ends the sentence before ("200 против 141. Выводы:", round 8)
    gap = text[max(0, m.start - 40) + before.end(2 if before.group(2) else 1):m.start] if before else ""
    ended = any(c in ".!?" for c in gap)
    counted = (not ended and (previous.isdigit() or previous in NUMBER_WORDS)) or bool(
        after and after.group(1).isdigit() and not _ENDS.intersection(text[m.end:after.start(1)]))  # not «цену.\n6.»
    if not forms.is_cyrillic(m.text) and any(forms.is_cyrillic(w) for w in (previous, after and after.group(1)) if w):
        return True  # "Sleep слетает", «в guard»: an English game word written into a Russian sentence on purpose
    if forms.is_cyrillic(m.text):
        return counted or _russian_role(text, m, folded, forms.fold(after.group(1)) if after else "", previous, keys)
    if counted and words & NOUNS:
        return True  # "3 life", "life 12"
    word = next((w for w in sorted(words) if w in ADJECTIVES | NOUNS | VERBS), "")
    if word in ADJECTIVES and after and (forms.fold(after.group(1)) in GAME_NOUNS or after.start(1) in starts):
        return True
    if word in VERBS and m.text.lower().endswith("ing") and after and forms.fold(after.group(1)) in GAME_NOUNS:
        return True  # "a sleeping creature": a verb's participle as an adjective before a game noun
    if word in ADJECTIVES and (previous in {"it's", "it’s"} or (previous in COPULAS and earlier in PRONOUNS)):
        return True
    if word in SPEEDS and _CLAUSE_END.match(text, m.end) and (previous in PLURAL_COPULAS or (
            previous in COPULAS and before is not None and before.group(2) and
            max(0, m.start - 40) + before.start(1) in starts)):
        return True  # "Zombies are slow.", "walk past them, they're slow,": a creature's speed, ending its clause
    if word in ADJECTIVES and (previous == "considered" or (previous == "as" and earlier in COUNTS_AS)):
        return True  # "counts as friendly", "is considered slow": a rules statement about a game object
    if word in ADJECTIVES | NOUNS and _MEANS.match(text, m.end, m.end + 40):
        return True  # "Friendly just means under the same player's control": the rules defining the word
    if word in NOUNS and previous.endswith(("'s", "’s")) and previous[:-2] in GAME_NOUNS:
        return True  # "the monster's size", "a creature's type": a statistic of a game object
    if word == "type" and (previous == "creature" or (after and forms.fold(after.group(1)) == "line")):
        return True  # "sorting by creature type", "read the type line": the card's statistic (round 18: 7 of 7)
    if word in NOUNS and previous in POSSESSIVES and not (word == "life" and earlier in LIVED):
        return True  # "its save", "your life"
    if word in NOUNS and (previous in ROLLS or (previous in ARTICLES and earlier in ROLLS)):
        return True  # "makes the save", "failed a save": what a creature rolls
    if word == "move" and _a_figures_move(folded, previous, earlier, forms.fold(after.group(1)) if after else "",
                                          before is None or bool(_ENDS.intersection(gap))):
        return True
    if word == "life" and after and forms.fold(after.group(1)) in LIFE_LEFT:
        return True  # "more life left", "a whole life total"
    if word == "life" and _life_as_quantity(text, m, previous, earlier):
        return True
    if "counter" in words and (previous in COUNTERING or (folded == "countered" and previous in BEING) or
                              (after is not None and forms.fold(after.group(1)) in {"spell", "spells"})):
        return True  # "Does Nullify counter Purge", "it gets countered", "Countered spells don't resolve"
    if word in ADJECTIVES | NOUNS and m.start > 0 and text[m.start - 1] in _QUOTES and \
            _QUOTED_PAIR.match(text, m.end, m.end + 40):  # the pattern starts with the closing quote
        return True  # '"friendly" vs "enemy"': the rules' word, quoted
    if word in VERBS and m.text.endswith("s") and before is not None and \
            (previous in GAME_NOUNS or max(0, m.start - 40) + before.start(2 if before.group(2) else 1) in starts):
        return True  # "the creature moves", "a push moves the target": a game thing does it (round 6)
    # "can it move", "still move", "it moves" (a creature's act; not "before I save the list"); "if I move up",
    # "when you move next to it": a player moving a figure in a rules condition (round 4)
    return word in VERBS and (previous in MODALS | CREATURES or
                              (previous in PRONOUNS and earlier in MODALS | CONDITIONS))


def _a_figures_move(folded: str, previous: str, earlier: str, following: str, opens: bool) -> bool:
    """Lower-case move as a figure's on the map (rounds 10, 11 and 18, above), read from the words beside it;
    `opens`: the word opens its sentence or line."""
    if following in MOVE_WAYS or following.isdigit():
        return True  # "move up", "moves 1 square"
    if folded in {"move", "moves"} and previous in MOVE_KINDS:
        return True  # "a double move", "a free 1 square move"
    if folded == "move":  # "they only get the move" (not "the move to 4e"); "Move them first, then shoot."
        return (previous in ARTICLES and earlier not in MOVE_NOT_AFTER and following not in {"to", "from"}) or \
            (opens and following in MOVED_OBJECTS)
    if folded == "moving":
        return previous in MOVE_GERUND_BEFORE  # "after it finishes moving", "same as moving"
    if folded == "moved":  # "who had moved", "I'd moved a creature twice" (not "had moved in upstairs")
        return (previous in MOVED_AFTER or previous.endswith(("'d", "’d"))) and following not in MOVED_ELSEWHERE
    return False


def _life_as_quantity(text: str, m: Mention, previous: str, earlier: str) -> bool:
    """Lower-case "life" as what players spend, compare and track (round 18, above): bounded looks around it."""
    return (previous in LIFE_SPENT or previous in LIFE_MEASURES or
            (previous == "of" and earlier in LIFE_AMOUNTS) or (previous == "own" and earlier in POSSESSIVES) or
            (previous == "on" and _CLAUSE_END.match(text, m.end) is not None) or
            _LIFE_TO.match(text, m.end, m.end + 12) is not None or
            _LIFE_LISTED_BEFORE.match(text, m.end, m.end + 16) is not None or
            _LISTED_BEFORE_LIFE.search(text, max(0, m.start - 16), m.start) is not None)


def _russian_role(text: str, m: Mention, folded: str, following: str, previous: str,
                  keys: Callable[[str], tuple[str, ...]]) -> bool:
    """A Russian ordinary word in a game role (besides a number beside it: «оставалось 6 жизни», «уровень 2»)."""
    if _RU_FULL_ADJECTIVE.fullmatch(folded) and RU_SUBSTANTIVES.intersection(keys(folded)):
        alone = stands_alone(text, m.end)
        if alone and (previous in _RU_LEADS or text[m.start - 1:m.start] in _RU_OPENERS or
                      _RU_CLAUSE_BEFORE.search(text, max(0, m.start - 4), m.start)):
            return True  # «если опасный — мой умирает», «вместо опасного,»: the keyword, said by its adjective alone
        if _RU_FINITE_VERB.fullmatch(following):
            return True  # «опасный бьёт по вашему»: the keyword as its verb's subject
    if folded in RU_GAME_PLURALS:  # «половину состояний», «табличка состояний»: a plural the everyday word has not
        return True
    if folded in RU_PREDICATE_NOUNS and previous in _RU_IS:
        return True  # «а это состояние», «guard — не состояние»
    if m.text[-2:] in _RU_ADJECTIVE_ENDINGS:
        if _RU_GAME_NOUN.fullmatch(following) or _RU_ADJECTIVES_THEN_NOUN.match(text, m.end, m.end + 40):
            return True  # «медленные существа», «маленькие и средние существа»: before a creature (not «маленьких фигурок»)
        if _RU_CLAUSE_END.match(text, m.end) and (previous in _RU_SUBJECTS or _RU_GAME_NOUN.fullmatch(previous) or
                                                  (previous not in FUNCTION_WORDS and keys(previous))):
            return True  # «зомби медленные,», «они же медленные.»: said of a creature, the clause's predicate (not
            # «он и опасный.»: «и» is a word of some glossary name, not a term)
    if folded.startswith("уров") and _spellbook_cost_on_line(text, m):
        return True  # «цена = уровень, чужая ×2», «посмотри уровень и умножь на два»: a spell's level in its cost
    if _RU_OF_A_KEY.match(text, m.end, m.end + 12):
        return True  # «цену ключа»: KeyForge's cost is a key's; «цена карты», «по цене» are prices (round 6)
    if folded.startswith("цен") and (_RU_RAISED_OR_LOWERED.fullmatch(previous) or previous.startswith("текущ")):
        return True  # «карты, которые поднимают цену», «ковка по текущей цене»: the cost (round 18)
    if _RU_OF_SIZE.match(text, m.end, m.end + 40) or _RU_MEANS.match(text, m.end, m.end + 40):
        return True
    return _RU_CHANGED_BY.match(text, m.end, m.end + 40) is not None  # «цена выросла на 3»: a quantity


def self_evident(text: str, m: Mention) -> bool:
    """A lower-case ordinary word whose role needs no context: "replaces attacks" is D&D's condition of an ability
    wherever it is written (a short clarifications list has no other mention); not "replacing the Ogre"."""
    folded = forms.fold(m.text)
    if folded.startswith("замен"):
        return _RU_REPLACES_AN_ACTION.match(text, m.end, m.end + 60) is not None
    if folded not in REPLACING:
        return False  # every other pending word: no look after it
    after = _AFTER.match(text, m.end, m.end + 40)
    return after is not None and forms.fold(after.group(1)) in ACTIONS


def in_context(text: str, found: list[Mention], pending: list[Mention],
                keys: Callable[[str], tuple[str, ...]]) -> list[Mention]:
    """The mentions, with each lower-case ordinary word that stands in a game role in game context: the text
    has at least CONTEXT_MENTIONS other mentions, one of them within CONTEXT_CHARS. Linear: one bisection per
    candidate, a bounded look around it."""
    evident = [m for m in pending if self_evident(text, m)]
    if len(found) < CONTEXT_MENTIONS:
        return sorted(found + evident) if evident else found
    starts = [m.start for m in found]
    beginning = set(starts)
    kept, evident_spans = list(evident), set(evident)
    for m in pending:
        if m in evident_spans:
            continue  # kept already: its role needs no context
        i = bisect_left(starts, m.start)
        near = [found[j] for j in (i - 1, i) if 0 <= j < len(found)]
        joined = any(_JOINED.fullmatch(text, *((o.end, m.start) if o.end <= m.start else (m.end, o.start)))
                     for o in near if max(m.start - o.end, o.start - m.end) <= JOIN_CHARS)  # "fast and flying"
        if joined and " " in m.text and any("," in text[min(m.end, o.end):max(m.start, o.start)] for o in near):
            joined = False  # a phrase ("warband building, Medium or Small") ends a clause at a comma: no list
        if any(min(abs(m.start - o.end), abs(o.start - m.end)) <= CONTEXT_CHARS for o in near) and \
                (joined or game_role(text, m, beginning, keys)):
            kept.append(m)
    return sorted(found + kept) if kept else found

