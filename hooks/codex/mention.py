"""A mention (one found name in a text) and the word splitter, shared by the matcher and the rules after it."""
from __future__ import annotations

import re
from typing import NamedTuple

SPLIT = re.compile(r"([^\W_]+)")  # text -> [gap, word, gap, word, ..., gap]: one C call, no match objects
_NEXT_WORD = re.compile(r"[ \t]+(\w+)")  # the next word on the line, after spaces only


def next_word(text: str, end: int, reach: int = 40) -> str | None:
    """The word after `end` on its line, past spaces only and starting within `reach` characters, in lower case;
    None when punctuation or the line's end comes first. A bounded look."""
    after = _NEXT_WORD.match(text, end, end + reach)
    return after.group(1).lower() if after else None


class Mention(NamedTuple):
    """One mention: text[start:end] names `term` (with its parameter, "2" in "Aegis 2"). A tuple: cheap to make."""

    start: int
    end: int
    text: str
    term: str
    parameter: str | None = None
