"""The /embed/ page (how to put the codex on a forum, with a live example) and the bookmarklet block the linker page
shows: in both languages from labels, like the home and linker pages (codex.site_pages)."""
from __future__ import annotations

import html

from .labels import LABELS, LANGS, both, both_label, fill
from .model import Game
from .pages import GeneratedPage
from .webapi import API_DIR, EMBED_SCRIPT, SCHEMA, bookmarklet

# The live example's post: (game, term, link text) — links of each shape the script reads.
EXAMPLE_LINKS = (("mage-wars", "aegis", "Aegis 2"), ("mage-wars", "armor", "Броня"), ("keyforge", "cost", "Cost"))


def script_tag(site_url: str) -> str:
    """The one line a forum adds (the README quotes the same)."""
    return f'<script src="{site_url}{EMBED_SCRIPT}" async></script>'


def bookmarklet_block(site_url: str) -> str:
    """The bookmarklet, to drag to the bookmarks bar (a javascript: link; this site's CSP keeps it from running here)."""
    href = html.escape(bookmarklet(site_url + "linker/"))
    return (f'<p><a class="md-button codex-bookmarklet" href="{href}" draggable="true">'
            f'{both_label("embed_bookmarklet")}</a></p>')


def linker_extra(site_url: str) -> str:
    """Appended to the linker page: the share sheet and the bookmarklet."""
    return (f'<h2 id="while-writing">{both_label("embed_share")}</h2>\n{both_label("embed_share_text", "p")}\n'
            + bookmarklet_block(site_url) + "\n")


def embed_page(games: dict[str, Game], site_url: str) -> GeneratedPage:
    """How to add the script, what it does (every input), a live example, the API, oEmbed, sharing."""
    code = html.escape(script_tag(site_url))
    api = {"games": f'<a href="../{API_DIR}games.json"><code>{API_DIR}games.json</code></a>',
           "schema": f'<a href="../{SCHEMA}"><code>{SCHEMA}</code></a>'}
    links = []
    for game_id, term_id, text in EXAMPLE_LINKS:
        if game_id in games and term_id in games[game_id].terms:
            links.append(f'<a href="../{game_id}/{term_id}/">{html.escape(text)}</a>')
    parts = [
        f'<h1 id="embed">{both_label("embed_title")}</h1>',
        both_label("embed_intro", "p"),
        f'<h2 id="add">{both_label("embed_add")}</h2>',
        both_label("embed_add_text", "p"),
        f'<pre class="codex-embed-code"><code>{code}</code></pre>',
        both_label("embed_lang_text", "p"),
        f'<h2 id="how">{both_label("embed_how")}</h2>',
        both_label("embed_how_text", "p"),
        both_label("embed_safe_text", "p"),
        f'<h2 id="example">{both_label("embed_example")}</h2>',
        both_label("embed_example_text", "p"),
        f'<blockquote class="codex-embed-example"><p>{", ".join(links)}.</p></blockquote>',
        f'<script src="../{EMBED_SCRIPT}" async></script>',
        f'<h2 id="api">{both_label("embed_api")}</h2>',
        both({lang: fill("embed_api_text", lang, **api) for lang in LANGS}, "p", escape=False),
        linker_extra(site_url),
    ]
    headings = [("add", "embed_add"), ("how", "embed_how"), ("example", "embed_example"), ("api", "embed_api"),
                ("while-writing", "embed_share")]
    toc = [{"level": 1, "id": "embed", "name": both_label("embed_title"),
            "children": [{"level": 2, "id": anchor, "name": both_label(key), "children": []} for anchor, key in headings]}]
    return GeneratedPage({"codex_description": LABELS["embed_description"]}, "\n".join(parts) + "\n", toc)
