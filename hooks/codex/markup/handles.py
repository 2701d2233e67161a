"""User names, chat commands and wiki templates in any text: never a term ("vortex_mage", "/forge", "@kestrel_mw",
"{{Creature infobox|level=3}}")."""
from __future__ import annotations

import re

from .spans import Spans

# A name joined by underscores is a user name or an identifier ("vortex_mage", "Страж_леса", "on_destroyed": issue
# 20, round 12 — four false links in the annotated sets); a word right after "/" or "@" at a word's start is a chat
# command or a user ("/mage <маг>", "the /forge chat command", "@kestrel_mw"). Not "burn/corrode" (a word before the
# slash) nor "_Teleport_" (Markdown's emphasis: underscores only at the ends). A hashtag names its topic: both
# annotators linked "#skirmish" and "#rout" (real17), so it links. Possessive runs that start only where a run starts:
# each character is looked at a bounded number of times (linear).
_HANDLE = re.compile(r"(?<![^\W_])[^\W_]++(?:_++[^\W_]++)++|(?<![\w/@])[/@][^\W_][\w-]*+")
# A wiki template's call ("{{Creature infobox|school=Water|level=3}}", «{{нет АИ|12|03|2012}}»: a fan wiki's source,
# round 12), to its closing braces or, cut short in an edit summary, to the line's end: no brace inside, so each search
# stops at the next brace or line break (linear).
_TEMPLATE = re.compile(r"\{\{[^{}\n]*+(?:\}\})?")


def handle_spans(text: str) -> Spans:
    """Each wiki template, user name, identifier or chat command, whole."""
    spans = [m.span() for m in _TEMPLATE.finditer(text)] if "{{" in text else []
    if "_" in text or "/" in text or "@" in text:
        spans += [m.span() for m in _HANDLE.finditer(text)]
    return spans
