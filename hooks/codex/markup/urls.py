"""URLs, host names and e-mail addresses in any markup: each whitespace-free run that holds one, whole."""
from __future__ import annotations

import re

from .spans import Spans

# A run of non-space characters is a URL for some renderer when it holds a scheme, "www.", a dotted host name
# (a character a host name may hold, a dot and two ASCII letters, or ".рф"; or a dot, 2-4 letters and "/", the
# bbcode package's bare-URL rule) or an e-mail address: the whole run is kept. A host name may hold what
# linkify-it counts as a letter: anything but space, control characters, punctuation and <, >, ｜ — so ASCII's
# symbols $ + = ^ ` | ~ too ("Aegis`.So" is a link there); every non-ASCII character counts, which at worst keeps
# a run with «», — or … unlinked. The trigger's first character is one of five, so the search skips the rest of
# the text at C speed; the run around it is then found from the end of the previous run, so no character is
# looked at twice.
_HOST_CHAR = r"[^\s\x00-\x1f\x7f!\"#%&'()*,\-./:;?@\[\\\]_{}<>]"
_URL_TRIGGER = re.compile(r"[:.@Ww](?:(?<=:)//|(?<=[Ww])[Ww][Ww]\d{0,3}\.|(?<=" + _HOST_CHAR + r"\.)(?:[A-Za-z]{2}|рф)"
                          r"|(?<=\.)[A-Za-z]{2,4}/|(?<=@)[\w-]+\.)")  # "Burn...and" is no host; "x..ab/" is one
_RUN_END = re.compile(r"\S*")
_OTHER_SPACE = re.compile(r"[^\S \n]")


def url_spans(text: str) -> Spans:
    """Each whitespace-free run that holds a URL, a host name or an e-mail address, whole."""
    spans: Spans = []
    lower = position = 0  # lower: the end of the last run (runs never overlap)
    while True:
        m = _URL_TRIGGER.search(text, position)
        if m is None:
            return spans
        at = m.start()
        start = max(text.rfind(" ", lower, at), text.rfind("\n", lower, at), lower - 1) + 1
        for other in _OTHER_SPACE.finditer(text, start, at):  # tabs, no-break spaces…: rare, and short to scan
            start = other.end()
        end = _RUN_END.match(text, at).end()  # type: ignore[union-attr]
        spans.append((start, end))
        lower = position = max(end, at + 1)
