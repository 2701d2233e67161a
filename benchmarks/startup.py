"""The linker's start-up before and after the fast start, in headless Chromium: ready time, bytes, boot path.

"before": the same built site with the precompiled standard library taken out of its manifest, so the worker boots
Pyodide the stock way (what every start did before codex.stdlib). "after": the site as built — a first visit
boots from the build's precompiled standard library, and every later one from the memory snapshot the first
saved in Cache Storage.

cold = a new browser context (empty HTTP cache and Cache Storage), navigation to /linker/ until
#linker-widget[data-state=ready] — a reader's first visit, the site's service worker allowed to register and install
as it would (offline.js holds it back until the linker is ready); warm = a reload in the same context once the
service worker controls the page (for "after": and the snapshot is saved), so a second visit, through the app.
Bytes: the response bodies the browser received for the page and its worker until ready, split into Pyodide's
(assets/pyodide/) and ours (everything else), with the gzip -6 size of the same files beside them. The site is
served by a small gzip-compressing static server on 127.0.0.1 (Netlify compresses too). "phone": Chromium's CPU
throttled 4× and its network shaped like DevTools' "Fast 3G" (562.5 ms latency, 180 KB/s down, 84 KB/s up), set
through CDP before the navigation.

Timeline: where a cold start's time goes, from the navigation (ms, median of the runs): the worker's marks
(linker-worker.js, put on the page's clock with the worker's timeOrigin) and the renderer's CPU time (all of
Chromium's processes, user + system: on a shared 2-core machine this, more than the wall clock, is what a change
saves; most of it is V8 compiling the wasm — lazily with Liftoff, then optimising the hot functions with TurboFan).
Below it, each step's own duration (the median of the runs' differences): Pyodide's JavaScript, Py_Initialize and
Pyodide's bootstrap against ours (import codex, loading the indexes).

`python benchmarks/startup.py [--site DIR] [--runs N] [--phone-runs N] [--also NAME=DIR]` builds the real site when
no DIR is given; --also measures another built site (say, the previous commit's) interleaved in the same run.
"""
from __future__ import annotations

import contextlib
import fnmatch
import gzip
import http.server
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar
from collections.abc import Callable, Iterator
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from project import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402

READY = "() => { const s = document.getElementById('linker-widget'); return s && s.dataset.state === 'ready'; }"
SNAPSHOT_SAVED = "() => window.codex.linker.state.snapshot !== undefined"
CONTROLLED = "() => !!navigator.serviceWorker.controller"  # the app installed and serving the page (offline.js)
TIMEOUT_MS = 600_000
PYODIDE_PREFIX = "assets/pyodide/"
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375}
CPU_SLOWDOWN = 4


def _immutable() -> list[str]:
    from codex.deploy import headers

    return [path for path, values in headers([]).items() if "immutable" in values.get("Cache-Control", "")]


IMMUTABLE = _immutable()


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzip-compressed when the browser accepts it (compressed once per file and kept)."""

    cache: ClassVar[dict[Path, bytes]] = {}  # shared by every request of the process
    lock = threading.Lock()

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if "gzip" not in self.headers.get("Accept-Encoding", "") or not path.is_file():
            super().do_GET()
            return
        with self.lock:
            if path not in self.cache:
                self.cache[path] = gzip.compress(path.read_bytes(), 6, mtime=0)
            body = self.cache[path]
        etag = f'"{len(body)}-{int(path.stat().st_mtime_ns)}"'
        # As the site's _headers say (codex.deploy): versioned or content-named files immutable, the rest revalidates.
        immutable = any(fnmatch.fnmatch(urlparse(self.path).path, pattern) for pattern in IMMUTABLE)
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if immutable else "no-cache")
        self.end_headers()
        self.wfile.write(body)


@contextlib.contextmanager
def serve_gzip(site: Path, port: int) -> Iterator[str]:
    handler = _GzipHandler  # its cache of compressed files outlives the server: a file is compressed once a run
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), lambda *a: handler(*a, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.shutdown()
        server.server_close()


INLINE_MANIFEST = 'id="codex-linker-manifest">'  # overrides/main.html: the manifest the linker page's head hands its worker


def stock_copy(site: Path, dest: Path) -> Path:
    """The site as it started before the fast start: its manifest without the precompiled stdlib (nor snapshot),
    both the file and the copy the linker page's head hands its worker."""
    shutil.copytree(site, dest, dirs_exist_ok=True)
    path = dest / "assets" / "codex" / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.pop("stdlib", None)
    manifest.pop("snapshot", None)
    path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    page = dest / "linker" / "index.html"
    html = page.read_text(encoding="utf-8")
    at = html.find(INLINE_MANIFEST)
    if at >= 0:
        start = at + len(INLINE_MANIFEST)
        _, end = json.JSONDecoder().raw_decode(html, start)
        inline = json.dumps(manifest).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        page.write_text(html[:start] + inline + html[end:], encoding="utf-8")
    return dest


