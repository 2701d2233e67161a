#!/usr/bin/env python3
"""Every benchmark of the project in one run on one machine: medians and ratios, never assertions on times.

    .venv/bin/python benchmarks/run.py [--sizes real,1000,10000] [--quick] [--browser] [--json PATH]

Sections (see benchmarks/README.md for what each one measures and how):
  1. resolver   index build, linking a ~10 KB post vs re.findall(r"\\w+"), on the real glossary and one 30x larger;
                precision and recall on both annotated corpora with both glossaries
  2. build      `mkdocs build` wall time and peak memory at each size vs a plain Material site of as many pages of
                the same length (no hooks); time per hook event and per build phase (in-process build)
  3. weight     a term page's HTML/CSS/JS and the search index, raw and gzip -6, project vs plain
  4. check      `python -m codex check` at each size
  5. search     Material's own search worker under Node.js: time and memory to build the index, project vs plain
  6. browser    (--browser) the resolver widget in headless Chromium: bytes and time until ready, cold and warm,
                and one linking call in the browser vs the same call in CPython

Sizes: `real` is the glossary as it is; a number N is a synthetic glossary of N terms made from the real one
(benchmarks/synth.py). Everything is built in a temporary directory, never in the repository. The report is
printed as Markdown; the same figures are written as JSON to --json (default: $TMPDIR/codex-benchmarks.json).
--quick runs the smallest size only, fewer repetitions, and skips the 30x resolver glossary (CI smoke test).
The exit status is 0 unless a section failed with an error (a missed aim is reported, not an error).
"""
from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gzip
import json
import logging
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(BENCH))

import synth  # noqa: E402

AIMS = {
    "link_vs_tokenise": 10.0,      # linking a post costs at most 10x tokenising it
    "per_kb_large_vs_real": 2.0,   # a 30x larger glossary costs at most 2x per KB of text
    "build_growth_10k_1k": 11.0,   # 10x the terms, at most 11x the build time
    "build_vs_plain": 1.5,         # at most 1.5x a plain Material site of as many pages
    "precision": 0.95,             # the corpus tests' thresholds
    "recall": 0.90,
}
PDF_LABEL = "codex.pdf.pdf_bytes (PDF printing)"
PDF_WAIT_LABEL = "… of which the build waited for (PDFs printed in the background)"
# The build without PDFs, for comparison: the same `mkdocs build` with codex.pdf's printing stubbed out in the
# subprocess (the hooks have no switch for it). Nothing in the project is changed.
NO_PDF = r"""
import concurrent.futures, sys
import codex.pdf as pdf
pdf.pdf_bytes = lambda *args, **kwargs: {}
def _nothing(*args, **kwargs):
    future = concurrent.futures.Future()
    future.set_result({})
    return future
pdf.print_in_background = _nothing
sys.argv = ["mkdocs", *sys.argv[1:]]
from mkdocs.__main__ import cli
cli()
"""


# --- small helpers ---------------------------------------------------------------------------------------------


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 6, mtime=0))


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def fmt_s(seconds: float) -> str:
    if seconds != seconds:  # NaN
        return "–"
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s" if seconds < 100 else f"{seconds:.0f} s"


def fmt_b(n: float) -> str:
    if n < 1024:
        return f"{n:.0f} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / 1024 / 1024:.1f} MB"


def fmt_x(x: float) -> str:
    return "–" if x != x else f"{x:.1f}×" if x < 100 else f"{x:.0f}×"


def aim(value: float, limit: float, higher_is_better: bool = False) -> str:
    if value != value:
        return "–"
    ok = value >= limit if higher_is_better else value <= limit
    return "met" if ok else "**not met**"


def table(headers: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Report:
    """Markdown printed as each section finishes, and the same figures as JSON."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.data: dict[str, Any] = {}
        self.aims: list[tuple[str, str, str, str]] = []  # what, value, aim, verdict
        self.errors: list[str] = []

    def section(self, title: str) -> None:
        self.emit(f"\n## {title}\n")

    def emit(self, text: str) -> None:
        self.parts.append(text)
        print(text, flush=True)

    def aim(self, what: str, value: str, target: str, verdict: str) -> None:
        self.aims.append((what, value, target, verdict))


# --- process measurement -----------------------------------------------------------------------------------------


def _group(pid: int) -> str | None:
    """The kind of a process by its name (None: it has exited)."""
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as f:
            name = f.read().strip().lower()
    except OSError:
        return None
    if name == "exe":  # Chromium's zygote and helpers re-exec /proc/self/exe
        return "chromium"
    for group in ("chrom", "node", "python", "mkdocs"):
        if name.startswith(group):
            return {"chrom": "chromium", "mkdocs": "python"}.get(group, group)
    return f"other ({name})"


def _tree_pss_kb(root_pid: int) -> dict[str, int]:
    """Proportional set size of a process and all its descendants, by kind of process (Chromium's share memory)."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children[ppid].append(int(entry))
    totals: dict[str, int] = defaultdict(int)
    stack = list(children.get(root_pid, ()))  # the trampoline itself is not counted
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, ()))
        kind = _group(pid)
        if kind is None:
            continue
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):
                        totals[kind] += int(line.split()[1])
                        break
        except OSError:
            pass
    return totals


# A small parent for every measured command. A child forked from this (large) process would report this process's
# RSS as its own peak (Linux keeps the pre-exec high-water mark), so the command is started from a fresh
# interpreter that is only a few MB, and that interpreter reports the command's own wall time and peak RSS.
TRAMPOLINE = r"""
import json, os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - start
proc.returncode = os.waitstatus_to_exitcode(status)
with open(sys.argv[1], "w") as f:
    json.dump({"rc": proc.returncode, "wall_s": wall, "max_rss_kb": usage.ru_maxrss,
               "cpu_s": usage.ru_utime + usage.ru_stime}, f)
sys.exit(0 if proc.returncode == 0 else 1)
"""


