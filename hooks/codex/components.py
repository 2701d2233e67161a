"""The box's pieces: a game's Token named beside words about the physical set (a box, an organiser, printing, pieces
missing) is the cardboard piece, not the game's marker («не хватает жетонов», "a LOT of tokens to punch")."""
from __future__ import annotations

import re

from .mention import Mention

# Words about the physical set, the thing players unbox, sort, print and lose (round 6: the false Tokens of the real
# sets stood within a clause of one of these): a word beginning with one of PHYSICAL_STEMS, or one of PHYSICAL_WORDS.
PHYSICAL_STEMS = tuple("""
    box organiser organizer insert punch cardboard plastic sleeve print colour color unpack sealed artwork
    коробк органайзер комплект вкладыш картон печат распечат ячейк потеря цвет мелки фото
    распаков нераспаков выдавл нарисова толщ потолщ thick tray пересчит
    """.split())  # round 7: unpacking, punching out («выдавливаются»), what is drawn on a token («нарисован щит»);
# round 9: how thick the cardboard is («жетоны пусть сделают потолще»); round 12: a tray, losing them («главное карты и
# жетоны не потерять», "tokens are rattling around loose in mine", "if I lose ONE of his tokens"); round 13: counting
# them («пересчитать жетоны состояний», «Жетоны пересчитывал по списку»)
PHYSICAL_WORDS = frozenset("missing tts mod mods thin stl sheet sheets лист листы листов листах loose lose".split())
MISSING_RU = "не хватает"
STEM_CHARS = max(map(len, [*PHYSICAL_STEMS, *PHYSICAL_WORDS, MISSING_RU]))  # how far past the window a word is read
COMPONENT_CHARS = 60  # how near (in the clause): at 100-200 the corpora's game tokens near a box word start to go
TOKEN_TERMS = frozenset({"token"})  # the games' terms named for the piece itself
# One scan per Token, in C, over its window in lower case: the stems and listed words as plain literals (so the regex
# engine skips ahead by their first letters), then a look at the character before a hit — a word start, not the tail
# of a word — and «не хватает» anywhere. (Until round 10 a Python loop read the window word by word: half of linking
# 1 MB of mention-dense text.)
_PHYSICAL = re.compile("|".join([*map(re.escape, sorted(PHYSICAL_STEMS, key=len, reverse=True)),
                                 *(re.escape(w) + r"(?!\w)" for w in sorted(PHYSICAL_WORDS, key=len, reverse=True)),
                                 re.escape(MISSING_RU)]))


def physical_nearby(text: str, m: Mention) -> bool:
    """A word about the physical set starting within COMPONENT_CHARS of the mention's start: a bounded look."""
    lo, hi = max(0, m.start - COMPONENT_CHARS), m.start + COMPONENT_CHARS
    window = text[lo:hi + STEM_CHARS].lower()
    before = text[lo - 1] if lo else " "
    hit = _PHYSICAL.search(window)
    while hit is not None and hit.start() <= hi - lo:
        at = hit.start()
        previous = window[at - 1] if at else before
        if hit.group() == MISSING_RU or not (previous.isalnum() or previous == "_"):
            return True
        hit = _PHYSICAL.search(window, at + 1)
    return False


def unboxed(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each Token with a word about the physical set nearby. Only the tokens are looked at, each
    in a window of fixed size: linear."""
    if not any(m.term in TOKEN_TERMS for m in found):
        return found
    return [m for m in found if m.term not in TOKEN_TERMS or not physical_nearby(text, m)]
