"""The linker's start-up before and after the fast start, in headless Chromium: ready time, bytes, boot path.

"before": the same built site with the precompiled standard library taken out of its manifest, so the worker boots
Pyodide the stock way (what every start did before codex.stdlib). "after": the site as built — a first visit
boots from the build's precompiled standard library, and every later one from the memory snapshot the first
saved in Cache Storage.

cold = a new browser context (empty HTTP cache, Cache Storage, no service worker), navigation to /linker/ until
#linker-widget[data-state=ready]; warm = a reload in the same context (for "after": once the snapshot is saved).
Bytes: the response bodies the browser received for the page and its worker until ready, split into Pyodide's
(assets/pyodide/) and ours (everything else), with the gzip -6 size of the same files beside them. The site is
served by a small gzip-compressing static server on 127.0.0.1 (Netlify compresses too). "phone": Chromium's CPU
throttled 4× and its network shaped like DevTools' "Fast 3G" (562.5 ms latency, 180 KB/s down, 84 KB/s up), set
through CDP before the navigation.

`python benchmarks/startup.py [--site DIR] [--runs N] [--phone-runs N]` builds the real site when no DIR is given.
"""
from __future__ import annotations

import contextlib
import fnmatch
import gzip
import http.server
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar
from collections.abc import Iterator
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from project import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402

