"""Section 2, the build at scale: `mkdocs build` of the project against plain Material sites, and where the time goes.

The floor is a plain Material site holding the same pages' text: the same mkdocs.yml through INHERIT (theme,
search, Markdown extensions) without hooks or theme overrides, the same hand-written docs/, and for every page the
project generates a Markdown page with that page's text (both languages' labels, names, definitions, relation lists;
headings kept), outside the nav as the term pages are. The earlier floor — ordinary pages as long as the project's
*Markdown* was — is kept, labelled, for comparison with older figures.

Timings per MkDocs event come from MkDocs' own event machinery: two hooks (timing_first.py, timing_last.py) run
first and last in every event and mark a clock; the gaps between events give the phases MkDocs spends outside any
handler (Markdown conversion, Material's templates, copying static files). Nothing of MkDocs is patched.
"""
from __future__ import annotations

import re
import shutil
import sys
import time
from collections import defaultdict
from itertools import pairwise
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import synth
import timing_clock
from common import AIMS, Report, aim, fmt_b, fmt_s, fmt_x, profile_text, progress, ratio, table
from measure import build_env, run_measured
from project import copy_project

BENCH = Path(__file__).resolve().parent


def make_project(tmp: Path, size: str) -> Path:
    """A copy of the project with the real glossary, or a synthetic one of `size` terms (benchmarks/synth.py)."""
    project = tmp / f"project-{size}"
    if project.exists():
        shutil.rmtree(project)
    if size == "real":
        return copy_project(project)
    glossary = tmp / f"glossary-{size}"
    synth.write_glossary(glossary, synth.scaled_glossary(total=int(size)))
    return copy_project(project, glossary)


class _Text(HTMLParser):
    """A generated page's text as Markdown: one paragraph per block, headings kept, markup characters escaped."""

    BLOCKS: ClassVar[set[str]] = {"p", "li", "h1", "h2", "h3", "div", "section", "ul", "label", "button"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.current: list[str] = []
        self.heading = 0

    def _flush(self) -> None:
        text = " ".join("".join(self.current).split())
        if text:
            text = re.sub(r"([\\`*_\[\]<>#|!])", r"\\\1", text)
            self.blocks.append(("#" * self.heading + " " if self.heading else "") + text)
        self.current, self.heading = [], 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCKS or tag in ("h1", "h2", "h3"):
            self._flush()
            self.heading = int(tag[1]) if tag in ("h1", "h2", "h3") else 0

    def handle_endtag(self, tag: str) -> None:
        if tag in self.BLOCKS:
            self._flush()

    def handle_data(self, data: str) -> None:
        self.current.append(data)


def _plain_config(plain: Path, base: Path, nav: list[str]) -> None:
    shutil.copy2(base, plain / "base.yml")
    (plain / "overrides").mkdir(exist_ok=True)  # the same custom_dir, empty: Material's own templates
    config = ["INHERIT: base.yml", "hooks: []", "extra:", "  alternate: false", "validation:",
              "  omitted_files: info", "not_in_nav: |", "  /*/*.md", "nav:"]
    config += [f"  - {p}" for p in nav]
    (plain / "mkdocs.yml").write_text("\n".join(config) + "\n", encoding="utf-8")


def make_plain_text(tmp: Path, size: str, project: Path) -> tuple[Path, int]:
    """The floor: a plain Material site with a Markdown page holding each generated page's text, same paths."""
    from codex.check import load
    from codex.site import build_site

    plain = tmp / f"plain-text-{size}"
    if plain.exists():
        shutil.rmtree(plain)
    shutil.copytree(project / "docs", plain / "docs")
    content = build_site(load(project / "glossary", project), "http://127.0.0.1/", pdfs=True)
    chars = 0
    for src, page in content.pages.items():
        parser = _Text()
        parser.feed(page.html)
        parser._flush()
        text = "\n\n".join(parser.blocks) + "\n"
        chars += len(text)
        target = plain / "docs" / src
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    games = sorted(p for p in content.pages if p.endswith("/index.md"))
    _plain_config(plain, project / "mkdocs.yml", ["index.md", *games, "linker.md"])
    return plain, chars


def make_plain_same_length(tmp: Path, size: str, project: Path, lengths: dict[str, int]) -> Path:
    """The earlier floor: ordinary prose pages as long as the project's page sources, for older comparisons."""
    plain = tmp / f"plain-length-{size}"
    if plain.exists():
        shutil.rmtree(plain)
    shutil.copytree(project / "docs", plain / "docs")
    for i, (src, length) in enumerate(sorted(lengths.items())):
        target = plain / "docs" / src
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(synth.plain_page(Path(src).stem.replace("-", " ").title(), length, i), encoding="utf-8")
    games = sorted(p for p in lengths if p.count("/") == 1 and p.endswith("/index.md"))
    _plain_config(plain, project / "mkdocs.yml", ["index.md", *games, "linker.md"])
    return plain


def build_in_process(project: Path, site_dir: Path, port: int, pdf: bool = False) -> dict[str, Any]:
    """One build in this process with the timing hooks: each event's handler time and the phases between events."""
    import logging
    import os

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    env = {"NO_MKDOCS_2_WARNING": "1", "SITE_URL": f"http://127.0.0.1:{port}/", "CODEX_PDF": "true" if pdf else "false"}
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    timing_clock.marks.clear()
    try:
        config = load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(site_dir), hooks=[
            str(BENCH / "timing_first.py"), str(project / "hooks" / "glossary.py"), str(BENCH / "timing_last.py")])
        start = time.perf_counter()
        build(config)
        total = time.perf_counter() - start
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return {"total_s": total, **_timings(timing_clock.marks)}


