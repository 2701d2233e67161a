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


# Round 15: a Token listed among the box's other pieces — "wooden cubes, tokens, rulebook", «жетоны действий, жетоны
# состояний, планшеты», "action markers, a pile of condition tokens, the board" (4 false links in real15, real17,
# real22; no gold Token stood in such a list): the list item before or after it names a piece. An item is what lies
# between commas on one line. Not dice: «кубик эффектов за каждый жетон» is rules talk (4 gold Tokens).
PIECES = re.compile(r"(?<!\w)(?:cubes?|rulebooks?|boards?|binders?|trackers?|markers|планшет\w*|"
                    r"правила|альбом\w*|фишк\w*)(?!\w)", re.IGNORECASE)
LIST_CHARS = 80  # how far along the line the neighbouring items are read


def listed_with_pieces(text: str, m: Mention) -> bool:
    """The comma-separated item right before or right after the Token's, on its line, names a piece of the box.
    Reads at most LIST_CHARS on each side: bounded."""
    head = text[max(0, m.start - LIST_CHARS):m.start]
    items_before = head[head.rfind("\n") + 1:].split(",")
    tail = text[m.end:m.end + LIST_CHARS]
    items_after = tail.split("\n", 1)[0].split(",")
    neighbours = items_before[-2:-1] + items_after[1:2]  # the item before the token's own, and the one after
    return any(PIECES.search(item) for item in neighbours)


def unboxed(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each Token with a word about the physical set nearby, or listed among the box's pieces.
    Only the tokens are looked at, each in a window of fixed size: linear."""
    if not any(m.term in TOKEN_TERMS for m in found):
        return found
    return [m for m in found if m.term not in TOKEN_TERMS or not (physical_nearby(text, m) or
                                                                   listed_with_pieces(text, m))]