def run_measured(cmd: list[str], cwd: Path, env: dict[str, str], log: Path) -> dict:
    """Wall time, the command's own peak RSS (wait4) and the sampled peak PSS of its whole process tree."""
    peak: dict[str, int] = defaultdict(int)
    done = threading.Event()
    figures = log.with_suffix(".rusage.json")
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", TRAMPOLINE, str(figures), *cmd],
                                cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)

        def sample() -> None:
            while not done.wait(0.1):
                with contextlib.suppress(Exception):
                    sample_ = _tree_pss_kb(proc.pid)
                    peak["total"] = max(peak["total"], sum(sample_.values()))
                    for group, kb in sample_.items():
                        peak[group] = max(peak[group], kb)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        proc.wait()
        done.set()
        sampler.join()
    text = log.read_text(encoding="utf-8", errors="replace")
    try:
        measured = json.loads(figures.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        measured = {"rc": proc.returncode or 1, "wall_s": float("nan"), "max_rss_kb": 0, "cpu_s": float("nan")}
    return {
        "wall_s": measured["wall_s"], "rc": measured["rc"], "max_rss_mb": measured["max_rss_kb"] / 1024,
        "tree_pss_mb": peak["total"] / 1024, "pss_peak_by_kind_mb": {k: v / 1024 for k, v in peak.items() if k != "total"},
        "cpu_s": measured["cpu_s"], "log_tail": text[-2000:] if measured["rc"] else "",
        "warnings": len(re.findall(r"^WARNING", text, re.M)), "output": text,
    }


def build_env(port: int, project: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["SITE_URL"] = f"http://127.0.0.1:{port}/"
    if project is not None:
        env["PYTHONPATH"] = str(project / "hooks")
    return env


# --- section 1: the resolver ---------------------------------------------------------------------------------------


def post_for(game: str, posts: list[dict], limit: int = 10 * 1024) -> str:
    """The game's corpus posts, repeated, cut at a space to at most `limit` bytes of UTF-8."""
    body = "\n\n".join(p["text"] for p in posts if p["game"] == game)
    text = body
    while len(text.encode()) < limit:
        text += "\n\n" + body
    cut = text.encode()[:limit].decode("utf-8", "ignore")
    return cut[: max(cut.rfind(" "), cut.rfind("\n"))]


def _clear_lexeme_cache() -> None:
    from codex import forms

    cached = getattr(forms, "_russian_lexeme", None)
    if cached is not None and hasattr(cached, "cache_clear"):
        cached.cache_clear()


def bench_link(factories: dict[str, Callable[[], Any]], game: str, text: str, runs: int) -> dict[str, dict]:
    """Cold (a fresh resolver's first call) and warm linking with each glossary's index, and tokenising the same
    text: the warm runs of every glossary and of the baseline are interleaved, so they all see the same load."""
    out: dict[str, dict] = {label: {"cold": [], "warm": []} for label in factories}
    for _ in range(3):
        for label, factory in factories.items():
            codex = factory()
            start = time.perf_counter()
            codex.link(game, text)
            out[label]["cold"].append(time.perf_counter() - start)
    warm = {label: factory() for label, factory in factories.items()}
    for codex in warm.values():
        codex.link(game, text)
    tokens, tokens_cpu = [], []
    loops = 20
    for label in warm:
        out[label]["cpu"] = []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.thread_time()
        for _ in range(loops):
            re.findall(r"\w+", text)
        tokens.append((time.perf_counter() - start) / loops)
        tokens_cpu.append((time.thread_time() - cpu) / loops)
        for label, codex in warm.items():
            start, cpu = time.perf_counter(), time.thread_time()
            codex.link(game, text)
            out[label]["warm"].append(time.perf_counter() - start)
            out[label]["cpu"].append(time.thread_time() - cpu)
    result = {}
    for label, codex in warm.items():
        w = median(out[label]["warm"])
        result[label] = {"cold_s": median(out[label]["cold"]), "warm_s": w, "tokenise_s": median(tokens),
                         "ratio": ratio(w, median(tokens)), "cpu_ratio": ratio(median(out[label]["cpu"]), median(tokens_cpu)),
                         "mentions": len(codex.mentions(game, text)), "runs": runs, "warm_all_s": out[label]["warm"]}
    return result


def section_resolver(report: Report, args, tmp: Path) -> None:
    from codex import forms
    from codex.api import Codex
    from codex.check import load
    from codex.index import build
    from corpus_eval import CORPUS, evaluate, load_posts

    blind_path = CORPUS.parent / "blind.yml"
    corpora = {"posts": load_posts(CORPUS)}
    if blind_path.is_file():
        corpora["blind"] = load_posts(blind_path)
    posts = corpora["posts"]
    runs = 7 if args.quick else 21

    start = time.perf_counter()
    forms.russian_lexeme("проверка")  # the morphological dictionary loads once per process
    analyzer_s = time.perf_counter() - start

    glossaries = {"real": load(ROOT / "glossary", ROOT)}
    if not args.quick:
        progress("resolver: generating and loading the 30x glossary")
        directory = tmp / "resolver-x30" / "glossary"
        synth.write_glossary(directory, synth.scaled_glossary(factor=30))
        glossaries["30x"] = load(directory, directory.parent)

    data: dict[str, Any] = {"analyzer_load_s": analyzer_s, "post_bytes": {}, "glossaries": {},
                            "load_at_start": os.getloadavg()[0]}
    rows, quality_rows, size_rows = [], [], []
    indexes: dict[str, dict] = {label: {} for label in glossaries}
    for label in glossaries:
        data["glossaries"][label] = {"games": {}, "quality": {}}
    for gid in glossaries["real"].games:
        progress(f"resolver: {gid}")
        for label, glossary in glossaries.items():
            game = glossary.games[gid]
            builds = []
            for _ in range(1 if label != "real" or args.quick else 3):
                _clear_lexeme_cache()
                start = time.perf_counter()
                index = build(game)
                builds.append(time.perf_counter() - start)
            indexes[label][gid] = index
            encoded = index.to_json().encode()
            data["glossaries"][label]["games"][gid] = {
                "terms": len(game.terms), "index_build_s": median(builds), "index_json_bytes": len(encoded),
                "index_json_gzip": gz(encoded)}
        text = post_for(gid, posts)
        data["post_bytes"][gid] = len(text.encode())
        factories = {label: (lambda index=indexes[label][gid]: Codex({gid: index}, "https://example.org/"))
                     for label in glossaries}
        for label, link in bench_link(factories, gid, text, runs).items():
            data["glossaries"][label]["games"][gid].update(link)
    for label in glossaries:
        codex = Codex(indexes[label], "https://example.org/")
        for corpus, corpus_posts in corpora.items():
            score = evaluate(codex.mentions, corpus_posts)
            data["glossaries"][label]["quality"][corpus] = {
                "precision": score.precision, "recall": score.recall, "expected": score.expected,
                "predicted": score.predicted, "misses": score.misses, "false_alarms": score.false_alarms}
            quality_rows.append([label, corpus, score.expected, f"{score.precision:.3f}", f"{score.recall:.3f}"])

    real = data["glossaries"]["real"]["games"]
    large = data["glossaries"].get("30x", {}).get("games", {})
    for gid, r in real.items():
        kb = data["post_bytes"][gid] / 1024
        row = [gid, r["terms"], fmt_s(r["index_build_s"]), f"{kb:.1f} KB", fmt_s(r["cold_s"]), fmt_s(r["warm_s"]),
               fmt_s(r["tokenise_s"]), fmt_x(r["ratio"]), fmt_x(r["cpu_ratio"])]
        if large:
            lg = large[gid]
            per_kb = ratio(lg["warm_s"], r["warm_s"])  # same text, so the per-KB ratio is the time ratio
            lg["per_kb_vs_real"] = per_kb
            row += [lg["terms"], fmt_s(lg["index_build_s"]), fmt_s(lg["warm_s"]), fmt_x(lg["ratio"]), fmt_x(per_kb)]
            report.aim(f"per-KB linking cost, 30× glossary / real ({gid})", fmt_x(per_kb), "≤ 2×",
                       aim(per_kb, AIMS["per_kb_large_vs_real"]))
        rows.append(row)
        report.aim(f"linking / tokenising a 10 KB post ({gid}, real)", fmt_x(r["ratio"]), "≤ 10×",
                   aim(r["ratio"], AIMS["link_vs_tokenise"]))
        size_rows.append([gid, fmt_b(r["index_json_bytes"]), fmt_b(r["index_json_gzip"])]
                         + ([fmt_b(large[gid]["index_json_bytes"]), fmt_b(large[gid]["index_json_gzip"])] if large else []))
    for label, entry in data["glossaries"].items():
        for corpus, q in entry["quality"].items():
            report.aim(f"precision, {corpus} corpus, {label} glossary", f"{q['precision']:.3f}", "≥ 0.95",
                       aim(q["precision"], AIMS["precision"], higher_is_better=True))
            report.aim(f"recall, {corpus} corpus, {label} glossary", f"{q['recall']:.3f}", "≥ 0.90",
                       aim(q["recall"], AIMS["recall"], higher_is_better=True))

    headers = ["game", "terms", "index build", "post", "link (cold)", "link (warm, median)", "tokenise", "link/tokenise",
               "same, CPU time"]
    if large:
        headers += ["terms 30×", "index build 30×", "link 30× (warm)", "link/tokenise 30×", "per KB 30×/real"]
    report.section("1. Resolver")
    report.emit(f"Post: the game's posts from tests/corpus/posts.yml repeated and cut to ≤ 10 KB. Tokenise: "
                f"`re.findall(r\"\\w+\", text)`. Link: `Codex.link(game, text)` (Markdown). Warm: median of {runs} "
                f"runs, the real and the 30× glossary's interleaved with each other and with tokenising; cold: a fresh Resolver's first call (median of 3). Index build: "
                f"`index.build(game)` with an empty word-form cache (the morphological dictionary itself, loaded "
                f"once per process, took {fmt_s(analyzer_s)}).\n")
    report.emit(table(headers, rows))
    report.emit(f"\nLoad average when this section started: {data['load_at_start']:.1f}. The ratio is not load-invariant: "
                f"on a busy 2-core machine linking (Python, pointer-heavy) slows down more than tokenising (one C loop); "
                f"the CPU-time column leaves out the time the process was not scheduled.")
    report.emit("\nIndex as shipped to the browser (JSON):\n")
    report.emit(table(["game", "real", "real gzip"] + (["30×", "30× gzip"] if large else []), size_rows))
    report.emit("\nPrecision and recall (`tests/corpus_eval.evaluate`, exact span and term):\n")
    report.emit(table(["glossary", "corpus", "gold links", "precision", "recall"], quality_rows))
    report.data["resolver"] = data
    if args.profile:
        report.emit("\nProfile of linking one post (real glossary, warm, mage-wars or the first game):\n")
        gid = "mage-wars" if "mage-wars" in real else next(iter(real))
        glossary = glossaries["real"]
        codex = Codex({gid: build(glossary.games[gid])}, "https://example.org/")
        text = post_for(gid, posts)
        codex.link(gid, text)
        report.emit("```\n" + profile_text(lambda: [codex.link(gid, text) for _ in range(20)], 18) + "\n```")


def profile_text(fn: Callable[[], Any], limit: int) -> str:
    import cProfile
    import io
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(limit)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    head = next((line.strip() for line in lines if "function calls" in line), "")
    return "\n".join([head] + lines[start:])


# --- section 2: the build at scale -------------------------------------------------------------------------------


def make_project(tmp: Path, size: str) -> Path:
    """A copy of the project (config, docs, hooks, theme overrides) with a real or synthetic glossary."""
    project = tmp / f"project-{size}"
    if project.exists():
        shutil.rmtree(project)
    project.mkdir(parents=True)
    for name in ("mkdocs.yml", "package.json"):
        shutil.copy2(ROOT / name, project / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for name in ("docs", "hooks", "overrides"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, project / name, ignore=ignore)
    (project / "node_modules").symlink_to(ROOT / "node_modules")
    if size == "real":
        shutil.copytree(ROOT / "glossary", project / "glossary")
    else:
        synth.write_glossary(project / "glossary", synth.scaled_glossary(total=int(size)))
    return project


def make_plain(tmp: Path, size: str, project: Path, pages: dict[str, int]) -> tuple[Path, int]:
    """The floor: the same theme config without hooks, and as many ordinary Markdown pages of the same lengths."""
    plain = tmp / f"plain-{size}"
    if plain.exists():
        shutil.rmtree(plain)
    plain.mkdir(parents=True)
    shutil.copy2(project / "mkdocs.yml", plain / "base.yml")
    if (project / "overrides").is_dir():
        shutil.copytree(project / "overrides", plain / "overrides")
    shutil.copytree(project / "docs", plain / "docs")
    written = 0
    for i, (src, length) in enumerate(sorted(pages.items())):
        target = plain / "docs" / src
        if target.exists():
            continue  # a hand-written page: the same file as in the project
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(synth.plain_page(Path(src).stem.replace("-", " ").title(), length, i), encoding="utf-8")
        written += 1
    nav = ["index.md"] if (plain / "docs" / "index.md").exists() else []
    nav += sorted(p for p in pages if p.count("/") == 1 and p.endswith("/index.md"))
    nav += [p for p in ("resolver.md",) if (plain / "docs" / p).exists()]
    config = ["INHERIT: base.yml", "hooks: []", "validation:", "  omitted_files: info", "nav:"]
    config += [f"  - {p}" for p in nav]
    (plain / "mkdocs.yml").write_text("\n".join(config) + "\n", encoding="utf-8")
    return plain, written


class _Timers:
    """Accumulated wall time and call counts by label."""

    def __init__(self) -> None:
        self.total: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def wrap(self, label: str, fn: Callable) -> Callable:
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.total[label] += time.perf_counter() - start
                self.calls[label] += 1

        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        for attr in ("mkdocs_priority",):
            if hasattr(fn, attr):
                setattr(timed, attr, getattr(fn, attr))
        return timed


class _Captured(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname}: {record.getMessage()}"[:300])


def build_in_process(project: Path, site_dir: Path, port: int) -> dict:
    """One build in this process with every plugin/hook event, build phase and codex call of the hooks timed."""
    import mkdocs.commands.build as build_module
    from mkdocs.config import load_config
    from mkdocs.structure.files import Files

    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    old_site_url = os.environ.get("SITE_URL")
    os.environ["SITE_URL"] = f"http://127.0.0.1:{port}/"
    logger = logging.getLogger("mkdocs")
    captured = _Captured()
    logger.addHandler(captured)
    old_level = logger.level
    logger.setLevel(logging.WARNING)
    old_propagate = logger.propagate
    logger.propagate = False
    timers = _Timers()
    phases = _Timers()
    seen: dict[str, Any] = {}
    patched: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, label: str, into: _Timers) -> None:
        original = getattr(owner, name, None)
        if original is None:
            return
        patched.append((owner, name, original))
        setattr(owner, name, into.wrap(label, original))

    try:
        config = load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(site_dir))
        origins = config.plugins._event_origins
        hook_modules = list((config.get("hooks") or {}).values())
        for event, methods in config.plugins.events.items():
            for i, method in enumerate(methods):
                origin = origins.get(method, "?")
                wrapped = timers.wrap(f"{origin} · on_{event}", method)
                methods[i] = wrapped
                with contextlib.suppress(TypeError):
                    origins[wrapped] = origin
        # The codex functions the hooks call (imported by name into the hook module), and PDF printing.
        for module in hook_modules:
            for name, value in list(vars(module).items()):
                if callable(value) and getattr(value, "__module__", "").startswith("codex.") and not isinstance(value, type):
                    patch(module, name, f"{value.__module__}.{name}", phases)
        pdf = sys.modules.get("codex.pdf")
        if pdf is None:
            with contextlib.suppress(ImportError):
                import codex.pdf as pdf  # noqa: F811
        if pdf is not None and isinstance(getattr(pdf, "_printed", None), dict):
            pdf._printed.clear()  # no PDF reused from an earlier build in this process
        if pdf is not None and hasattr(pdf, "pdf_bytes"):
            patch(pdf, "pdf_bytes", PDF_LABEL, phases)
        if pdf is not None and hasattr(pdf, "print_in_background"):
            background = pdf.print_in_background

            def timed_background(*args, **kwargs):
                future = background(*args, **kwargs)
                future.result = phases.wrap(PDF_WAIT_LABEL, future.result)  # the instance's, not the class's
                return future

            patched.append((pdf, "print_in_background", background))
            pdf.print_in_background = timed_background
        for name, label in (("get_files", "get_files (scan docs/)"), ("get_navigation", "get_navigation"),
                            ("_populate_page", "read + Markdown→HTML (all pages)"),
                            ("_build_theme_template", "theme templates (404, sitemap)"),
                            ("_build_page", "render page templates + write (all pages)")):
            patch(build_module, name, label, phases)
        patch(Files, "copy_static_files", "copy static files", phases)
        original_nav = build_module.get_navigation

        def capture_nav(files, config):
            seen["files"] = files
            return original_nav(files, config)

        build_module.get_navigation = capture_nav  # type: ignore[assignment]
        patched.append((build_module, "get_navigation", original_nav))
        start = time.perf_counter()
        build_module.build(config)
        total = time.perf_counter() - start
    finally:
        for owner, name, original in reversed(patched):
            setattr(owner, name, original)
        logger.removeHandler(captured)
        logger.setLevel(old_level)
        logger.propagate = old_propagate
        if old_site_url is None:
            os.environ.pop("SITE_URL", None)
        else:
            os.environ["SITE_URL"] = old_site_url
    pages = {}
    for file in seen["files"].documentation_pages():
        with contextlib.suppress(Exception):
            pages[file.src_uri] = len(file.content_string)
    return {
        "total_s": total,
        "events": {k: {"s": v, "calls": timers.calls[k]} for k, v in sorted(timers.total.items(), key=lambda kv: -kv[1])},
        "phases": {k: {"s": v, "calls": phases.calls[k]} for k, v in sorted(phases.total.items(), key=lambda kv: -kv[1])},
        "pages": pages,
        "warnings": captured.messages[:20],
    }


def site_stats(site: Path) -> dict:
    files = [p for p in site.rglob("*") if p.is_file()]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "html_pages": sum(1 for p in files if p.suffix == ".html")}


