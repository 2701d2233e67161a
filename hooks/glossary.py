"""MkDocs hooks: validate glossary/, add the generated pages and files, serve the vendored browser runtimes.

Only event wiring and I/O live here; everything else is the `codex` package beside this file. The build's state
is one typed object, made in on_config (before MkDocs touches site/) and filled as the events run.
"""
from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc
from markupsafe import Markup

from codex import offline, search, stdlib, webapi
from codex.check import load
from codex.chrome import MATERIAL_CHROME, ChromeRule, description_tag, footer_html, palette_rules, title_tag
from codex.deploy import PYODIDE_DIR, WEB_MANIFEST, WORKBOX_DIR, WORKER, headers_file, inline_script_hashes
from codex.labels import LABELS, LANGS, MATERIAL_KEYS, both, l10n_attrs, other
from codex.model import Glossary, GlossaryError, Lang
from codex.pages import GeneratedPage, games_list
from codex.settings import Settings, SettingsError, from_config
from codex.site import NavigationError, SiteContent, build_site, front_matter, nav_labels, navigation
from codex.site_pages import home_page, linker_page
from codex.embed_page import embed_page, linker_extra

if TYPE_CHECKING:
    from codex.pdf import Printing

log = get_plugin_logger(__name__)

# The five files Pyodide boots from (without the lock file it hangs), from the npm package pinned in package.json.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
IFRAME_WORKER = "assets/javascripts/vendor/iframe-worker-shim.js"
GAMES_MARKER = "<!-- codex:games -->"
# A hand-written page made of labels (codex.site_pages): the marker in its Markdown is replaced by that HTML.
OWN_PAGES = {"<!-- codex:home -->": "home", "<!-- codex:linker -->": "linker", "<!-- codex:embed -->": "embed"}
# The service worker's Workbox modules (npm, pinned in package.json; each file defines self.workbox.<module>, in
# this order), and workbox-window for the pages (docs/assets/javascripts/offline.js imports it).
WORKBOX_MODULES = ("core", "routing", "strategies", "precaching", "cacheable-response", "range-requests")
WORKBOX_WINDOW = "assets/javascripts/vendor/workbox-window.prod.mjs"


@dataclass
class OfflineApp:
    """The installable, offline-reading site (absent from the offline copy: file:// runs no service worker)."""

    worker_source: Path  # docs/sw.js, filled with the build's data in on_post_build
    workbox: dict[str, Path]  # site path -> npm file
    manifest: dict[str, Any]  # the web app manifest


@dataclass
class BuildState:
    """Everything the hooks share between events, for one build."""

    settings: Settings
    glossary: Glossary
    pyodide_source: Path  # node_modules/pyodide
    pyodide_dir: str  # where the site serves it: a versioned folder, so hosts may cache it as immutable
    iframe_worker: Path | None  # the offline copy's worker shim, vendored from npm (None: not the offline copy)
    material: dict[str, dict[str, str]]  # Material's own strings in both languages, as "material:<key>"
    chrome: list[ChromeRule]  # where i18n.js puts Material's chrome in the reader's language (codex.chrome)
    nav_keys: dict[str, str]  # hand-written page -> the label key of its title (mkdocs.yml's nav)
    own_pages: dict[str, tuple[str, GeneratedPage]] = field(default_factory=dict)  # page -> (marker, its HTML)
    app: OfflineApp | None = None  # None in the offline copy and under `mkdocs serve`
    content: SiteContent | None = None
    pdfs: Printing | None = None  # the PDFs printing in the background (codex.pdf)
    script_hashes: set[str] = field(default_factory=set)


@dataclass
class Hooks:
    """The hooks' only module state: the command MkDocs runs and the current build's state."""

    command: str | None = None  # "build", "serve", "gh-deploy": from on_startup (None when MkDocs is driven directly)
    build: BuildState | None = None  # made in on_config, anew for each build (each rebuild under `mkdocs serve`)


_hooks = Hooks()


def _current() -> BuildState:
    if _hooks.build is None:  # MkDocs calls on_config first; anything else is a programming error
        raise PluginError("codex hooks: on_config has not run")
    return _hooks.build


