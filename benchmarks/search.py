#!/usr/bin/env python3
"""What a reader pays for the first site-search result: bytes, time from the first keystroke, memory.

    .venv/bin/python benchmarks/search.py [--sizes real,1000,10000] [--runs 3] [--json PATH] [--keep]

For each size (`real`, or N synthetic terms from benchmarks/synth.py) the project is copied into a temporary
directory and built twice with `mkdocs build` (CODEX_PDF=false): as it is (codex.search's engine), and with
codex.search stubbed out in the build process so Material's own lunr search stays — what readers had before
(`material`). Each site is served by http.server on 127.0.0.1 (no gzip: gzip -6 of every file is reported beside
its size) and opened in Debian's Chromium through Playwright, cold (a new browser context, empty cache) for each
run: on a term page, as soon as it has loaded, a key goes down in the header search box (the clock starts) and the
query is inserted whole, then End pressed (Material searches on keyup).

Figures, per query (the median of the runs):
- `first_result_ms`: from the first keydown to the first result rendered (Material queries on every keyup);
- `expected_ms`: from the first keydown to the expected term shown first for the whole query;
- `search_bytes` / `search_gzip`: what the search downloaded before that (search_index.json, the worker, its
  shards and chunks; for Material its worker, lunr's language files and the index), raw and gzip -6;
- `page_bytes`: everything the page downloaded by then (HTML, CSS, JS, the search);
- `worker_heap_mb` / `page_heap_mb`: the JS heap the search worker and the page use after garbage collection.

Plain functions returning dicts (`build`, `measure`, `run`), for the project's benchmark runner; the __main__
prints a Markdown table. Nothing is asserted and nothing is written in the repository.
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(BENCH))

from build import make_project  # noqa: E402
from project import CHROMIUM, CHROMIUM_ARGS, free_port, serve  # noqa: E402  (shared with the tests)

# (query, how it is typed, the expected first result). "insert": one key goes down (the clock starts), then the
# whole query is inserted and End pressed, so the engine answers the whole query once (typed key by key, "keys",
# an early prefix may already show the expected term: "tele" finds Teleport before "teleprot" is complete).
QUERIES = [("aegis", "insert", "mage-wars/aegis"), ("эгиды", "insert", "mage-wars/aegis"),
           ("teleprot", "insert", "mage-wars/teleport")]
START_PAGE = "mage-wars/aegis/"
TIMEOUT_MS = 30_000  # an engine that has not shown the expected term by then does not find it

# Today's search, for comparison: the same build with codex.search stubbed so Material's index and worker stay
# (its index rewritten as UTF-8, as the hooks did before).
MATERIAL_ENGINE = r"""
import json, sys
import codex.search as search
search.point_worker = lambda html, worker=search.WORKER: html
search.build = lambda *args, **kwargs: None
def _material_only(index, material_index, inline=False, games=()):
    data = json.loads(material_index)
    return {"search/search_index.json": json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()}
search.files = _material_only
import codex.site as site  # and Material's plugin indexes every page again (the pages are excluded for codex's)
_front_matter = site.front_matter
def _indexed(page):
    page.meta.pop("search", None)
    return _front_matter(page)
