"""Reading offline: which built files the service worker saves (by rules over the built site, never a list of
names), split into a core part and one part per game; the budget that decides which games are saved
automatically; the worker's build data; and the web app manifest.

Pure: the hooks give it the built site's paths and a reader for their bytes, and write what it returns.
"""
from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .deploy import PYODIDE_DIR, WORKBOX_DIR, WORKER
from .model import Lang
from .webapi import API_DIR

MB = 1024 * 1024
GAME_LIMIT = 5 * MB  # gzip: a game part larger than this is offered per game ("keep this game offline")
TOTAL_LIMIT = 10 * MB  # gzip: the automatic precache's ceiling; past it the largest games become per-game too
# gzip costs the build more than anything else here, so a part's size is estimated from a sample: its first files,
# every large one (an index, a bundle: too heavy to guess), and past those one file in 8, chosen by content hash
# (stable from build to build, unbiased). Past the game limit, one small file in 64 (the game is optional anyway).
SAMPLE_AFTER = 64
SAMPLE_EVERY = 8
WHOLE_ABOVE = 64 * 1024

GAME_LISTS_DIR = "assets/offline/"  # a per-game part's file list, fetched when the reader keeps that game
LINKER_DIR = "assets/codex/"  # the linker's wheel and indexes (and labels.js, which every page loads)
PDF_DIR = "pdf/"
LUNR_DIR = "assets/javascripts/lunr/"  # Material's search languages: only the configured ones are ever loaded
MATERIAL_WORKERS = "assets/javascripts/workers/"  # Material's own search worker: unused when codex.search answers
MATERIAL_SEARCH_INDEX = "search/search_index.json"
# Not saved ahead: host files, the compressed sitemap, source maps, the worker itself and its own scripts (kept
# with its registration), the per-game lists; the linker's runtime and data and the PDFs are saved on first use.
HOST_FILES = frozenset({"_headers", "_redirects", "sitemap.xml.gz", WORKER})
NOT_AHEAD_DIRS = (PDF_DIR, PYODIDE_DIR, WORKBOX_DIR, GAME_LISTS_DIR, API_DIR)  # the API: for other sites
LINKER_DATA = (".whl", ".json", ".zip")  # .zip: the precompiled standard library (codex.stdlib)
# URL parameters ignored when the worker looks a page up: every one. A static host answers the same whatever the
# query, and the site's own links carry some: the language switch (?lang=en|ru), search highlighting (?h=...).
IGNORED_PARAMETERS = (".*",)


# --- which part a built file belongs to ---------------------------------------------------------------------------


def search_languages(search_index: str | None) -> tuple[str, ...] | None:
    """The languages Material's search worker loads, from the built index's config (None: Material's search does not
    run — no index, or codex.search's, whose worker the pages name instead)."""
    if search_index is None:
        return None
    try:
        config = json.loads(search_index).get("config", {})
        if "codex" in config:
            return None
        langs = config.get("lang", [])
    except (ValueError, AttributeError):
        return ()
    return tuple(str(lang) for lang in langs) if isinstance(langs, list) else ()


def _lunr_needed(path: str, languages: tuple[str, ...] | None) -> bool:
    """Material's search worker imports the stemmer support, multi-language support and one file per language,
    plus a segmenter for Japanese (tinyseg) or Hindi/Thai (wordcut): nothing else under lunr/ is ever loaded."""
    if not languages:
        return False
    name = path[len(LUNR_DIR):]
    needed = {"min/lunr.stemmer.support.min.js"}
    needed.update(f"min/lunr.{lang}.min.js" for lang in languages if lang != "en")
    if len(languages) > 1:
        needed.add("min/lunr.multi.min.js")
    if "ja" in languages:
        needed.add("tinyseg.js")
    if {"hi", "th"} & set(languages):
        needed.add("wordcut.js")
    return name in needed


def saved_ahead(path: str, search_langs: tuple[str, ...] | None = None) -> bool:
    """Whether a site-relative file belongs to the precache (a core or game part) rather than to the network or a
    cache filled on first use."""
    if path in HOST_FILES or path.startswith(NOT_AHEAD_DIRS) or path.endswith(".map"):
        return False
    if path.startswith(LINKER_DIR) and path.endswith(LINKER_DATA):
        return False
    if path.startswith(LUNR_DIR):
        return _lunr_needed(path, search_langs)
    if path.startswith(MATERIAL_WORKERS):
        return search_langs is not None
    return True