def _ready_at(marks: dict[str, Any]) -> float:
    """When the worker was ready, in ms since the epoch (its timeOrigin plus its last mark): the clock of
    Playwright's request timings."""
    return float(marks.get("origin", 0)) + float(marks.get("indexes_loaded", 0))


def _bytes(finished: list[Any], site: Path, base: str, ready_at: float) -> dict[str, Any]:
    """Bytes received until ready, Pyodide's and ours, as received and as gzip -6 of the files: the requests
    finished by the time the page saw ready and started before the worker was (the wheel, asked for just after
    ready for a later stock start, is not part of this one)."""
    out = {"pyodide": {"body": 0, "gzip": 0, "files": 0}, "ours": {"body": 0, "gzip": 0, "files": 0}, "requests": 0}
    largest = []
    counted: set[str] = set()  # a file asked for twice (the worker's early request, then Pyodide's) counts once
    for request in finished:
        # the page's and its worker's requests; not the app's install (the service worker's own, after ready)
        if not request.url.startswith(base) or request.service_worker is not None:
            continue
        if request.timing.get("startTime", 0) > ready_at:
            continue
        rel = unquote(urlparse(request.url).path[len(urlparse(base).path):])
        local = site / rel
        if request.url.endswith("/") or local.is_dir():
            local = local / "index.html"
        try:
            body = request.sizes().get("responseBodySize", 0)
        except Exception:  # noqa: BLE001 - a request whose sizes are gone counts as none
            body = 0
        part = out["pyodide" if rel.startswith(PYODIDE_PREFIX) else "ours"]
        response = request.response()
        if response is not None and response.status == 200 and local.is_file() and rel not in counted:
            counted.add(rel)
            data = local.read_bytes()
            part["files"] += len(data)
            part["gzip"] += len(gzip.compress(data, 6, mtime=0))
        part["body"] += max(body, 0)
        out["requests"] += 1
        largest.append((max(body, 0), rel))
    out["largest"] = [f"{rel} {size}" for size, rel in sorted(largest, reverse=True)[:6]]
    return out


# The steps of a start, in order, as the worker marks them (absent ones are skipped: a snapshot start has fewer).
STEPS = (("start", "worker started"), ("prefetch", "Pyodide's files asked for (the URL's fragment)"),
         ("manifest", "manifest read"), ("pyodide_module", "pyodide.mjs imported"),
         ("wasm_start", "wasm instantiate asked"), ("wasm_ready", "wasm compiled + instantiated"),
         ("python_initialized", "Python initialised (Py_Initialize)"),
         ("pyodide_ready", "Pyodide ready (its bootstrap imports)"), ("wheel", "wheel unpacked (stock start only)"),
         ("codex_imported", "import codex"), ("indexes_fetched", "indexes fetched"),
         ("indexes_loaded", "indexes loaded (ready)"))
# Each step's own duration (ms; the median over the runs of each run's difference, steadier than a difference of
# the medians above): Pyodide's (its JavaScript, then Python's start and its bootstrap) and ours.
PHASES = (("Pyodide's JavaScript (pyodide.asm.mjs, wasm instantiated)", "pyodide_module", "wasm_ready"),
          ("Pyodide: Py_Initialize", "wasm_ready", "python_initialized"),
          ("Pyodide: its bootstrap (finalizeBootstrap's imports)", "python_initialized", "pyodide_ready"),
          ("ours: import codex", "wheel", "codex_imported"),
          ("ours: the indexes loaded", "indexes_fetched", "indexes_loaded"))


