"""Everything the site build generates from the glossary, as data: page Markdown, indexes, browser files."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import index as index_module
from .index import Index
from .model import Glossary
from .resolve import Resolver
from .render import definition_mentions, game_index_page, relation_maps, term_page
from .wheel import wheel_bytes


@dataclass
class SiteContent:
    pages: dict[str, str] = field(default_factory=dict)  # docs-relative path -> Markdown
    assets: dict[str, bytes] = field(default_factory=dict)  # site-relative path -> bytes
    indexes: dict[str, Index] = field(default_factory=dict)


def build_site(glossary: Glossary, lang: str, site_url: str) -> SiteContent:
    """Term pages, game indexes and the resolver's browser files, each computed once per build."""
    content = SiteContent()
    for game in glossary.games.values():
        built = index_module.build(game)
        content.indexes[game.id] = built
        mentions = definition_mentions(game, Resolver(built))
        backlinks, implied_by = relation_maps(game, mentions)
        content.pages[f"{game.id}/index.md"] = game_index_page(game, lang)
        for term in game.terms.values():
            content.pages[f"{game.id}/{term.id}.md"] = term_page(game, term, mentions[term.id], lang, backlinks, implied_by)
    wheel_name, wheel = wheel_bytes()
    content.assets[f"assets/codex/{wheel_name}"] = wheel
    for gid, built in content.indexes.items():
        content.assets[f"assets/codex/{gid}.json"] = built.to_json().encode()
    manifest = {
        "site_url": site_url.rstrip("/") + "/",
        "wheel": wheel_name,
        "games": [{"id": g.id, "name": g.name, "index": f"{g.id}.json"} for g in glossary.games.values()],
    }
    content.assets["assets/codex/manifest.json"] = json.dumps(manifest, ensure_ascii=False, indent=1).encode()
    return content