READY = "() => { const s = document.getElementById('linker-widget'); return s && s.dataset.state === 'ready'; }"
SNAPSHOT_SAVED = "() => window.codex.linker.state.snapshot !== undefined"
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
    handler = type("Handler", (_GzipHandler,), {"cache": {}})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), lambda *a: handler(*a, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.shutdown()
        server.server_close()


def stock_copy(site: Path, dest: Path) -> Path:
    """The site as it started before the fast start: its manifest without the precompiled stdlib (nor snapshot)."""
    shutil.copytree(site, dest, dirs_exist_ok=True)
    path = dest / "assets" / "codex" / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.pop("stdlib", None)
    manifest.pop("snapshot", None)
    path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    return dest


def _bytes(finished: list[Any], site: Path, base: str) -> dict[str, Any]:
    """Bytes received until ready, Pyodide's and ours, as received and as gzip -6 of the files."""
    out = {"pyodide": {"body": 0, "gzip": 0, "files": 0}, "ours": {"body": 0, "gzip": 0, "files": 0}, "requests": 0}
    largest = []
    counted: set[str] = set()  # a file asked for twice (the worker's early request, then Pyodide's) counts once
    for request in finished:
        if not request.url.startswith(base):
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

    colds: list[float] = []
    warms: list[float] = []
    boots: list[str] = []
    marks: list[dict[str, Any]] = []
    downloads: dict[str, Any] = {}
    warm_downloads: dict[str, Any] = {}
    snapshot_bytes = 0
    with serve_gzip(site, free_port()) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            for run in range(runs):
                context = browser.new_context(service_workers="block")
                finished: list[Any] = []
                context.on("requestfinished", lambda request, seen=finished: seen.append(request))
                page = context.new_page()
                _throttle(context, page, phone)
                start = time.perf_counter()
                page.goto(base + "linker/", wait_until="commit", timeout=TIMEOUT_MS)
                page.wait_for_function(READY, polling=20, timeout=TIMEOUT_MS)
                colds.append(time.perf_counter() - start)
                cold_marks = page.evaluate("window.codex.linker.state.marks")
                if run == 0:
                    downloads = _bytes(finished, site, base)
                if after:  # the next start is the snapshot's: wait until the worker saved it
                    page.wait_for_function(SNAPSHOT_SAVED, polling=50, timeout=TIMEOUT_MS)
                    snapshot_bytes = page.evaluate("window.codex.linker.state.snapshot") or 0
                finished.clear()
                start = time.perf_counter()
                page.reload(wait_until="commit", timeout=TIMEOUT_MS)
                page.wait_for_function(READY, polling=20, timeout=TIMEOUT_MS)
                warms.append(time.perf_counter() - start)
                warm_marks = page.evaluate("window.codex.linker.state.marks")
                if run == 0:
                    warm_downloads = _bytes(finished, site, base)
                boots.append(f"{cold_marks.get('boot')}/{warm_marks.get('boot')}")
                marks.append({"cold": cold_marks, "warm": warm_marks})
                context.close()
        finally:
            browser.close()
    return {"cold_s": statistics.median(colds), "warm_s": statistics.median(warms), "cold_runs": colds,
            "warm_runs": warms, "boots": boots, "downloads": downloads,
            "warm_downloads": warm_downloads, "snapshot_bytes": snapshot_bytes,
            "python_ms": {"cold": statistics.median(m["cold"]["pyodide_ready"] - m["cold"]["pyodide_module"] for m in marks),
                          "warm": statistics.median(m["warm"]["pyodide_ready"] - m["warm"]["pyodide_module"] for m in marks)}}


def run_all(site: Path, runs: int, phone_runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="codex-startup-") as tmp:
        stock = stock_copy(site, Path(tmp) / "stock")
        data: dict[str, Any] = {}
        for phone, count in ((False, runs), (True, phone_runs)):
            if count <= 0:
                continue
            for name, folder, after in (("before", stock, False), ("after", site, True)):
                data[f"{name}{'_phone' if phone else ''}"] = measure(folder, count, phone, after)
    return data


def _mb(n: float) -> str:
    return f"{n / 1e6:.2f} MB"


def report_lines(data: dict[str, Any]) -> list[str]:
    """The Markdown table the README quotes."""
    from common import fmt_s

    lines = ["| start | cold ready | warm ready | boot (cold/warm) | bytes until ready, cold, as sent (gzip) | "
             "of which Pyodide's | of which ours | bytes, warm |", "|---|---|---|---|---|---|---|---|"]
    for key, label in (("before", "before (stock Pyodide)"), ("after", "after (precompiled stdlib, then snapshot)"),
                       ("before_phone", "before, phone (4× CPU, Fast 3G)"), ("after_phone", "after, phone (4× CPU, Fast 3G)")):
        if key not in data:
            continue
        d = data[key]
        down = d["downloads"]
        total = down["pyodide"]["body"] + down["ours"]["body"]
        lines.append(f"| {label} | {fmt_s(d['cold_s'])} | {fmt_s(d['warm_s'])} | {', '.join(sorted(set(d['boots'])))} | "
                     f"{_mb(total)} | {_mb(down['pyodide']['body'])} | {_mb(down['ours']['body'])} | "
                     f"{_mb(d['warm_downloads']['pyodide']['body'] + d['warm_downloads']['ours']['body'])} |")
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


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build the real one in a temporary folder)")
    parser.add_argument("--runs", type=int, default=5, help="cold/warm pairs per variant (median)")
    parser.add_argument("--phone-runs", type=int, default=3, help="the same, throttled like a phone (0: none)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="codex-startup-site-") as tmp:
        site = args.site
        if site is None:
            from mkdocs.commands.build import build
            from mkdocs.config import load_config

            site = Path(tmp) / "site"
            build(load_config(config_file=str(ROOT / "mkdocs.yml"), site_dir=str(site), strict=True))
        data = run_all(site, args.runs, args.phone_runs)
    if args.json:
        args.json.write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")
    print("\n".join(report_lines(data)))
    for key, d in data.items():
        down = d["downloads"]
        print(f"\n{key}: cold runs {[round(x, 2) for x in d['cold_runs']]}, warm runs {[round(x, 2) for x in d['warm_runs']]}, "
              f"boots {d['boots']}, Python start (loadPyodide) {d['python_ms']['cold']:.0f} ms cold / "
              f"{d['python_ms']['warm']:.0f} ms warm; bytes sent {down['pyodide']['body'] + down['ours']['body']} "
              f"(Pyodide {down['pyodide']['body']}, ours {down['ours']['body']}), files {down['pyodide']['files'] + down['ours']['files']} "
              f"(gzip -6 {down['pyodide']['gzip'] + down['ours']['gzip']}), {down['requests']} requests; "
              f"snapshot kept {d['snapshot_bytes']} B; largest {down['largest']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