def chromium_cpu() -> dict[str, float]:
    """CPU seconds (user + system) so far of the Chromium processes under this one, by process type."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    out: dict[str, float] = {}
    todo = [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                command = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if "chrom" not in stat[stat.index("(") + 1:stat.rindex(")")]:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            kind = re.search(r"--type=([\w-]+)", command)
            name = kind.group(1) if kind else "browser"
            out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def timeline(marks: dict[str, Any], page_origin: float) -> dict[str, float]:
    """The worker's marks in ms from the page's navigation start."""
    offset = float(marks.get("origin", page_origin)) - page_origin
    return {key: marks[key] + offset for key, _ in STEPS if isinstance(marks.get(key), (int, float))}


def _throttle(context: Any, page: Any, phone: bool) -> None:
    if not phone:
        return
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", FAST_3G)


def measure(site: Path, runs: int, phone: bool, after: bool) -> dict[str, Any]:
    """Cold and warm ready (seconds), the boot paths seen, the worker's marks and the bytes of the first cold run."""
    from playwright.sync_api import sync_playwright

    walls: dict[str, list[float]] = {"cold": [], "warm": []}
    boots: list[str] = []
    marks: list[dict[str, Any]] = []
    downloads: dict[str, Any] = {}
    warm_downloads: dict[str, Any] = {}
    snapshot_bytes = 0
    timelines: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
    cpus: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
    fetches: list[Any] = []

    def start(page: Any, kind: str, navigate: Callable[[Any], Any]) -> dict[str, Any]:
        """One start of the linker on `page` (`navigate` opens it): its wall time, Chromium's CPU and its timeline
        kept under `kind`; its marks."""
        cpu = chromium_cpu()
        began = time.perf_counter()
        navigate(page)
        page.wait_for_function(READY, polling=20, timeout=TIMEOUT_MS)
        walls[kind].append(time.perf_counter() - began)
        cpus[kind].append(_spent(cpu, chromium_cpu()))
        found: dict[str, Any] = page.evaluate("window.codex.linker.state.marks")
        timelines[kind].append(timeline(found, page.evaluate("performance.timeOrigin")))
        return found

    with serve_gzip(site, free_port()) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            for run in range(runs):
                context = browser.new_context(service_workers="allow")
                finished: list[Any] = []
                context.on("requestfinished", lambda request, seen=finished: seen.append(request))
                page = context.new_page()
                _throttle(context, page, phone)
                cold_marks = start(page, "cold", lambda p: p.goto(base + "linker/", wait_until="commit",
                                                                     timeout=TIMEOUT_MS))
                if run == 0:
                    offset = float(cold_marks.get("origin", 0)) - page.evaluate("performance.timeOrigin")
                    fetches = [[name, round(begin + offset), round(end + offset), size]
                               for name, begin, end, size in cold_marks.get("fetches", [])]
                    downloads = _bytes(list(finished), site, base, _ready_at(cold_marks))
                if after:  # the next start is the snapshot's: wait until the worker saved it
                    page.wait_for_function(SNAPSHOT_SAVED, polling=50, timeout=TIMEOUT_MS)
                    snapshot_bytes = page.evaluate("window.codex.linker.state.snapshot") or 0
                page.wait_for_function(CONTROLLED, polling=50, timeout=TIMEOUT_MS)
                finished.clear()
                warm_marks = start(page, "warm", lambda p: p.reload(wait_until="commit", timeout=TIMEOUT_MS))
                if run == 0:
                    warm_downloads = _bytes(list(finished), site, base, _ready_at(warm_marks))
                boots.append(f"{cold_marks.get('boot')}/{warm_marks.get('boot')}")
                marks.append({"cold": cold_marks, "warm": warm_marks})
                context.close()
        finally:
            browser.close()
    return {"cold_s": statistics.median(walls["cold"]), "warm_s": statistics.median(walls["warm"]),
            "cold_runs": walls["cold"], "warm_runs": walls["warm"], "boots": boots, "downloads": downloads,
            "warm_downloads": warm_downloads, "snapshot_bytes": snapshot_bytes, "fetches": fetches,
            "timeline": {kind: _medians(runs_) for kind, runs_ in timelines.items()},
            "cpu_s": {kind: _medians(runs_) for kind, runs_ in cpus.items()},
            "python_ms": {"cold": statistics.median(m["cold"]["pyodide_ready"] - m["cold"]["pyodide_module"] for m in marks),
                          "warm": statistics.median(m["warm"]["pyodide_ready"] - m["warm"]["pyodide_module"] for m in marks)},
            "phases": {kind: _phases([m[kind] for m in marks]) for kind in ("cold", "warm")}}