site.front_matter = _indexed
sys.argv = ["mkdocs", *sys.argv[1:]]
from mkdocs.__main__ import cli
cli()
"""

# Installed before the page's scripts: when the first key went down, when the first result showed, and when the
# expected page came first.
PROBE = """
(() => {
  const times = window.__searchTimes = {keydown: null, first: null, expected: null, want: null};
  document.addEventListener("keydown", () => { if (times.keydown === null) times.keydown = performance.now(); }, true);
  new MutationObserver(() => {
    const link = document.querySelector(".md-search-result__item a");
    if (!link || times.keydown === null) return;
    const now = performance.now();
    if (times.first === null) times.first = now;
    if (times.want && times.expected === null && new URL(link.href).pathname.endsWith(times.want)) times.expected = now;
  }).observe(document, {childList: true, subtree: true});
})();
"""


def build(project: Path, site: Path, port: int, engine: str = "codex") -> dict[str, Any]:
    """`mkdocs build` of the project into `site` with site_url on 127.0.0.1:port; engine "codex" or "material"."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "CODEX_PDF": "false", "SITE_URL": f"http://127.0.0.1:{port}/",
           "PYTHONPATH": str(project / "hooks")}
    args = ["build", "-q", "-d", str(site)]
    command = [sys.executable, "-m", "mkdocs", *args] if engine == "codex" else [sys.executable, "-c", MATERIAL_ENGINE, *args]
    start = time.perf_counter()
    result = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=3600)
    if result.returncode != 0:
        raise RuntimeError(f"mkdocs build ({engine}) failed: {result.stderr[-2000:]}")
    return {"engine": engine, "build_s": time.perf_counter() - start, "site": str(site)}


def _is_search(path: str) -> bool:
    return (path.startswith("search/") or path.endswith("search-worker.js") or "/workers/search." in path
            or "/javascripts/lunr/" in path)


def _local(site: Path, path: str) -> Path:
    target = site / path
    return target / "index.html" if path.endswith("/") or not path or target.is_dir() else target


def _sizes(site: Path, paths: list[str], cache: dict[str, tuple[int, int]]) -> tuple[int, int]:
    raw = packed = 0
    for path in paths:
        if path not in cache:
            file = _local(site, path)
            data = file.read_bytes() if file.is_file() else b""
            cache[path] = (len(data), len(gzip.compress(data, 6, mtime=0)) if data else 0)
        raw += cache[path][0]
        packed += cache[path][1]
    return raw, packed


def _heaps(browser: Any, context: Any, page: Any) -> tuple[float, float]:
    """JS heap used (MB, after GC) by the search worker and by the page, through the DevTools protocol."""
    page_cdp = context.new_cdp_session(page)
    page_cdp.send("HeapProfiler.collectGarbage")
    page_heap = page_cdp.send("Runtime.getHeapUsage")["usedSize"] / 1e6
    session = browser.new_browser_cdp_session()
    answers: dict[str, dict[int, Any]] = {}
    session.on("Target.receivedMessageFromTarget", lambda event: answers.setdefault(event["sessionId"], {}).update(
        {m["id"]: m for m in [json.loads(event["message"])] if "id" in m}))
    worker_heap = 0.0
    for target in session.send("Target.getTargets")["targetInfos"]:
        if target["type"] != "worker" or "search" not in target["url"]:
            continue
        sid = session.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": False})["sessionId"]
        for number, method in ((1, "HeapProfiler.collectGarbage"), (2, "Runtime.getHeapUsage")):
            session.send("Target.sendMessageToTarget",
                         {"sessionId": sid, "message": json.dumps({"id": number, "method": method})})
            for _ in range(200):
                if number in answers.get(sid, {}):
                    break
                page.wait_for_timeout(25)
        reply = answers.get(sid, {}).get(2, {})
        worker_heap += reply.get("result", {}).get("usedSize", 0) / 1e6
    session.detach()
    return worker_heap, page_heap


def measure(site: Path, port: int, queries: list[tuple[str, str, str]] = QUERIES, runs: int = 3) -> dict[str, Any]:
    """Cold-page figures for each query on the built site (see the module docstring), medians of `runs`."""
    from playwright.sync_api import sync_playwright

    cache: dict[str, tuple[int, int]] = {}
    out: dict[str, Any] = {"site": str(site), "queries": {}}
    with serve(site, port) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        out["chromium"] = browser.version
        for query, typing, want in queries:
            samples: list[dict[str, Any]] = []
            for _ in range(runs):
                print(f"[search bench]   {query}", file=sys.stderr)
                samples.append(_one(browser, url, site, query, typing, want, cache))
            out["queries"][query] = {key: _median([s[key] for s in samples]) for key in samples[0]}
            out["queries"][query]["runs"] = len(samples)
        browser.close()
    return out