def on_startup(*, command: str, dirty: bool) -> None:
    """Remember the command: under `mkdocs serve` the site is no app, or a worker would serve saved pages while
    they are being edited."""
    _hooks.command = command


def on_shutdown() -> None:
    """MkDocs is ending (a build's end, or Ctrl-C under `mkdocs serve`): stop a PDF child still printing."""
    _cancel_printing()


def _cancel_printing() -> None:
    if _hooks.build is not None and _hooks.build.pdfs is not None:
        _hooks.build.pdfs.cancel()
        _hooks.build.pdfs = None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Validate before MkDocs touches site/: a broken glossary stops the build and leaves the old site intact."""
    _cancel_printing()  # a rebuild under `mkdocs serve`: the previous build's PDFs are stale
    try:
        settings = from_config(config)
    except SettingsError as error:
        raise PluginError(str(error)) from None
    try:
        glossary = load(settings.glossary_dir, settings.root)
    except GlossaryError as error:
        for problem in error.problems:
            log.error(str(problem))
        count = len(error.problems)
        raise PluginError(f"glossary/ has {count} problem{'s' * (count != 1)}; the first: {error.problems[0]}") from None
    pyodide = _npm_package(settings.root, "pyodide", PYODIDE_FILES)
    version = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))["version"]
    hand_written = list(config.nav or ["index.md"])
    try:
        nav_keys = nav_labels(hand_written)
    except NavigationError as error:
        raise PluginError(str(error)) from None
    config.nav = navigation(glossary, hand_written)
    lang = settings.language
    config.site_name = f"{LABELS['site_name'][lang]} · {LABELS['site_name'][other(lang)]}"
    chrome = list(MATERIAL_CHROME) + palette_rules(_palette_toggles(config, lang))
    shim = _vendor_offline_shim(config, settings.root)
    app = None if shim is not None or _hooks.command == "serve" else _offline_app(config, settings)
    _hooks.build = BuildState(settings, glossary, pyodide, f"{PYODIDE_DIR}{version}/", shim, _material_labels(config),
                        chrome, nav_keys, app=app)
    return config


def _offline_app(config: MkDocsConfig, settings: Settings) -> OfflineApp:
    """Workbox from npm, the manifest with the theme's colours, the icons made from the logo (tools/make_icons.py)."""
    root = settings.root
    workbox: dict[str, Path] = {}
    version = ""
    for module in WORKBOX_MODULES:
        name = f"workbox-{module}.prod.js"
        folder = _npm_package(root, f"workbox-{module}", (f"build/{name}", "package.json"))
        version = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
        workbox[f"{WORKBOX_DIR}{version}/{name}"] = folder / "build" / name
    window = _npm_package(root, "workbox-window", ("build/workbox-window.prod.mjs",))
    workbox[WORKBOX_WINDOW] = window / "build" / "workbox-window.prod.mjs"
    for path, source in list(workbox.items()):  # their source maps, which the files name (never precached)
        if source.with_name(source.name + ".map").is_file():
            workbox[path + ".map"] = source.with_name(source.name + ".map")
    docs = Path(config.docs_dir)
    missing = [icon.path for icon in offline.ICONS if not (docs / icon.path).is_file()]
    if missing:
        raise PluginError(f"{docs}: missing {', '.join(missing)}; run tools/make_icons.py")
    source = docs / WORKER
    if not source.is_file() or offline.BUILD_MARKER not in source.read_text(encoding="utf-8"):
        raise PluginError(f"{source}: the service worker's source (with {offline.BUILD_MARKER}) is missing")
    primary, background = _theme_colours(config)
    language = settings.language
    manifest = offline.web_manifest(
        name=config.site_name, short_name=LABELS["offline_app_short_name"][language],
        description=LABELS["site_description"][language], lang=language,
        theme_color=primary, background_color=background,
    )
    manifest["share_target"] = webapi.share_target()  # shared text opens the linker with it (?text=)
    return OfflineApp(source, workbox, manifest)


