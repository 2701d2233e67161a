"""The box's pieces: a game's Token named beside words about the physical set (a box, an organiser, printing, pieces
missing) is the cardboard piece, not the game's marker («не хватает жетонов», "a LOT of tokens to punch")."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .mention import Mention

# Words about the physical set, the thing players unbox, sort, print and lose (round 6: the false Tokens of the real
# sets stood within a clause of one of these): a word beginning with one of PHYSICAL_STEMS, or one of PHYSICAL_WORDS.
PHYSICAL_STEMS = tuple("""
    box organiser organizer insert punch cardboard plastic sleeve print colour color unpack sealed artwork
    коробк органайзер комплект вкладыш картон печат распечат ячейк потеря цвет мелки фото
    распаков нераспаков выдавл нарисова толщ потолщ thick tray пересчит
    куплю обменя штук
    bag ziploc sprue wooden carton curl мешоч мешок мешк зиплок пакет пропал деревянн маловат собира хватил
    """.split())  # round 7: unpacking, punching out («выдавливаются»), what is drawn on a token («нарисован щит»);
# round 9: how thick the cardboard is («жетоны пусть сделают потолще»); round 12: a tray, losing them («главное карты и
# жетоны не потерять», "tokens are rattling around loose in mine", "if I lose ONE of his tokens"); round 13: counting
# them («пересчитать жетоны состояний», «Жетоны пересчитывал по списку»); round 16: buying, swapping, counting pieces
# («#куплю Ищу пару жетонов», «жетоны горения, штуки три», «Куплю или обменяю»: 3 false links in real28); round 18:
# what holds them, what they are made of, losing, gathering and running short of them ("a whole bag of tokens", "a
# ziploc of wooden cubes and tokens, some still on the sprue", "We use an egg carton", "Ours curled", "the token
# wells are too deep", «мешочек с жетонами горения», «У нас пропал жетон Ожога», «Жетонов маловато», «собирать
# жетоны сразу», «не хватило одного жетона»: 14 false links in nine sets, no gold Token lost)
PHYSICAL_WORDS = frozenset("""
    missing tts mod mods thin stl sheet sheets лист листы листов листах loose lose lost wells
    """.split())
MISSING_RU = "не хватает"
STEM_CHARS = max(map(len, [*PHYSICAL_STEMS, *PHYSICAL_WORDS, MISSING_RU]))  # how far past the window a word is read
COMPONENT_CHARS = 60  # how near (in the clause): at 100-200 the corpora's game tokens near a box word start to go
TOKEN_TERMS = frozenset({"token"})  # the games' terms named for the piece itself
# One scan per Token, in C, over its window in lower case: the stems and listed words as one trie of literals (so the
# regex engine skips ahead by their first letters and tries each next letter once, however many words share it), then
# a look at the character before a hit — a word start, not the tail of a word — and «не хватает» anywhere. (Until
# round 10 a Python loop read the window word by word: half of linking 1 MB of mention-dense text; round 18's longer
# list, as a flat alternation, cost that text 8%.)


def trie_pattern(stems: Iterable[str], words: Iterable[str]) -> str:
    """One regex for literals: a stem matches as a prefix, a word only whole (not followed by a word character)."""
    stem_end, word_end = "", "\0"  # keys no literal's letter can be: a stem ends here (any tail), a word ends here
    root: dict[str, Any] = {}
    for literal, whole in [*((stem, False) for stem in stems), *((word, True) for word in words)]:
        node = root
        for char in literal:
            node = node.setdefault(char, {})
        node[word_end if whole else stem_end] = True

    def emit(node: dict[str, Any]) -> str:
        if stem_end in node:
            return ""  # a stem ends here: whatever follows, it matched
        letters = sorted(key for key in node if key not in (stem_end, word_end))
        branches = [re.escape(char) + emit(node[char]) for char in letters]
        if word_end in node:
            branches.append(r"(?!\w)")
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(root)


_PHYSICAL = re.compile(trie_pattern([*PHYSICAL_STEMS, MISSING_RU], PHYSICAL_WORDS))


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
PIECE_WORDS = "cube cubes rulebook rulebooks board boards binder binders tracker trackers markers правила".split()
PIECE_STEMS = "планшет альбом фишк".split()
# Literal alternatives, each as written and capitalised, so the regex engine skips ahead by their first letters (a
# leading look-behind or re.IGNORECASE would have it try every position); a hit's start is checked by hand.
_PIECES = re.compile("(?:" + "|".join(sorted({v for w in PIECE_WORDS for v in (w, w.capitalize())}, key=len,
                                            reverse=True)) + r")(?!\w)|(?:" +
                     "|".join(v for w in PIECE_STEMS for v in (w, w.capitalize())) + r")\w*")
ITEM_CHARS = 48  # the longest list item read: the Token's own ("a pile of condition tokens") and its neighbours


def listed_with_pieces(text: str, m: Mention) -> bool:
    """The Token stands in a short comma-separated item, and the item right before or right after it, on its line,
    names a piece of the box. A few C-speed finds per Token, a regex only over the two short neighbours: bounded."""
    start = _item_start(text, m.start)
    if start < 0 and m.start > ITEM_CHARS:
        return False  # the Token's item is longer than a list's
    end = _item_end(text, m.end)
    if end < 0:
        return False
    neighbours = []
    if start >= 0 and text[start] == ",":  # the item before, back to the comma or line start before it
        before = _item_start(text, start)
        neighbours.append(text[before + 1 if before >= 0 else max(0, start - ITEM_CHARS):start])
    if end < len(text) and text[end] == ",":  # the item after, to the next comma or line end
        after = _item_end(text, end + 1)
        neighbours.append(text[end + 1:after if after >= 0 else end + 1 + ITEM_CHARS])
    return any(_piece_at(item, hit) for item in neighbours for hit in _PIECES.finditer(item))


def _item_start(text: str, at: int) -> int:
    """The comma or line break that begins the list item holding `at`, at most ITEM_CHARS back; -1 if none."""
    lo = max(0, at - ITEM_CHARS)
    return max(text.rfind(",", lo, at), text.rfind("\n", lo, at))


def _item_end(text: str, at: int) -> int:
    """The comma or line break that ends the list item holding `at`, at most ITEM_CHARS on; -1 if none (the text's
    end counts as one when it is that near)."""
    hi = at + ITEM_CHARS
    ends = [e for e in (text.find(",", at, hi), text.find("\n", at, hi)) if e >= 0]
    return min(ends) if ends else (len(text) if hi >= len(text) else -1)


def _piece_at(text: str, hit: re.Match[str]) -> bool:
    """The hit starts a word ("board", not "keyboard")."""
    return hit.start() == 0 or not (text[hit.start() - 1].isalnum() or text[hit.start() - 1] == "_")


def unboxed(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each Token with a word about the physical set nearby, or listed among the box's pieces.
    Only the tokens are looked at, each in a window of fixed size: linear."""
    if not any(m.term in TOKEN_TERMS for m in found):
        return found
    return [m for m in found if m.term not in TOKEN_TERMS or not (physical_nearby(text, m) or
                                                                   listed_with_pieces(text, m))]
