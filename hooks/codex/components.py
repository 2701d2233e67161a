"""The box's pieces: a game's Token named beside words about the physical set (a box, an organiser, printing, pieces
missing) is the cardboard piece, not the game's marker («не хватает жетонов», "a LOT of tokens to punch")."""
from __future__ import annotations

import re
from bisect import bisect_left

from .mention import Mention

# Words about the physical set, the thing players unbox, sort, print and lose (round 6: the false Tokens of the real
# sets stood within a clause of one of these). One scan over the text; no re.I.
_PHYSICAL = re.compile(
    r"(?<!\w)(?:[bB]ox(?:es)?|[oO]rgani[sz]er|[iI]nsert|[pP]unch\w*|[cC]ardboard|[pP]lastic|[sS]leeve\w*|[mM]issing|"
    r"TTS|[mM]od|[pP]rint\w*|[cC]olou?rs?|[tT]hin|"
    r"[кК]оробк\w*|[оО]рганайзер\w*|[кК]омплект\w*|[вВ]кладыш\w*|[кК]артон\w*|[пП]ечат\w*|[рР]аспечат\w*|[яЯ]чейк\w*|"
    r"[пП]отерял\w*|[нН]е хватает|[цЦ]вет\w*|[мМ]елки\w*|[фФ]ото|stl)(?!\w)")
COMPONENT_CHARS = 60  # how near (in the clause): at 100-200 the corpora's game tokens near a box word start to go
TOKEN_TERMS = frozenset({"token"})  # the games' terms named for the piece itself


def unboxed(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each Token within COMPONENT_CHARS of a word about the physical set. One scan for the
    words, one bisection per token mention: linear."""
    if not any(m.term in TOKEN_TERMS for m in found):
        return found
    physical = [hit.start() for hit in _PHYSICAL.finditer(text)]
    if not physical:
        return found
    kept = []
    for m in found:
        if m.term in TOKEN_TERMS:
            i = bisect_left(physical, m.start)
            near = [physical[j] for j in (i - 1, i) if 0 <= j < len(physical)]
            if any(abs(p - m.start) <= COMPONENT_CHARS for p in near):
                continue
        kept.append(m)
    return kept
