"""codex.offline without a browser: which files the service worker saves, the split by game, the limits, the
worker's build data, the web app manifest; and the real built site within its budget."""
from __future__ import annotations

import gzip
import json
import random
import re
from pathlib import Path

import pytest

from codex import offline
from codex.offline import Limits, game_of, plan, saved_ahead, url_of
from conftest import png_size

GAMES = ("mage-wars", "dnd-miniatures", "keyforge")
KB = 1024


@pytest.mark.parametrize("path, saved", [
    ("index.html", True), ("404.html", True), ("linker/index.html", True), ("sitemap.xml", True),
    ("mage-wars/aegis/index.html", True), ("t/mage-wars/egida/index.html", True),
    ("search/search_index.json", True), ("search/mage-wars/0.json", True),
    ("assets/javascripts/bundle.a5f9d56c.min.js", True), ("assets/stylesheets/main.57a0d79d.min.css", True),
    ("assets/codex/labels.js", True), ("manifest.webmanifest", True), ("assets/images/icons/icon-192.png", True),
    ("assets/javascripts/vendor/workbox-window.prod.mjs", True),
    # saved on first use, or never
    ("pdf/mage-wars.pdf", False), ("assets/pyodide/314.0.7/pyodide.asm.wasm", False),
    ("assets/pyodide/314.0.7/pyodide-lock.json", False), ("assets/codex/codex-0.2.0-py3-none-any.whl", False),
    ("assets/codex/mage-wars.json", False), ("assets/codex/manifest.json", False),
    ("_headers", False), ("_redirects", False), ("sitemap.xml.gz", False), ("sw.js", False),
    ("assets/workbox/7.4.1/workbox-core.prod.js", False), ("assets/offline/mage-wars.0123456789abcdef.json", False),
    ("assets/javascripts/bundle.a5f9d56c.min.js.map", False),
])
def test_what_is_saved_ahead(path, saved):
    assert saved_ahead(path, ("ru", "en")) is saved


def test_only_the_search_languages_the_index_names_are_saved():
    langs = offline.search_languages(json.dumps({"config": {"lang": ["ru", "en"]}, "docs": []}))
    assert langs == ("ru", "en")
    lunr = "assets/javascripts/lunr/"
    wanted = {f"{lunr}min/lunr.ru.min.js", f"{lunr}min/lunr.multi.min.js", f"{lunr}min/lunr.stemmer.support.min.js"}
    others = {f"{lunr}min/lunr.de.min.js", f"{lunr}min/lunr.en.min.js", f"{lunr}wordcut.js", f"{lunr}tinyseg.js"}
    assert {p for p in wanted | others if saved_ahead(p, langs)} == wanted
    assert saved_ahead(f"{lunr}tinyseg.js", ("ja",)) and saved_ahead(f"{lunr}wordcut.js", ("th",))
    # Without Material's index (another search engine), none of its language files is ever loaded.
    assert offline.search_languages(None) is None
    assert not any(saved_ahead(p, None) for p in wanted)


def test_with_codex_search_materials_worker_and_lunr_are_not_saved():
    """codex.search's index (config.codex) means the pages name our worker: Material's and lunr's never load."""
    langs = offline.search_languages(json.dumps({"config": {"lang": ["ru", "en"], "codex": {"version": 1}}, "docs": []}))
    assert langs is None
    assert not offline.saved_ahead("assets/javascripts/workers/search.a7633da7.min.js", langs)
    assert not offline.saved_ahead("assets/javascripts/lunr/min/lunr.ru.min.js", langs)
    assert offline.saved_ahead("assets/javascripts/search-worker.js", langs)
    assert offline.saved_ahead("assets/javascripts/workers/search.a7633da7.min.js", ("ru", "en"))


