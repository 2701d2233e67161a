"""What the forum renders is what the writer wrote, plus links: real renderers on the original and the linked post.

Markdown: markdown-it-py's CommonMark with GitHub's tables and strikethrough (and, when linkify-it-py is
installed, GitHub-style bare-URL autolinks). BBCode: the `bbcode` package with its defaults (bare URLs linked,
cosmetic replacements such as "--" -> "–", unclosed tags running to the end) plus phpBB's [img], [email],
[spoiler] and [size]. HTML output: the browser's own parser. The visible text of the rendered linked post must be
the visible text of the rendered original, character for character; the links we add must wrap mentions only,
never sit inside code or another link, and every `never` fragment stays unlinked.
"""
from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import need
bbcode = need("bbcode")
markdown_it = need("markdown_it")

from codex.markup import url_spans  # noqa: E402
from codex.linkify import HTML_ATTR, HTML_TEXT, MARKUP, placed  # noqa: E402

FORUM = Path(__file__).parent / "corpus" / "forum.yml"
SITE = "https://example.org/"


def markdown_renderer(linkify: bool = False):
    md = markdown_it.MarkdownIt("commonmark", {"linkify": linkify}).enable(["table", "strikethrough"])
    if linkify:
        md.enable("linkify")
    return md


try:
    import linkify_it  # noqa: F401

    RENDERERS = {"commonmark": markdown_renderer(), "linkify": markdown_renderer(linkify=True)}
except ImportError:  # the linkify check needs linkify-it-py (requirements.txt pins it)
    RENDERERS = {"commonmark": markdown_renderer()}


def bbcode_parser():
    """The package's defaults, plus phpBB's tags that take a URL or an address, and [spoiler]/[size]."""
    parser = bbcode.Parser()
    parser.add_simple_formatter("img", '<img src="%(value)s" alt="">', render_embedded=False, replace_links=False,
                                replace_cosmetic=False)
    parser.add_formatter("email", lambda name, value, options, parent, context:
                         f'<a href="mailto:{(options or {}).get("email", value)}">{value}</a>',
                         replace_links=False, replace_cosmetic=False)
    parser.add_simple_formatter("spoiler", '<details><summary>Spoiler</summary>%(value)s</details>')
    parser.add_simple_formatter("size", "<span>%(value)s</span>")
    return parser


BBCODE = bbcode_parser()


