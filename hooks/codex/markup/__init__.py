"""What in a post is already markup or machine text: the spans the linker never touches, found in linear time.

One scanner per input markup, each a single left-to-right pass that remembers its failed searches (an opener
whose closer is missing never sends a second search to the end of the text):
- `markdown`: CommonMark's block structure (fenced code with backticks or tildes, indented code — which cannot
  interrupt a paragraph and is measured from a list item's content column —, HTML blocks, link reference
  definitions, block quotes, list items and GitHub's tables as markdown-it reads them) and, inside paragraphs and
  table cells, code spans, autolinks, raw HTML (with the contents of a, code, pre, script, style, textarea),
  inline links and images, full, collapsed and shortcut reference links;
- `bbcode`: the tags phpBB and the `bbcode` package recognise, tokenised as the package does, with the contents
  of [code], [url], [img], [email] (to their closing tag, or to the end when it is missing);
- every markup: URLs (with a scheme, `www.`, or a host with a dotted name: "example.org/x", "Aegis.So") and
  e-mail addresses, to the next whitespace, which covers GitHub's, linkify's and the `bbcode` package's autolinks;
  user names, chat commands and wiki templates ("vortex_mage", "/forge", "@kestrel_mw", "{{Creature infobox|level=3}}");
  and lines of program code pasted without a fence ("def expected(dice, armor):");
- `any` (the default, for plain text and HTML output): the union of all of the above plus any `<...>` tag — save
  that an indented line reading as prose is text there, not Markdown's indented code: copied forum and Reddit
  threads indent their replies (issue 20, round 16: 39 gold mentions in the read sets' indented replies; the indented
  lines that were code begin with "def", "class", a decorator, "$ " or a type annotation, or hold ";", braces, backticks,
  "==", "+=", "->", "--flag" or an empty call "f()").
"""
from __future__ import annotations

import re
from typing import Literal, get_args

from .bbcode import BB_TAGS, bbcode_spans
from .blocks import markdown_spans
from .code import code_line_spans
from .handles import handle_spans
from .inline import MAX_PAREN_DEPTH
from .spans import Spans, merge
from .urls import url_spans

__all__ = ["BB_TAGS", "MARKUPS", "MAX_PAREN_DEPTH", "Markup", "Spans", "bbcode_spans", "markdown_spans", "merge",
           "protected", "url_spans"]

Markup = Literal["any", "markdown", "bbcode"]  # the input markups
MARKUPS: tuple[Markup, ...] = get_args(Markup)

_ANY_TAG = re.compile(r"<[^<>\n]*>")


# A line indented as Markdown's code (four spaces or a tab) whose content reads as prose: words, no code characters
_INDENTED_LINE = re.compile(r"^(?: {4}|[ ]{0,3}\t)(?=[ \t]*+[^\s])(?![ \t]*+(?:(?:def|class)[ \t]|\$[ \t]|//|#!|@\w|"
                            r"[\w.]++:[ \t]*+(?:int|str|bool|float|list|dict|tuple|None)\b))"
                            r"(?![^\n]*?(?:[;{}`\\]|[=!<>+\-*/]=|->|--\w|\w\(\)))", re.M)
_NO_INDENT = "\u00a0"  # not a space to CommonMark: the line's fourth column no longer indents it


def _prose_unindented(text: str) -> str:
    """`text` with each indented prose line's indentation broken at its fourth column (same length, same offsets)."""
    if "    " not in text and "\t" not in text:
        return text
    return _INDENTED_LINE.sub(lambda m: m.group()[:-1] + _NO_INDENT, text)


def protected(text: str, markup: Markup = "any") -> Spans:
    """Sorted, merged spans of `text` that are markup (never linked) for the given input markup."""
    if markup not in MARKUPS:
        raise ValueError(f"unknown markup '{markup}' (use {', '.join(MARKUPS)})")
    spans = url_spans(text) + handle_spans(text) + code_line_spans(text)
    if markup == "markdown":
        spans += markdown_spans(text)
    elif markup == "any":
        spans += markdown_spans(_prose_unindented(text), html_blocks=False)
    if markup in ("any", "bbcode"):
        spans += bbcode_spans(text)
    if markup == "any" and "<" in text:
        spans += [m.span() for m in _ANY_TAG.finditer(text)]
    return merge(spans)
