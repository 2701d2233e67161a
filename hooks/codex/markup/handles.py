"""User names, chat commands and wiki templates in any text: never a term ("vortex_mage", "/forge", "@kestrel_mw",
"{{Creature infobox|level=3}}")."""
from __future__ import annotations

import re

from .spans import Spans

# A name joined by underscores is a user name or an identifier ("vortex_mage", "Страж_леса", "on_destroyed": issue
# 20, round 12 — four false links in the annotated sets); a word right after "/" or "@" at a word's start is a chat
# command or a user ("/mage <маг>", "the /forge chat command", "@kestrel_mw"). Not "burn/corrode" (a word before the
# slash) nor "_Teleport_" (Markdown's emphasis: an underscore with no letter before it). A hashtag names its topic:
# both annotators linked "#skirmish" and "#rout" (real17), so it links. Each search starts at a literal character, so
# the regex engine skips the rest of the text at C speed (a pattern that could start anywhere cost a third of linking
# a post); a name's start is looked for at most MAX_NAME characters back: linear.
_JOIN = re.compile(r"_[^\W_]")  # an underscore with a letter or digit after it
_SIGIL = re.compile(r"[/@][^\W_]")  # a slash or an at sign with a letter or digit after it
_TAIL = re.compile(r"[\w-]*+")  # the rest of a name, from where it is known to be one
MAX_NAME = 64
# A wiki template's call ("{{Creature infobox|school=Water|level=3}}", «{{нет АИ|12|03|2012}}»: a fan wiki's source,
# round 12), to its closing braces or, cut short in an edit summary, to the line's end: no brace inside, so each search
# stops at the next brace or line break (linear).
_TEMPLATE = re.compile(r"\{\{[^{}\n]*+(?:\}\})?")


def handle_spans(text: str) -> Spans:
    """Each wiki template, user name, identifier or chat command, whole."""
    spans = [m.span() for m in _TEMPLATE.finditer(text)] if "{{" in text else []
    if "_" in text:
        spans += _joined_names(text)
    if "/" in text or "@" in text:
        for m in _SIGIL.finditer(text):
            at = m.start()
            if at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "_/@"):
                spans.append((at, _TAIL.match(text, at + 1).end()))  # type: ignore[union-attr]
    return spans


def _joined_names(text: str) -> Spans:
    """Each run of letters and digits joined by underscores ("vortex_mage"), whole."""
    spans: Spans = []
    position = 0
    while (m := _JOIN.search(text, position)) is not None:
        at = first = m.start()
        floor = max(0, at - MAX_NAME, spans[-1][1] if spans else 0)
        while first > floor and text[first - 1] == "_":
            first -= 1  # "a__b": the run of underscores
        if first == 0 or not text[first - 1].isalnum():
            position = at + 1  # "_Teleport_": emphasis, or a name that starts with an underscore
            continue
        start = first - 1
        while start > floor and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        end = _TAIL.match(text, at).end()  # type: ignore[union-attr]
        while end > at and text[end - 1] in "_-":
            end -= 1  # "vortex_mage-" ends with its last letter
        spans.append((start, end))
        position = end
    return spans
