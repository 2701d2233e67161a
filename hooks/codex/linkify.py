"""Linked text: a text with its term mentions turned into Markdown, BBCode or HTML links.

The rule is "what the forum renders is what the writer wrote, plus links": the text is copied byte for byte
(escaped for HTML output), nothing is linked inside markup (see the markup package), and a mention is linked only where
the link's own characters cannot change how the text around it renders (`placed`).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import Any, Literal, get_args

from .markup import Markup
from .resolve import Mention

Format = Literal["markdown", "bbcode", "html"]  # the link formats (the command line adds JSON: the mentions)
FORMATS: tuple[Format, ...] = get_args(Format)
MARKUP: dict[Format, Markup] = {"markdown": "markdown", "bbcode": "bbcode", "html": "any"}  # the input each output implies
Spans = frozenset[tuple[int, int]]  # (start, end) of mentions not to link


def chosen(mentions: list[Mention], every: bool = False, exclude: frozenset[str] = frozenset()) -> list[Mention]:
    """The mentions to turn into links: each term's first mention only, unless every one is wanted."""
    seen: set[str] = set()
    out = []
    for mention in mentions:
        if mention.term in exclude or (not every and mention.term in seen):
            continue
        seen.add(mention.term)
        out.append(mention)
    return out


def link_text(
    text: str,
    mentions: list[Mention],
    url_for: Callable[[str], str],
    fmt: Format = "markdown",
    title_for: Callable[[str], str] | None = None,
    escape_markdown: bool = False,
) -> str:
    """The text with the given mentions replaced by links; everything else is copied (or escaped, for HTML)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (use {', '.join(FORMATS)})")
    outside = {
        "markdown": _escape_markdown if escape_markdown else (lambda s: s),
        "bbcode": lambda s: s,  # the writer's characters, '<' included: the linker adds links, nothing else
        "html": lambda s: s.translate(HTML_TEXT),
    }[fmt]
    out, pos = [], 0
    for mention in mentions:
        out.append(outside(text[pos:mention.start]))
        shown = _escape_markdown(mention.text) if fmt == "markdown" and escape_markdown else mention.text
        out.append(link(url_for(mention.term), shown, fmt, title_for(mention.term) if title_for else None))
        pos = mention.end
    out.append(outside(text[pos:]))
    return "".join(out)


# HTML escaping exactly as html.escape writes it (quote=False / True), without the html module: importing it
# loads its table of 2,231 named entities into the reader's linker (a start-up cost and 38 KB of the download).
HTML_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
HTML_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def link(url: str, shown: str, fmt: Format, title: str | None = None) -> str:
    """One link in a format: the single place a Markdown, BBCode or HTML link is written (`shown` is raw text,
    except that Markdown callers escape it themselves when the surrounding text is escaped)."""
    if fmt == "markdown":
        quoted = f' "{_title_attr(title)}"' if title else ""
        return f"[{shown}]({url}{quoted})"
    if fmt == "bbcode":
        return f"[url={url}]{shown}[/url]"
    if fmt == "html":
        attr = f' title="{title.translate(HTML_ATTR)}"' if title else ""
        return f'<a href="{url.translate(HTML_ATTR)}"{attr}>{shown.translate(HTML_TEXT)}</a>'
    raise ValueError(f"unknown format '{fmt}' (use {', '.join(FORMATS)})")


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>&!|])")


def _escape_markdown(text: str) -> str:
    """Glossary Markdown is plain text plus paragraphs: raw HTML, links and emphasis show as typed."""
    return _MD_SPECIAL.sub(lambda m: {"<": "&lt;", ">": "&gt;", "&": "&amp;"}.get(m.group(1), "\\" + m.group(1)), text)


def _title_attr(text: str) -> str:
    return text.replace("\\", "").replace('"', "”").replace("\n", " ")




# --- where a link may go ---------------------------------------------------------------------------

_DELIMITER_RUN = re.compile(r"\*+|_+|~+")
_BLANK_LINE = re.compile(r"\n[ \t]*(?:\n|\Z)")
_COSMETIC = re.compile(r"---|--|\.\.\.|\(c\)|\(reg\)|\(tm\)")  # the bbcode package's replacements


def placed(text: str, mentions: list[Mention], fmt: Format, every: bool = False,
           exclude: frozenset[str] = frozenset(), skip: Spans = frozenset()) -> list[Mention]:
    """The mentions to link, left to right: each term's first mention that a link can be put around without
    changing how the rest of the text renders (every such mention with `every`). A mention whose (start, end) is
    in `skip` (the reader unticked it) is not linked and does not count as the term's first: the next one is.

    Markdown: not after "!" (it would become an image), "\\" (it would escape the link's bracket) or "]" (a
    shortcut reference link just before would be followed by a link label, and so be text), not as an
    entity's name (&name;), and not where the link's brackets would change how an emphasis delimiter beside the
    mention pairs up (see _Emphasis). BBCode: not inside one of the `bbcode` package's cosmetic replacements
    ("--", "...", "(c)"). HTML output escapes the text, so every mention can be linked.
    """
    emphasis = _Emphasis(text) if fmt == "markdown" else None
    seen: set[str] = set()
    out = []
    for m in mentions:
        if m.term in exclude or (not every and m.term in seen) or (skip and (m.start, m.end) in skip):
            continue
        if fmt == "markdown" and not _markdown_safe(text, m, emphasis):  # type: ignore[arg-type]
            continue
        if fmt == "bbcode" and not _bbcode_safe(text, m):
            continue
        seen.add(m.term)
        out.append(m)
    return out


def _markdown_safe(text: str, m: Mention, emphasis: _Emphasis) -> bool:
    before = text[m.start - 1] if m.start else ""
    after = text[m.end] if m.end < len(text) else ""
    if before in ("!", "\\", "]"):  # "]" then "[": a shortcut reference before it would become text
        return False
    if before == "&" and after == ";":
        return False
    if (before and before in "*_~") or (after and after in "*_~"):
        return emphasis.accept(m.start, m.end)
    return True


def _bbcode_safe(text: str, m: Mention) -> bool:
    for edge in (m.start, m.end):
        for found in _COSMETIC.finditer(text, max(0, edge - 4), edge + 4):
            if found.start() < edge < found.end():
                return False
    return True


def _kind(char: str) -> str:
    """CommonMark's classes for flanking: "space" (also the line's edge), "punct" (P* or S*) or "other"."""
    import unicodedata

    if not char or char.isspace():
        return "space"
    return "punct" if unicodedata.category(char)[0] in "PS" else "other"


def _flags(before: str, after: str, char: str) -> tuple[bool, bool]:
    """(can open, can close) of a delimiter run between the characters `before` and `after` (CommonMark 0.31)."""
    b, a = _kind(before), _kind(after)
    left = a != "space" and (a != "punct" or b != "other")
    right = b != "space" and (b != "punct" or a != "other")
    if char == "_":
        return left and (not right or b == "punct"), right and (not left or a == "punct")
    return left, right


MAX_RUNS = 24  # a paragraph with more delimiter runs is not simulated: a link that would change a run is left out


class _Emphasis:
    """Emphasis delimiter runs of a Markdown text, to check that a link beside one changes nothing.

    A link's "[" and ")" are punctuation, and whether a run can open or close depends on the characters beside
    it. For a mention touching a run, the paragraph's runs of `*` and `_` are paired up with CommonMark's
    "process emphasis" algorithm twice — as written, and with the links accepted so far and this one — and the
    mention is linked only when the pairs are the same. `~` (strikethrough) is kept simpler: its runs beside a
    mention must have a space or the line's edge on their other side.
    """

    def __init__(self, text: str):
        self.text = text
        self._paragraphs: list[int] | None = None
        self._runs: dict[int, _Runs] = {}  # paragraph -> its runs (start, end, char)
        self._changed: dict[int, dict[int, tuple[str, str]]] = {}  # paragraph -> run start -> new (before, after)
        self._original: dict[int, list[tuple[int, int, int]]] = {}
        self._protected: list[tuple[int, int]] | None = None
        self._protected_starts: list[int] = []

    def _paragraph(self, position: int) -> tuple[int, int, int]:
        if self._paragraphs is None:
            self._paragraphs = [m.end() for m in _BLANK_LINE.finditer(self.text)]
        k = bisect_right(self._paragraphs, position)
        start = self._paragraphs[k - 1] if k else 0
        end = self._paragraphs[k] if k < len(self._paragraphs) else len(self.text)
        return k, start, end

    def _paragraph_runs(self, k: int, start: int, end: int) -> _Runs:
        runs = self._runs.get(k)
        if runs is None:
            from .markup import markdown_spans, merge

            if self._protected is None:  # real code, links and HTML only: their runs are no delimiters here
                self._protected = merge(markdown_spans(self.text, True, shapes=[], contents=False))
                self._protected_starts = [s for s, _ in self._protected]  # once: paragraphs are many
            spans, starts = self._protected, self._protected_starts
            found = []
            for run in _DELIMITER_RUN.finditer(self.text, start, end):
                i = bisect_right(starts, run.start()) - 1
                if i >= 0 and run.start() < spans[i][1]:
                    continue  # inside code, a link or HTML: not a delimiter
                slashes = 0
                while run.start() - slashes - 1 >= start and self.text[run.start() - slashes - 1] == "\\":
                    slashes += 1
                first = run.start() + (slashes % 2)  # an escaped first character is literal
                if first < run.end():
                    found.append((first, run.end(), run.group()[0]))
            runs = self._runs[k] = _Runs(found)
        return runs

    def accept(self, start: int, end: int) -> bool:
        """Whether a link around text[start:end] keeps the emphasis as written; if so it is remembered.

        Constant work per mention (the runs beside it only) unless a run's flags change, and the full pairing
        is simulated only in paragraphs of at most MAX_RUNS runs: linear in the text however many mentions.
        """
        text = self.text
        k, p_start, p_end = self._paragraph(start)
        runs = self._paragraph_runs(k, p_start, p_end)
        mine = self._changed.setdefault(k, {})
        touched: dict[int, tuple[str, str]] = {}
        unchanged = True
        for run, new in ((runs.by_end.get(start), "before"), (runs.by_start.get(end), "after")):
            if run is None:
                continue
            r_start, r_end, char = run
            if char == "~":
                outer = (text[r_start - 1] if new == "before" and r_start > 0
                         else text[r_end] if new == "after" and r_end < len(text) else "")
                if _kind(outer) != "space":
                    return False
                continue
            old = mine.get(r_start) or (text[r_start - 1] if r_start else "", text[r_end] if r_end < len(text) else "")
            touched[r_start] = (old[0], "[") if new == "before" else (")", old[1])
            unchanged = unchanged and _flags(*old, char) == _flags(*touched[r_start], char)
        if unchanged:  # the runs beside the link open and close as before: nothing else can change
            mine.update(touched)
            return True
        if len(runs.all) > MAX_RUNS:
            return False
        if k not in self._original:
            self._original[k] = _pairs(text, runs.all, {})
        changed = {**mine, **touched}  # at most MAX_RUNS entries
        if _pairs(text, runs.all, changed) != self._original[k]:
            return False
        mine.update(touched)
        return True


class _Runs:
    """One paragraph's delimiter runs, found by where they start and where they end."""

    def __init__(self, runs: list[tuple[int, int, str]]):
        self.all = runs
        self.by_start = {r[0]: r for r in runs}
        self.by_end = {r[1]: r for r in runs}


