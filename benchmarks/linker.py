"""Linker benchmarks: adversarial markup at 10 KB / 100 KB / 1 MB, 1 MB of mention-dense text, widget start-up.

Plain functions returning dicts (benchmarks/run.py wires them in); `python benchmarks/linker.py [--site URL]`
prints them. Times are CPU time of this thread (time.thread_time) where the work is ours, so a busy shared
machine skews them less; ratios are taken within one run.
"""
from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(ROOT / "tests"))

FRAGMENTS = ["[", "![", "[url=", "[code", "[a](", "<a ", "`", "@", "http://", "> ", "    ", "~~~", "*", "_", "|",
             "**Aegis** ", "[**Aegis** ", "[x]: ", "<!--", "(", "\\"]
SIZES = (10_000, 100_000, 1_000_000)
DENSE = "У моего Creature с Aegis 2 два жетона Burn, и брони нет. [link](http://x) `code` "


def _codex() -> Any:
    from codex.api import Codex
    from codex.check import load

    return Codex.from_glossary(load(ROOT / "glossary", ROOT), "https://example.org/")


def _cpu(fn: Callable[[], Any], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.thread_time()
        fn()
        times.append(time.thread_time() - start)
    return statistics.median(times)


def adversarial(codex: Any = None, fragments: list[str] = FRAGMENTS, sizes: tuple[int, ...] = SIZES) -> dict:
    """Seconds (CPU) to link `fragment` repeated to each size, per output format, and the growth per 10x."""
    codex = codex or _codex()
    out: dict[str, Any] = {}
    for fragment in fragments:
        row: dict[str, Any] = {}
        for fmt in ("markdown", "bbcode", "html"):
            times = {}
            for size in sizes:
                text = (fragment * (size // len(fragment) + 1))[:size]
                times[size] = _cpu(lambda: codex.link("mage-wars", text, fmt),  # noqa: B023 - called at once
                                   runs=1 if size >= 1_000_000 else 3)
            growth = [times[b] / times[a] if times[a] > 0 else None for a, b in pairwise(sizes)]
            row[fmt] = {"seconds": times, "growth_per_10x": growth}
        out[fragment] = row
    return out


def dense(codex: Any = None, repeats: int = 12_000) -> dict:
    """1 MB of mention-dense text: Codex.link (Markdown) and mentions vs re.findall(r"\\w+"), and the CLI with JSON."""
    codex = codex or _codex()
    text = DENSE * repeats
    codex.link("mage-wars", text)
    findall = _cpu(lambda: re.findall(r"\w+", text), runs=5)
    link = _cpu(lambda: codex.link("mage-wars", text), runs=5)
    auto = _cpu(lambda: codex.link("auto", text), runs=3)
    mentions = _cpu(lambda: codex.mentions("mage-wars", text), runs=3)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as handle:
        handle.write(text)
        path = handle.name
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "hooks")}
        runs = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "codex", "link", "--game", "mage-wars", "--format", "json", path],
                           cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
            runs.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        python = time.perf_counter() - start
    finally:
        os.unlink(path)
    cli = statistics.median(runs)
    return {"bytes": len(text.encode()), "mentions": len(codex.mentions("mage-wars", text)),
            "findall_s": findall, "link_s": link, "link_ratio": link / findall, "link_auto_s": auto,
            "link_auto_ratio": auto / findall, "mentions_s": mentions, "cli_json_s": cli,
            "cli_json_ratio": cli / findall, "python_start_s": python}


