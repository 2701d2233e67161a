"""`python -m codex pdf` with its printing children spawned (the code) against forked (how the README's PDF figures
were first measured), interleaved in one run so that both see the same load.

Each game prints in a child process of its own (hooks/codex/pdf.py's `Job`). A spawned child is a fresh
interpreter: it imports what it needs before it prints, where a forked one starts with its parent's modules. The
fork runs patch `multiprocessing.get_context` for that command only; nothing in the code changes. Runs on its own:
`.venv/bin/python benchmarks/pdf.py [--runs 3] [--sizes real,1000]`. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(BENCH))

from build import make_project  # noqa: E402
from measure import run_measured  # noqa: E402

METHODS = ("spawn", "fork")

# `python -m codex pdf …` with every multiprocessing context of the given start method (argv[1]); a fork server
# (`--methods spawn,fork,forkserver`) imports the printing modules once, before it forks each child (its children
# are the server's to reap: their CPU time is not in the command's, only the wall time compares).
COMMAND = r"""
import multiprocessing, runpy, sys
method = sys.argv.pop(1)
get_context = multiprocessing.get_context
multiprocessing.get_context = lambda _method=None: get_context(method)
if method == "forkserver":
    multiprocessing.set_forkserver_preload(["codex.printable", "typst"])
sys.argv[0] = "codex"
runpy.run_module("codex", run_name="__main__", alter_sys=True)
"""


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (5 min {five:.1f})"


def measure(project: Path, runs: int, out: Path, methods: list[str]) -> dict[str, dict[str, list[float]]]:
    """Wall and CPU seconds (the command's and its children's) of `runs` prints per start method, the methods'
    order reversed every other round. On a loaded machine the CPU time is the steadier figure."""
    env = {**os.environ, "PYTHONPATH": str(project / "hooks")}
    out.mkdir(parents=True, exist_ok=True)
    times: dict[str, dict[str, list[float]]] = {method: {"wall_s": [], "cpu_s": []} for method in methods}
    for run in range(runs):
        for method in methods if run % 2 == 0 else methods[::-1]:
            result = run_measured([sys.executable, "-c", COMMAND, method, "pdf", "--out", str(out / method)],
                                  project, env, out / f"{method}-{run}.log")
            if result["rc"] != 0:
                raise SystemExit(f"{method}: {result['log_tail']}")
            for kind, values in times[method].items():
                values.append(result[kind])
            print(f"  {method} run {run + 1}: {result['wall_s']:.2f} s wall, {result['cpu_s']:.2f} s CPU, "
                  f"tree PSS {result['tree_pss_mb']:.0f} MB, load {load()}", file=sys.stderr, flush=True)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="real", help="real and/or synthetic sizes (terms), comma-separated")
    parser.add_argument("--methods", default=",".join(METHODS), help="start methods, comma-separated; the first is "
                        "the one the code uses, the others are compared with it")
    args = parser.parse_args()
    methods = args.methods.split(",")
    print(f"load at the start: {load()}; {os.cpu_count()} CPUs")
    print(f"| glossary | seconds | {' | '.join(f'{m} (median; runs)' for m in methods)} | "
          f"{' | '.join(f'{methods[0]} / {m}' for m in methods[1:])} |")
    print("|---" * (2 * len(methods) + 1) + "|")
    with tempfile.TemporaryDirectory(prefix="codex-pdf-bench-") as tmp:
        for size in args.sizes.split(","):
            project = make_project(Path(tmp), size)
            times = measure(project, args.runs, Path(tmp) / f"out-{size}", methods)
            for kind in ("wall_s", "cpu_s"):
                runs = [times[m][kind] for m in methods]
                medians = [statistics.median(r) for r in runs]
                cells = [f"{median:.2f} ({', '.join(f'{t:.2f}' for t in r)})" for r, median in zip(runs, medians)]
                ratios = [f"{medians[0] / median:.2f}×" for median in medians[1:]]
                print(f"| {size} | {kind[:-2]} | {' | '.join(cells + ratios)} |", flush=True)
    print(f"load at the end: {load()}")


if __name__ == "__main__":
    main()