def _timings(marks: list[tuple[str, str, float]]) -> dict[str, Any]:
    """Handler time per event (summed over pages), and the phases between events that no handler spends."""
    events: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    open_at: dict[str, float] = {}
    for event, edge, t in marks:
        if edge == "start":
            open_at[event] = t
        elif event in open_at:
            events[event] += t - open_at.pop(event)
            calls[event] += 1
    phases: dict[str, float] = defaultdict(float)
    gaps = {("page_markdown", "page_content"): "Markdown → HTML (MkDocs)",
            ("page_context", "post_page"): "page templates (Material)",
            ("env", "pre_template"): "copy static files",
            ("page_read_source", "page_markdown"): "read sources, front matter"}
    for (event, edge, t), (next_event, next_edge, next_t) in pairwise(marks):
        label = gaps.get((event, next_event))
        if label and edge == "end" and next_edge == "start":
            phases[label] += next_t - t
    return {"events": dict(events), "calls": dict(calls), "phases": dict(phases)}


def section(report: Report, args: Any, tmp: Path, sizes: list[str], port: int) -> dict[str, dict[str, Path]]:
    """Builds at each size (sections 3–5 read the sites built here); returns them."""
    results: dict[str, Any] = {}
    sites: dict[str, dict[str, Path]] = {}
    for size in sizes:
        progress(f"build: preparing the {size} project")
        project = make_project(tmp, size)
        plain, text_chars = make_plain_text(tmp, size, project)
        progress(f"build: {size}: in-process build with event timings (no PDFs)")
        inproc = build_in_process(project, tmp / f"site-inproc-{size}", port)
        from codex.check import load
        from codex.site import build_site, front_matter

        lengths = {src: len(front_matter(page)) + len(page.html)
                   for src, page in build_site(load(project / "glossary", project), "x", pdfs=True).pages.items()}
        plain_length = make_plain_same_length(tmp, size, project, lengths)
        runs = 1 if (args.quick or size != "real") else 3
        measured: dict[str, list[dict[str, Any]]] = defaultdict(list)
        builds = {
            "project": (project, {"CODEX_PDF": "true"}, tmp / f"site-{size}"),
            "project without PDFs": (project, {"CODEX_PDF": "false"}, tmp / f"site-nopdf-{size}"),
            "plain, same text": (plain, {}, tmp / f"plain-site-{size}"),
            "plain, same length (earlier floor)": (plain_length, {}, tmp / f"plain-length-site-{size}"),
        }
        for run in range(runs):  # alternated, so all see the same machine load
            for label, (folder, extra, site) in builds.items():
                progress(f"build: {size}: {label} (run {run + 1}/{runs})")
                env = {**build_env(port, folder if folder == project else None), **extra}
                result = run_measured([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(folder / "mkdocs.yml"),
                                       "-d", str(site)], folder, env, tmp / f"build-{size}-{len(measured[label])}.log")
                if result["rc"] != 0:
                    raise RuntimeError(f"{label} build at size {size} failed:\n{result['log_tail']}")
                measured[label].append(result)
        entry = {label: _summarise(runs_) for label, runs_ in measured.items()}
        entry["pages"] = len(lengths)
        entry["plain_text_chars"] = text_chars
        entry["in_process"] = inproc
        entry["project_site"] = _site_stats(tmp / f"site-{size}")
        if args.profile and size == sizes[-1]:
            progress(f"build: {size}: profiling an in-process build")
            entry["profile"] = profile_text(lambda: build_in_process(project, tmp / f"site-prof-{size}", port), 25)  # noqa: B023 - called at once
        results[size] = entry
        sites[size] = {"project": tmp / f"site-{size}", "plain": tmp / f"plain-site-{size}", "project_dir": project}
        for label in ("project without PDFs", "plain, same length (earlier floor)"):
            shutil.rmtree(builds[label][2], ignore_errors=True)
        shutil.rmtree(tmp / f"site-inproc-{size}", ignore_errors=True)
    report.data["build"] = results
    _report(report, results, sizes)
    return sites


