#!/usr/bin/env python3
"""Reading offline: what the service worker saves after the first visit, and what deciding it costs the build.

    .venv/bin/python benchmarks/offline.py [--sizes real,1000,10000] [--keep]

Plain functions returning dicts (for benchmarks/run.py to call on sites it has built):
  precache_size(site)       files, raw and gzip -6 bytes (each file as a host sends it) of the automatic
                            precache: the core and each game, which games would be offered per game, and the
                            build's own decision as written into sw.js
  offline_step_cost(site)   the time of the build's offline step (codex.offline's plan and the worker's text:
                            what hooks/glossary.py runs in on_post_build), measured on the built site
  workbox_build_cost(site)  the same manifest made by workbox-build's getManifest under Node.js (the
                            alternative this project did not take), when the npm package is installed
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
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(BENCH))

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


WORKBOX_BUILD = r"""
const {getManifest} = require(process.argv[1]);  // node -e: the first argument is argv[1]
getManifest({
  globDirectory: process.argv[2], globPatterns: ["**/*"], maximumFileSizeToCacheInBytes: 1e9,
  globIgnores: ["pdf/**", "assets/pyodide/**", "assets/workbox/**", "assets/offline/**", "**/*.map",
                "assets/codex/*.whl", "assets/codex/*.json", "_headers", "_redirects", "sitemap.xml.gz", "sw.js"],
}).then((r) => console.log(JSON.stringify({count: r.count, size: r.size})));
"""


def workbox_build_cost(site: Path) -> dict[str, Any] | None:
    """workbox-build's getManifest over the same files (one manifest: it has no split by game, no gzip sizes),
    as a Node.js subprocess the build would have to start; None when the npm package is not installed."""
    package = ROOT / "node_modules" / "workbox-build"
    node = shutil.which("node")
    if not package.is_dir() or node is None:
        return None
    start = time.perf_counter()
    result = subprocess.run([node, "-e", WORKBOX_BUILD, str(package), str(site)], capture_output=True, text=True,
                            timeout=900)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        return {"error": result.stderr.strip().splitlines()[-1:]}
    return {"wall_s": wall, **json.loads(result.stdout)}


# --- the command line: build each size, print the figures -----------------------------------------------------------


def _project(tmp: Path, size: str) -> Path:
    import synth

    project = tmp / f"project-{size}"
    project.mkdir(parents=True)
    for name in ("mkdocs.yml", "package.json"):
        shutil.copy2(ROOT / name, project / name)
    for name in ("docs", "hooks", "overrides"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (project / "node_modules").symlink_to(ROOT / "node_modules")
    if size == "real":
        shutil.copytree(ROOT / "glossary", project / "glossary")
    else:
        synth.write_glossary(project / "glossary", synth.scaled_glossary(total=int(size)))
    return project


def build(project: Path, site: Path) -> float:
    """`mkdocs build` without PDFs, as a subprocess; its wall time."""
    env = {**os.environ, "CODEX_PDF": "false", "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(project / "hooks")}
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)], cwd=project, env=env,
                            capture_output=True, text=True, timeout=3600)
    if result.returncode != 0:
        raise SystemExit(f"the build of {project} failed:\n{result.stderr[-2000:]}")
    return time.perf_counter() - start


def measure(size: str, tmp: Path) -> dict[str, Any]:
    print(f"offline: {size}: generating and building", file=sys.stderr, flush=True)
    project = _project(tmp, size)
    site = tmp / f"site-{size}"
    build_s = build(project, site)
    terms = sum(len(json.loads((site / "assets" / "codex" / f"{g}.json").read_text(encoding="utf-8"))["terms"])
                for g in _site_facts(site)[0])
    print(f"offline: {size}: measuring", file=sys.stderr, flush=True)
    step = offline_step_cost(site)
    return {"size": size, "terms": terms, "build_s": build_s, "offline_step": step,
            "offline_step_share": step["median_s"] / build_s, "workbox_build": workbox_build_cost(site),
            "precache": precache_size(site)}


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
    row("workbox-build getManifest instead (Node.js)", lambda r: f"{r['workbox_build']['wall_s']:.2f} s"
        if r["workbox_build"] and "wall_s" in r["workbox_build"] else str(r["workbox_build"] or "not installed"))
    limits = results[0]["precache"]["limits"]
    lines.append(f"\nLimits: a game over {_mb(limits['game'])} gzip, or past {_mb(limits['total'])} for the "
                 "automatic part, is offered per game. Sizes are gzip -6 of each file, exact.")
    return "\n".join(lines)


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