def _median(values: list[Any]) -> Any:
    """The median of numbers (None if any run found nothing); other values from the first run."""
    if any(v is None for v in values):
        return None
    if all(isinstance(v, (int, float)) for v in values):
        return statistics.median(values)
    return values[0]


def _one(browser: Any, base: str, site: Path, query: str, typing: str, want: str,
         cache: dict[str, tuple[int, int]]) -> dict[str, Any]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # No service worker: its precache would fetch the whole site in the background and blur what search costs.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", service_workers="block")
    seen: list[str] = []
    context.on("request", lambda request: seen.append(request.url))
    page = context.new_page()
    page.add_init_script(PROBE)
    page.goto(base + START_PAGE, wait_until="load")
    page.evaluate("want => { window.__searchTimes.want = '/' + want + '/'; }", want)
    box = page.locator("input.md-search__input")
    box.click()
    seen_before_typing = len(seen)
    if typing == "keys":
        page.keyboard.type(query)
    else:
        page.keyboard.press("Space")  # the first keystroke; the query replaces it
        box.fill(query)
        box.press("End")
    with contextlib.suppress(PlaywrightTimeout):  # this engine may not find it (Material's lunr and «эгиды»): None
        page.wait_for_function("() => window.__searchTimes.expected !== null", timeout=TIMEOUT_MS, polling=5)
    times = page.evaluate("window.__searchTimes")
    paths = [urlsplit(url).path[len(urlsplit(base).path):] for url in seen if url.startswith(base)]
    search_paths = sorted({p for p in paths if _is_search(p)})
    raw, packed = _sizes(site, search_paths, cache)
    page_raw, page_packed = _sizes(site, sorted(set(paths)), cache)
    worker_heap, page_heap = _heaps(browser, context, page)
    context.close()
    return {
        "first_result_ms": None if times["first"] is None else times["first"] - times["keydown"],
        "expected_ms": None if times["expected"] is None else times["expected"] - times["keydown"],
        "search_bytes": raw, "search_gzip": packed, "search_requests": len(search_paths),
        "requests_after_keydown": len(seen) - seen_before_typing,
        "page_bytes": page_raw, "page_gzip": page_packed,
        "worker_heap_mb": worker_heap, "page_heap_mb": page_heap,
        "files": search_paths,
    }


def index_sizes(site: Path) -> dict[str, Any]:
    """The always-loaded search_index.json and, for codex's engine, the on-demand data: file count and bytes."""
    index = site / "search" / "search_index.json"
    data = json.loads(index.read_text(encoding="utf-8"))
    raw = index.read_bytes()
    out: dict[str, Any] = {"index_bytes": len(raw), "index_gzip": len(gzip.compress(raw, 6, mtime=0))}
    codex = data.get("config", {}).get("codex")
    if codex and (site / codex["dir"]).is_dir():
        files = list((site / codex["dir"]).iterdir())
        out.update(data_files=len(files), data_bytes=sum(f.stat().st_size for f in files))
    return out


