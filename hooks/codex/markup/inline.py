"""Markdown's inline markup inside one paragraph or table cell (code spans, autolinks, raw HTML, inline and
reference links and images), and the contents of inline <a>, <code>… elements across the whole document."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable

from .spans import Finder, Spans

_ATTRIBUTE = r"(?:[ \t\n]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t\n]*=[ \t\n]*(?:[^ \t\n\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)"
OPEN_TAG = re.compile(r"<[A-Za-z][A-Za-z0-9-]*" + _ATTRIBUTE + r"*[ \t\n]*/?>")
CLOSE_TAG = re.compile(r"</[A-Za-z][A-Za-z0-9-]*[ \t\n]*>")

# Inline: the characters that can start something protected, and backslash escapes.
_INLINE = re.compile(r"[`<\[\]\\]")
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_BACKTICKS = re.compile(r"`+")
_AUTOLINK = re.compile(r"<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>"  # a URI, or an e-mail address
                       r"|<[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>")
_DEST_PLAIN = re.compile(r"[^\s()\\\x00-\x1f]+")
_WHITESPACE = re.compile(r"[ \t\n]*")
MAX_PAREN_DEPTH = 32  # CommonMark renderers (cmark, markdown-it) give up on deeper link destinations


def label(text: str) -> str:
    """A reference label as CommonMark compares them: case-folded, inner whitespace collapsed."""
    return " ".join(text.split()).casefold()


def inline(s: str, start: int, end: int, labels: set[str], loose: set[str], spans: Spans, shapes: Spans,
           code: Spans | None = None) -> None:
    """Protected spans of one paragraph's inline content s[start:end], appended to `spans`; the shapes of
    reference links whose definition may be elsewhere (labels in `loose`) to `shapes`; code spans also to `code`."""
    if not any(c in s[start:end] for c in "`<[\\"):
        return
    _Paragraph(s, start, end, labels, loose, spans, shapes, code).run()


class _Paragraph:
    """One left-to-right pass over a paragraph's inline content; each trigger character has its handler, which
    returns where the scan goes on."""

    def __init__(self, s: str, start: int, end: int, labels: set[str], loose: set[str], spans: Spans,
                 shapes: Spans, code: Spans | None):
        self.s, self.start, self.end = s, start, end
        self.labels, self.loose, self.spans, self.shapes, self.code = labels, loose, spans, shapes, code
        self.finders: dict[str, Finder] = {}
        self.runs: dict[int, list[int]] | None = None  # backtick runs by length, listed on the first backtick
        self.openers: list[tuple[int, int, bool]] = []  # (position of "[" or "![", sequence number, image)
        self.inactive_below = 0  # openers with a smaller sequence number are inside a link: never links themselves
        self.sequence = 0

    def find(self, needle: str, position: int) -> int:
        finder = self.finders.get(needle)
        if finder is None:
            finder = self.finders[needle] = Finder(self.s, needle, self.end)
        return finder(position)

    def run(self) -> None:
        s, end, pos = self.s, self.end, self.start
        code_span, angle, close_bracket, openers = self.code_span, self.angle, self.close_bracket, self.openers
        while True:
            m = _INLINE.search(s, pos, end)
            if m is None:
                return
            p = m.start()
            c = s[p]
            if c == "\\":
                pos = p + 2 if p + 1 < end and s[p + 1] in _ASCII_PUNCT else p + 1
            elif c == "`":
                pos = code_span(p)
            elif c == "<":
                pos = angle(p)
            elif c == "[":
                image = p > self.start and s[p - 1] == "!" and not (p - 1 > self.start and s[p - 2] == "\\")
                self.sequence += 1
                openers.append((p - 1 if image else p, self.sequence, image))
                pos = p + 1
            else:
                pos = close_bracket(p)

    def code_span(self, p: int) -> int:
        """A backtick run at p: a code span to the next run of the same length, or text."""
        s = self.s
        length = _BACKTICKS.match(s, p, self.end).end() - p  # type: ignore[union-attr]
        if self.runs is None:
            self.runs = {}
            for run in _BACKTICKS.finditer(s, self.start, self.end):
                self.runs.setdefault(run.end() - run.start(), []).append(run.start())
        candidates = self.runs.get(length, [])
        k = bisect_left(candidates, p + length)
        if k == len(candidates):
            return p + length
        self.spans.append((p, candidates[k] + length))
        if self.code is not None:
            self.code.append((p, candidates[k] + length))
        return candidates[k] + length

    def angle(self, p: int) -> int:
        """A "<" at p: an autolink, raw HTML, or text."""
        auto = _AUTOLINK.match(self.s, p, self.end)
        if auto:
            self.spans.append(auto.span())
            return auto.end()
        done = _raw_html(self.s, p, self.end, self.find)
        if done > p:
            self.spans.append((p, done))
            return done
        return p + 1

    def close_bracket(self, p: int) -> int:
        """A "]" at p: with the latest open bracket, an inline link, a reference link, or text."""
        if not self.openers:
            return p + 1
        opener, number, image = self.openers.pop()
        if number < self.inactive_below:
            return p + 1
        text_start = opener + (2 if image else 1)
        link_end = _link_tail(self.s, p + 1, self.end, self.find)
        if link_end < 0:
            link_end = self.reference(opener, text_start, p)
        if link_end <= 0:
            return p + 1
        self.spans.append((opener, link_end))
        if not image:
            self.inactive_below = self.sequence + 1
        return link_end

    def reference(self, opener: int, text_start: int, p: int) -> int:
        """The end of a full, collapsed or shortcut reference link whose text ends at p, or -1; the shape of one
        whose label is defined somewhere (`loose`) or, full, anywhere, goes to the shapes."""
        s, end = self.s, self.end
        if p + 1 < end and s[p + 1] == "[":
            close = s.find("]", p + 2, min(end, p + 1002))
            if close > 0 and "[" not in s[p + 2:close]:
                name = s[p + 2:close] if close > p + 2 else s[text_start:p]
                if label(name) in self.labels:
                    return close + 1
                self.shapes.append((opener, close + 1))  # kept whole even when its definition is elsewhere
        shortcut = label(s[text_start:p])
        if shortcut in self.labels:
            return p + 1
        if shortcut in self.loose:
            self.shapes.append((opener, p + 1))
        return -1


def _link_tail(s: str, q: int, end: int, find: Callable[[str, int], int]) -> int:
    """The end of an inline link's `(destination "title")` starting at s[q] == "(", or -1."""
    if q >= end or s[q] != "(":
        return -1
    i = _destination_end(s, _WHITESPACE.match(s, q + 1, end).end(), end)  # type: ignore[union-attr]
    if i < 0:
        return -1
    j = _WHITESPACE.match(s, i, end).end()  # type: ignore[union-attr]
    if j < end and s[j] in "\"'(" and j > i:
        j = _title_end(s, j, end, find)
        if j < 0:
            return -1
    if j < end and s[j] == ")":
        return j + 1
    return -1


