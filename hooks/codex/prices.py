"""Prices: a term's word just before a sum of money names the price, not the game's Cost («Цена 900 р.»)."""
from __future__ import annotations

import re
from bisect import bisect_left

from .mention import Mention

# A sum of money: "$25", "900 р.", "700 рублей", "20 EUR". A term's word just before one, in the same sentence, names a
# price, not the game's Cost («Цена 900 р.», «ну и цена: по одной колоде за 700 рублей»). Two scans keyed on their
# first character (a digit; a currency sign), no re.I: about 0.3x tokenising, far less than one alternation.
_PRICE_WORD = re.compile(r"[0-9][ \t]?(?:[рР](?:\.|уб)|РУБ|[uU][sS][dD]|[eE][uU][rR]|[еЕ]вро|[дД]оллар|[dD]ollar|"
                         r"[bB]uck|[$€£₽])")  # "900 р.", "700 рублей", "5$"
_PRICE_SIGN = re.compile(r"[$€£₽][ \t]?[0-9]")  # "$40"
PRICE_CHARS = 40  # how far before a price a term's word names it
_SENTENCE_BREAK = re.compile(r"[.!?\n]")


def _prices(text: str) -> list[int]:
    """Where each sum of money starts, in order."""
    starts = [m.start() for m in _PRICE_WORD.finditer(text)]
    if any(sign in text for sign in "$€£₽"):
        starts = sorted(starts + [m.start() for m in _PRICE_SIGN.finditer(text)])
    return starts


def unpriced(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less those a price follows within PRICE_CHARS in the same sentence. One scan finds the
    prices; each mention bisects them: linear."""
    prices = _prices(text)
    if not prices:
        return found
    kept = []
    for m in found:
        i = bisect_left(prices, m.end)
        if i < len(prices) and prices[i] - m.end <= PRICE_CHARS and \
                not _SENTENCE_BREAK.search(text, m.end, prices[i]):
            continue
        kept.append(m)
    return kept