def game_of(path: str, game_ids: Iterable[str]) -> str | None:
    """The game a file belongs to: the first folder (or the file's own stem) named after a game — its pages
    (`mage-wars/aegis/`), short links (`t/mage-wars/egida/`), and any per-game file another feature adds
    (`search/mage-wars.json`, `search/mage-wars/0.json`). None: the core (home, assets, the whole-site index)."""
    ids = game_ids if isinstance(game_ids, (set, frozenset)) else set(game_ids)
    parts = path.split("/")
    for segment in [*parts[:-1], parts[-1].split(".", 1)[0]]:
        if segment in ids:
            return segment
    return None


def url_of(path: str, directory_urls: bool = True) -> str:
    """The URL pages link to, relative to the site root: `mage-wars/aegis/` for `mage-wars/aegis/index.html`."""
    if path == "index.html":
        return "./"
    if directory_urls and path.endswith("/index.html"):
        return path[: -len("index.html")]
    return path


# --- sizes and revisions ------------------------------------------------------------------------------------------


def revision(data: bytes) -> str:
    """A file's content revision: what tells the worker that a URL's response changed (not a security check:
    SHA-1 because it is the fastest hash here, 64 bits because a collision only matters for the same URL)."""
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()[:16]


def gzip_size(data: bytes) -> int:
    """Bytes on the wire as a host sends the file: gzip at level 6 (header and trailer included)."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    return len(compressor.compress(data)) + len(compressor.flush())


@dataclass(frozen=True)
class Entry:
    path: str  # site-relative file
    url: str  # what the worker requests, relative to the site root
    revision: str
    raw: int
    gzip: int | None  # None: not measured (its part had already passed the game limit)


@dataclass
class Part:
    """The core, or one game's files, with running totals (a part of 20,000 files is summed once, not per file)."""

    name: str
    entries: list[Entry] = field(default_factory=list)
    raw: int = 0
    measured_raw: int = 0  # raw bytes of the entries whose gzip size was measured
    measured_gzip: int = 0
    unmeasured: int = 0  # entries whose gzip size is estimated
    # By size class (the raw size's bit length): [sampled raw, sampled gzip, unmeasured raw]. A 400-byte redirect
    # page compresses far worse than a 20 KB term page, so each class is estimated from its own sample.
    classes: dict[int, list[int]] = field(default_factory=dict)
    over_limit: bool = False  # past its limit: measured no further

    def add(self, entry: Entry) -> None:
        self.entries.append(entry)
        self.raw += entry.raw
        sizes = self.classes.setdefault(entry.raw.bit_length(), [0, 0, 0])
        if entry.gzip is None:
            self.unmeasured += 1
            sizes[2] += entry.raw
            return
        self.measured_raw += entry.raw
        self.measured_gzip += entry.gzip
        sizes[0] += entry.raw
        sizes[1] += entry.gzip

    @property
    def measured(self) -> bool:
        return self.unmeasured == 0

    @property
    def gzip(self) -> int:
        """gzip bytes: exact when every file was measured; else each size class's sample ratio applied to the rest
        of that class (the whole part's ratio for a class without a sample)."""
        if self.measured:
            return self.measured_gzip
        overall = self.measured_gzip / self.measured_raw if self.measured_raw else 1.0
        estimate = 0.0
        for sampled_raw, sampled_gzip, rest in self.classes.values():
            if rest:
                estimate += rest * (sampled_gzip / sampled_raw if sampled_raw else overall)
        return self.measured_gzip + round(estimate)

    def wants_gzip(self, raw: int, revision: str, limit: int | None) -> bool:
        """Whether the next file's gzip size is measured (see SAMPLE_EVERY); `limit` None: measure everything."""
        if limit is None:
            return True
        if not self.over_limit and len(self.entries) % 16 == 0:  # the estimate, looked at every 16 files
            self.over_limit = self.gzip > limit
        pick = int(revision[:4], 16)
        if self.over_limit:  # a sparse sample still, so every kind of file later in the part has its ratio
            return raw < WHOLE_ABOVE and pick % (SAMPLE_EVERY * SAMPLE_EVERY) == 0
        return len(self.entries) < SAMPLE_AFTER or raw >= WHOLE_ABOVE or pick % SAMPLE_EVERY == 0

    def manifest(self) -> list[dict[str, str]]:
        """Workbox's precache entry format."""
        return [{"url": e.url, "revision": e.revision} for e in self.entries]

    def digest(self) -> str:
        return revision(json.dumps(self.manifest(), sort_keys=True).encode())


@dataclass(frozen=True)
class Limits:
    game: int = GAME_LIMIT
    total: int = TOTAL_LIMIT