def _theme_colours(config: MkDocsConfig) -> tuple[str, str]:
    """The header's colour (the first palette's primary) and the page background, from the theme's own CSS."""
    palette = config.theme.get("palette") or {}
    first = palette[0] if isinstance(palette, list) and palette else palette if isinstance(palette, dict) else {}
    primary = str(first.get("primary") or "indigo").replace(" ", "-")
    scheme = str(first.get("scheme") or "default")
    found: dict[str, str | None] = {"primary": None, "background": None}
    for folder in config.theme.dirs:
        for css in sorted((Path(folder) / "assets" / "stylesheets").glob("*.min.css")):
            text = css.read_text(encoding="utf-8")
            found["primary"] = found["primary"] or offline.css_colour(
                text, f"[data-md-color-primary={primary}]", "--md-primary-fg-color")
            found["background"] = found["background"] or offline.css_colour(
                text, f"[data-md-color-scheme={scheme}]", "--md-default-bg-color")
    if not found["primary"] or not found["background"]:
        raise PluginError(f"the theme's stylesheets give no colour for primary '{primary}' or scheme '{scheme}'")
    return found["primary"], found["background"]


def _palette_toggles(config: MkDocsConfig, lang: Lang) -> list[str]:
    """mkdocs.yml names each colour-scheme toggle by a label key: the build's language goes in, the key to i18n.js."""
    palette = config.theme.get("palette") or []
    keys = []
    for i, scheme in enumerate([palette] if isinstance(palette, dict) else palette):
        toggle = scheme.get("toggle") or {}
        key = toggle.get("name")
        if key not in LABELS:
            raise PluginError(f"mkdocs.yml: theme.palette[{i}].toggle.name: '{key}' is not a label in hooks/codex/labels.py")
        toggle["name"] = LABELS[key][lang]
        keys.append(key)
    return keys


def _npm_package(root: Path, name: str, files: tuple[str, ...]) -> Path:
    folder = root / "node_modules" / name
    missing = [f for f in files if not (folder / f).is_file()]
    if missing:
        raise PluginError(f"{folder}: missing {', '.join(missing)}; run `npm ci` (the Makefile does)")
    return folder


def _vendor_offline_shim(config: MkDocsConfig, root: Path) -> Path | None:
    """Material's offline plugin loads its file:// worker shim from unpkg.com: serve our pinned copy instead."""
    polyfills = config.extra.get("polyfills") or []
    if not any("unpkg.com/iframe-worker" in str(url) for url in polyfills):
        return None
    shim = _npm_package(root, "iframe-worker", ("shim/index.js",)) / "shim" / "index.js"
    config.extra["polyfills"] = [IFRAME_WORKER if "unpkg.com/iframe-worker" in str(u) else u for u in polyfills]
    return shim


def on_files(files: Files, /, *, config: MkDocsConfig) -> Files:
    """Term pages (not in the navigation), game indexes, the linker's indexes and wheel, Pyodide: made in memory."""
    state = _current()
    settings = state.settings
    content = state.content = build_site(
        state.glossary, settings.site_url, state.pyodide_dir, short_links=settings.directory_urls,
        pdfs=settings.pdf, directory_urls=settings.directory_urls, labels_extra=state.material, chrome=state.chrome,
    )
    if settings.pdf:
        from codex.pdf import print_in_background

        # Typeset in a child process while MkDocs renders the pages (the mentions found once, reused).
        state.pdfs = print_in_background(state.glossary, settings.language, reuse=True, mentions=content.mentions)
    _fast_start(state, content)
    for path, page in content.pages.items():
        in_nav = path.endswith("/index.md")
        files.append(File.generated(config, path, content=front_matter(page),
                                    inclusion=InclusionLevel.INCLUDED if in_nav else InclusionLevel.NOT_IN_NAV))
    for path, data in content.assets.items():
        files.append(File.generated(config, path, content=data))
    _add_web_api(files, config, state)
    worker_source = files.get_file_from_path(WORKER)
    if worker_source is not None:  # the worker's source: on_post_build writes the filled-in worker (not a copy)
        files.remove(worker_source)
    if state.app is not None:
        for path, source in state.app.workbox.items():
            files.append(File.generated(config, path, abs_src_path=str(source)))
        manifest = json.dumps(state.app.manifest, ensure_ascii=False, indent=1)
        files.append(File.generated(config, WEB_MANIFEST, content=manifest))
    if state.iframe_worker is not None:
        files.append(File.generated(config, IFRAME_WORKER, abs_src_path=str(state.iframe_worker)))
    for name in PYODIDE_FILES:
        files.append(File.generated(config, state.pyodide_dir + name, abs_src_path=str(state.pyodide_source / name)))
    if settings.pdf:
        for game_id in state.glossary.games:  # known to MkDocs now (links to them validate); written in on_post_build
            files.append(File.generated(config, f"pdf/{game_id}.pdf", content=b""))
    return files


