"""The linker's fast start (codex.stdlib, linker-worker.js) in Debian's Chromium against the real built site.

Each way Python can start — the build's precompiled standard library, this browser's memory snapshot, and the
stock boot it falls back to — must link a post exactly as the command line does. The private Pyodide API the
snapshot uses is pinned under Node, so a Pyodide upgrade that changes it fails here, loudly.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

from conftest import ROOT, cli_link  # noqa: E402

BOOT_TIMEOUT = 120_000
LINK_TIMEOUT = 20_000
POST = ("Мой Creature с Aegis 2 получил два жетона Burn.\n\n**Горение** снимается в конце раунда, "
        "а [b]Aegis[/b] нет. > Aegis 3?\n")


def cli_says(text: str, site_url: str, fmt: str = "markdown") -> str:
    """What `python -m codex link` prints for the text, less the line end it adds (the page shows none)."""
    out = cli_link(site_url, text, "--format", fmt)
    return out.removesuffix("\n") if not text.endswith("\n") else out


@pytest.fixture(scope="module")
def expected(site_url) -> str:
    return cli_says(POST, site_url)


@pytest.fixture
def context(browser):
    # No service worker: Playwright's routes see the linker's requests, and every test starts with no caches.
    made = browser.new_context(locale="ru-RU", service_workers="block")
    made.warnings = []  # type: ignore[attr-defined]
    made.on("console", lambda message: made.warnings.append(message.text))  # type: ignore[attr-defined]
    yield made
    made.close()


def _open_and_type(page, url: str, text: str) -> None:
    """Open the linker and type before Python is ready: the text box takes input from the first paint."""
    page.goto(url, wait_until="domcontentloaded")
    box = page.locator("#linker-input")
    box.fill(text)
    assert page.locator("#linker-widget").get_attribute("data-state") != "ready"


def _ready(page) -> dict:
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    return page.evaluate("window.codex.linker.state.marks")


def _output(page, value: str) -> None:
    page.locator("#linker-format").select_option("markdown")
    expect(page.locator("#linker-output")).to_have_value(value, timeout=LINK_TIMEOUT)


def test_the_fast_start_then_the_snapshot_link_a_post_as_the_cli_does(context, site_server, expected):
    page = context.new_page()
    _open_and_type(page, site_server + "linker/", POST)
    marks = _ready(page)
    assert marks["boot"] == "fast", context.warnings
    # codex came precompiled in the stdlib zip: no wheel fetched to start; the wasm compiled as soon as named
    assert not [f for f in marks["fetches"] if f[0].endswith(".whl")], marks["fetches"]
    assert any(f[0].startswith("stdlib-") for f in marks["fetches"]), marks["fetches"]
    assert marks["wasm"] == "early"
    assert marks["start"] < marks["wasm_start"] < marks["wasm_ready"] < marks["python_initialized"] < marks["pyodide_ready"]
    _output(page, expected)  # typed while loading, linked once ready
    page.wait_for_function("() => window.codex.linker.state.snapshot !== undefined", timeout=BOOT_TIMEOUT)
    assert page.evaluate("window.codex.linker.state.snapshot") > 1_000_000, context.warnings

    page.reload(wait_until="domcontentloaded")
    page.locator("#linker-input").fill(POST)
    marks = _ready(page)
    assert marks["boot"] == "snapshot", context.warnings
    _output(page, expected)
    other = "Aegis 1, Burn и Горение"
    page.locator("#linker-input").fill(other)
    _output(page, cli_says(other, site_server))
    assert not [w for w in context.warnings if "codex linker" in w]


# Before any page script: count the linker's workers as they are made, and note when Material's bundle has run
# (the last thing it does is publish window.document$).
WATCH_STARTS = """(() => {
  const made = window.__codexWorkers = [];
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      if (options && options.name === "codex-linker") made.push(performance.now());
    }
  };
  Object.defineProperty(window, "document$", {
    configurable: true,
    set(value) {
      window.__codexBundleRan = performance.now();
      Object.defineProperty(window, "document$", {value, writable: true, configurable: true});
    },
  });
})()"""


def test_the_worker_starts_from_the_head_before_materials_bundle_and_only_once(context, site_server, expected):
    context.add_init_script(WATCH_STARTS)
    page = context.new_page()
    _open_and_type(page, site_server + "linker/", POST)
    marks = _ready(page)
    assert marks["boot"] == "fast", context.warnings
    _output(page, expected)
    made, bundle_ran = page.evaluate("[window.__codexWorkers, window.__codexBundleRan]")
    assert bundle_ran is not None, "Material's bundle never published document$: the test proves nothing"
    assert len(made) == 1, made  # the head's worker, taken by linker-client.js: none of its own
    assert made[0] < bundle_ran, (made, bundle_ran)
    # The head handed it the manifest inline: its first request was Pyodide's, not the manifest's.
    fetched = [f[0] for f in marks["fetches"]]
    assert "pyodide.asm.wasm" in fetched and "manifest.json" not in fetched, fetched
    # ... and its first mark is on the page's clock (the worker's timeOrigin) from the navigation
    assert marks["start"] + marks["origin"] - page.evaluate("performance.timeOrigin") > made[0]
    # Its URL's fragment named Pyodide's files: it asked for them as its module ran, before "init" arrived.
    assert marks["start"] <= marks["prefetch"] < marks["manifest"], marks

    # Away and back by instant navigation: the same worker answers, none is started again.
    page.locator('nav.md-nav--primary a.md-nav__link[href$="mage-wars/"]').first.click()
    page.wait_for_url(site_server + "mage-wars/")
    expect(page.locator("#linker-input")).to_have_count(0)
    page.locator('nav.md-nav--primary a.md-nav__link[href$="linker/"]').click()
    page.wait_for_url(site_server + "linker/")
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    page.locator("#linker-input").fill(POST)
    _output(page, expected)
    assert page.evaluate("window.__codexWorkers.length") == 1
    assert page.evaluate("window.codexLinkerEarly") is None


def test_reached_by_instant_navigation_the_client_starts_the_worker_and_fetches_the_manifest(context, site_server,
                                                                                            expected):
    context.add_init_script(WATCH_STARTS)
    page = context.new_page()
    page.goto(site_server + "mage-wars/")
    page.wait_for_function("() => window.__codexBundleRan !== undefined")
    page.locator('nav.md-nav--primary a.md-nav__link[href$="linker/"]').click()
    page.wait_for_url(site_server + "linker/")
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "ready", timeout=BOOT_TIMEOUT)
    marks = page.evaluate("window.codex.linker.state.marks")
    assert marks["boot"] == "fast", context.warnings
    assert "manifest.json" in [f[0] for f in marks["fetches"]]  # no head script ran: the manifest is fetched
    assert "prefetch" not in marks  # ... nor named Pyodide's files in the worker's URL: start() asked for them
    assert page.evaluate("window.__codexWorkers.length") == 1
    page.locator("#linker-input").fill(POST)
    _output(page, expected)


def test_a_broken_precompiled_stdlib_falls_back_to_the_stock_start(context, site_server, expected):
    context.route("**/assets/codex/stdlib-*.zip", lambda route: route.fulfill(status=200, body=b"not a zip"))
    page = context.new_page()
    _open_and_type(page, site_server + "linker/", POST)
    marks = _ready(page)
    assert marks["boot"] == "stock"
    assert any("the fast start" in w and "ordinary way" in w for w in context.warnings), context.warnings
    assert [f for f in marks["fetches"] if f[0].endswith(".whl")]  # the stock start installs codex from the wheel
    _output(page, expected)


def test_an_early_wasm_compile_that_fails_leaves_it_to_pyodide(context, site_server, expected):
    asked = []

    def wasm(route):  # the worker's early request gets bytes that are no wasm; Pyodide's own, the real file
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(status=200, body=b"not wasm", headers={"Content-Type": "application/wasm"})
        else:
            route.continue_()

    context.route("**/pyodide.asm.wasm", wasm)
    page = context.new_page()
    _open_and_type(page, site_server + "resolver/", POST)
    marks = _ready(page)
    assert marks["boot"] == "fast" and "wasm" not in marks, context.warnings
    assert len(asked) == 2, asked
    assert any("early wasm compile failed" in w for w in context.warnings), context.warnings
    _output(page, expected)


def test_a_missing_precompiled_stdlib_falls_back_to_the_stock_start(context, site_server, expected):
    context.route("**/assets/codex/stdlib-*.zip", lambda route: route.fulfill(status=404, body=b"gone"))
    page = context.new_page()
    _open_and_type(page, site_server + "linker/", POST)
    assert _ready(page)["boot"] == "stock"
    assert any("the fast start" in w for w in context.warnings), context.warnings
    _output(page, expected)


def test_a_snapshot_that_does_not_restore_is_dropped_for_the_fast_start(context, site_server, expected):
    page = context.new_page()
    page.goto(site_server + "linker/")
    assert _ready(page)["boot"] == "fast"
    page.wait_for_function("() => window.codex.linker.state.snapshot > 0", timeout=BOOT_TIMEOUT)
    # The saved snapshot replaced by bytes no Pyodide can restore (a stale or damaged one).
    page.evaluate("""async () => {
        const cache = await caches.open("codex-linker-snapshot");
        const [key] = await cache.keys();
        await cache.put(key, new Response(new Uint8Array(64 * 1024).fill(7)));
    }""")
    page.reload(wait_until="domcontentloaded")
    page.locator("#linker-input").fill(POST)
    assert _ready(page)["boot"] == "fast"
    assert any("saved snapshot did not start" in w for w in context.warnings), context.warnings
    _output(page, expected)


def test_the_build_serves_a_precompiled_stdlib_named_by_its_content(built_site):
    import hashlib

    manifest = json.loads((built_site / "assets" / "codex" / "manifest.json").read_text(encoding="utf-8"))
    data = (built_site / "assets" / "codex" / manifest["stdlib"]).read_bytes()
    assert manifest["stdlib"] == f"stdlib-{hashlib.sha256(data).hexdigest()[:16]}.zip"
    names = zipfile.ZipFile(built_site / "assets" / "codex" / manifest["stdlib"]).namelist()
    assert "json/decoder.pyc" in names and "re/_parser.pyc" in names and "_pyodide/_base.pyc" in names
    # codex itself, precompiled from the wheel's sources: the fast start imports it from here
    assert {"codex/__init__.pyc", "codex/api.pyc", "codex/resolve.pyc", "codex/markup/__init__.pyc"} <= set(names)
    assert manifest["stdlib_codex"] is True
    # only what the browser's linker imports: not the build's side (the glossary's model and its dataclasses,
    # the html module's entity table), which would cost every reader's start
    assert not {"codex/model.pyc", "codex/links.pyc", "html/entities.pyc"} & set(names)
    # nor what Pyodide's bootstrap imports only where it is there (stdlib.mjs's OPTIONAL): asyncio's ssl, and
    # shutil's and zipfile's compressors
    assert not [n for n in names if n in {"ssl.pyc", "bz2.pyc", "lzma.pyc"} or n.startswith("compression/")]
    assert not [n for n in names if n.endswith(".py")]  # nothing left to compile in the browser
    assert len(manifest["snapshot"]) == 20


def test_the_precompiled_stdlib_is_made_the_same_twice_and_checked(built_site, tmp_path):
    """stdlib.mjs, run twice from scratch on the build's wheel and indexes: byte-identical zips (its name, a content
    hash, is stable), each made by a run whose Pyodide, started from the zip alone, answered every sample request
    as the first Pyodide did, and listing exactly what that start imported."""
    sys.path.insert(0, str(ROOT / "hooks"))
    from codex import stdlib

    folder = built_site / "assets" / "codex"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    wheel = (folder / manifest["wheel"]).read_bytes()
    indexes = {g["id"]: (folder / g["index"]).read_text(encoding="utf-8") for g in manifest["games"]}
    made = []
    for run in ("one", "two"):
        stdlib._run(ROOT / "node_modules" / "pyodide", wheel, indexes, manifest["site_url"], tmp_path / run)
        made.append((tmp_path / run / "stdlib.zip").read_bytes())
    assert made[0] == made[1]
    names = zipfile.ZipFile(tmp_path / "one" / "stdlib.zip").namelist()
    listed = json.loads((tmp_path / "one" / "modules.json").read_text(encoding="utf-8"))
    assert [n + "c" for n in listed] == names and "codex/api.py" in listed and "ssl.py" not in listed


NODE_PIN = r"""
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
const indexURL = "%(pyodide)s/";
const made = await loadPyodide({ indexURL, _makeSnapshot: true });
made.runPython("import json; pinned = json.dumps({'answer': 42})");
const snapshot = made.makeMemorySnapshot();
if (!(snapshot instanceof Uint8Array) || snapshot.length < 1e6) throw new Error("makeMemorySnapshot: no snapshot");
const restored = await loadPyodide({ indexURL, _loadSnapshot: snapshot });
console.log(restored.runPython("pinned"));
"""


def test_the_private_snapshot_api_of_the_pinned_pyodide_still_works(tmp_path):
    """linker-worker.js relies on loadPyodide's _makeSnapshot/_loadSnapshot and makeMemorySnapshot (private in
    Pyodide 314). If this fails after an upgrade, the worker's fallback keeps the linker working, but slowly:
    update the worker (or drop the snapshot) before shipping the upgrade."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    pyodide = ROOT / "node_modules" / "pyodide"
    types = (pyodide / "pyodide.d.ts").read_text(encoding="utf-8")
    for declared in ("_makeSnapshot?: boolean", "_loadSnapshot?:", "static makeMemorySnapshot(", "stdLibURL?: string"):
        assert declared in types, f"the pinned Pyodide no longer declares {declared!r}: see linker-worker.js"
    script = tmp_path / "pin.mjs"
    script.write_text(NODE_PIN % {"pyodide": pyodide.as_posix()}, encoding="utf-8")
    done = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"answer": 42}