def run(sizes: list[str], runs: int = 3, keep: bool = False) -> dict[str, Any]:
    """Every size, both engines: build figures, index sizes and the browser measures."""
    results: dict[str, Any] = {}
    tmp = Path(tempfile.mkdtemp(prefix="codex-search-bench-"))
    try:
        for size in sizes:
            print(f"[search bench] {size}: project", file=sys.stderr)
            project = make_project(tmp, size)  # build.py's: the shared project helper
            for engine in ("codex", "material"):
                port = free_port()
                site = tmp / f"site-{size}-{engine}"
                print(f"[search bench] {size}: build ({engine})", file=sys.stderr)
                built = build(project, site, port, engine)
                print(f"[search bench] {size}: browser ({engine})", file=sys.stderr)
                results[f"{size}/{engine}"] = {**built, **index_sizes(site), **measure(site, port, runs=runs)}
                if not keep:
                    shutil.rmtree(site, ignore_errors=True)
    finally:
        if keep:
            print(f"[search bench] kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return results


def _kb(n: float) -> str:
    return f"{n / 1024:,.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.1f} MB"


def _ms(value: float | None) -> str:
    return "not found" if value is None else f"{value:.0f} ms"


def report(results: dict[str, Any]) -> str:
    lines = ["| size | engine | query | first result | expected first | search bytes (gzip) | requests | worker heap | page heap |",
             "|---|---|---|---|---|---|---|---|---|"]
    for key, result in results.items():
        size, engine = key.split("/")
        for query, q in result["queries"].items():
            lines.append(f"| {size} | {engine} | {query} | {_ms(q['first_result_ms'])} | {_ms(q['expected_ms'])} | "
                         f"{_kb(q['search_bytes'])} ({_kb(q['search_gzip'])}) | {q['search_requests']} | "
                         f"{q['worker_heap_mb']:.1f} MB | {q['page_heap_mb']:.1f} MB |")
    lines += ["", "| size | engine | build | search_index.json (gzip) | on-demand files |", "|---|---|---|---|---|"]
    for key, result in results.items():
        size, engine = key.split("/")
        data = f"{result['data_files']} files, {_kb(result['data_bytes'])}" if "data_files" in result else "—"
        lines.append(f"| {size} | {engine} | {result['build_s']:.1f} s | {_kb(result['index_bytes'])} "
                     f"({_kb(result['index_gzip'])}) | {data} |")
    return "\n".join(lines)


def section(report_: Any, args: Any, tmp: Path, sites: dict[str, Any], sizes: list[str], port: int) -> None:
    """Section 5 of benchmarks/run.py: codex's engine on the sites section 2 built, Material's on a build of its own."""
    from common import fmt_b, fmt_s

    runs = 1 if args.quick else 3
    results: dict[str, Any] = {}
    for size in sizes:
        site = sites[size]["project"]
        results[f"{size}/codex"] = {"engine": "codex", "build_s": float("nan"), **index_sizes(site),
                                    **measure(site, port, runs=runs)}
        material = tmp / f"site-material-{size}"
        built = build(sites[size]["project_dir"], material, port, "material")
        results[f"{size}/material"] = {**built, **index_sizes(material), **measure(material, port, runs=runs)}
        shutil.rmtree(material, ignore_errors=True)
    report_.data["search"] = results
    report_.section("5. Site search: what a reader pays for the first result")
    report_.emit("A cold page (new context), one key down in the header search box, the query inserted whole, End; "
                 f"median of {runs}. codex: our engine (codex.search, search-worker.js); material: the same site built "
                 "with Material's own search, as before.\n")
    report_.emit(report(results).replace("| nan s |", "| (section 2) |"))
    for size in sizes:
        q = results[f"{size}/codex"]["queries"].get("aegis")
        if q and size == max(sizes, key=lambda s_: 0 if s_ == "real" else int(s_)):
            report_.aim(f"search: bytes before the first result ({size})", fmt_b(q["search_gzip"]) + " gzip",
                        "≤ 500 KB at 10,000 terms", "met" if q["search_gzip"] <= 500 * 1024 else "**not met**")
            if q["expected_ms"] is not None:
                report_.aim(f"search: first keystroke → expected result ({size})", fmt_s(q["expected_ms"] / 1000),
                            "≤ 500 ms at 10,000 terms", "met" if q["expected_ms"] <= 500 else "**not met**")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="real,1000,10000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=Path(tempfile.gettempdir()) / "codex-search-benchmark.json")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    results = run(args.sizes.split(","), args.runs, args.keep)
    args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"Load average at the start: {load:.1f}, at the end: {os.getloadavg()[0]:.1f}\n")
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
