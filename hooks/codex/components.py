"""The box's pieces: a game's Token named beside words about the physical set (a box, an organiser, printing, pieces
missing) is the cardboard piece, not the game's marker («не хватает жетонов», "a LOT of tokens to punch")."""
from __future__ import annotations

import re

from .mention import Mention

# Words about the physical set, the thing players unbox, sort, print and lose (round 6: the false Tokens of the real
# sets stood within a clause of one of these): a word beginning with one of PHYSICAL_STEMS, or one of PHYSICAL_WORDS.
PHYSICAL_STEMS = tuple("""
    box organiser organizer insert punch cardboard plastic sleeve print colour color unpack sealed artwork
    коробк органайзер комплект вкладыш картон печат распечат ячейк потерял цвет мелки фото
    распаков нераспаков выдавл нарисова толщ потолщ thick
    """.split())  # round 7: unpacking, punching out («выдавливаются»), what is drawn on a token («нарисован щит»);
# round 9: how thick the cardboard is («жетоны пусть сделают потолще»)
PHYSICAL_WORDS = frozenset("missing tts mod mods thin stl sheet sheets лист листы листов листах".split())
MISSING_RU = "не хватает"
STEM_CHARS = max(map(len, [*PHYSICAL_STEMS, *PHYSICAL_WORDS]))  # how far past the window a word is read whole
COMPONENT_CHARS = 60  # how near (in the clause): at 100-200 the corpora's game tokens near a box word start to go
TOKEN_TERMS = frozenset({"token"})  # the games' terms named for the piece itself
_WORD = re.compile(r"\w+")


def physical_nearby(text: str, m: Mention) -> bool:
    """A word about the physical set starting within COMPONENT_CHARS of the mention's start: a bounded look."""
    lo, hi = max(0, m.start - COMPONENT_CHARS), m.start + COMPONENT_CHARS
    if MISSING_RU in text[lo:hi + len(MISSING_RU)].lower():
        return True
    for word in _WORD.finditer(text, lo, hi + STEM_CHARS):
        if word.start() > hi:
            break
        if word.start() == lo and lo and (text[lo - 1].isalnum() or text[lo - 1] == "_"):
            continue  # the tail of a word cut by the window
        folded = word.group().lower()
        if folded.startswith(PHYSICAL_STEMS) or folded in PHYSICAL_WORDS:
            return True
    return False


def unboxed(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each Token with a word about the physical set nearby. Only the tokens are looked at, each
    in a window of fixed size: linear."""
    if not any(m.term in TOKEN_TERMS for m in found):
        return found
    return [m for m in found if m.term not in TOKEN_TERMS or not physical_nearby(text, m)]