class Rendered(HTMLParser):
    """Visible text (an <img> shows nothing) and every link: (href, text, inside <a>, inside <code>/<pre>)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.links: list[tuple[str, str, bool, bool]] = []
        self._open: list[tuple[str, int, bool, bool]] = []  # (href, start in parts, nested, in code)
        self._code = 0
        self._anchors = 0
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag in ("code", "pre"):
            self._code += 1
        if tag == "a":
            self._open.append((dict(attrs).get("href") or "", len(self.parts), self._anchors > 0, self._code > 0))
            self._anchors += 1
        if tag == "br":
            self.parts.append("\n")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag in ("code", "pre") and self._code:
            self._code -= 1
        if tag == "a" and self._open:
            href, start, nested, in_code = self._open.pop()
            self._anchors -= 1
            self.links.append((href, "".join(self.parts[start:]), nested, in_code))

    def handle_data(self, data):
        self.parts.append(data)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def render(fmt: str, text: str, renderer: str = "commonmark") -> str:
    if fmt == "markdown":
        return RENDERERS[renderer].render(text)
    if fmt == "bbcode":
        return BBCODE.format(text)
    return "<p>" + text + "</p>"  # HTML output is a fragment of text and <a> elements


TERM_URL = re.compile(re.escape(SITE) + r"(?:mage-wars|dnd-miniatures|keyforge)/[a-z0-9-]+/\Z")


def ours(links):
    return [link for link in links if TERM_URL.match(link[0])]


def check_post(codex_api, game, fmt, text, renderer="commonmark", every=True):
    """The rule itself, for one post: equal visible text; our links around mentions only, none nested or in code."""
    linked = codex_api.link(game, text, fmt, every=every)
    source = text if fmt != "html" else __import__("html").escape(text, quote=False)
    before, after = Rendered(render(fmt, source, renderer)), Rendered(render(fmt, linked, renderer))
    assert after.text == before.text, f"{fmt}/{renderer}: the visible text changed\n{text!r}\n{linked!r}"
    mentions = {m["text"] for m in codex_api.mentions(game, text, MARKUP[fmt])}
    for href, shown, nested, in_code in ours(after.links):
        assert not nested and not in_code, (href, shown, linked)
        assert shown in mentions, (shown, mentions)
    theirs = [(href, shown) for href, shown, _, _ in after.links if not TERM_URL.match(href)]
    original = [(href, shown) for href, shown, _, _ in before.links if not TERM_URL.match(href)]
    if renderer == "linkify" and theirs != original:
        # linkify-it's fuzzy hosts depend on how markdown-it splits the text around them ("Burn.So<b>" is linked
        # after a link, not at a paragraph's start): such a host is kept whole as a URL run, never linked by us
        runs = [text[a:b] for a, b in url_spans(text)]
        extra = [item for item in theirs if item not in original]
        assert all(any(shown in run for run in runs) for _, shown in extra), (extra, runs)
        assert all(item in theirs for item in original), "a link of the original was lost"
    else:
        assert theirs == original, "a link of the original was lost, changed or doubled"
    return linked, after


def load_forum() -> list[dict]:
    return yaml.safe_load(FORUM.read_text(encoding="utf-8"))


FORUM_POSTS = load_forum()


def test_the_forum_corpus_is_large_and_varied():
    assert len(FORUM_POSTS) >= 20
    assert {p["game"] for p in FORUM_POSTS} == {"mage-wars", "dnd-miniatures", "keyforge"}
    assert {p["format"] for p in FORUM_POSTS} == {"markdown", "bbcode"}
    assert any("а" in p["text"] for p in FORUM_POSTS) and any(p["text"].isascii() for p in FORUM_POSTS)


@pytest.mark.parametrize("post", FORUM_POSTS, ids=[p["id"] for p in FORUM_POSTS])
@pytest.mark.parametrize("every", [False, True], ids=["first", "every"])
def test_rendered_output_is_rendered_input_plus_links(codex_api, post, every):
    for renderer in (RENDERERS if post["format"] == "markdown" else ["commonmark"]):
        check_post(codex_api, post["game"], post["format"], post["text"], renderer, every)
    check_post(codex_api, post["game"], "html", post["text"], every=every)


@pytest.mark.parametrize("post", FORUM_POSTS, ids=[p["id"] for p in FORUM_POSTS])
def test_the_expected_mentions_are_links_and_protected_text_is_not(codex_api, post):
    game, fmt, text = post["game"], post["format"], post["text"]
    _, after = check_post(codex_api, game, fmt, text, every=True)
    shown = [s for _, s, _, _ in ours(after.links)]
    position = 0
    for wanted in post["linked"]:
        assert wanted in shown[position:], f"{post['id']}: {wanted!r} is not linked (links: {shown})"
        position = shown.index(wanted, position) + 1
    _, found = codex_api.found(game, text, MARKUP[fmt])
    chosen = placed(text, found, fmt, every=True)
    for fragment in post["never"]:
        start = text.index(fragment)
        inside = [m.text for m in chosen if m.start < start + len(fragment) and start < m.end]
        assert not inside, f"{post['id']}: {inside} linked inside {fragment!r}"


# --- random posts: the rule on text nobody wrote by hand -------------------------------------------

FRAGMENTS = [
    "Aegis", "Aegis 2", " Burn", "Burn", " ", "\n", "\n\n", "    ", "  ", "`", "``", "```\n", "~~~\n", "[", "]", "(",
    ")", "](", "![", "<", ">", "<b>", "</b>", "<a href='x'>", "</a>", "<div>\n", "*", "**", "_", "__", "~~", "!",
    "\\", "&", ";", "> ", "- ", "1. ", "* ", "| ", " |", "|---|\n", "http://x.org/", "www.y.org ", "a@b.org", "#",
    "[x]: /u\n", "[x]", "Корр", "броня", " брони", "Эгида 3", "Melee +2", "Armor -1", "--", "...", "(c)",
    "[b]", "[/b]", "[url=http://u]", "[url]", "[/url]", "[code]", "[/code]", "[quote=\"a]b\"]", "[/quote]",
    "[*]", "[list]", "[/list]", "[img]", "[/img]", "\"", "'", "=", "Guard", "Corrode", "Zone Attack",
    "Smite Evil +10", "Trample 2", "линии видимости", "Hazardous 2", "Опасный (3)", "Elusive", "бой", "Upkeep Phase",
    "\t", "***", "(", "«", "»", ",", ".", "-", "&amp;", "<!--", "-->", "<code>", "</code>", "/", "ab", ".So", "www",
]
POSTS = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)
EXAMPLES = int(os.environ.get("CODEX_FUZZ_EXAMPLES", "2500")) // 5


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=POSTS, fmt=st.sampled_from(["markdown", "bbcode", "html"]),
       game=st.sampled_from(["mage-wars", "dnd-miniatures", "keyforge"]))
@example(text="Aegis`.So", fmt="markdown", game="mage-wars")  # found by CI: linkify-it's host names hold "`"
@example(text="|---|\n|---|\n    Aegis", fmt="markdown", game="mage-wars")  # after a table, indented code
@example(text="|a|b|\n|-|-|\n|`x|Aegis `|\n|` Burn `|", fmt="markdown", game="mage-wars")  # a cell is inline alone
@example(text="<a href='x'>\\</a>Aegis", fmt="markdown", game="mage-wars")  # an escaped "</a>" closes nothing
@example(text="<a href='x'><code></a>Aegis", fmt="markdown", game="mage-wars")  # HTML reopens the <code>
@example(text="Hazardous 2*<a href='x'>*", fmt="markdown", game="keyforge")  # runs inside <a> still pair
@example(text="[x]: /u\n[x]Aegis", fmt="markdown", game="mage-wars")  # "[x][Aegis](…)": [x] is no link then
def test_random_posts_render_the_same_plus_links(codex_api, text, fmt, game):
    for renderer in (RENDERERS if fmt == "markdown" else ["commonmark"]):
        check_post(codex_api, game, fmt, text, renderer)


@given(st.text())
@example("<a href='x' title=\"y\">&amp; & ' \"</a>")
def test_the_linkers_html_escaping_is_html_escape(text):
    """linkify escapes without the html module (its entity table would load into the browser's linker): the same
    characters, the same entities as html.escape, in text and in attributes."""
    assert text.translate(HTML_TEXT) == html.escape(text, quote=False)
    assert text.translate(HTML_ATTR) == html.escape(text)
