"""Linked text: a text with its term mentions turned into Markdown, BBCode or HTML links."""
from __future__ import annotations

import html
import re
from typing import Callable

from .resolve import Mention

FORMATS = ("markdown", "bbcode", "html")


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
        "bbcode": lambda s: s.replace("<", "＜"),  # BoardGameGeek cuts a post at a bare '<'
        "html": lambda s: html.escape(s, quote=False),
    }[fmt]
    out, pos = [], 0
    for mention in mentions:
        out.append(outside(text[pos:mention.start]))
        shown = _escape_markdown(mention.text) if fmt == "markdown" and escape_markdown else mention.text
        out.append(link(url_for(mention.term), shown, fmt, title_for(mention.term) if title_for else None))
        pos = mention.end
    out.append(outside(text[pos:]))
    return "".join(out)


def link(url: str, shown: str, fmt: str, title: str | None = None) -> str:
    """One link in a format: the single place a Markdown, BBCode or HTML link is written (`shown` is raw text,
    except that Markdown callers escape it themselves when the surrounding text is escaped)."""
    if fmt == "markdown":
        quoted = f' "{_title_attr(title)}"' if title else ""
        return f"[{shown}]({url}{quoted})"
    if fmt == "bbcode":
        return f"[url={url}]{shown.replace('<', '＜')}[/url]"
    if fmt == "html":
        attr = f' title="{html.escape(title)}"' if title else ""
        return f'<a href="{html.escape(url)}"{attr}>{html.escape(shown, quote=False)}</a>'
    raise ValueError(f"unknown format '{fmt}' (use {', '.join(FORMATS)})")


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>&!|])")


def _escape_markdown(text: str) -> str:
    """Glossary Markdown is plain text plus paragraphs: raw HTML, links and emphasis show as typed."""
    return _MD_SPECIAL.sub(lambda m: {"<": "&lt;", ">": "&gt;", "&": "&amp;"}.get(m.group(1), "\\" + m.group(1)), text)


def _title_attr(text: str) -> str:
    return text.replace("\\", "").replace('"', "”").replace("\n", " ")