def _add_web_api(files: Files, config: MkDocsConfig, state: BuildState) -> None:
    """The API for other sites (codex.webapi) and /embed.js, its source's BUILD line filled (the source unserved)."""
    written, cards = webapi.api_files(state.glossary, state.settings.site_url)
    for path, data in written.items():
        files.append(File.generated(config, path, content=data))
    source = files.get_file_from_path(webapi.EMBED_SOURCE)
    if source is None:
        raise PluginError(f"docs/{webapi.EMBED_SOURCE} is missing")
    files.remove(source)
    build = webapi.embed_build(state.glossary, state.settings.site_url, cards)
    try:
        script = webapi.fill_embed(Path(source.abs_src_path or "").read_text(encoding="utf-8"), build)
    except webapi.EmbedSourceError as error:
        raise PluginError(str(error)) from None
    files.append(File.generated(config, webapi.EMBED_SCRIPT, content=script))


def _fast_start(state: BuildState, content: SiteContent) -> None:
    """The linker's precompiled standard library (codex.stdlib), named in its manifest: made by Pyodide under Node."""
    start = time.perf_counter()
    try:
        made = stdlib.build(state.pyodide_source, *stdlib.site_inputs(content.assets), state.settings.site_url,
                            state.settings.root)
    except stdlib.StdlibError as error:
        raise PluginError(str(error)) from None
    log.info(f"linker: {made.name}, {len(made.modules)} modules precompiled, {len(made.data) / 1e6:.2f} MB "
             f"({time.perf_counter() - start:.2f} s)")
    stdlib.attach(content.assets, made)


def _material_labels(config: MkDocsConfig) -> dict[str, dict[str, str]]:
    """Material's strings in both languages, from its own language files (they follow its version)."""
    env = config.theme.get_env()
    translate = {lang: env.get_template(f"partials/languages/{lang}.html").module.t for lang in LANGS}  # type: ignore[attr-defined]
    return {f"material:{key}": {lang: str(translate[lang](key)) for lang in LANGS} for key in MATERIAL_KEYS}


def on_env(env: Any, /, *, config: MkDocsConfig, files: Files) -> Any:
    """Templates draw interface text from codex's labels too (overrides/): in both languages, or in the build's
    (an attribute holds one); the page's <title> and description in both languages (codex.chrome)."""
    state = _current()
    lang = state.settings.language
    table = {**LABELS, **state.material}
    env.globals["codex_both"] = lambda key, tag="span": Markup(both(table[key], tag))
    env.globals["codex_label"] = lambda key, in_lang=None: table[key][in_lang or lang]
    env.globals["codex_attrs"] = lambda **keys: Markup(
        l10n_attrs({name.replace("_", "-"): table[key] for name, key in keys.items()}, lang))
    env.globals["codex_title"] = lambda page: Markup(title_tag(_page_name(page), lang))
    env.globals["codex_description"] = lambda page: Markup(
        description_tag(page.meta.get("codex_description") if page else None, lang))
    env.globals["codex_footer"] = lambda: Markup(footer_html())
    env.globals["codex_oembed"] = lambda page: _oembed_url(page, state.settings.site_url)
    # The linker page's head hands its worker the manifest inline (overrides/main.html): one round trip less.
    env.globals["codex_linker_manifest"] = json.loads(state.content.assets[stdlib.MANIFEST]) if state.content else None
    app = state.app
    env.globals["codex_app"] = None if app is None else {  # overrides/partials/offline-head.html
        "manifest": WEB_MANIFEST, "theme_color": app.manifest["theme_color"], "apple_icon": offline.APPLE_ICON}
    return env