def _destination_end(s: str, i: int, end: int) -> int:
    """The end of a link destination starting at s[i] (in <…>, or plain with balanced parentheses), or -1."""
    if i < end and s[i] == "<":
        close = s.find(">", i + 1, end)
        if close < 0 or "\n" in s[i:close] or "<" in s[i + 1:close]:
            return -1
        return close + 1
    depth = 0
    while i < end:
        plain = _DEST_PLAIN.match(s, i, end)
        if plain:
            i = plain.end()
            if i >= end:
                break
        c = s[i]
        if c == "\\":
            i += 2 if i + 1 < end and s[i + 1] in _ASCII_PUNCT else 1
        elif c == "(":
            depth += 1
            if depth > MAX_PAREN_DEPTH:
                return -1
            i += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
            i += 1
        else:  # whitespace or a control character ends the destination
            break
    return -1 if depth else i


def _title_end(s: str, j: int, end: int, find: Callable[[str, int], int]) -> int:
    """Past a link title opening at s[j] (", ' or "(") and the whitespace after it, or -1."""
    closer = ")" if s[j] == "(" else s[j]
    k = j + 1
    while True:
        k = find(closer, k)
        if k < 0:
            return -1
        backslashes = 0
        while s[k - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            break
        k += 1
    if s[j] == "(" and "(" in s[j + 1:k]:
        return -1
    if "\n\n" in s[j:k]:
        return -1
    return _WHITESPACE.match(s, k + 1, end).end()  # type: ignore[union-attr]


def _raw_html(s: str, p: int, end: int, find: Callable[[str, int], int]) -> int:
    """The end of the raw HTML starting at s[p] == "<" (a tag, comment, instruction, declaration), or p.

    An element's contents (<a>…</a>, <code>…</code>) are the whole document's pass: container_tags."""
    nxt = s[p + 1:p + 2]
    if nxt == "!":
        return _declaration(s, p, end, find)
    if nxt == "?":
        close = find("?>", p + 2)
        return close + 2 if close >= 0 else p
    if nxt == "/":
        tag = CLOSE_TAG.match(s, p, end)
        return tag.end() if tag else p
    tag = OPEN_TAG.match(s, p, end) if nxt.isalpha() else None
    return p if tag is None else tag.end()


def _declaration(s: str, p: int, end: int, find: Callable[[str, int], int]) -> int:
    """The end of a comment, CDATA section or declaration starting at s[p:p + 2] == "<!", or p."""
    if s.startswith("<!--", p):
        if s.startswith("<!-->", p) or s.startswith("<!--->", p):
            return p + (5 if s.startswith("<!-->", p) else 6)
        close = find("-->", p + 4)
        return close + 3 if close >= 0 else p
    if s.startswith("<![CDATA[", p):
        close = find("]]>", p + 9)
        return close + 3 if close >= 0 else p
    if p + 2 < end and s[p + 2].isalpha():
        close = find(">", p + 2)
        return close + 1 if close >= 0 else p
    return p


_CONTAINER_TAG = re.compile(r"<(/?)(a|code|pre|script|style|textarea)(?=[\s/>])", re.I)
_RAW_TEXT = ("script", "style", "textarea")  # nothing inside them is a tag, up to their own closing tag
_RAW_TEXT_END = {name: re.compile("</" + name + r"[ \t\n]*>", re.I) for name in _RAW_TEXT}


def container_tags(text: str, code: Spans) -> Spans:
    """Where an <a>, <code>, <pre>, <script>, <style> or <textarea> element is open: from its tag to the closing
    tag that leaves no such element open, or to the document's end. An element left open keeps it open over
    whatever follows, paragraphs included, and one opened inside another stays open past the other's closing tag
    (HTML reopens it: "<a><code></a>x" has x in code), so the open elements are counted by name, one tag at a
    time: one pass. A tag inside code (`code` spans, sorted) is text: it neither opens nor closes anything."""
    code_starts = [start for start, _ in code]

    def in_code(position: int) -> bool:
        i = bisect_right(code_starts, position) - 1
        return i >= 0 and position < code[i][1]

    spans: Spans = []
    counts: dict[str, int] = {}
    open_elements, region = 0, 0
    finders: dict[str, Finder] = {}
    position = 0
    while True:
        m = _CONTAINER_TAG.search(text, position)
        if m is None:
            break
        position = m.end()
        name = m.group(2).lower()
        if in_code(m.start()):
            continue
        if m.group(1):  # a closing tag
            closing = CLOSE_TAG.match(text, m.start())
            if closing is None or escaped(text, m.start()) or not counts.get(name):  # "\\</a>" is text
                continue
            counts[name] -= 1
            open_elements -= 1
            if not open_elements:
                spans.append((region, closing.end()))
            continue
        tag = OPEN_TAG.match(text, m.start())
        if tag is None or tag.group().endswith("/>"):
            continue
        if not open_elements:
            region = m.start()
        if name in _RAW_TEXT:
            end = _raw_text_end(text, name, tag.end(), finders)
            if end == len(text):
                open_elements += 1  # never closed: open to the end
                break
            position = end
            if not open_elements:
                spans.append((region, end))
            continue
        counts[name] = counts.get(name, 0) + 1
        open_elements += 1
    if open_elements:
        spans.append((region, len(text)))
    return spans


def _raw_text_end(text: str, name: str, after: int, finders: dict[str, Finder]) -> int:
    """The end of the closing tag of a <script>, <style> or <textarea> opened before `after`, or len(text)."""
    closes = finders.setdefault(name, Finder(text, "</" + name, len(text), ignore_case=True))
    close = closes(after)
    while close >= 0:
        closing = _RAW_TEXT_END[name].match(text, close)
        if closing is not None:
            return closing.end()
        close = closes(close + 1)
    return len(text)


def escaped(text: str, position: int) -> bool:
    """Whether text[position] follows an odd run of backslashes (each run is read once: its closer is after it)."""
    start = position
    while start > 0 and text[start - 1] == "\\":
        start -= 1
    return (position - start) % 2 == 1
