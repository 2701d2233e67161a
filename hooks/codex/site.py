"""Everything the site build generates from the glossary, as data: page Markdown, indexes, browser files."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import index as index_module
from .deploy import redirect_pages, redirect_rules
from .index import Index
from .links import term_path
from .model import Glossary
from .resolve import Resolver
from .pages import definition_mentions, game_index_page, relation_maps, term_page
from .wheel import wheel_bytes


@dataclass
class SiteContent:
    pages: dict[str, str] = field(default_factory=dict)  # docs-relative path -> Markdown
    assets: dict[str, bytes] = field(default_factory=dict)  # site-relative path -> bytes
    indexes: dict[str, Index] = field(default_factory=dict)
    mentions: dict[str, dict] = field(default_factory=dict)  # game -> term -> lang -> mentions (for the PDFs too)


def build_site(
    glossary: Glossary, lang: str, site_url: str, pyodide_dir: str = "assets/pyodide/", short_links: bool = True,
    pdfs: bool = False,
) -> SiteContent:
    """Term pages, game indexes, the resolver's browser files and redirects, each computed once per build.

    With `pdfs`, each game index links its PDF, pdf/<game-id>.pdf (the hooks add those files).
    """
    content = SiteContent()
    for game in glossary.games.values():
        built = index_module.build(game)
        content.indexes[game.id] = built
        mentions = content.mentions[game.id] = definition_mentions(game, Resolver(built))
        backlinks, implied_by = relation_maps(game, mentions)
        content.pages[f"{game.id}/index.md"] = game_index_page(game, lang, pdf_name=f"{game.id}.pdf" if pdfs else None)
        for term in game.terms.values():
            url = f"{site_url.rstrip('/')}/{term_path(game.id, term.id)}"
            content.pages[f"{game.id}/{term.id}.md"] = term_page(
                game, term, mentions[term.id], lang, backlinks, implied_by, url)
    wheel_name, wheel = wheel_bytes()
    content.assets[f"assets/codex/{wheel_name}"] = wheel
    for gid, built in content.indexes.items():
        content.assets[f"assets/codex/{gid}.json"] = built.to_json().encode()
    manifest = {
        "site_url": site_url.rstrip("/") + "/",
        "wheel": wheel_name,
        "pyodide": "../" + pyodide_dir.removeprefix("assets/"),  # relative to assets/codex/
        "games": [{"id": g.id, "name": g.name, "index": f"{g.id}.json"} for g in glossary.games.values()],
    }
    content.assets["assets/codex/manifest.json"] = json.dumps(manifest, ensure_ascii=False, indent=1).encode()
    if short_links:  # not in the offline copy: they are for sharing, and point at directory URLs
        for path, page in redirect_pages(glossary, lang).items():
            content.assets[path] = page.encode()
        content.assets["_redirects"] = redirect_rules(glossary).encode()
    return content
