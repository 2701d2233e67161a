"""The linker widget in headless Chromium: bytes until ready, cold and warm start, one linking call vs CPython.

The built site is served by Python's http.server on 127.0.0.1 (uncompressed, with Last-Modified, like a plain
static host without gzip). Playwright drives Debian's Chromium (/usr/bin/chromium); it never downloads a browser.
Bytes are counted from the browser's own network events for the page *and* its workers (Playwright reports a
dedicated worker's requests as the page context's requests): the body bytes received on the wire (`sizes()`),
which for this server are the file sizes; a gzip -6 estimate of the same files is given beside them.
"""
from __future__ import annotations

import gzip
import json
import statistics
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from common import Report, fmt_b, fmt_s, fmt_x, ratio, table
from project import CHROMIUM_ARGS as ARGS, CHROMIUM as DEBIAN_CHROMIUM, serve
from resolver import post_for

CHROMIUM = str(DEBIAN_CHROMIUM)
READY_TIMEOUT_MS = 180_000


def _gzip_size(path: Path, cache: dict) -> int:
    if path not in cache:
        cache[path] = len(gzip.compress(path.read_bytes(), 6, mtime=0)) if path.is_file() else 0
    return cache[path]


def _local_file(site: Path, base: str, url: str) -> Path:
    rel = urlparse(url).path[len(urlparse(base).path):]
    target = site / rel
    return target / "index.html" if url.endswith("/") or target.is_dir() else target


def measure(site: Path, port: int, post: str, game: str, cpython_factory, runs: int = 3, link_runs: int = 10) -> dict:
    """Every figure of the browser section; `cpython_factory()` gives a fresh `link(text)` for the same call in CPython."""
    from playwright.sync_api import sync_playwright

    gz_cache: dict = {}
    with serve(site, port) as base, sync_playwright() as p:
        out: dict = {"url": base + "linker/", "chromium": None}
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        out["chromium"] = browser.version
        colds, warms = [], []
        for run in range(runs):
            context = browser.new_context()
            finished: list = []
            context.on("requestfinished", lambda request: finished.append(request))  # noqa: B023 - this run's context
            page = context.new_page()
            elapsed = _open_until_ready(page, out["url"], reload=False)
            colds.append(elapsed)
            if run == 0:
                out["cold_downloads"] = _downloads(finished, site, base, gz_cache)
            finished.clear()
            elapsed = _open_until_ready(page, out["url"], reload=True)
            warms.append(elapsed)
            if run == 0:
                out["warm_downloads"] = _downloads(finished, site, base, gz_cache)
            if run == runs - 1:
                out.update(_link_in_browser(page, game, post, cpython_factory, link_runs))
            context.close()
        out["cold_s"] = statistics.median(colds)
        out["warm_s"] = statistics.median(warms)
        out["cold_runs"], out["warm_runs"] = colds, warms
        browser.close()
    return out


def _open_until_ready(page, url: str, reload: bool) -> float:
    start = time.perf_counter()
    if reload:
        page.reload(wait_until="commit")
    else:
        page.goto(url, wait_until="commit")
    page.wait_for_function(
        "() => { const s = document.getElementById('linker-widget'); return s && s.dataset.state === 'ready'; }",
        polling=10, timeout=READY_TIMEOUT_MS,
    )
    return time.perf_counter() - start


def _downloads(finished: list, site: Path, base: str, gz_cache: dict) -> dict:
    total_body = total_files = total_gzip = 0
    rows = []
    for request in finished:
        try:
            sizes = request.sizes()
            body = sizes.get("responseBodySize", 0)
        except Exception:  # noqa: BLE001 - a request whose sizes are gone: count its file instead
            body = -1
        response = request.response()
        status = response.status if response else 0
        local = _local_file(site, base, request.url) if request.url.startswith(base) else None
        size = local.stat().st_size if local and local.is_file() and status == 200 else 0
        gz = _gzip_size(local, gz_cache) if size else 0
        total_body += max(body, 0)
        total_files += size
        total_gzip += gz
        rows.append({"url": request.url[len(base):] if request.url.startswith(base) else request.url,
                     "status": status, "body": body, "file": size, "gzip": gz})
    rows.sort(key=lambda r: -max(r["body"], r["file"]))
    return {"requests": len(rows), "body_bytes": total_body, "file_bytes": total_files, "gzip_bytes": total_gzip,
            "largest": rows[:8]}