def _pairs(text: str, runs: list[tuple[int, int, str]], changed: dict[int, tuple[str, str]]) -> list[tuple[int, int, int]]:
    """CommonMark's "process emphasis" on a paragraph's `*`/`_` runs: the (opener, closer, count) pairs."""
    delims: list[list[Any]] = []
    for start, end, char in runs:
        if char == "~":
            continue
        before, after = changed.get(start) or (text[start - 1] if start else "", text[end] if end < len(text) else "")
        can_open, can_close = _flags(before, after, char)
        delims.append([start, char, end - start, end - start, can_open, can_close])  # pos, char, left, orig, o, c
    pairs = []
    i = 0
    while i < len(delims):
        closer = delims[i]
        if not closer[5] or closer[2] == 0:
            i += 1
            continue
        j = i - 1
        found = -1
        while j >= 0:
            opener = delims[j]
            if opener[1] == closer[1] and opener[4] and opener[2] > 0:
                odd = (opener[5] or closer[4]) and (opener[3] + closer[3]) % 3 == 0 and not (
                    opener[3] % 3 == 0 and closer[3] % 3 == 0)
                if not odd:
                    found = j
                    break
            j -= 1
        if found < 0:
            i += 1
            continue
        opener = delims[found]
        use = 2 if opener[2] >= 2 and closer[2] >= 2 else 1
        opener[2] -= use
        closer[2] -= use
        pairs.append((opener[0], closer[0], use))
        for between in delims[found + 1:i]:
            between[2] = 0  # delimiters between an opener and its closer are plain text from now on
        if closer[2] == 0:
            i += 1
    return pairs
