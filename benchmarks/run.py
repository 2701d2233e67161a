#!/usr/bin/env python3
"""Every benchmark of the project in one run on one machine: medians and ratios, never assertions on times.

    .venv/bin/python benchmarks/run.py [--sizes real,1000,10000] [--quick] [--browser] [--json PATH]

Sections, one module each (see benchmarks/README.md for what each measures and how):
  1. resolver.py  index build, linking a ~10 KB post vs re.findall(r"\\w+"), real and 30x glossaries; precision/recall
  2. build.py     `mkdocs build` at each size vs a plain Material site with the same pages' text; per-event timings
  3. weight.py    a term page's HTML/CSS/JS and the search index, raw and gzip, project vs plain
  4. check.py     `python -m codex check` at each size
  5. search.py    site search in Chromium: bytes, first keystroke to result, heap; codex's engine vs Material's
  6. widget.py    (--browser) the linker widget in headless Chromium: bytes and time until ready, one linking call
  7. linker.py    hostile markup at 10 KB/100 KB/1 MB, 1 MB of mention-dense text; (--browser) the start-up breakdown
  8. offline.py   what the service worker saves after the first visit (core, per game, opt-in), and its build step
  9. embed.py     (--browser) hovercards on another site: embed.js and cards sizes, pointer-to-card time, requests
 10. startup.py   (--browser) the linker's start before/after the fast start (precompiled stdlib, snapshot), and
                  throttled like a phone (4x CPU, Fast 3G); on its own: python benchmarks/startup.py

Sizes: `real` is the glossary as it is; a number N is a synthetic glossary of N terms made from the real one
(synth.py). Everything is built in a temporary directory, never in the repository. The report is printed as
Markdown; the same figures go to --json (default: $TMPDIR/codex-benchmarks.json). --quick runs the smallest size
only with fewer repetitions (CI's smoke test). The exit status is 0 unless a section failed with an error (a missed
aim is reported, not an error).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(BENCH))

import build  # noqa: E402
import embed  # noqa: E402
import check  # noqa: E402
import linker  # noqa: E402
import offline  # noqa: E402
import resolver  # noqa: E402
import search  # noqa: E402
import startup  # noqa: E402
import weight  # noqa: E402
import widget  # noqa: E402
from common import Report, fmt_b, fmt_s, fmt_x, ratio, table, progress  # noqa: E402
from project import free_port  # noqa: E402


def _meta(args, sizes: list[str]) -> dict:
    def version(module: str) -> str:
        from importlib import metadata

        try:
            return metadata.version(module)
        except metadata.PackageNotFoundError:
            return "?"

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--", "hooks", "docs", "glossary", "mkdocs.yml", "overrides"],
                                cwd=ROOT, capture_output=True, text=True).stdout.strip())
    node = shutil.which("node")
    return {
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "commit": commit + (" + uncommitted changes" if dirty else ""),
        "python": platform.python_version(), "mkdocs": version("mkdocs"), "material": version("mkdocs-material"),
        "node": subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip() if node else None,
        "cpus": os.cpu_count(), "machine": platform.machine(), "load_before": os.getloadavg(),
        "sizes": sizes, "quick": args.quick,
    }


def _readme_table(report: Report, sizes: list[str]) -> None:
    d = report.data
    rows = []
    res = d.get("resolver", {}).get("glossaries", {})
    if "real" in res:
        for gid, r in res["real"]["games"].items():
            large = res.get("30x", {}).get("games", {}).get(gid)
            rows.append([f"link a 10 KB post, {gid}", f"{fmt_s(r['warm_s'])} = {fmt_x(r['ratio'])} tokenising "
                         f"({fmt_x(r['cpu_ratio'])} in CPU time)",
                         f"30× glossary: {fmt_s(large['warm_s'])}, {fmt_x(large['per_kb_vs_real'])} per KB" if large else "–"])
        q = res["real"]["quality"]
        rows.append(["precision / recall (posts, blind)",
                     " · ".join(f"{k}: {v['precision']:.2f} / {v['recall']:.2f}" for k, v in q.items()),
                     " · ".join(f"{k}: {v['precision']:.2f} / {v['recall']:.2f}"
                                for k, v in res.get("30x", {}).get("quality", {}).items()) or "–"])
    for size in sizes:
        b = d.get("build", {}).get(size)
        if b:
            nopdf, text = b["project without PDFs"], b["plain, same text"]
            rows.append([f"build, {size} ({b['pages']} pages)",
                         f"without PDFs {fmt_s(nopdf['wall_s'])}, peak {nopdf['tree_pss_mb']:.0f} MB; "
                         f"with PDFs {fmt_s(b['project']['wall_s'])} ({fmt_x(b['pdf_extra'])})",
                         f"plain, same text {fmt_s(text['wall_s'])}, {text['tree_pss_mb']:.0f} MB → {fmt_x(b['vs_plain'])}"])
    if "build_growth_10k_1k" in d:
        g = d["build_growth_10k_1k"]
        rows.append(["build growth 10k/1k terms (without PDFs)", fmt_x(g["without_pdfs"]), f"plain {fmt_x(g['plain'])}"])
    w = d.get("weight")
    if w:
        p, q = w["project"], w["plain"]
        tot = lambda x, k: sum(x[i][k] for i in ("html", "css", "js"))  # noqa: E731
        rows.append(["term page HTML+CSS+JS (gzip)", fmt_b(tot(p, "gzip")), f"plain {fmt_b(tot(q, 'gzip'))}" if q else "–"])
    for size in sizes:
        s = w and w.get("search_index", {}).get(size)
        if s:
            rows.append([f"search index, {size} (gzip)", fmt_b(s["project"]["gzip"]), f"plain {fmt_b(s['plain']['gzip'])}"])
    for size in sizes:
        c = d.get("check", {}).get(size)
        if c:
            rows.append([f"`codex check`, {size}", fmt_s(c["wall_s"]), f"{c['s_per_mb']:.1f} s per MB of YAML"])
    for size in sizes:
        ours = d.get("search", {}).get(f"{size}/codex", {}).get("queries", {}).get("aegis")
        theirs = d.get("search", {}).get(f"{size}/material", {}).get("queries", {}).get("aegis")
        if ours and theirs:
            def cell(q: dict[str, Any]) -> str:
                shown = "not found" if q["expected_ms"] is None else fmt_s(q["expected_ms"] / 1000)
                return f"{fmt_b(q['search_gzip'])} gzip, {shown}, worker heap {q['worker_heap_mb']:.1f} MB"
            rows.append([f"first search result («aegis»), {size}", cell(ours), f"Material's search: {cell(theirs)}"])
    b = d.get("browser")
    if b and "cold_s" in b:
        rows.append(["linker page → ready, cold / warm", f"{fmt_s(b['cold_s'])} / {fmt_s(b['warm_s'])}",
                     f"{fmt_b(b['cold_downloads']['body_bytes'])} cold, {fmt_b(b['warm_downloads']['body_bytes'])} warm"])
        rows.append(["link 10 KB in the browser", fmt_s(b["link_s"]), f"{fmt_x(ratio(b['link_s'], b['cpython_s']))} CPython"])
    report.section("Summary (for the README's Performance section)")
    report.emit(table(["measure", "value", "compared with"], rows))


def _linker(report: Report, args: Any, sites: dict[str, Any], port: int) -> None:
    """Section 7; with --browser, the start-up breakdown on the real site served here."""
    if args.browser and sites:
        from project import serve

        real = "real" if "real" in sites else next(iter(sites))
        with serve(sites[real]["project"], port) as url:
            linker.section(report, args, url)
    else:
        linker.section(report, args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="real,1000,10000", help="comma-separated: real and/or term counts")
    parser.add_argument("--quick", action="store_true", help="smallest size only, fewer runs (CI smoke test)")
    parser.add_argument("--browser", action="store_true", help="also measure the linker widget in headless Chromium")
    parser.add_argument("--json", type=Path, default=Path(tempfile.gettempdir()) / "codex-benchmarks.json",
                        help="where to write the figures as JSON (default: %(default)s)")
    parser.add_argument("--profile", action="store_true", help="add cProfile listings (linking; the largest build)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects and sites (path printed)")
    parser.add_argument("--only", default="resolver,build,weight,check,search,browser,linker,offline,embed",
                        help="comma-separated sections to run (build is needed by weight, check, search, browser)")
    args = parser.parse_args(argv)

    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    for s in sizes:
        if s != "real" and not s.isdigit():
            parser.error(f"unknown size '{s}' (use real or a number of terms)")
    sizes.sort(key=lambda s: 0 if s == "real" else int(s))
    if args.quick:
        sizes = sizes[:1]
    only = set(args.only.split(","))

    report = Report()
    report.data["meta"] = _meta(args, sizes)
    meta = report.data["meta"]
    report.emit("# Rules Codex benchmarks\n")
    report.emit(f"{meta['date']} · commit {meta['commit']} · Python {meta['python']} · MkDocs {meta['mkdocs']} · "
                f"Material {meta['material']} · Node {meta['node'] or '–'} · {meta['cpus']} CPUs · load average before "
                f"{meta['load_before'][0]:.1f} · sizes {', '.join(sizes)}{' · quick' if args.quick else ''}. "
                f"One run on one machine: compare the ratios, not the absolute times.")
    tmp = Path(tempfile.mkdtemp(prefix="codex-bench-"))
    port = free_port()
    started = time.perf_counter()
    sites: dict = {}

    def run(name: str, fn: Callable[[], Any]) -> Any:
        if name not in only:
            return None
        try:
            return fn()
        except Exception:  # noqa: BLE001 - the report says which section failed, and the others still run
            text = traceback.format_exc()
            report.errors.append(f"{name}: {text.strip().splitlines()[-1]}")
            report.emit(f"\n**Section {name} failed:**\n\n```\n{text}```")
            return None

    try:
        run("resolver", lambda: resolver.section(report, args, tmp))
        if only & {"build", "weight", "check", "search", "browser", "offline"}:
            sites = run("build", lambda: build.section(report, args, tmp, sizes, port)) or {}
        if sites:
            run("weight", lambda: weight.section(report, sites, sizes))
            run("check", lambda: check.section(report, args, sites, sizes))
            run("offline", lambda: offline.section(report, sites, sizes))
            run("search", lambda: search.section(report, args, tmp, sites, sizes, port))
            if args.browser:
                run("browser", lambda: widget.section(report, args, sites, port))
                run("browser", lambda: startup.section(report, args, sites))
        run("linker", lambda: _linker(report, args, sites, port))
        if args.browser:
            run("embed", lambda: embed.section(report, tmp, free_port()))
        if "browser" in only and not args.browser:
            report.data["browser"] = {"skipped": "run with --browser"}
        _readme_table(report, sizes)
        report.section("Aims")
        report.emit(table(["aim", "measured", "target", "verdict"], [list(a) for a in report.aims]) if report.aims
                    else "No aim was measured.")
        report.data["aims"] = [dict(zip(("what", "value", "target", "verdict"), a)) for a in report.aims]
    finally:
        meta["load_after"] = os.getloadavg()
        meta["duration_s"] = time.perf_counter() - started
        report.data["errors"] = report.errors
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report.data, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
        if args.keep:
            progress(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    report.emit(f"\nTook {fmt_s(meta['duration_s'])}; load average after {meta['load_after'][0]:.1f}. "
                f"JSON: {args.json}")
    if report.errors:
        print("\nfailed sections: " + "; ".join(report.errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
