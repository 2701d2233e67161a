#!/usr/bin/env python3
"""Reading offline: what the service worker saves after the first visit, and what deciding it costs the build.

    .venv/bin/python benchmarks/offline.py [--sizes real,1000,10000] [--keep]

Plain functions returning dicts (for benchmarks/run.py to call on sites it has built):
  precache_size(site)       files, raw and gzip -6 bytes (each file as a host sends it) of the automatic
                            precache: the core and each game, which games would be offered per game, and the
                            build's own decision as written into sw.js
  offline_step_cost(site)   the time of the build's offline step (codex.offline's plan and the worker's text:
                            what hooks/glossary.py runs in on_post_build), measured on the built site
`__main__` builds the real glossary and synthetic ones (benchmarks/synth.py) with CODEX_PDF=false in temporary
directories and prints the figures. Nothing is written in the repository.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT / "tests"))

from codex import offline  # noqa: E402


def _site_files(site: Path) -> list[str]:
    root = str(site)
    return [os.path.join(folder, name)[len(root) + 1:].replace(os.sep, "/")
            for folder, _, names in os.walk(root) for name in names]


def _read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def _site_facts(site: Path) -> tuple[list[str], str, tuple[str, ...] | None]:
    """The game ids (the linker's manifest lists them), the Pyodide folder, Material's search languages."""
    manifest = json.loads((site / "assets" / "codex" / "manifest.json").read_text(encoding="utf-8"))
    games = [game["id"] for game in manifest["games"]]
    pyodide = "assets/" + manifest["pyodide"].removeprefix("../")
    index = site / offline.MATERIAL_SEARCH_INDEX
    langs = offline.search_languages(index.read_text(encoding="utf-8") if index.is_file() else None)
    return games, pyodide, langs


def _plan(site: Path, limits: offline.Limits, exact: bool = False) -> offline.Plan:
    """codex.offline's plan of a built site, read as hooks/glossary.py reads it."""
    games, pyodide, langs = _site_facts(site)
    root = str(site)
    return offline.plan(_site_files(site), lambda path: _read(os.path.join(root, path)), games, limits=limits,
                        search_langs=langs, pyodide_dir=pyodide, exact=exact)


def built_decision(site: Path) -> dict[str, Any] | None:
    """What the build wrote into sw.js: each game's files and (estimated when large) gzip bytes, automatic or not."""
    worker = site / offline.WORKER
    if not worker.is_file():
        return None
    data = json.loads(re.search(r"const BUILD = (\{.*?\});\n", worker.read_text(encoding="utf-8")).group(1))
    return {"precache_files": len(data["precache"]), "games": data["games"]}


def precache_size(site: Path, limits: offline.Limits = offline.Limits()) -> dict[str, Any]:
    """Exact sizes of every part of a built site, and which games `limits` would offer per game."""
    exact = _plan(site, limits, exact=True)
    decided = _plan(site, limits)  # what the build decides, from its sampled estimate

    def sizes(part: offline.Part) -> dict[str, int]:
        return {"files": len(part.entries), "raw": part.raw, "gzip": part.gzip}

    automatic = [exact.core, *(exact.games[g] for g in decided.automatic)]
    every = [exact.core, *exact.games.values()]
    return {
        "core": sizes(exact.core),
        "games": {g: sizes(part) for g, part in exact.games.items() if part.entries},
        "automatic_games": decided.automatic,
        "optional_games": decided.optional,
        "automatic": {"files": sum(len(p.entries) for p in automatic), "raw": sum(p.raw for p in automatic),
                      "gzip": sum(p.gzip for p in automatic)},
        "everything": {"files": sum(len(p.entries) for p in every), "raw": sum(p.raw for p in every),
                       "gzip": sum(p.gzip for p in every)},
        "limits": {"game": limits.game, "total": limits.total},
        "estimated": {g: part.gzip for g, part in decided.games.items() if part.entries},  # the build's figures
        "built": built_decision(site),
    }


def offline_step_cost(site: Path, runs: int = 3) -> dict[str, Any]:
    """Median time of the build's offline step on a built site (file cache warm, as right after MkDocs wrote it)."""
    source = (ROOT / "docs" / offline.WORKER).read_text(encoding="utf-8")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        plan = _plan(site, offline.Limits())
        offline.outputs(plan, source, ["assets/workbox/x/workbox-core.prod.js"])
        times.append(time.perf_counter() - start)
    return {"median_s": statistics.median(times), "runs": runs}


# --- the command line: build each size, print the figures -----------------------------------------------------------


def build(project: Path, site: Path) -> float:
    """`mkdocs build` without PDFs, as a subprocess; its wall time."""
    from measure import build_env, run_measured

    result = run_measured([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)], project,
                          {**build_env(0, project), "CODEX_PDF": "false"}, site.parent / f"{site.name}.log")
    if result["rc"] != 0:
        raise SystemExit(f"the build of {project} failed:\n{result['log_tail']}")
    wall: float = result["wall_s"]
    return wall


