"""BBCode: the tags phpBB and the `bbcode` package recognise, and the contents of [code], [url], [img], [email]."""
from __future__ import annotations

import re

from .spans import Spans

# phpBB's tags and the `bbcode` package's defaults: anything else in brackets is text.
BB_TAGS = frozenset("""
    b i u s strike sub sup hr list * quote code center color url img email spoiler size font left right align
    justify youtube media flash attachment
    """.split())
_BB_RAW = frozenset(("code", "url", "img", "email"))  # their contents are markup too
_BB_STOP = re.compile(r"[\[\]=\"']")
_BB_NAME = re.compile(r"\s*(/?)\s*(\*|[A-Za-z]+)")


def bbcode_spans(text: str) -> Spans:
    """Tags (tokenised like the `bbcode` package) and the contents of [code], [url], [img] and [email]."""
    if "[" not in text:
        return []
    tags = _bb_tokens(text)
    spans: Spans = []
    i = 0
    while i < len(tags):
        start, end, name, closing, quoted = tags[i]
        if name is None:  # a bracketed extent with quotes that is no tag: the package keeps it whole
            if quoted:
                spans.append((start, end))
            i += 1
            continue
        spans.append((start, end))
        if closing or name not in _BB_RAW:
            i += 1
            continue
        depth, j = 0, i + 1
        while j < len(tags):
            _, _, other, other_closing, _ = tags[j]
            if other == name:
                if not other_closing and name != "code":
                    depth += 1
                elif other_closing:
                    if depth == 0:
                        break
                    depth -= 1
            j += 1
        stop = tags[j][1] if j < len(tags) else len(text)
        spans.append((start, stop))
        i = j + 1
    return spans


def _bb_tokens(text: str) -> list[tuple[int, int, str | None, bool, bool]]:
    """Every `[...]` extent as the `bbcode` package finds them: (start, end, tag name or None, closing, quoted).

    An extent ends at the first `]` outside quotes (a quote counts after an `=`); a `[` before it means this
    `[` was text. The scan never goes back, so it is linear.
    """
    out: list[tuple[int, int, str | None, bool, bool]] = []
    n = len(text)
    pos = text.find("[")
    while 0 <= pos < n:
        i, quotable, quote, quoted = pos + 1, False, "", False
        end = -1
        while True:
            m = _BB_STOP.search(text, i)
            if m is None:
                break
            c, i = m.group(), m.start()
            if quote:
                if c == quote:
                    quote, quotable = "", False
            elif c == "=":
                quotable = True
            elif c in "\"'":
                if quotable:
                    quote, quoted = c, True
            elif c == "[":
                break
            else:
                end = i + 1
                break
            i += 1
        if end < 0:
            if quote:  # an unclosed quote: the package takes the rest of the text as text
                out.append((pos, n, None, False, True))
                return out
            pos = text.find("[", i if i > pos else pos + 1)
            continue
        inside = text[pos + 1:end - 1]
        name_match = _BB_NAME.match(inside)
        name = None
        closing = False
        if name_match and "\n" not in inside and "\r" not in inside:
            candidate = name_match.group(2).lower()
            rest = inside[name_match.end():]
            closing = bool(name_match.group(1))
            if candidate in BB_TAGS and (not rest.strip() or (not closing and rest[0] in "= ")):
                name = candidate
            else:
                closing = False
        out.append((pos, end, name, closing, quoted))
        pos = text.find("[", end)
    return out
