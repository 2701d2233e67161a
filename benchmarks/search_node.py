"""Section 5, Material's own search worker under Node.js: building the lunr index from the site's search_index.json."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from common import Report, fmt_b, fmt_s, median, ratio, table
from measure import run_measured

BENCH = Path(__file__).resolve().parent


def section(report: Report, args: Any, sites: dict[str, Any], sizes: list[str]) -> None:
    report.section("5. Search index in Node.js (Material's own search worker)")
    node = shutil.which("node")
    if node is None:
        report.emit("Skipped: Node.js is not installed, so Material's search worker could not be run.")
        report.data["search"] = {"skipped": "node not found"}
        return
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    queries = ["aegis", "эгида", "атака"]
    rows, data = [], {}
    for size in sizes:
        for kind in ("project", "plain"):
            runs = 3 if (size == "real" and not args.quick) else 1
            measured = []
            for _ in range(runs):
                run = run_measured([node, "--expose-gc", str(BENCH / "search_worker.cjs"), str(sites[size][kind]), *queries],
                                   BENCH, dict(os.environ), sites[size][kind].parent / f"node-{size}-{kind}.log")
                if run["rc"] != 0:
                    raise RuntimeError(f"search worker under Node failed ({size}, {kind}): {run['output'][-1500:]}")
                line = next(x for x in reversed(run["output"].splitlines()) if x.startswith("{"))
                figures = json.loads(line)
                figures["max_rss_mb"] = run["max_rss_mb"]  # node's own maxRSS would include this process's (fork)
                measured.append(figures)
            best = sorted(measured, key=lambda m: m["setup_ms"])[len(measured) // 2]
            best["setup_all_ms"] = [m["setup_ms"] for m in measured]
            data[f"{size}/{kind}"] = best
            query_ms = median([q["median_ms"] for q in best["searches"].values()])
            rows.append([size, kind, best["docs"], fmt_b(best["index_bytes"]), fmt_s(best["parse_ms"] / 1000),
                         f"{fmt_s(best['setup_ms'] / 1000)} (n={runs})", f"{best['heap_index_mb']:.0f} MB",
                         f"{best['max_rss_mb']:.0f} MB", fmt_s(query_ms / 1000)])
    report.emit(f"`node --expose-gc benchmarks/search_worker.cjs SITE` ({version}): the site's "
                f"search.*.min.js with a Web Worker shim (self, addEventListener, postMessage, importScripts); "
                f"SETUP → READY is what a tab does after fetching the index; heap: retained after GC; query: median of "
                f"7 searches for each of {', '.join(queries)}.\n")
    report.emit(table(["size", "site", "sections", "index", "JSON.parse", "build index", "heap kept", "peak RSS",
                       "query"], rows))
    for size in sizes:
        p, q = data.get(f"{size}/project"), data.get(f"{size}/plain")
        if p and q:
            data[f"{size}/ratio_setup"] = ratio(p["setup_ms"], q["setup_ms"])
    report.data["search"] = data


