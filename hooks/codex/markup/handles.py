"""User names, chat commands and hashtags in any text: never a term ("vortex_mage", "/forge", "#MageWars")."""
from __future__ import annotations

import re

from .spans import Spans

# A name joined by underscores is a user name or an identifier ("vortex_mage", "Страж_леса", "on_destroyed": issue
# 20, round 12 — four false links in the annotated sets); a word right after "/", "@" or "#" at a word's start is a
# chat command, a user or a hashtag ("/mage <маг>", "the /forge chat command", "@kestrel_mw"). Not "burn/corrode" (a
# word before the slash) nor "_Teleport_" (Markdown's emphasis: underscores only at the ends). Possessive runs that
# start only where a run starts: each character is looked at a bounded number of times (linear).
_HANDLE = re.compile(r"(?<![^\W_])[^\W_]++(?:_++[^\W_]++)++|(?<![\w/@#])[/@#][^\W_][\w-]*+")


def handle_spans(text: str) -> Spans:
    """Each user name, identifier, chat command or hashtag, whole."""
    if "_" not in text and "/" not in text and "@" not in text and "#" not in text:
        return []
    return [m.span() for m in _HANDLE.finditer(text)]