@dataclass
class Plan:
    """What the worker saves: the core, each game's part, which games are automatic, the first-use caches."""

    core: Part
    games: dict[str, Part]
    automatic: list[str]  # games saved with the core
    optional: list[str]  # games the reader may keep per game
    runtime: dict[str, str]  # site-relative folder -> cache name (content-derived), for files saved on first use

    @property
    def precache(self) -> list[Entry]:
        """Everything saved automatically: the core and the automatic games."""
        return [e for part in [self.core, *(self.games[g] for g in self.automatic)] for e in part.entries]

    @property
    def automatic_gzip(self) -> int:
        return self.core.gzip + sum(self.games[g].gzip for g in self.automatic)

    @property
    def version(self) -> str:
        """The build's offline version: changes whenever any saved or first-use file changes."""
        data = {"precache": [[e.url, e.revision] for e in self.precache],
                "games": {g: self.games[g].digest() for g in self.optional}, "runtime": self.runtime}
        return revision(json.dumps(data, sort_keys=True).encode())

    def game_list_path(self, game: str) -> str:
        """Where an optional game's file list is served: its name carries its content, so it is never stale."""
        return f"{GAME_LISTS_DIR}{game}.{self.games[game].digest()}.json"


def plan(paths: Iterable[str], read: Callable[[str], bytes], game_ids: Iterable[str], *,
         directory_urls: bool = True, limits: Limits = Limits(), search_langs: tuple[str, ...] | None = None,
         pyodide_dir: str = PYODIDE_DIR, exact: bool = False) -> Plan:
    """Split the built site into parts and decide which games are automatic.

    `paths` are the site's files (site-relative, "/"-separated), `read` gives a file's bytes. Every saved file is
    hashed; gzip sizes are estimated from a sample, sparser still once a game passes the game limit (it is offered
    per game either way), so the cost stays bounded however large a glossary grows. `exact`: measure every file
    (the benchmark's figures).
    """
    ids = list(game_ids)
    id_set = frozenset(ids)
    core = Part("core")
    games = {g: Part(g) for g in ids}
    runtime_files: dict[str, list[str]] = {PDF_DIR: [], LINKER_DIR: []}
    for path in sorted(paths):
        if not saved_ahead(path, search_langs):
            folder = PDF_DIR if path.startswith(PDF_DIR) else LINKER_DIR if path.startswith(LINKER_DIR) else None
            if folder is not None:  # saved on first use: their content names their cache
                runtime_files[folder].append(f"{path} {revision(read(path))}")
            continue
        game = game_of(path, id_set)
        part = core if game is None else games[game]
        data = read(path)
        rev = revision(data)
        measure = part.wants_gzip(len(data), rev, None if exact else limits.game if game else limits.total)
        part.add(Entry(path, url_of(path, directory_urls), rev, len(data), gzip_size(data) if measure else None))
    automatic = [g for g in ids if games[g].entries and games[g].gzip <= limits.game]
    optional = [g for g in ids if games[g].entries and g not in automatic]
    total = core.gzip + sum(games[g].gzip for g in automatic)
    for g in sorted(automatic, key=lambda g: -games[g].gzip):  # past the ceiling: the largest games first
        if total <= limits.total:
            break
        automatic.remove(g)
        optional.append(g)
        total -= games[g].gzip
    optional.sort(key=ids.index)
    pyodide_version = pyodide_dir.rstrip("/").rsplit("/", 1)[-1]
    runtime = {
        pyodide_dir: f"pyodide-{pyodide_version}",  # a versioned folder: its name is its content
        LINKER_DIR: "linker-" + revision("\n".join(runtime_files[LINKER_DIR]).encode()),
        PDF_DIR: "pdf-" + revision("\n".join(runtime_files[PDF_DIR]).encode()),
    }
    return Plan(core, games, automatic, optional, runtime)


# --- what the hooks write -----------------------------------------------------------------------------------------

BUILD_MARKER = "/* codex:build */ {}"  # in the worker's source (docs/sw.js): replaced by the build's data

# What `mkdocs serve` serves as the worker: pages there are no app (saved pages would hide the edits), and a worker
# an earlier build installed on the same address is replaced by this one, which deletes the site's caches,
# unregisters itself and reloads the open pages from the server.
RETIRED_WORKER = """// No offline reading on this server (mkdocs serve): remove any worker and cache an earlier build left.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) if (name.startsWith("codex-")) await caches.delete(name);
  await self.registration.unregister();
  for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
})()));
"""


