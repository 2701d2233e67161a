"""A mention (one found name in a text) and the word splitter, shared by the matcher and the rules after it."""
from __future__ import annotations

import re
from typing import NamedTuple

SPLIT = re.compile(r"([^\W_]+)")  # text -> [gap, word, gap, word, ..., gap]: one C call, no match objects


class Mention(NamedTuple):
    """One mention: text[start:end] names `term` (with its parameter, "2" in "Aegis 2"). A tuple: cheap to make."""

    start: int
    end: int
    text: str
    term: str
    parameter: str | None = None