def widget_startup(site_url: str, runs: int = 3) -> dict:
    """Cold start of the served site's /linker/ in fresh Chromium contexts: the worker's performance marks.

    Phases (ms, each from the previous mark): manifest (its fetch), pyodide_module (importing pyodide.mjs),
    pyodide_ready (loadPyodide: the wasm's fetch and compile, the standard library's unpacking, the interpreter's
    start), wheel (unpacking codex), codex_imported (importing it), indexes_fetched (waiting for the indexes,
    fetched since the manifest arrived), indexes_loaded (parsing them into resolvers)."""
    from playwright.sync_api import sync_playwright

    from project import CHROMIUM as DEBIAN_CHROMIUM, CHROMIUM_ARGS

    results = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(DEBIAN_CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        for _ in range(runs):
            context = browser.new_context()
            page = context.new_page()
            start = time.perf_counter()
            page.goto(site_url.rstrip("/") + "/linker/", wait_until="commit")
            page.wait_for_function("() => { const s = document.getElementById('linker-widget');"
                                   " return s && s.dataset.state === 'ready'; }", polling=10, timeout=180_000)
            total = time.perf_counter() - start
            marks = page.evaluate("window.codex.linker.state.marks")
            steps = ["start", "manifest", "pyodide_module", "pyodide_ready", "wheel", "codex_imported",
                     "indexes_fetched", "indexes_loaded"]
            phases = {b: marks[b] - marks[a] for a, b in pairwise(steps) if a in marks and b in marks}
            worker_ms = marks.get("indexes_loaded", 0) - marks.get("start", 0)
            # before the worker's first line: the page, the theme, linker-client.js, the worker script's fetch
            results.append({"ready_s": total, "worker_phases_ms": phases, "worker_total_ms": worker_ms,
                            "before_worker_ms": total * 1000 - worker_ms})
            context.close()
        browser.close()
    median = statistics.median(r["ready_s"] for r in results)
    return {"ready_s_median": median, "runs": results}


def section(report: Any, args: Any, site_url: str | None = None) -> None:
    """Section 7 of benchmarks/run.py: the tables of `adversarial`, `dense` and (with a site) `widget_startup`."""
    from common import fmt_s, fmt_x, table

    codex = _codex()
    data: dict[str, Any] = {}
    data["adversarial"] = adversarial(codex, FRAGMENTS[:8], SIZES[:2]) if args.quick else adversarial(codex)
    data["dense"] = dense(codex)
    if site_url:
        data["widget"] = widget_startup(site_url, runs=1 if args.quick else 3)
    report.data["linker"] = data
    report.section("7. Linker on hostile and dense input")
    sizes = list(next(iter(data["adversarial"].values()))["markdown"]["seconds"])
    rows = []
    for fragment, row in data["adversarial"].items():
        worst = max(row, key=lambda fmt: row[fmt]["seconds"][sizes[-1]])
        growth = [g for fmt in row for g in row[fmt]["growth_per_10x"] if g]
        rows.append([f"`{fragment.strip() or repr(fragment)}`", *[fmt_s(row[worst]["seconds"][n]) for n in sizes],
                     worst, fmt_x(max(growth)) if growth else "–"])
    report.emit("The fragment repeated to each size, linked in each output format (CPU time of the slowest format "
                "shown), and the largest growth per 10× size of any format (linear: about 10×).\n")
    report.emit(table(["fragment", *[f"{n // 1000} KB" for n in sizes], "slowest format", "worst growth / 10×"], rows))
    d = data["dense"]
    report.emit(f"\n1 MB of mention-dense text ({d['mentions']} mentions): `re.findall(r\"\\w+\")` {fmt_s(d['findall_s'])}; "
                f"`Codex.link` {fmt_s(d['link_s'])} = {fmt_x(d['link_ratio'])}; with the game detected "
                f"{fmt_s(d['link_auto_s'])} = {fmt_x(d['link_auto_ratio'])}; the CLI with JSON {fmt_s(d['cli_json_s'])} "
                f"(Python's own start-up {fmt_s(d['python_start_s'])}).")
    report.aim("1 MB mention-dense: Codex.link / findall", fmt_x(d["link_ratio"]), "≤ 10×",
               "met" if d["link_ratio"] <= 10 else "**not met**")
    if "widget" in data:
        runs = data["widget"]["runs"]
        phases = sorted({k for r in runs for k in r["worker_phases_ms"]}, key=list(runs[0]["worker_phases_ms"]).index)
        rows = [[phase, fmt_s(statistics.median(r["worker_phases_ms"].get(phase, 0) for r in runs) / 1000)] for phase in phases]
        rows.append(["before the worker's first line (page, theme, linker-client.js, worker fetch)",
                     fmt_s(statistics.median(r["before_worker_ms"] for r in runs) / 1000)])
        rows.append(["**navigation → ready, cold**", fmt_s(data["widget"]["ready_s_median"])])
        report.emit(f"\nWhere the linker's cold start goes (median of {len(runs)} fresh contexts; the worker's own marks):\n")
        report.emit(table(["phase", "time"], rows))
        report.aim("linker page → ready, cold", fmt_s(data["widget"]["ready_s_median"]), "≤ 2.5 s",
                   "met" if data["widget"]["ready_s_median"] <= 2.5 else "**not met**")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--site", help="a served site's URL, for the widget start-up breakdown")
    parser.add_argument("--quick", action="store_true", help="10 KB and 100 KB only, a few fragments")
    args = parser.parse_args(argv)
    codex = _codex()
    report: dict[str, Any] = {}
    if args.quick:
        report["adversarial"] = adversarial(codex, FRAGMENTS[:6], SIZES[:2])
    else:
        report["adversarial"] = adversarial(codex)
    report["dense"] = dense(codex)
    if args.site:
        report["widget"] = widget_startup(args.site)
    print(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