def _summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    from common import median

    return {
        "wall_s": median([r["wall_s"] for r in runs]), "cpu_s": median([r["cpu_s"] for r in runs]),
        "max_rss_mb": max(r["max_rss_mb"] for r in runs), "tree_pss_mb": max(r["tree_pss_mb"] for r in runs),
        "runs": len(runs), "wall_all_s": [r["wall_s"] for r in runs], "warnings": max(r["warnings"] for r in runs),
    }


def _site_stats(site: Path) -> dict[str, int]:
    files = [p for p in site.rglob("*") if p.is_file()]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "html_pages": sum(1 for p in files if p.suffix == ".html")}


def _report(report: Report, results: dict[str, Any], sizes: list[str]) -> None:
    report.section("2. Build at scale")
    report.emit("`mkdocs build` in a subprocess, median of the runs shown, all four builds alternated. Plain, same "
                "text: the same mkdocs.yml (INHERIT) without hooks or overrides, the same docs/, and a Markdown page "
                "holding each generated page's text, outside the nav (the floor the aims use). Plain, same length: "
                "ordinary prose pages as long as the project's page sources (the earlier floor). Peak memory: the "
                "largest single process's RSS / the sampled PSS of the process tree (Chromium's included).\n")
    rows = []
    for size in sizes:
        r = results[size]
        project, nopdf = r["project"], r["project without PDFs"]
        text, length = r["plain, same text"], r["plain, same length (earlier floor)"]
        r["vs_plain"] = ratio(nopdf["wall_s"], text["wall_s"])
        r["pdf_extra"] = ratio(project["wall_s"], nopdf["wall_s"])
        r["vs_plain_length"] = ratio(nopdf["wall_s"], length["wall_s"])
        rows.append([size, r["pages"], f"{fmt_s(project['wall_s'])} (n={project['runs']})",
                     f"{project['max_rss_mb']:.0f} / {project['tree_pss_mb']:.0f} MB",
                     fmt_s(nopdf["wall_s"]), fmt_s(text["wall_s"]), fmt_s(length["wall_s"]),
                     fmt_x(r["vs_plain"]), fmt_x(r["pdf_extra"]), fmt_x(r["vs_plain_length"]),
                     fmt_b(r["project_site"]["bytes"])])
        report.aim(f"build without PDFs / plain site, same text ({size})", fmt_x(r["vs_plain"]), "≤ 2× (aim 1.5×)",
                   aim(r["vs_plain"], AIMS["build_vs_plain"]))
        report.aim(f"PDFs on their thread: build with / without ({size})", fmt_x(r["pdf_extra"]), "≤ 1.5×",
                   aim(r["pdf_extra"], AIMS["pdf_extra"]))
    report.emit(table(["size", "pages", "project", "its peak RSS / PSS", "without PDFs", "plain, same text",
                       "plain, same length", "without PDFs / plain text", "with PDFs / without",
                       "without PDFs / plain length", "site size"], rows))
    numeric = [s for s in sizes if s.isdigit()]
    if "1000" in numeric and "10000" in numeric:
        growth = ratio(results["10000"]["project without PDFs"]["wall_s"], results["1000"]["project without PDFs"]["wall_s"])
        plain_growth = ratio(results["10000"]["plain, same text"]["wall_s"], results["1000"]["plain, same text"]["wall_s"])
        report.data["build_growth_10k_1k"] = {"without_pdfs": growth, "plain": plain_growth}
        report.emit(f"\nGrowth 10,000 / 1,000 terms without PDFs: {fmt_x(growth)} (plain {fmt_x(plain_growth)}).")
        report.aim("build time growth 10k / 1k terms", fmt_x(growth), "≤ 11×", aim(growth, AIMS["build_growth_10k_1k"]))
    report.emit("\nWhere an in-process build without PDFs spends its time (one build per size): handler time of every "
                "MkDocs event (all plugins and hooks, summed over pages), and the phases between events:\n")
    labels: list[str] = []
    for size in sizes:
        for name in (*results[size]["in_process"]["events"], *results[size]["in_process"]["phases"]):
            if name not in labels:
                labels.append(name)
    rows = [["**total (in-process build)**"] + [fmt_s(results[s]["in_process"]["total_s"]) for s in sizes]]
    for name in labels:
        cells = []
        for size in sizes:
            inproc = results[size]["in_process"]
            if name in inproc["events"]:
                cells.append(f"{fmt_s(inproc['events'][name])} ×{inproc['calls'][name]}")
            else:
                cells.append(fmt_s(inproc["phases"].get(name, float("nan"))))
        rows.append([f"on_{name}" if name in results[sizes[0]]["in_process"]["events"] else name] + cells)
    report.emit(table(["event / phase"] + sizes, rows))
    for size in sizes:
        if "profile" in results[size]:
            report.emit(f"\nProfile of the in-process build at {size} (top functions by own time):\n")
            report.emit("```\n" + results[size]["profile"] + "\n```")