def _oembed_url(page: Page | None, site_url: str) -> str | None:
    """A term page's oEmbed document (codex.webapi), for overrides/main.html's discovery link; None elsewhere."""
    if not page or not page.meta.get("codex_term"):
        return None
    game_id, _, name = page.file.src_uri.partition("/")
    return site_url + webapi.oembed_path(game_id, name.removesuffix(".md"))


def _page_name(page: Page | None) -> dict[str, str] | None:
    """What a page's <title> names in each language (None: the home page, titled by the site's names)."""
    if not page:  # 404.html is rendered without a page
        return LABELS["not_found"]
    if page.is_homepage:
        return None
    if page.meta.get("codex_name"):
        return dict(page.meta["codex_name"])
    key = _current().nav_keys.get(page.file.src_uri)
    if key is not None:
        return LABELS[key]
    text = Markup(page.title or "").striptags()
    return {each: text for each in LANGS}


def on_page_markdown(markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The home page's list of games comes from the glossary; a page made of labels gets its HTML and meta."""
    state = _current()
    if GAMES_MARKER in markdown:
        games = games_list(list(state.glossary.games.values()), page.file.src_uri, state.settings.directory_urls)
        markdown = markdown.replace(GAMES_MARKER, games)
    for marker, kind in OWN_PAGES.items():
        if marker in markdown:
            if kind == "embed":  # the codex on other sites (codex.embed_page)
                made = embed_page(state.glossary.games, state.settings.site_url)
            elif kind == "home":  # overrides/partials/home.html, through the theme's templates
                made = home_page(config.theme.get_env(), list(state.glossary.games.values()), page.file.src_uri,
                                 state.settings.directory_urls, state.settings.language)
            else:  # overrides/partials/linker.html; then the share sheet and the bookmarklet, below its tools
                made = linker_page(config.theme.get_env(), state.settings.language)
                made.html += linker_extra(state.settings.site_url)
            state.own_pages[page.file.src_uri] = (marker, made)
            for key, value in made.meta.items():
                page.meta.setdefault(key, value)
    return markdown


def on_page_content(html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """A generated page's content is the HTML codex made for it (its Markdown holds only front matter); a page
    made of labels gets it in place of its marker."""
    state = _current()
    generated = state.content.pages.get(page.file.src_uri) if state.content else None
    if generated is not None:
        page.toc = get_toc(generated.toc)  # type: ignore[arg-type]
        return generated.html
    own = state.own_pages.pop(page.file.src_uri, None)
    if own is None:
        return html
    marker, made = own
    page.toc = get_toc(made.toc)  # type: ignore[arg-type]
    return html.replace(marker, made.html)


def on_post_page(output: str, /, *, page: Page, config: MkDocsConfig) -> str:
    """Material's search box talks to our search worker; keep each page's inline scripts for the CSP hashes."""
    output = _point_worker(output, page.file.src_uri)  # search: #__config "search" -> our worker (codex.search)
    _current().script_hashes.update(inline_script_hashes([output]))
    return output


@event_priority(-50)  # search: after the search plugin writes its index (0), before the offline plugin reads it (-100)
def on_post_build(*, config: MkDocsConfig) -> None:
    """The PDFs printed in the background; the search index; Netlify's `_headers`, with the CSP computed from the
    pages' inline scripts."""
    state = _current()
    site = Path(config.site_dir)
    if state.pdfs is not None:
        from codex.pdf import PdfError

        future, state.pdfs = state.pdfs, None
        try:
            printed = future.result()
        except PdfError as error:  # an expected failure (Typst, memory): one line; a bug keeps its traceback
            raise PluginError(f"printing the PDFs failed: {error}") from None
        for game_id, data in printed.items():
            path = site / "pdf" / f"{game_id}.pdf"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    _write_search(config, state)
    hashes = set(state.script_hashes)
    not_found = site / "404.html"  # rendered outside on_post_page
    if not_found.is_file():
        hashes.update(inline_script_hashes([not_found.read_text(encoding="utf-8")]))
    (site / "_headers").write_text(headers_file(sorted(hashes)), encoding="utf-8")
    state.script_hashes.clear()
    if state.app is not None:  # last: the worker's precache list hashes every file written above
        _write_offline(site, state, state.app)
    elif _hooks.command == "serve":  # a worker a build once installed on this address removes itself and its caches
        (site / WORKER).write_text(offline.RETIRED_WORKER, encoding="utf-8")


def _write_offline(site: Path, state: BuildState, app: OfflineApp) -> None:
    """The service worker with the build's precache list (core and per-game parts), and each optional game's list."""
    start = time.perf_counter()
    root = str(site)
    paths = [os.path.join(folder, name)[len(root) + 1:].replace(os.sep, "/")  # 30,000 files: no pathlib here
             for folder, _, names in os.walk(root) for name in names]
    index = site / offline.MATERIAL_SEARCH_INDEX
    settings = state.settings
    plan = offline.plan(
        paths, lambda path: _read(os.path.join(root, path)), state.glossary.games, directory_urls=settings.directory_urls,
        limits=offline.Limits(settings.offline_game_bytes, settings.offline_total_bytes),
        search_langs=offline.search_languages(index.read_text(encoding="utf-8") if index.is_file() else None),
        pyodide_dir=state.pyodide_dir,
    )
    workbox = [path for path in app.workbox if path.startswith(WORKBOX_DIR) and path.endswith(".js")]
    for path, data in offline.outputs(plan, app.worker_source.read_text(encoding="utf-8"), workbox).items():
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    figures = offline.summary(plan)
    optional = f"; kept per game on request: {', '.join(plan.optional)}" if plan.optional else ""
    log.info(f"offline: {figures['automatic_files']} files, {figures['automatic_gzip'] / offline.MB:.1f} MB gzip "
             f"saved after the first visit{optional} ({time.perf_counter() - start:.2f} s)")


def _read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


# --- search (codex.search): the index behind Material's search box, written over the search plugin's own -------
def _write_search(config: MkDocsConfig, state: BuildState) -> None:
    """Our search index (all inline in search_index.json when the offline plugin will turn that file into a script
    for file://), in place of the search plugin's; the 404 page (rendered outside on_post_page) gets our worker."""
    if state.content is None:
        raise PluginError("codex hooks: on_files has not run")
    site = Path(config.site_dir)
    material = site / "search" / "search_index.json"
    offline_copy = config.plugins.get("material/offline")
    try:
        index = search.build(state.glossary, state.content.indexes, state.content.mentions,
                             state.settings.directory_urls)
    except ValueError as error:
        raise PluginError(f"{state.settings.glossary_dir}: the search index: {error}") from None
    try:
        written = search.files(index, material.read_text(encoding="utf-8") if material.is_file() else None,
                               inline=bool(offline_copy and offline_copy.config.enabled))
    except ValueError as error:  # the search plugin's index is no JSON
        raise PluginError(f"{material}: {error}") from None
    shutil.rmtree(site / search.DATA_DIR, ignore_errors=True)
    for path, data in written.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(data)
    not_found = site / "404.html"
    if not_found.is_file():
        not_found.write_text(_point_worker(not_found.read_text(encoding="utf-8"), "404.html"), encoding="utf-8")


def _point_worker(html: str, page: str) -> str:
    """search.point_worker, its complaint about a page's #__config as the build's one-line error naming the page."""
    try:
        return search.point_worker(html)
    except ValueError as error:
        raise PluginError(f"{page}: {error}") from None


def on_serve(server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
    """`mkdocs serve` rebuilds when a glossary file or the codex package changes."""
    settings = _current().settings
    server.watch(str(settings.glossary_dir))
    server.watch(str(settings.root / "hooks"))
    return server