def _phases(marks: list[dict[str, Any]]) -> dict[str, float]:
    """PHASES' durations, each the median of its per-run differences (a step a start skipped is left out)."""
    out = {}
    for label, first, last in PHASES:
        spans = [float(m[last]) - float(m[first]) for m in marks if first in m and last in m]
        if spans:
            out[label] = statistics.median(spans)
    return out


def _spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    spent = {kind: after[kind] - before.get(kind, 0.0) for kind in after}
    spent = {kind: value for kind, value in spent.items() if value >= 0}  # a process gone meanwhile: not counted
    spent["total"] = sum(spent.values())
    return spent


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    keys = {key for run in runs for key in run}
    return {key: statistics.median(run[key] for run in runs if key in run) for key in keys}


def run_all(site: Path, runs: int, phone_runs: int, also: dict[str, Path] | None = None) -> dict[str, Any]:
    """Each variant's runs one after another; the variants interleaved run by run (the load changes slowly)."""
    with tempfile.TemporaryDirectory(prefix="codex-startup-") as tmp:
        stock = stock_copy(site, Path(tmp) / "stock")
        variants = [("before", stock, False), ("after", site, True),
                    *((name, folder, True) for name, folder in (also or {}).items())]
        data: dict[str, Any] = {}
        for phone, count in ((False, runs), (True, phone_runs)):
            if count <= 0:
                continue
            for _, folder, _ in variants:  # compressing the 9.6 MB wasm takes a while: not in anyone's start
                _precompress(folder)
            parts: dict[str, list[dict[str, Any]]] = {}
            for _ in range(count):
                for name, folder, after in variants:
                    parts.setdefault(f"{name}{'_phone' if phone else ''}", []).append(measure(folder, 1, phone, after))
            data.update({key: _merge(found) for key, found in parts.items()})
    return data


def _precompress(site: Path) -> None:
    for path in site.rglob("*"):
        if path.is_file() and path.stat().st_size > 100_000:
            with _GzipHandler.lock:
                if path not in _GzipHandler.cache:
                    _GzipHandler.cache[path] = gzip.compress(path.read_bytes(), 6, mtime=0)


def _merge(found: list[dict[str, Any]]) -> dict[str, Any]:
    """Single-run measurements of one variant as one: medians over the runs, bytes of the first."""
    merged = dict(found[0])
    merged["cold_runs"] = [x for f in found for x in f["cold_runs"]]
    merged["warm_runs"] = [x for f in found for x in f["warm_runs"]]
    merged["cold_s"] = statistics.median(merged["cold_runs"])
    merged["warm_s"] = statistics.median(merged["warm_runs"])
    merged["boots"] = [b for f in found for b in f["boots"]]
    for key in ("timeline", "cpu_s", "python_ms", "phases"):
        merged[key] = {kind: _median_dict([f[key][kind] for f in found]) for kind in found[0][key]}
    return merged


def _median_dict(values: list[Any]) -> Any:
    if all(isinstance(v, (int, float)) for v in values):
        return statistics.median(values)
    return {key: statistics.median(v[key] for v in values if key in v) for key in {k for v in values for k in v}}


def _mb(n: float) -> str:
    return f"{n / 1e6:.2f} MB"


def report_lines(data: dict[str, Any]) -> list[str]:
    """The Markdown table the README quotes."""
    from common import fmt_s

    lines = ["| start | cold ready | warm ready | boot (cold/warm) | bytes until ready, cold, as sent (gzip) | "
             "of which Pyodide's | of which ours | bytes, warm |", "|---|---|---|---|---|---|---|---|"]
    labels = {"before": "before (stock Pyodide)", "after": "after (precompiled stdlib, then snapshot)",
              "before_phone": "before, phone (4× CPU, Fast 3G)", "after_phone": "after, phone (4× CPU, Fast 3G)"}
    for key in data:
        label = labels.get(key, key.replace("_phone", ", phone (4× CPU, Fast 3G)"))
        d = data[key]
        down = d["downloads"]
        total = down["pyodide"]["body"] + down["ours"]["body"]
        lines.append(f"| {label} | {fmt_s(d['cold_s'])} | {fmt_s(d['warm_s'])} | {', '.join(sorted(set(d['boots'])))} | "
                     f"{_mb(total)} | {_mb(down['pyodide']['body'])} | {_mb(down['ours']['body'])} | "
                     f"{_mb(d['warm_downloads']['pyodide']['body'] + d['warm_downloads']['ours']['body'])} |")
    return lines


