"""Section 4, `python -m codex check` at each size, as a contributor runs it (a subprocess: start-up included)."""
from __future__ import annotations

import sys
from typing import Any

from common import Report, fmt_b, fmt_s, fmt_x, median, ratio, table
from measure import build_env, run_measured


def section(report: Report, args: Any, sites: dict[str, Any], sizes: list[str]) -> None:
    rows, data = [], {}
    for size in sizes:
        project = sites[size]["project_dir"]
        runs = 3 if (args.quick or size == "real") else (3 if size.isdigit() and int(size) <= 1000 else 1)
        measured = []
        for _ in range(runs):
            measured.append(run_measured([sys.executable, "-m", "codex", "check"], project,
                                         build_env(0, project), project.parent / f"check-{size}.log"))
        failed = [m for m in measured if m["rc"] != 0]
        if failed:
            raise RuntimeError(f"codex check failed at size {size}:\n{failed[0]['log_tail']}")
        yml = sum(p.stat().st_size for p in (project / "glossary").glob("*.yml"))
        wall = median([m["wall_s"] for m in measured])
        data[size] = {"wall_s": wall, "runs": runs, "max_rss_mb": max(m["max_rss_mb"] for m in measured),
                      "glossary_bytes": yml, "s_per_mb": wall / (yml / 1048576)}
        rows.append([size, fmt_b(yml), f"{fmt_s(wall)} (n={runs})", f"{data[size]['s_per_mb']:.1f} s/MB",
                     f"{data[size]['max_rss_mb']:.0f} MB"])
    report.section("4. `python -m codex check`")
    report.emit("Subprocess from the temporary project directory (interpreter start-up included).\n")
    report.emit(table(["size", "glossary YAML", "check", "per MB of YAML", "peak RSS"], rows))
    numeric = [s for s in sizes if s.isdigit()]
    if "1000" in numeric and "10000" in numeric:
        growth = ratio(data["10000"]["wall_s"], data["1000"]["wall_s"])
        report.emit(f"\nGrowth 10,000 / 1,000 terms: {fmt_x(growth)}.")
        data["growth_10k_1k"] = growth
    report.data["check"] = data