def _link_in_browser(page, game: str, post: str, cpython_factory, runs: int) -> dict:
    """One `link` request through the page's own worker client (window.codex.linker.request), timed page-side,
    alternated with the same call in CPython (a fresh resolver for each side's first call)."""
    script = """async ([game, text]) => {
        const t = performance.now();
        const out = await window.codex.linker.request("link", {game, text, format: "markdown", every: false});
        return {ms: performance.now() - t, length: out.length};
    }"""
    cpython_link = cpython_factory()
    browser_times, cpython_times = [], []
    length = expected = None
    for _ in range(runs + 1):
        result = page.evaluate(script, [game, post])
        browser_times.append(result["ms"] / 1000)
        length = result["length"]
        start = time.perf_counter()
        expected = cpython_link(post)
        cpython_times.append(time.perf_counter() - start)
    return {
        "link_game": game,
        "link_bytes": len(post.encode()),
        "link_first_s": browser_times[0],
        "link_s": statistics.median(browser_times[1:]),
        "cpython_first_s": cpython_times[0],
        "cpython_s": statistics.median(cpython_times[1:]),
        "same_output": length == len(expected),
    }


def section(report: Report, args: Any, sites: dict[str, Any], port: int) -> None:
    report.section("6. Linker widget in the browser")
    if not Path(CHROMIUM).is_file():
        report.emit(f"Skipped: {CHROMIUM} is missing (the Makefile's setup installs Debian's chromium).")
        report.data["browser"] = {"skipped": "chromium missing"}
        return
    try:
        import playwright  # noqa: F401
    except ImportError:
        report.emit("Skipped: Playwright for Python is not installed.")
        report.data["browser"] = {"skipped": "playwright missing"}
        return
    from codex.api import Codex
    from corpus_eval import load_posts

    real = "real" if "real" in sites else next(iter(sites))
    site = sites[real]["project"]
    manifest = json.loads((site / "assets" / "codex" / "manifest.json").read_text(encoding="utf-8"))
    games = [g["id"] for g in manifest["games"]]
    game = "mage-wars" if "mage-wars" in games else games[0]
    entry = next(g for g in manifest["games"] if g["id"] == game)
    index_text = (site / "assets" / "codex" / entry["index"]).read_text(encoding="utf-8")
    post = post_for(game, load_posts())

    def factory():
        codex = Codex.from_json({game: index_text}, manifest["site_url"])
        return lambda text: codex.link(game, text)

    runs = 1 if args.quick else 3
    data = measure(site, port, post, game, factory, runs=runs, link_runs=5 if args.quick else 15)
    report.data["browser"] = data
    cold, warm = data["cold_downloads"], data["warm_downloads"]
    rows = [
        ["bytes before `ready`, cold (new context)", f"{fmt_b(cold['body_bytes'])} in {cold['requests']} requests "
                                                     f"(gzip -6 of the same files: {fmt_b(cold['gzip_bytes'])})"],
        ["bytes before `ready`, warm (reload)", f"{fmt_b(warm['body_bytes'])} transferred "
                                                f"({sum(1 for r in warm['largest'] if r['body'] > 0)} of the largest 8 re-fetched)"],
        [f"navigation → `ready`, cold (median of {runs})", fmt_s(data["cold_s"])],
        [f"navigation → `ready`, warm (median of {runs})", fmt_s(data["warm_s"])],
        [f"link a {data['link_bytes'] / 1024:.1f} KB post ({game}) in the browser, first call", fmt_s(data["link_first_s"])],
        ["… in the browser, warm (median)", fmt_s(data["link_s"])],
        ["… in CPython, first call / warm", f"{fmt_s(data['cpython_first_s'])} / {fmt_s(data['cpython_s'])}"],
        ["browser / CPython (warm)", fmt_x(ratio(data["link_s"], data["cpython_s"]))],
    ]
    report.emit(f"Chromium {data['chromium']} (/usr/bin/chromium, headless) via Playwright; the real site served by "
                f"http.server on 127.0.0.1 (no compression). Bytes: the browser's own count of response bodies for "
                f"the page and its worker. The link call goes through the page's worker client "
                f"(`window.codex.linker.request('link', …)`), so it includes postMessage and JSON both ways.\n")
    report.emit(table(["measure", "value"], rows))
    largest = ", ".join(f"{r['url'].split('/')[-1]} {fmt_b(max(r['body'], r['file']))}" for r in cold["largest"][:5])
    report.emit(f"\nLargest cold downloads: {largest}.")
    if not data.get("same_output"):
        report.emit("\n**The browser's output differs in length from CPython's for the same post.**")