@pytest.mark.parametrize("path, game", [
    ("mage-wars/aegis/index.html", "mage-wars"), ("mage-wars/index.html", "mage-wars"),
    ("t/dnd-miniatures/smite/index.html", "dnd-miniatures"), ("search/keyforge.json", "keyforge"),
    ("search/keyforge/3.json", "keyforge"), ("mage-wars/keyforge/index.html", "mage-wars"),  # the first folder
    ("index.html", None), ("search/search_index.json", None), ("assets/javascripts/bundle.js", None),
    ("t/index.html", None), ("mage-warsx/index.html", None),
])


def test_the_game_a_file_belongs_to(path, game):
    assert game_of(path, GAMES) == game


def test_urls_are_what_pages_link_to():
    assert url_of("index.html") == "./"
    assert url_of("mage-wars/aegis/index.html") == "mage-wars/aegis/"
    assert url_of("404.html") == "404.html"
    assert url_of("assets/codex/labels.js") == "assets/codex/labels.js"
    assert url_of("mage-wars/aegis.html", directory_urls=False) == "mage-wars/aegis.html"


def test_gzip_size_is_what_a_host_sends():
    data = ("Эгида — все атаки против этого объекта. " * 300).encode()
    assert offline.gzip_size(data) == len(gzip.compress(data, 6, mtime=0))


# --- the split and the limits, on a site made in memory ------------------------------------------------------------


def _noise(size: int, seed: int) -> bytes:
    """Incompressible bytes: gzip makes them slightly larger, so a file's gzip size is known in advance."""
    return random.Random(seed).randbytes(size)


