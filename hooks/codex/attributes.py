"""A term's word said as an everyday attribute. Russian «живой» of an everyday thing: «живых соперников», «живое
общение», «на живых примерах» are live opponents, talk, examples — not the game's Living, which players write of
creatures («живое существо», «бьёт только по живым»); and its short forms («пока существо живо», «маги живы») are
"alive". English "key" before a word such as "thing", "question", "pieces" is "important", not KeyForge's key."""
from __future__ import annotations

import re

from .mention import Mention, next_word

# Issue 20, round 15: of the annotated corpora's 24 Russian «жив-» words linked as Living, 10 were gold — before a
# creature («живое существо», «для живых существ») or standing for one («по живым», «на «живых»», «все живые рядом»,
# «кого-то живого из людей») — and 14 not: 8 before another noun («живых соперников», «живую книгу», «живой DDM»), 4
# short forms, 2 standing alone («лучший из живых.»: still linked). So the word links when the next word is a
# creature's, a short function word, or no word at all.
_LIVING = re.compile(r"[Жж]ив(?:ой|ая|ое|ые|ого|ому|ым|ом|ых|ыми|ую|ою)")
_SHORT = re.compile(r"[Жж]ив[аоы]?")
_CREATURE = re.compile(r"(?:существ|создани|тва?р|монстр|фигур|миниатюр|гуманоид|цел[иья]|маг|юнит)\w*")
# Russian function words: a word after an adjective that leaves it standing alone, and never a term's word of its own
# (a glossary name of several words holds «и», «с», «в», «не», but the word alone names nothing)
FUNCTION_WORDS = frozenset("""
    и или а но из в во на с со по от к у для за до же ли не ни тоже рядом только ещё еще уже то как что это при без
    под над через после перед
    """.split())
LIVING_TERMS = frozenset({"living"})  # D&D's and Mage Wars' Living: the games' terms named «живой»


KEY_TERMS = frozenset({"keys"})  # KeyForge's keys
# Round 16: "The key thing is", "the key question", "your key pieces", "hold the key answers" — 4 false links in the
# read sets, where the gold "key" before a word is the game's ("key tokens", "key colours", "key cheat", "key costs")
IMPORTANT = frozenset("""
    thing things question questions point points piece pieces answer answers part parts factor factors moment moments
    difference differences takeaway takeaways idea ideas lesson lessons issue issues problem problems role roles
    element elements skill skills decision decisions reason reasons word player players
    """.split())


def unattributed(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each Russian «живой» said of an everyday thing, and each of its short forms, and each
    English "key" meaning "important". One bounded look after each such mention: linear."""
    if not any(m.term in LIVING_TERMS or m.term in KEY_TERMS for m in found):
        return found
    return [m for m in found if not ((m.term in LIVING_TERMS and _everyday(text, m)) or
                                     (m.term in KEY_TERMS and _important(text, m)))]


def _important(text: str, m: Mention) -> bool:
    """"the key thing", "key pieces": the English adjective "key" before a word it calls important."""
    return m.text.lower() == "key" and next_word(text, m.end) in IMPORTANT


def stands_alone(text: str, end: int) -> bool:
    """The Russian adjective ending at `end` qualifies no word after it: punctuation or the line's end follows, or a
    short function word («по живым.», «если опасный — мой умирает», «опасный уже некому применять»)."""
    word = next_word(text, end)
    return word is None or word in FUNCTION_WORDS


def _everyday(text: str, m: Mention) -> bool:
    """«живых соперников», «живо»: the Russian word is an attribute of a thing that is not a creature, or "alive"."""
    if _SHORT.fullmatch(m.text):
        return True
    if not _LIVING.fullmatch(m.text):
        return False  # English "living", «неживой»: not this rule's
    word = next_word(text, m.end)
    if word is None or word in FUNCTION_WORDS:
        return False  # «по живым.», «на «живых»»: it stands for the creatures
    return _CREATURE.fullmatch(word) is None
