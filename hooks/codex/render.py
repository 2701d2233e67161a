"""Linked text: a text with its term mentions turned into Markdown, BBCode or HTML links.

The rule is "what the forum renders is what the writer wrote, plus links": the text is copied byte for byte
(escaped for HTML output), nothing is linked inside markup (see markup.py), and a mention is linked only where
the link's own characters cannot change how the text around it renders (`linkable`).
"""
from __future__ import annotations

import html
import re
from bisect import bisect_left, bisect_right
from typing import Callable

from .resolve import Mention

FORMATS = ("markdown", "bbcode", "html")
MARKUP = {"markdown": "markdown", "bbcode": "bbcode", "html": "any"}  # the input markup each output implies


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
    fmt: str = "markdown",
    title_for: Callable[[str], str] | None = None,
    escape_markdown: bool = False,
) -> str:
    """The text with the given mentions replaced by links; everything else is copied (or escaped, for HTML)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (use {', '.join(FORMATS)})")
    outside = {
        "markdown": _escape_markdown if escape_markdown else (lambda s: s),
        "bbcode": lambda s: s,  # the writer's characters, '<' included: the linker adds links, nothing else
        "html": lambda s: html.escape(s, quote=False),
    }[fmt]
    out, pos = [], 0
    for mention in mentions:
        out.append(outside(text[pos:mention.start]))
        url, shown = url_for(mention.term), mention.text
        if fmt == "markdown":
            title = f' "{_title_attr(title_for(mention.term))}"' if title_for else ""
            out.append(f"[{_escape_markdown(shown) if escape_markdown else shown}]({url}{title})")
        elif fmt == "bbcode":
            out.append(f"[url={url}]{shown}[/url]")
        else:
            out.append(f'<a href="{html.escape(url)}">{html.escape(shown, quote=False)}</a>')
        pos = mention.end
    out.append(outside(text[pos:]))
    return "".join(out)


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


def linkable(text: str, mentions: list[Mention], fmt: str) -> list[Mention]:
    """The mentions a link can be put around in `fmt` without changing how the rest of the text renders.

    Markdown: not after "!" (it would become an image) or "\\" (it would escape the link's bracket), not as an
    entity's name (&name;), and not where the link's brackets would change an emphasis delimiter beside the
    mention (see _emphasis_safe). BBCode: not inside one of the `bbcode` package's cosmetic replacements ("--",
    "...", "(c)"). HTML output escapes the text, so every mention is linkable.
    """
    if fmt == "markdown":
        context = _Emphasis(text)
        return [m for m in mentions if _markdown_safe(text, m, context)]
    if fmt == "bbcode":
        return [m for m in mentions if _bbcode_safe(text, m)]
    return mentions


def _markdown_safe(text: str, m: Mention, context: "_Emphasis") -> bool:
    before = text[m.start - 1] if m.start else ""
    after = text[m.end] if m.end < len(text) else ""
    if before in ("!", "\\"):
        return False
    if before == "&" and after == ";":
        return False
    if (before and before in "*_~") or (after and after in "*_~"):
        return context.safe(m.start, m.end)
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


class _Emphasis:
    """Emphasis delimiter runs (`*`, `_`, `~`) of a text, found once, for checking links beside them.

    A link's "[" and ")" are punctuation, and a run's left/right-flanking depends on the characters beside it.
    Beside a mention (a letter or digit), a run keeps its flanking exactly when its other side is a space or the
    line's edge. When the other side is punctuation ("(**Aegis**)", "**Aegis**,") the run gains a role (it can
    also close, or also open); that changes nothing when the mention is enclosed by two runs of the same
    character and length and its paragraph has no other run of that character. Anything else is not linked.
    """

    def __init__(self, text: str):
        self.text = text
        self._runs: dict[str, list[int]] | None = None
        self._paragraphs: list[int] = []

    def _index(self) -> dict[str, list[int]]:
        if self._runs is None:
            self._runs = {}
            for run in _DELIMITER_RUN.finditer(self.text):
                self._runs.setdefault(run.group()[0], []).append(run.start())
            self._paragraphs = [m.start() for m in _BLANK_LINE.finditer(self.text)]
        return self._runs

    def safe(self, start: int, end: int) -> bool:
        text = self.text
        left = right = None  # (char, length, outer kind)
        if start and text[start - 1] in "*_~":
            c = text[start - 1]
            i = start - 1
            while i > 0 and text[i - 1] == c:
                i -= 1
            left = (c, start - i, _kind(text[i - 1] if i else ""))
        if end < len(text) and text[end] in "*_~":
            c = text[end]
            j = end
            while j < len(text) and text[j] == c:
                j += 1
            right = (c, j - end, _kind(text[j] if j < len(text) else ""))
        runs = [r for r in (left, right) if r is not None]
        if any(r[2] == "other" for r in runs):
            return False
        if all(r[2] == "space" for r in runs):
            return True
        if left is None or right is None or left[:2] != right[:2]:
            return False
        positions = self._index().get(left[0], [])
        k = bisect_right(self._paragraphs, start)  # the paragraph: between the blank lines around the mention
        lo = self._paragraphs[k - 1] if k else 0
        hi = self._paragraphs[k] if k < len(self._paragraphs) else len(text)
        return bisect_left(positions, hi) - bisect_left(positions, lo) == 2
