"""MkDocs hooks: validate glossary/, add the generated pages and files, serve the vendored Pyodide runtime.

Only event wiring and I/O live here; everything else is the `codex` package beside this file.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from codex.check import load
from codex.deploy import headers_file, inline_script_hashes
from codex.model import GlossaryError, Glossary
from codex.pages import games_list
from codex.site import SiteContent, build_site

log = get_plugin_logger(__name__)

# The five files Pyodide boots from (without the lock file it hangs), from the npm package pinned in package.json.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
GAMES_MARKER = "<!-- codex:games -->"

_state: dict[str, object] = {}


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_config(config: MkDocsConfig, **_) -> MkDocsConfig:
    """Validate before MkDocs touches site/: a broken glossary stops the build and leaves the old site intact."""
    root = _root(config)
    try:
        glossary = load(root / "glossary", root)
    except GlossaryError as error:
        for problem in error.problems:
            log.error(str(problem))
        count = len(error.problems)
        raise PluginError(f"glossary/ has {count} problem{'s' * (count != 1)}; the first: {error.problems[0]}") from None
    pyodide = root / "node_modules" / "pyodide"
    missing = [name for name in PYODIDE_FILES if not (pyodide / name).is_file()]
    if missing:
        raise PluginError(f"{pyodide}: missing {', '.join(missing)}; run `npm ci` (the Makefile does)")
    lang = config.theme["language"] if config.theme["language"] in ("en", "ru") else "en"
    version = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))["version"]
    # A versioned folder, so hosts may cache the runtime as immutable.
    _vendor_offline_shim(config, root)
    _state.update(glossary=glossary, lang=lang, pyodide=pyodide, pyodide_dir=f"assets/pyodide/{version}/", script_hashes=set())
    return config


IFRAME_WORKER = "assets/javascripts/vendor/iframe-worker-shim.js"


def _vendor_offline_shim(config: MkDocsConfig, root: Path) -> None:
    """Material's offline plugin loads its file:// worker shim from unpkg.com: serve our pinned copy instead."""
    polyfills = config.extra.get("polyfills") or []
    if any("unpkg.com/iframe-worker" in str(url) for url in polyfills):
        shim = root / "node_modules" / "iframe-worker" / "shim" / "index.js"
        if not shim.is_file():
            raise PluginError(f"{shim}: missing; run `npm ci` (the Makefile does)")
        config.extra["polyfills"] = [IFRAME_WORKER if "unpkg.com/iframe-worker" in str(u) else u for u in polyfills]
        _state["iframe_worker"] = shim
    else:
        _state.pop("iframe_worker", None)


def on_files(files: Files, config: MkDocsConfig, **_) -> Files:
    """Term pages, game indexes, the resolver's index and wheel, and Pyodide: generated in memory."""
    glossary: Glossary = _state["glossary"]
    content: SiteContent = build_site(
        glossary, _state["lang"], config.site_url or "/", _state["pyodide_dir"], short_links=config.use_directory_urls,
        pdfs=True)
    _state["pdfs"] = _start_pdfs(glossary, content.mentions)
    for path, markdown in content.pages.items():
        files.append(File.generated(config, path, content=markdown))
    for path, data in content.assets.items():
        files.append(File.generated(config, path, content=data))
    if "iframe_worker" in _state:
        files.append(File.generated(config, IFRAME_WORKER, abs_src_path=str(_state["iframe_worker"])))
    for name in PYODIDE_FILES:
        files.append(File.generated(config, _state["pyodide_dir"] + name, abs_src_path=str(_state["pyodide"] / name)))
    for game_id in glossary.games:  # known to MkDocs now (links to them validate); written in on_post_build
        files.append(File.generated(config, f"pdf/{game_id}.pdf", content=b""))
    return files


def _start_pdfs(glossary: Glossary, mentions: dict):
    """Each game's PDF, printed by Chromium in the background while MkDocs renders the pages (`mkdocs serve`
    reprints only changed games). A missing Chromium fails the build in on_post_build, with the way to fix it."""
    from codex.pdf import print_in_background

    return print_in_background(glossary, _state["lang"], reuse=True, mentions=mentions)  # mentions found once


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files, **_) -> Navigation:
    """The navigation lists the home page, each game's index and the hand-written pages — not every term."""
    glossary: Glossary = _state["glossary"]
    game_ids = set(glossary.games)
    keep = []
    for item in nav.items:
        if getattr(item, "file", None) is not None:
            keep.append(item)
        elif item.title and item.children:
            # MkDocs made a section per game folder: keep only its index page, titled with the game's name.
            index = next((c for c in item.children if getattr(c, "file", None) and c.file.src_uri.endswith("/index.md")), None)
            game = index.file.src_uri.split("/")[0] if index else None
            if game in game_ids:
                index.title = html.escape(glossary.games[game].name[_state["lang"]])  # the theme prints it raw
                index.parent = None
                keep.append(index)
    resolver = [p for p in keep if p.file.src_uri == "resolver.md"]
    ordered = [p for p in keep if p not in resolver] + resolver
    nav.items = ordered
    nav.pages = ordered
    for page in ordered:
        page.parent = None
    return nav


def on_page_markdown(markdown: str, page: Page, **_) -> str:
    """The home page's list of games comes from the glossary."""
    if GAMES_MARKER in markdown:
        glossary: Glossary = _state["glossary"]
        markdown = markdown.replace(GAMES_MARKER, games_list(list(glossary.games.values()), _state["lang"]))
    return markdown


def on_post_page(output: str, page: Page, **_) -> str:
    """Keep each page's inline scripts for the Content-Security-Policy hashes (cheaper than re-reading site/)."""
    _state["script_hashes"].update(inline_script_hashes([output]))
    return output


def on_post_build(config: MkDocsConfig, **_) -> None:
    """The PDFs printed in the background; Netlify's `_headers`, with the CSP computed from the pages' inline scripts."""
    if _state.get("pdfs") is not None:
        try:
            printed = _state.pop("pdfs").result()
        except Exception as error:  # noqa: BLE001 - Chromium/Playwright failures become one line, not a traceback
            first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise PluginError(f"printing the PDFs failed: {first_line}") from None
        for game_id, data in printed.items():
            path = Path(config.site_dir) / "pdf" / f"{game_id}.pdf"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    hashes = set(_state["script_hashes"])
    for name in ("404.html",):  # rendered outside on_post_page
        path = Path(config.site_dir) / name
        if path.is_file():
            hashes |= set(inline_script_hashes([path.read_text(encoding="utf-8")]))
    (Path(config.site_dir) / "_headers").write_text(headers_file(sorted(hashes)), encoding="utf-8")
    _rewrite_as_utf8(Path(config.site_dir) / "search" / "search_index.json")
    _state["script_hashes"] = set()


def _rewrite_as_utf8(path: Path) -> None:
    """The search plugin writes Cyrillic as \\uXXXX escapes (6 bytes a letter): UTF-8 takes 2."""
    if path.is_file():
        data = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def on_serve(server, config: MkDocsConfig, builder, **_):
    """`mkdocs serve` rebuilds when a glossary file or the codex package changes."""
    root = _root(config)
    server.watch(str(root / "glossary"))
    server.watch(str(root / "hooks"))
    return server