def measure(size: str, tmp: Path) -> dict[str, Any]:
    print(f"offline: {size}: generating and building", file=sys.stderr, flush=True)
    from build import make_project

    project = make_project(tmp, size)
    site = tmp / f"site-{size}"
    build_s = build(project, site)
    terms = sum(len(json.loads((site / "assets" / "codex" / f"{g}.json").read_text(encoding="utf-8"))["terms"])
                for g in _site_facts(site)[0])
    print(f"offline: {size}: measuring", file=sys.stderr, flush=True)
    step = offline_step_cost(site)
    return {"size": size, "terms": terms, "build_s": build_s, "offline_step": step,
            "offline_step_share": step["median_s"] / build_s, "precache": precache_size(site)}


def _mb(n: float) -> str:
    return f"{n / offline.MB:.2f} MB" if n >= 100 * 1024 else f"{n / 1024:.0f} KB"


def report(results: list[dict[str, Any]]) -> str:
    lines = ["| measure | " + " | ".join(f"{r['size']} ({r['terms']} terms)" for r in results) + " |",
             "|---|" + "---|" * len(results)]

    def row(name: str, cell: Any) -> None:
        lines.append(f"| {name} | " + " | ".join(cell(r) for r in results) + " |")

    row("saved automatically: files", lambda r: f"{r['precache']['automatic']['files']:,}")
    row("… raw / gzip", lambda r: f"{_mb(r['precache']['automatic']['raw'])} / {_mb(r['precache']['automatic']['gzip'])}")
    row("core: files, gzip", lambda r: f"{r['precache']['core']['files']:,}, {_mb(r['precache']['core']['gzip'])}")
    for game in results[0]["precache"]["games"]:
        row(f"{game}: files, gzip", lambda r, g=game: f"{r['precache']['games'][g]['files']:,}, "
            f"{_mb(r['precache']['games'][g]['gzip'])}" + (" (per game)" if g in r["precache"]["optional_games"] else ""))
    row("everything (core + every game): gzip", lambda r: _mb(r["precache"]["everything"]["gzip"]))
    row("the build's estimate of each game, vs exact", lambda r: ", ".join(
        f"{(r['precache']['estimated'][g] / r['precache']['games'][g]['gzip'] - 1):+.1%}" for g in r["precache"]["games"]))
    row("offered per game", lambda r: ", ".join(r["precache"]["optional_games"]) or "none")
    row("`mkdocs build` without PDFs", lambda r: f"{r['build_s']:.1f} s")
    row("… of which the offline step", lambda r: f"{r['offline_step']['median_s']:.2f} s "
        f"({r['offline_step_share']:.1%})")
    limits = results[0]["precache"]["limits"]
    lines.append(f"\nLimits: a game over {_mb(limits['game'])} gzip, or past {_mb(limits['total'])} for the "
                 "automatic part, is offered per game. Sizes are gzip -6 of each file, exact.")
    return "\n".join(lines)


def section(report_: Any, sites: dict[str, Any], sizes: list[str]) -> None:
    """Section 8 of benchmarks/run.py, on the sites section 2 built (their builds' times are section 2's)."""
    results = []
    for size in sizes:
        site = sites[size]["project"]
        build_s = report_.data["build"][size]["project without PDFs"]["wall_s"]
        step = offline_step_cost(site, runs=1 if size != "real" else 3)
        terms = sum(len(json.loads((site / "assets" / "codex" / f"{g}.json").read_text(encoding="utf-8"))["terms"])
                    for g in _site_facts(site)[0])
        results.append({"size": size, "terms": terms, "build_s": build_s, "offline_step": step,
                        "offline_step_share": step["median_s"] / build_s, "precache": precache_size(site)})
    report_.data["offline"] = results
    report_.section("8. Offline: what the service worker saves")
    report_.emit(report(results))
    real = next((r for r in results if r["size"] == "real"), None)
    if real:
        gzip = real["precache"]["automatic"]["gzip"]
        report_.aim("automatic precache, real glossary (gzip)", _mb(gzip), "≤ 3 MB",
                    "met" if gzip <= 3 * offline.MB else "**not met**")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="real,1000,10000")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects and sites")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="codex-offline-"))
    load_before = os.getloadavg()[0]
    try:
        results = [measure(size, tmp) for size in args.sizes.split(",")]
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept: {tmp}", file=sys.stderr)
    print(report(results))
    print(f"Load average at the start / end: {load_before:.1f} / {os.getloadavg()[0]:.1f} "
          f"({os.cpu_count()} CPUs; times are comparable within one run only).")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