def section_build(report: Report, args, tmp: Path, sizes: list[str], port: int, profile_size: str | None) -> dict:
    """Sections 2 (build), 3 (weight), 4 (check) and 5 (search) share the built sites; returns them."""
    results: dict[str, Any] = {}
    sites: dict[str, dict[str, Path]] = {}
    for size in sizes:
        progress(f"build: preparing the {size} project")
        entry: dict[str, Any] = {}
        start = time.perf_counter()
        project = make_project(tmp, size)
        entry["generate_s"] = time.perf_counter() - start
        progress(f"build: {size}: in-process build with timers")
        inproc = build_in_process(project, tmp / f"site-inproc-{size}", port)
        pages = inproc.pop("pages")
        entry["in_process"] = inproc
        entry["pages"] = len(pages)
        entry["markdown_chars"] = sum(pages.values())
        plain, plain_written = make_plain(tmp, size, project, pages)
        entry["plain_pages"] = len(pages)
        runs = 1 if (args.quick or size != "real") else 3
        project_runs, plain_runs, nopdf_runs = [], [], []
        for run in range(runs):  # alternated, so all see the same machine load
            progress(f"build: {size}: mkdocs build (project, run {run + 1}/{runs})")
            site = tmp / f"site-{size}"
            project_runs.append(run_measured(
                [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(project / "mkdocs.yml"), "-d", str(site)],
                project, build_env(port, project), tmp / f"build-{size}.log"))
            progress(f"build: {size}: mkdocs build (project without PDFs, run {run + 1}/{runs})")
            nopdf_runs.append(run_measured(
                [sys.executable, "-c", NO_PDF, "build", "-q", "-f", str(project / "mkdocs.yml"), "-d",
                 str(tmp / f"site-nopdf-{size}")],
                project, build_env(port, project), tmp / f"build-nopdf-{size}.log"))
            progress(f"build: {size}: mkdocs build (plain, run {run + 1}/{runs})")
            plain_site = tmp / f"plain-site-{size}"
            plain_runs.append(run_measured(
                [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(plain / "mkdocs.yml"), "-d", str(plain_site)],
                plain, build_env(port), tmp / f"plain-{size}.log"))
        for label, measured in (("project", project_runs), ("project without PDFs", nopdf_runs), ("plain", plain_runs)):
            failed = [m for m in measured if m["rc"] != 0]
            if failed:
                raise RuntimeError(f"{label} build at size {size} failed:\n{failed[0]['log_tail']}")
        entry["project"] = _summarise_runs(project_runs)
        entry["plain"] = _summarise_runs(plain_runs)
        entry["project_no_pdf"] = _summarise_runs(nopdf_runs)
        shutil.rmtree(tmp / f"site-nopdf-{size}", ignore_errors=True)
        entry["project_site"] = site_stats(tmp / f"site-{size}")
        entry["plain_site"] = site_stats(tmp / f"plain-site-{size}")
        entry["vs_plain"] = ratio(entry["project"]["wall_s"], entry["plain"]["wall_s"])
        if profile_size == size:
            progress(f"build: {size}: profiling an in-process build")
            entry["profile"] = profile_text(lambda: build_in_process(project, tmp / f"site-prof-{size}", port), 25)
        results[size] = entry
        sites[size] = {"project": tmp / f"site-{size}", "plain": tmp / f"plain-site-{size}", "project_dir": project}
        progress(f"build: {size}: project {fmt_s(entry['project']['wall_s'])}, plain {fmt_s(entry['plain']['wall_s'])}")
        shutil.rmtree(tmp / f"site-inproc-{size}", ignore_errors=True)
    report.data["build"] = results
    _report_build(report, results, sizes)
    return sites