def worker_build(plan: Plan, workbox: list[str]) -> dict[str, Any]:
    """The data the service worker runs on (see docs/sw.js): URLs relative to the site root."""
    return {
        "version": plan.version,
        "workbox": workbox,
        "ignore": [f"^{name}$" for name in IGNORED_PARAMETERS],
        "lists": GAME_LISTS_DIR,
        "precache": [{"url": e.url, "revision": e.revision} for e in plan.precache],
        "fallback": url_of("404.html"),
        "runtime": [{"prefix": folder, "cache": name} for folder, name in plan.runtime.items()],
        "games": {
            g: {"automatic": g in plan.automatic, "files": len(part.entries), "bytes": part.gzip,
                **({"cache": f"game-{g}-{part.digest()}", "list": plan.game_list_path(g)} if g in plan.optional else {})}
            for g, part in plan.games.items() if part.entries
        },
    }


def worker_script(source: str, build: dict[str, Any]) -> str:
    """The worker's source with the build's data in place of its marker (the file's bytes change with the build,
    which is how browsers learn that there is a new version)."""
    if source.count(BUILD_MARKER) != 1:
        raise ValueError(f"the service worker's source must contain {BUILD_MARKER!r} exactly once")
    data = json.dumps(build, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return source.replace(BUILD_MARKER, data.replace("</", "<\\/"))


def outputs(plan: Plan, source: str, workbox: list[str]) -> dict[str, bytes]:
    """Site-relative path -> bytes: the worker and each optional game's list."""
    files = {WORKER: worker_script(source, worker_build(plan, workbox)).encode()}
    for g in plan.optional:
        files[plan.game_list_path(g)] = json.dumps(plan.games[g].manifest(), separators=(",", ":")).encode()
    return files


def summary(plan: Plan) -> dict[str, Any]:
    """The figures a person (or the benchmark) reads: files, raw and gzip bytes per part, automatic and optional."""
    def sizes(part: Part) -> dict[str, Any]:
        return {"files": len(part.entries), "raw": part.raw, "gzip": part.gzip, "gzip_exact": part.measured}
    return {
        "core": sizes(plan.core),
        "games": {g: sizes(p) for g, p in plan.games.items() if p.entries},
        "automatic": list(plan.automatic),
        "optional": list(plan.optional),
        "automatic_files": len(plan.precache),
        "automatic_gzip": plan.automatic_gzip,
    }


# --- the web app manifest -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Icon:
    path: str  # docs-relative (the same path in the site)
    size: int  # pixels a side; 0 for the SVG (any size)
    purpose: str  # "any" (drawn as is), "maskable" (full bleed, drawing in the safe zone), "apple" (iOS home screen)

    @property
    def maskable(self) -> bool:
        return self.purpose != "any"


LOGO = "assets/images/logo.svg"
ICONS = (
    Icon(LOGO, 0, "any"),
    Icon("assets/images/icons/icon-192.png", 192, "any"),
    Icon("assets/images/icons/icon-512.png", 512, "any"),
    Icon("assets/images/icons/maskable-192.png", 192, "maskable"),
    Icon("assets/images/icons/maskable-512.png", 512, "maskable"),
    Icon("assets/images/icons/apple-touch-icon.png", 180, "apple"),
)
APPLE_ICON = next(icon.path for icon in ICONS if icon.purpose == "apple")


def css_colour(css: str, selector: str, prop: str) -> str | None:
    """A colour a stylesheet gives a custom property in the first rule whose selector contains `selector`:
    how the manifest takes its colours from the theme's palette rather than from a copy of them."""
    pattern = re.compile(r"([^{}]*)\{([^{}]*)\}")
    for rule in pattern.finditer(css):
        if selector in rule.group(1):
            value = re.search(re.escape(prop) + r"\s*:\s*(#[0-9a-fA-F]{3,8})\b", rule.group(2))
            if value:
                return value.group(1).lower()
    return None


def web_manifest(name: str, short_name: str, description: str, lang: Lang, theme_color: str,
                 background_color: str) -> dict[str, Any]:
    """The manifest browsers install the site from: every URL relative to it (at the site root), so the app works
    under a sub-path too."""
    icons: list[dict[str, str]] = []
    for icon in ICONS:
        if icon.purpose == "apple":
            continue
        kind = "image/svg+xml" if icon.path.endswith(".svg") else "image/png"
        size = "any" if icon.size == 0 else f"{icon.size}x{icon.size}"
        icons.append({"src": icon.path, "sizes": size, "type": kind, "purpose": icon.purpose})
    # No "id": it would resolve against the origin, so copies under two sub-paths would be one app; without it the
    # app's id is its start_url, which follows the folder the site is served from.
    return {
        "name": name,
        "short_name": short_name,
        "description": description,
        "lang": lang,
        "dir": "ltr",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": theme_color,
        "background_color": background_color,
        "categories": ["games", "reference"],
        "icons": icons,
    }