def timeline_lines(data: dict[str, Any]) -> list[str]:
    """Where a cold (and warm) start goes: ms from the navigation at each step, and the CPU Chromium spent."""
    keys = [k for k in data if not k.endswith("_phone")]
    head = " | ".join(f"{k} cold | {k} warm" for k in keys)
    lines = [f"| step (ms from navigation, median) | {head} |", "|---|" + "---|" * (2 * len(keys))]
    for key, label in STEPS:
        cells = []
        for variant in keys:
            for kind in ("cold", "warm"):
                value = data[variant]["timeline"][kind].get(key)
                cells.append("" if value is None else f"{value:.0f}")
        if any(cells):
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("| *each step's own duration (ms, median of the runs' differences)* |" + " |" * (2 * len(keys)))
    for label, _first, _last in PHASES:
        cells = [f"{data[v]['phases'][c][label]:.0f}" if label in data[v]["phases"][c] else ""
                 for v in keys for c in ("cold", "warm")]
        if any(cells):
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    for kind_label, kind in (("CPU, all Chromium processes (s)", "total"), ("of which the renderer (page + worker)", "renderer")):
        cells = [f"{data[v]['cpu_s'][c].get(kind, 0):.2f}" for v in keys for c in ("cold", "warm")]
        lines.append(f"| {kind_label} | " + " | ".join(cells) + " |")
    return lines


def section(report: Any, args: Any, sites: dict[str, Any]) -> None:
    """Section 9 of benchmarks/run.py (with --browser): the real site's linker start, before and after."""
    report.section("10. Linker start-up: stock Pyodide vs precompiled stdlib + snapshot")
    real = "real" if "real" in sites else next(iter(sites))
    runs, phone_runs = (1, 1) if args.quick else (5, 3)
    data = run_all(sites[real]["project"], runs, phone_runs)
    report.data["startup"] = data
    report.emit(__doc__.split("\n\n")[1] + "\n")
    report.emit("\n".join(report_lines(data)))
    report.emit("\n" + "\n".join(timeline_lines(data)))


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build the real one in a temporary folder)")
    parser.add_argument("--runs", type=int, default=5, help="cold/warm pairs per variant (median)")
    parser.add_argument("--phone-runs", type=int, default=3, help="the same, throttled like a phone (0: none)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--also", action="append", default=[], metavar="NAME=DIR",
                        help="another built site to measure like 'after', interleaved (say, the previous commit's)")
    args = parser.parse_args(argv)
    also = {name: Path(folder) for name, folder in (item.split("=", 1) for item in args.also)}
    with tempfile.TemporaryDirectory(prefix="codex-startup-site-") as tmp:
        site = args.site
        if site is None:
            from mkdocs.commands.build import build
            from mkdocs.config import load_config

            site = Path(tmp) / "site"
            build(load_config(config_file=str(ROOT / "mkdocs.yml"), site_dir=str(site), strict=True))
        data = run_all(site, args.runs, args.phone_runs, also)
    if args.json:
        args.json.write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    print("\n".join(report_lines(data)))
    print()
    print("\n".join(timeline_lines(data)))
    for key, d in data.items():
        down = d["downloads"]
        print(f"\n{key}: cold runs {[round(x, 2) for x in d['cold_runs']]}, warm runs {[round(x, 2) for x in d['warm_runs']]}, "
              f"boots {d['boots']}, Python start (loadPyodide) {d['python_ms']['cold']:.0f} ms cold / "
              f"{d['python_ms']['warm']:.0f} ms warm; bytes sent {down['pyodide']['body'] + down['ours']['body']} "
              f"(Pyodide {down['pyodide']['body']}, ours {down['ours']['body']}), files {down['pyodide']['files'] + down['ours']['files']} "
              f"(gzip -6 {down['pyodide']['gzip'] + down['ours']['gzip']}), {down['requests']} requests; "
              f"snapshot kept {d['snapshot_bytes']} B; largest {down['largest']}")
        print(f"  cold fetches (name, start, end ms from navigation, bytes sent), first run: {d['fetches']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
