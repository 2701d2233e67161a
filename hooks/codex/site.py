"""Everything the site build generates from the glossary, as data: pages, indexes, browser files, navigation."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import index as index_module
from .chrome import ChromeRule
from .deploy import redirect_pages, redirect_rules
from .index import Index
from .labels import LABELS, both, both_label, labels_script
from .links import term_path
from .model import Glossary
from .pages import GeneratedPage, Mentions, definition_mentions, game_index_page, relations, term_page
from .resolve import Resolver
from .wheel import wheel_bytes


@dataclass
class SiteContent:
    pages: dict[str, GeneratedPage] = field(default_factory=dict)  # docs-relative path -> page
    assets: dict[str, bytes] = field(default_factory=dict)  # site-relative path -> bytes
    indexes: dict[str, Index] = field(default_factory=dict)
    mentions: dict[str, Mentions] = field(default_factory=dict)  # game -> term -> lang -> mentions (PDFs too)


def build_site(
    glossary: Glossary, site_url: str, pyodide_dir: str = "assets/pyodide/", short_links: bool = True,
    pdfs: bool = False, directory_urls: bool = True, labels_extra: dict[str, dict[str, str]] | None = None,
    chrome: list[ChromeRule] | None = None,
) -> SiteContent:
    """Term pages, game indexes, the linker's browser files and redirects, each computed once per build.

    With `pdfs`, each game index links its PDF, pdf/<game-id>.pdf (the hooks add those files).
    `labels_extra` joins the interface strings scripts need beside codex's own (Material's, from its theme);
    `chrome`, the rules that put Material's chrome in the reader's language (codex.chrome), goes with them.
    """
    content = SiteContent()
    base = site_url.rstrip("/") + "/"
    for game in glossary.games.values():
        built = index_module.build(game)
        content.indexes[game.id] = built
        resolver = Resolver(built)
        mentions = content.mentions[game.id] = definition_mentions(game, resolver)
        related = relations(game, mentions, resolver)
        content.pages[f"{game.id}/index.md"] = game_index_page(game, pdf=pdfs, directory_urls=directory_urls)
        for term in game.terms.values():
            content.pages[f"{game.id}/{term.id}.md"] = term_page(
                game, term, mentions[term.id], related, base + term_path(game.id, term.id), directory_urls)
    wheel_name, wheel = wheel_bytes()
    content.assets[f"assets/codex/{wheel_name}"] = wheel
    for gid, built in content.indexes.items():
        content.assets[f"assets/codex/{gid}.json"] = built.to_json().encode()
    manifest = {
        "site_url": base,
        "wheel": wheel_name,
        "pyodide": "../" + pyodide_dir.removeprefix("assets/"),  # relative to assets/codex/
        "games": [{"id": g.id, "name": g.name, "index": f"{g.id}.json"} for g in glossary.games.values()],
    }
    content.assets["assets/codex/manifest.json"] = json.dumps(manifest, ensure_ascii=False, indent=1).encode()
    content.assets["assets/codex/labels.js"] = labels_script(labels_extra, chrome).encode()
    if short_links:  # not in the offline copy: they are for sharing, and point at directory URLs
        for path, page in redirect_pages(glossary).items():
            content.assets[path] = page.encode()
        content.assets["_redirects"] = redirect_rules(glossary).encode()
    return content


def front_matter(page: GeneratedPage) -> str:
    """The Markdown MkDocs reads for a generated page: only front matter (JSON is YAML); the HTML comes later."""
    return "---\n" + json.dumps(page.meta, ensure_ascii=False) + "\n---\n"


class NavigationError(ValueError):
    """mkdocs.yml's nav names a title that is not a label (the hooks raise it as a PluginError)."""


def nav_labels(hand_written: list[Any]) -> dict[str, str]:
    """The hand-written pages' titles: mkdocs.yml's nav gives each as a label key (`- linker_title: linker.md`).

    Returns path -> label key; a title that is no key of labels.LABELS is an error naming it."""
    keys: dict[str, str] = {}
    for entry in hand_written:
        if not isinstance(entry, dict):
            continue  # a bare path: MkDocs' own title
        for key, path in entry.items():
            if not isinstance(path, str):
                continue  # a section
            if key not in LABELS:
                raise NavigationError(f"mkdocs.yml: nav: '{key}' ({path}) is not a label in hooks/codex/labels.py")
            keys[path] = key
    return keys


def navigation(glossary: Glossary, hand_written: list[Any]) -> list[Any]:
    """`nav`: the hand-written pages as mkdocs.yml lists them, each game's index right after the home page.

    Titles go in as HTML in both languages (themes print nav titles as they are): the games' names, and the
    labels mkdocs.yml names for the hand-written pages."""
    keys = nav_labels(hand_written)
    pages: list[Any] = []
    for entry in hand_written:
        path = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages.append({both_label(keys[path]): path} if isinstance(path, str) and path in keys else entry)
    games = [{both(game.name): f"{game.id}/index.md"} for game in glossary.games.values()]
    return pages[:1] + games + pages[1:]