def _site(sizes: dict[str, int]) -> dict[str, bytes]:
    """A built site in memory: `game -> KB of pages` (20 pages each), a core, and files never saved ahead."""
    files = {"index.html": _noise(10 * KB, 1), "404.html": _noise(5 * KB, 2), "assets/app.js": _noise(30 * KB, 3),
             "pdf/big.pdf": _noise(200 * KB, 4), "assets/codex/big.json": _noise(50 * KB, 5),
             "assets/pyodide/1.0/pyodide.asm.wasm": _noise(300 * KB, 6), "_headers": b"/*\n"}
    for n, (game, kb) in enumerate(sizes.items()):
        for i in range(20):
            files[f"{game}/term-{i:02}/index.html"] = _noise(kb * KB // 20, 100 * n + i)
    return files


def _plan(files: dict[str, bytes], limits: Limits = Limits(), read: dict[str, int] | None = None,
          exact: bool = False) -> offline.Plan:
    def reader(path: str) -> bytes:
        if read is not None:
            read[path] = read.get(path, 0) + 1
        return files[path]
    return plan(files, reader, GAMES, limits=limits, search_langs=("ru", "en"), pyodide_dir="assets/pyodide/1.0/",
                exact=exact)


def test_small_games_are_saved_with_the_core():
    files = _site({"mage-wars": 100, "dnd-miniatures": 60, "keyforge": 20})
    result = _plan(files)
    assert result.automatic == list(GAMES) and result.optional == []
    assert {e.path for e in result.core.entries} == {"index.html", "404.html", "assets/app.js"}
    assert len(result.precache) == 3 + 60
    for part in [result.core, *result.games.values()]:
        assert part.measured
        assert part.gzip == sum(offline.gzip_size(files[e.path]) for e in part.entries)
    assert result.automatic_gzip == result.core.gzip + sum(p.gzip for p in result.games.values())


def test_a_game_over_the_game_limit_is_offered_per_game_and_measured_only_to_the_limit():
    files = _site({"mage-wars": 400, "dnd-miniatures": 60, "keyforge": 20})
    read: dict[str, int] = {}
    result = _plan(files, Limits(game=100 * KB, total=10 * offline.MB), read)
    assert result.optional == ["mage-wars"] and result.automatic == ["dnd-miniatures", "keyforge"]
    big = result.games["mage-wars"]
    assert not big.measured
    measured = [e for e in big.entries if e.gzip is not None]
    assert 5 <= len(measured) < 20  # gzip stopped soon after the limit (20 KB files, a 100 KB limit)
    exact = sum(offline.gzip_size(files[e.path]) for e in big.entries)
    assert abs(big.gzip - exact) / exact < 0.01  # the estimate for the rest, from the measured ratio
    assert all(read[path] == 1 for path in read)  # each file read once
    assert "pdf/big.pdf" in read  # first-use files are hashed for their cache's name...
    assert "assets/pyodide/1.0/pyodide.asm.wasm" not in read  # ...except the versioned runtime, named by its folder
    assert all(not e.path.startswith("mage-wars/") for e in result.precache)


def test_a_large_part_is_estimated_from_a_sample_of_its_files():
    """Pages of a game are alike: one in 8 measured (after the first 64, and every large file) is enough."""
    text = "Эгида: все атаки против этого объекта вычитают X кубиков. Aegis: all attacks subtract X dice. "
    rng = random.Random(7)
    files = {"index.html": b"home"}
    for i in range(600):  # pages of varying length and content, compressible like real ones
        words = text.split()
        rng.shuffle(words)
        files[f"keyforge/term-{i:03}/index.html"] = (" ".join(words) * rng.randint(20, 60) + str(i)).encode()
    files["keyforge/big/index.html"] = _noise(100 * KB, 9)  # large and incompressible: measured, not estimated
    sampled = _plan(files).games["keyforge"]
    exact = _plan(files, exact=True).games["keyforge"]
    assert exact.measured and not sampled.measured
    measured = [e for e in sampled.entries if e.gzip is not None]
    assert 64 + 40 < len(measured) < 64 + 130  # about one in 8 of the rest
    assert any(e.path == "keyforge/big/index.html" and e.gzip for e in measured)
    assert abs(sampled.gzip - exact.gzip) / exact.gzip < 0.03
    assert [e.revision for e in sampled.entries] == [e.revision for e in exact.entries]


def test_past_the_total_limit_the_largest_automatic_games_become_optional():
    files = _site({"mage-wars": 100, "dnd-miniatures": 80, "keyforge": 20})
    core = _plan(files).core.gzip
    result = _plan(files, Limits(game=offline.MB, total=core + 110 * KB))
    assert result.optional == ["mage-wars"] and result.automatic == ["dnd-miniatures", "keyforge"]
    assert result.automatic_gzip <= core + 110 * KB
    result = _plan(files, Limits(game=offline.MB, total=core + 50 * KB))
    assert result.optional == ["mage-wars", "dnd-miniatures"] and result.automatic == ["keyforge"]
    result = _plan(files, Limits(game=offline.MB, total=core))  # the core alone fills it: every game optional
    assert result.optional == list(GAMES) and result.automatic == []


def test_the_version_follows_the_content():
    files = _site({"mage-wars": 100, "dnd-miniatures": 60, "keyforge": 20})
    first = _plan(files)
    assert _plan(dict(files)).version == first.version  # the same build, the same version: no update
    for changed in ("mage-wars/term-03/index.html", "assets/app.js", "pdf/big.pdf", "assets/codex/big.json"):
        other = dict(files)
        other[changed] = other[changed] + b" "
        assert _plan(other).version != first.version, changed
    other = dict(files, **{"pdf/big.pdf": b"new"})
    again = _plan(other)
    assert again.runtime["pdf/"] != first.runtime["pdf/"]  # the PDFs' cache gets a new name...
    assert again.runtime["assets/codex/"] == first.runtime["assets/codex/"]  # ...the linker's keeps its own
    assert again.runtime["assets/pyodide/1.0/"] == "pyodide-1.0"


def test_an_optional_games_list_is_named_by_its_content():
    files = _site({"mage-wars": 400, "dnd-miniatures": 60, "keyforge": 20})
    result = _plan(files, Limits(game=100 * KB))
    path = result.game_list_path("mage-wars")
    assert re.fullmatch(r"assets/offline/mage-wars\.[0-9a-f]{16}\.json", path)
    written = offline.outputs(result, "const BUILD = /* codex:build */ {};\n", ["assets/workbox/7/core.js"])
    assert set(written) == {"sw.js", path}
    listed = json.loads(written[path])
    assert [e["url"] for e in listed] == [f"mage-wars/term-{i:02}/" for i in range(20)]
    other = dict(files, **{"mage-wars/term-05/index.html": b"changed"})
    assert _plan(other, Limits(game=100 * KB)).game_list_path("mage-wars") != path


def test_the_worker_gets_the_builds_data_in_place_of_its_marker():
    files = _site({"mage-wars": 400, "dnd-miniatures": 60, "keyforge": 20})
    files["keyforge/evil/index.html"] = b"</script><script>alert(1)</script>"
    result = _plan(files, Limits(game=100 * KB))
    source = "// worker\nconst BUILD = /* codex:build */ {};\nimportScripts(...BUILD.workbox);\n"
    script = offline.worker_script(source, offline.worker_build(result, ["assets/workbox/7/core.js"]))
    assert "codex:build" not in script and "</script>" not in script
    build = json.loads(re.search(r"const BUILD = (\{.*\});\n", script).group(1))
    assert build["version"] == result.version
    assert [e["url"] for e in build["precache"]] == [e.url for e in result.precache]
    assert build["games"]["mage-wars"] == {
        "automatic": False, "files": 20, "bytes": result.games["mage-wars"].gzip,
        "cache": f"game-mage-wars-{result.games['mage-wars'].digest()}", "list": result.game_list_path("mage-wars")}
    assert build["games"]["keyforge"]["automatic"] is True and "list" not in build["games"]["keyforge"]
    assert build["fallback"] == "404.html" and build["ignore"] == ["^.*$"]
    assert {r["prefix"] for r in build["runtime"]} == {"assets/pyodide/1.0/", "assets/codex/", "pdf/"}
    with pytest.raises(ValueError):
        offline.worker_script("no marker here", build)


def test_summary_reports_every_part():
    result = _plan(_site({"mage-wars": 400, "dnd-miniatures": 60, "keyforge": 20}), Limits(game=100 * KB))
    figures = offline.summary(result)
    assert figures["optional"] == ["mage-wars"]
    assert figures["games"]["mage-wars"]["files"] == 20 and figures["games"]["mage-wars"]["gzip_exact"] is False
    assert figures["automatic_gzip"] == result.automatic_gzip
    assert figures["automatic_files"] == 3 + 40


# --- the web app manifest ------------------------------------------------------------------------------------------


def test_web_manifest_is_installable_under_a_sub_path_too():
    manifest = offline.web_manifest("Кодекс правил · Rules Codex", "Кодекс", "A glossary", "ru", "#7e56c2", "#fff")
    assert manifest["start_url"] == manifest["scope"] == "./"  # relative to the manifest
    assert "id" not in manifest  # an id resolves against the origin: the start_url (the folder) is the app's id
    assert manifest["display"] == "standalone"
    assert manifest["name"] == "Кодекс правил · Rules Codex" and manifest["short_name"] == "Кодекс"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes
    assert all(not icon["src"].startswith(("/", "http")) for icon in manifest["icons"])


def test_the_committed_icons_have_the_sizes_the_manifest_names(root):
    for icon in offline.ICONS:
        data = (root / "docs" / icon.path).read_bytes()
        if icon.size:
            assert png_size(data) == (icon.size, icon.size), icon.path
        else:
            assert data.lstrip().startswith(b"<svg"), icon.path
    # The maskable icons' background is the logo's, which is the theme colour the manifest gives.
    logo = (root / "docs" / offline.LOGO).read_text(encoding="utf-8")
    assert re.search(r'<rect\b[^>]*fill="#7e56c2"', logo)


def test_theme_colours_come_from_materials_own_palette():
    import material

    css = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
    palette = next(css.glob("palette.*.min.css")).read_text(encoding="utf-8")
    main = next(css.glob("main.*.min.css")).read_text(encoding="utf-8")
    assert offline.css_colour(palette, "[data-md-color-primary=deep-purple]", "--md-primary-fg-color") == "#7e56c2"
    assert offline.css_colour(palette, "[data-md-color-primary=indigo]", "--md-primary-fg-color") == "#4051b5"
    assert offline.css_colour(main, "[data-md-color-scheme=default]", "--md-default-bg-color") == "#fff"
    assert offline.css_colour("a{--x:#123456}", "b", "--x") is None
    assert offline.css_colour("a{--x--light:#111;--x:#222}", "a", "--x") == "#222"


# --- the real site (built once per session by conftest) -----------------------------------------------------------

pytest_slow = pytest.mark.slow


def _build_data(site: Path) -> dict:
    script = (site / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const BUILD = (\{.*?\});\n", script).group(1))


@pytest_slow
def test_the_real_glossary_is_saved_whole_within_3_mb(built_site, glossary):
    build = _build_data(built_site)
    assert all(info["automatic"] for info in build["games"].values())
    assert set(build["games"]) == set(glossary.games)
    listed = {e["url"] for e in build["precache"]}
    for game in glossary.games.values():  # every term page, game index and short link
        assert f"{game.id}/" in listed
        assert {f"{game.id}/{t}/" for t in game.terms} <= listed
    shorts = {p.parent.relative_to(built_site).as_posix() + "/" for p in (built_site / "t").rglob("index.html")}
    assert shorts and shorts <= listed
    assert {"./", "404.html", "linker/", "search/search_index.json", "assets/codex/labels.js"} <= listed
    assert not any(u.startswith(("pdf/", "assets/pyodide/")) or u.endswith((".whl", ".map")) for u in listed)
    paths = {e["url"]: (e["url"] + "index.html" if e["url"].endswith("/") else e["url"]) for e in build["precache"]}
    paths["./"] = "index.html"
    sent = sum(offline.gzip_size((built_site / path).read_bytes()) for path in paths.values())
    assert sent <= 3 * offline.MB, f"{sent / offline.MB:.2f} MB"
    for entry in build["precache"]:  # every revision is the file's content as built
        assert entry["revision"] == offline.revision((built_site / paths[entry["url"]]).read_bytes()), entry["url"]


@pytest_slow
def test_manifest_and_head_links_in_the_built_site(built_site):
    manifest = json.loads((built_site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["theme_color"] == "#7e56c2" and manifest["background_color"] == "#fff"
    for icon in manifest["icons"]:
        assert (built_site / icon["src"]).is_file()
    page = (built_site / "mage-wars" / "aegis" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="../../manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#7e56c2">' in page
    assert 'assets/images/logo.svg' in page  # the logo in the header and as favicon
    assert (built_site / "assets" / "workbox").is_dir()


@pytest_slow
def test_the_worker_and_manifest_headers(built_site):
    from site_server import parse_headers

    rules = parse_headers((built_site / "_headers").read_text(encoding="utf-8"))

    def headers_for(path: str) -> dict[str, str]:
        merged: dict[str, str] = {}
        for pattern, values in rules:
            if pattern.match(path):
                merged.update(values)
        return merged

    worker = headers_for("/sw.js")
    assert worker["Cache-Control"] == "no-cache"  # browsers must see a new version at once
    csp = dict(part.strip().split(" ", 1) for part in worker["Content-Security-Policy"].split(";"))
    assert csp["worker-src"] == "'self'" and "'unsafe-inline'" not in csp["script-src"]
    assert headers_for("/manifest.webmanifest")["Content-Type"] == "application/manifest+json"
    workbox = next((built_site / "assets" / "workbox").iterdir()).name
    assert "immutable" in headers_for(f"/assets/workbox/{workbox}/workbox-core.prod.js")["Cache-Control"]
    assert "Cache-Control" not in headers_for("/mage-wars/aegis/")  # pages: the host's own revalidation