def _summarise_runs(runs: list[dict]) -> dict:
    return {
        "wall_s": median([r["wall_s"] for r in runs]),
        "cpu_s": median([r["cpu_s"] for r in runs]),
        "max_rss_mb": max(r["max_rss_mb"] for r in runs),
        "tree_pss_mb": max(r["tree_pss_mb"] for r in runs),
        "pss_peak_by_kind_mb": {k: max(r["pss_peak_by_kind_mb"].get(k, 0) for r in runs)
                                for k in sorted({k for r in runs for k in r["pss_peak_by_kind_mb"]})},
        "runs": len(runs),
        "wall_all_s": [r["wall_s"] for r in runs],
        "warnings": max(r["warnings"] for r in runs),
    }


def _kinds(summary: dict) -> str:
    """Each kind's own peak (the peaks need not coincide, so they may add up to more than the total's)."""
    kinds = summary.get("pss_peak_by_kind_mb", {})
    return ", ".join(f"{k} {v:.0f}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]) if v >= 1) or "–"


def _report_build(report: Report, results: dict, sizes: list[str]) -> None:
    report.section("2. Build at scale")
    report.emit("`mkdocs build` in a subprocess (NO_MKDOCS_2_WARNING=1; PDFs printed, as in the real build), median of "
                "the runs shown; peak memory: the peak RSS of the largest single process of the build (wait4, which "
                "includes the PDF printer's Chromium processes) and the sampled peak PSS (every 0.1 s) of the whole "
                "process tree, shared pages counted once. Plain: the same mkdocs.yml "
                "(INHERIT) without hooks, the same hand-written docs/, and an ordinary Markdown page of the same "
                "length for every generated page, with the same short nav. The project's Markdown is largely link targets "
                "and tooltip titles, and it keeps relation lists out of search, so the plain pages carry several times "
                "more text (compare the search indexes in section 3): a generous floor. \"Without PDFs\": the same "
                "project build with codex.pdf's printing stubbed out in that subprocess (the hooks have no switch to "
                "turn PDFs off); alternated with the other two.\n")
    rows = []
    for size in sizes:
        r = results[size]
        p, q = r["project"], r["plain"]
        n = r["project_no_pdf"]
        r["pdf_s"] = r["in_process"]["phases"].get(PDF_LABEL, {}).get("s", 0.0)
        r["vs_plain_without_pdf"] = ratio(n["wall_s"], q["wall_s"])
        rows.append([size, r["pages"], f"{fmt_s(p['wall_s'])} (n={p['runs']})",
                     f"{p['max_rss_mb']:.0f} MB / {p['tree_pss_mb']:.0f} MB ({_kinds(p)})",
                     fmt_s(n["wall_s"]), f"{n['max_rss_mb']:.0f} MB",
                     fmt_s(q["wall_s"]), f"{q['max_rss_mb']:.0f} MB",
                     fmt_x(r["vs_plain"]), fmt_x(r["vs_plain_without_pdf"]),
                     fmt_b(r["project_site"]["bytes"]), fmt_b(r["plain_site"]["bytes"])])
        report.aim(f"build time / plain site ({size})", fmt_x(r["vs_plain"]), "≤ 1.5×", aim(r["vs_plain"], AIMS["build_vs_plain"]))
        report.aim(f"… the same without PDF printing ({size})", fmt_x(r["vs_plain_without_pdf"]), "≤ 1.5×",
                   aim(r["vs_plain_without_pdf"], AIMS["build_vs_plain"]))
    report.emit(table(["size", "pages", "project build", "peak RSS (largest process) / PSS (process tree, MB)",
                       "without PDFs", "its RSS", "plain build", "plain RSS", "project/plain", "without PDFs/plain",
                       "site size", "plain size"], rows))
    numeric = [s for s in sizes if s.isdigit()]
    if "1000" in numeric and "10000" in numeric:
        growth = ratio(results["10000"]["project"]["wall_s"], results["1000"]["project"]["wall_s"])
        plain_growth = ratio(results["10000"]["plain"]["wall_s"], results["1000"]["plain"]["wall_s"])
        inproc_growth = ratio(results["10000"]["in_process"]["total_s"], results["1000"]["in_process"]["total_s"])
        nopdf_growth = ratio(results["10000"]["project_no_pdf"]["wall_s"], results["1000"]["project_no_pdf"]["wall_s"])
        report.data["build_growth_10k_1k"] = {"project": growth, "plain": plain_growth, "in_process": inproc_growth,
                                              "without_pdfs": nopdf_growth}
        report.emit(f"\nGrowth 10,000 / 1,000 terms: project {fmt_x(growth)}, without PDFs {fmt_x(nopdf_growth)}, "
                    f"plain {fmt_x(plain_growth)}; the in-process builds (below, also one run each): "
                    f"{fmt_x(inproc_growth)}.")
        report.aim("build time growth 10k / 1k terms", fmt_x(growth), "≤ 11×", aim(growth, AIMS["build_growth_10k_1k"]))
    report.emit("\nWhere an in-process build spends its time (one build per size; page events run inside the "
                "per-page phases, and the codex calls inside the hook events that make them):\n")
    labels: list[str] = []
    for size in sizes:
        for group in ("events", "phases"):
            for label in results[size]["in_process"][group]:
                if label not in labels:
                    labels.append(label)
    rows = [["**total (in-process build)**"] + [fmt_s(results[s]["in_process"]["total_s"]) for s in sizes]]
    for label in labels:
        cells = []
        for size in sizes:
            entry = results[size]["in_process"]["events"].get(label) or results[size]["in_process"]["phases"].get(label)
            cells.append(f"{fmt_s(entry['s'])} ×{entry['calls']}" if entry else "–")
        rows.append([label] + cells)
    report.emit(table(["event / phase"] + sizes, rows))
    for size in sizes:
        warnings = results[size]["in_process"]["warnings"]
        if warnings:
            report.emit(f"\nBuild warnings ({size}): " + "; ".join(warnings[:5]))
        if "profile" in results[size]:
            report.emit(f"\nProfile of the in-process build at {size} (top functions by own time):\n")
            report.emit("```\n" + results[size]["profile"] + "\n```")


# --- section 3: page weight ----------------------------------------------------------------------------------------


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.css: list[str] = []
        self.js: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "link" and "stylesheet" in (a.get("rel") or "").split() and a.get("href"):
            self.css.append(a["href"])
        elif tag == "script" and a.get("src"):
            self.js.append(a["src"])


def page_weight(site: Path, page: Path) -> dict:
    parser = _Refs()
    html = page.read_bytes()
    parser.feed(html.decode("utf-8"))
    out = {"html": {"raw": len(html), "gzip": gz(html)}}
    for kind, refs in (("css", parser.css), ("js", parser.js)):
        raw = zipped = 0
        files = []
        for ref in refs:
            if re.match(r"^[a-z]+:", ref) or ref.startswith("//"):
                files.append({"ref": ref, "external": True})
                continue
            target = (page.parent / ref.split("?")[0].split("#")[0]).resolve()
            if target.suffix in (".woff", ".woff2", ".ttf", ".otf"):
                continue  # fonts excluded (theme.font is false anyway)
            data = target.read_bytes() if target.is_file() else b""
            raw += len(data)
            zipped += gz(data)
            files.append({"ref": ref, "raw": len(data), "gzip": gz(data)})
        out[kind] = {"raw": raw, "gzip": zipped, "files": files}
    # What Material's search loads on every page: its worker, lunr's language files, the index.
    worker = next(iter(sorted((site / "assets/javascripts/workers").glob("search.*.min.js"))), None)
    lunr = [site / "assets/javascripts/lunr/min" / n for n in
            ("lunr.stemmer.support.min.js", "lunr.ru.min.js", "lunr.multi.min.js")]
    search_js = [p for p in [worker, *lunr] if p and p.is_file()]
    data = b"".join(p.read_bytes() for p in search_js)
    out["search_js"] = {"raw": len(data), "gzip": sum(gz(p.read_bytes()) for p in search_js)}
    index = site / "search" / "search_index.json"
    raw = index.read_bytes() if index.is_file() else b""
    out["search_index"] = {"raw": len(raw), "gzip": gz(raw)}
    return out


def _term_page(site: Path) -> Path | None:
    preferred = site / "mage-wars" / "aegis" / "index.html"
    if preferred.is_file():
        return preferred
    for game in sorted(p for p in site.iterdir() if p.is_dir() and (p / "index.html").is_file()):
        pages = sorted(q for q in game.glob("*/index.html"))
        if pages:
            return pages[0]
    return None


def section_weight(report: Report, sites: dict, sizes: list[str]) -> None:
    report.section("3. Page weight")
    data: dict[str, Any] = {}
    real = "real" if "real" in sites else sizes[0]
    page = _term_page(sites[real]["project"])
    if page is None:
        report.emit("No term page found in the built site.")
        return
    rel = page.relative_to(sites[real]["project"])
    plain_page = sites[real]["plain"] / rel
    project = page_weight(sites[real]["project"], page)
    plain = page_weight(sites[real]["plain"], plain_page) if plain_page.is_file() else None
    data["page"] = str(rel)
    data["project"], data["plain"] = project, plain
    rows = []
    for key, label in (("html", "HTML"), ("css", "CSS (linked stylesheets)"), ("js", "JS (script src)"),
                       ("search_js", "search worker + lunr (ru, multi)"), ("search_index", "search index")):
        p = project[key]
        q = plain[key] if plain else {"raw": 0, "gzip": 0}
        rows.append([label, fmt_b(p["raw"]), fmt_b(p["gzip"]), fmt_b(q["raw"]), fmt_b(q["gzip"])])
    first = sum(project[k]["raw"] for k in ("html", "css", "js"))
    first_gz = sum(project[k]["gzip"] for k in ("html", "css", "js"))
    p_first = sum(plain[k]["raw"] for k in ("html", "css", "js")) if plain else 0
    p_first_gz = sum(plain[k]["gzip"] for k in ("html", "css", "js")) if plain else 0
    rows.append(["**page total (HTML+CSS+JS)**", fmt_b(first), fmt_b(first_gz), fmt_b(p_first), fmt_b(p_first_gz)])
    report.emit(f"Term page `{rel}` of the real site, and the plain site's page at the same path (same length of "
                f"Markdown); gzip -6; fonts excluded (theme.font is false). Material loads its search worker, lunr's "
                f"language files and the whole search index on every page.\n")
    report.emit(table(["what", "project", "project gzip", "plain", "plain gzip"], rows))
    js_files = ", ".join(f"{f['ref'].split('/')[-1]} {fmt_b(f.get('raw', 0))}" for f in project["js"]["files"])
    report.emit(f"\nScripts: {js_files}.")
    rows = []
    data["search_index"] = {}
    for size in sizes:
        p = sites[size]["project"] / "search" / "search_index.json"
        q = sites[size]["plain"] / "search" / "search_index.json"
        pr, qr = p.read_bytes(), q.read_bytes()
        entry = {"project": {"raw": len(pr), "gzip": gz(pr)}, "plain": {"raw": len(qr), "gzip": gz(qr)}}
        data["search_index"][size] = entry
        rows.append([size, fmt_b(len(pr)), fmt_b(entry["project"]["gzip"]), fmt_b(len(qr)), fmt_b(entry["plain"]["gzip"]),
                     fmt_x(ratio(len(pr), len(qr)))])
    report.emit("\nSearch index (search/search_index.json) at each size:\n")
    report.emit(table(["size", "project", "project gzip", "plain", "plain gzip", "project/plain"], rows))
    report.data["weight"] = data


# --- section 4: codex check ----------------------------------------------------------------------------------------


def section_check(report: Report, args, sites: dict, sizes: list[str]) -> None:
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


# --- section 5: the search index in a JavaScript runtime ----------------------------------------------------------


def section_search(report: Report, args, sites: dict, sizes: list[str]) -> None:
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


# --- section 6: the browser ----------------------------------------------------------------------------------------


def section_browser(report: Report, args, sites: dict, port: int) -> None:
    report.section("6. Resolver widget in the browser")
    import browser as browser_bench

    if not Path(browser_bench.CHROMIUM).is_file():
        report.emit(f"Skipped: {browser_bench.CHROMIUM} is missing (the Makefile's setup installs Debian's chromium).")
        report.data["browser"] = {"skipped": "chromium missing"}
        return
    try:
        import playwright  # noqa: F401
    except ImportError:
        report.emit("Skipped: Playwright for Python is not installed.")
        report.data["browser"] = {"skipped": "playwright missing"}
        return
    from codex.api import Codex
    from corpus_eval import load_posts

    real = "real" if "real" in sites else next(iter(sites))
    site = sites[real]["project"]
    manifest = json.loads((site / "assets" / "codex" / "manifest.json").read_text(encoding="utf-8"))
    games = [g["id"] for g in manifest["games"]]
    game = "mage-wars" if "mage-wars" in games else games[0]
    entry = next(g for g in manifest["games"] if g["id"] == game)
    index_text = (site / "assets" / "codex" / entry["index"]).read_text(encoding="utf-8")
    post = post_for(game, load_posts())

    def factory():
        codex = Codex.from_json({game: index_text}, manifest["site_url"])
        return lambda text: codex.link(game, text)

    runs = 1 if args.quick else 3
    data = browser_bench.measure(site, port, post, game, factory, runs=runs, link_runs=5 if args.quick else 15)
    report.data["browser"] = data
    cold, warm = data["cold_downloads"], data["warm_downloads"]
    rows = [
        ["bytes before `ready`, cold (new context)", f"{fmt_b(cold['body_bytes'])} in {cold['requests']} requests "
                                                     f"(gzip -6 of the same files: {fmt_b(cold['gzip_bytes'])})"],
        ["bytes before `ready`, warm (reload)", f"{fmt_b(warm['body_bytes'])} transferred "
                                                f"({sum(1 for r in warm['largest'] if r['body'] > 0)} of the largest 8 re-fetched)"],
        [f"navigation → `ready`, cold (median of {runs})", fmt_s(data["cold_s"])],
        [f"navigation → `ready`, warm (median of {runs})", fmt_s(data["warm_s"])],
        [f"link a {data['link_bytes'] / 1024:.1f} KB post ({game}) in the browser, first call", fmt_s(data["link_first_s"])],
        ["… in the browser, warm (median)", fmt_s(data["link_s"])],
        ["… in CPython, first call / warm", f"{fmt_s(data['cpython_first_s'])} / {fmt_s(data['cpython_s'])}"],
        ["browser / CPython (warm)", fmt_x(ratio(data["link_s"], data["cpython_s"]))],
    ]
    report.emit(f"Chromium {data['chromium']} (/usr/bin/chromium, headless) via Playwright; the real site served by "
                f"http.server on 127.0.0.1 (no compression). Bytes: the browser's own count of response bodies for "
                f"the page and its worker. The link call goes through the page's worker client "
                f"(`window.__codexResolver.request('link', …)`), so it includes postMessage and JSON both ways.\n")
    report.emit(table(["measure", "value"], rows))
    largest = ", ".join(f"{r['url'].split('/')[-1]} {fmt_b(max(r['body'], r['file']))}" for r in cold["largest"][:5])
    report.emit(f"\nLargest cold downloads: {largest}.")
    if not data.get("same_output"):
        report.emit("\n**The browser's output differs in length from CPython's for the same post.**")


# --- main --------------------------------------------------------------------------------------------------------


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
                     " · ".join(f"{k}: {v['precision']:.2f} / {v['recall']:.2f}" for k, v in res.get("30x", {}).get("quality", {}).items()) or "–"])
    for size in sizes:
        b = d.get("build", {}).get(size)
        if b:
            rows.append([f"build, {size} ({b['pages']} pages)",
                         f"{fmt_s(b['project']['wall_s'])}, peak {b['project']['tree_pss_mb']:.0f} MB; "
                         f"without PDFs {fmt_s(b['project_no_pdf']['wall_s'])}, {b['project_no_pdf']['tree_pss_mb']:.0f} MB",
                         f"plain {fmt_s(b['plain']['wall_s'])}, {b['plain']['tree_pss_mb']:.0f} MB → {fmt_x(b['vs_plain'])} "
                         f"({fmt_x(b.get('vs_plain_without_pdf', float('nan')))} without PDFs)"])
    if "build_growth_10k_1k" in d:
        g = d["build_growth_10k_1k"]
        rows.append(["build growth 10k/1k terms", f"{fmt_x(g['project'])} (without PDFs {fmt_x(g['without_pdfs'])}, "
                     f"in-process {fmt_x(g['in_process'])})", f"plain {fmt_x(g['plain'])}"])
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
        s = d.get("search", {}).get(f"{size}/project")
        q = d.get("search", {}).get(f"{size}/plain")
        if s:
            rows.append([f"search index build in JS, {size}", f"{fmt_s(s['setup_ms'] / 1000)}, {s['heap_index_mb']:.0f} MB heap",
                         f"plain {fmt_s(q['setup_ms'] / 1000)}, {q['heap_index_mb']:.0f} MB" if q else "–"])
    b = d.get("browser")
    if b and "cold_s" in b:
        rows.append(["resolver page → ready, cold / warm", f"{fmt_s(b['cold_s'])} / {fmt_s(b['warm_s'])}",
                     f"{fmt_b(b['cold_downloads']['body_bytes'])} cold, {fmt_b(b['warm_downloads']['body_bytes'])} warm"])
        rows.append(["link 10 KB in the browser", fmt_s(b["link_s"]), f"{fmt_x(ratio(b['link_s'], b['cpython_s']))} CPython"])
    report.section("Summary (for the README's Performance section)")
    report.emit(table(["measure", "value", "compared with"], rows))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="real,1000,10000", help="comma-separated: real and/or term counts")
    parser.add_argument("--quick", action="store_true", help="smallest size only, fewer runs (CI smoke test)")
    parser.add_argument("--browser", action="store_true", help="also measure the resolver widget in headless Chromium")
    parser.add_argument("--json", type=Path, default=Path(tempfile.gettempdir()) / "codex-benchmarks.json",
                        help="where to write the figures as JSON (default: %(default)s)")
    parser.add_argument("--profile", action="store_true", help="add cProfile listings (linking; the largest build)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects and sites (path printed)")
    parser.add_argument("--only", default="resolver,build,weight,check,search,browser",
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
        run("resolver", lambda: section_resolver(report, args, tmp))
        if only & {"build", "weight", "check", "search", "browser"}:
            profile_size = sizes[-1] if args.profile else None
            sites = run("build", lambda: section_build(report, args, tmp, sizes, port, profile_size)) or {}
        if sites:
            run("weight", lambda: section_weight(report, sites, sizes))
            run("check", lambda: section_check(report, args, sites, sizes))
            run("search", lambda: section_search(report, args, sites, sizes))
            if args.browser:
                run("browser", lambda: section_browser(report, args, sites, port))
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
