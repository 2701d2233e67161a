"""A hyphen after a Latin name: a Russian case ending joins the mention («counterstrike-ом»), an English suffix
makes another word ("counter-ish")."""
from __future__ import annotations

import re

from .mention import Mention

# A hyphen and a short Cyrillic ending after a Latin name is the name declined in a Russian sentence
# («counterstrike-ом», «Guard-а»): one mention, the ending included. A hyphen and an English word-forming suffix
# makes another word ("counter-ish", "Zone-like"): not a mention.
_RU_ENDING = re.compile(r"-([а-яё]{1,4})(?![\w-])")
_EN_SUFFIX = re.compile(r"-(?:ish|like|esque)(?![\w-])", re.IGNORECASE)


def hyphen_suffixed(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions with a Russian case ending joined and English suffixed words dropped (a bounded look after each
    mention: linear)."""
    out = []
    for m in found:
        if text.startswith("-", m.end) and m.text[-1:].isascii() and m.text[-1:].isalpha():
            if _EN_SUFFIX.match(text, m.end):
                continue
            ending = _RU_ENDING.match(text, m.end)
            if ending:
                m = m._replace(end=ending.end(), text=text[m.start:ending.end()])
        out.append(m)
    return out
