"""Section 9: hovercards on another site (embed.js) in headless Chromium — the script's size, each game's cards file,
and the time from the pointer resting on a link to the card showing, first card (its data fetched) and later ones.

The real glossary is built without PDFs and served with its generated `_headers` (tests/site_server.py); a forum
page on another port, under a CSP naming only the site, holds links of three games. A probe installed before the
page's scripts stamps `pointerover` on a link and, by polling every animation frame, the frame the card shows in.
Runs on its own too: `.venv/bin/python benchmarks/embed.py`. Nothing is asserted.
"""
from __future__ import annotations

import gzip
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "hooks"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(BENCH))

from common import Report, fmt_b, progress, table  # noqa: E402
from project import CHROMIUM, CHROMIUM_ARGS, build_site, copy_project, free_port, serve  # noqa: E402
from site_server import SiteServer  # noqa: E402

EMBED_BUDGET = 8 * 1024  # gzip bytes (the aim)
CARD_BUDGET_MS = 100  # a card within 100 ms of the dwell once the data is there
LINKS = (("mage-wars", "aegis", "Aegis 2"), ("mage-wars", "armor", "Armor"), ("mage-wars", "burn", "Burn"),
         ("keyforge", "cost", "Cost"), ("dnd-miniatures", "line-of-sight", "line of sight"))

PROBE = """
(() => {
  const times = window.__embedTimes = [];
  document.addEventListener("pointerover", (e) => {
    const link = e.target.closest && e.target.closest("a[id]");
    if (!link) return;
    const entry = {id: link.id, over: performance.now(), shown: null};
    times.push(entry);
    const poll = () => {
      const card = document.querySelector("rules-codex-card")?.shadowRoot?.querySelector(".card");
      if (card && !card.hidden && card.textContent) { entry.shown = performance.now(); return; }
      if (performance.now() - entry.over < 10000) requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  }, true);
})();
"""


def sizes(site: Path) -> dict[str, Any]:
    script = (site / "embed.js").read_bytes()
    cards = {path.name.split(".")[0]: {"raw": path.stat().st_size, "gzip": len(gzip.compress(path.read_bytes(), 6))}
             for path in sorted((site / "api/v1/data").glob("*.json"))}
    return {"embed_raw": len(script), "embed_gzip": len(gzip.compress(script, 9)), "cards": cards}


def forum_page(site_url: str) -> str:
    links = "".join(f'<p>Post {i}: <a id="l{i}" href="{site_url}{game}/{term}/">{text}</a> matters.</p>'
                    for i, (game, term, text) in enumerate(LINKS))
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Forum</title></head>'
            f'<body><p id="top">Thread</p>{links}<script src="{site_url}embed.js" async></script></body></html>')


def timings(site: Path, port: int, runs: int = 5) -> dict[str, Any]:
    from playwright.sync_api import expect, sync_playwright

    site_url = f"http://127.0.0.1:{port}/"
    first: list[float] = []
    later: list[float] = []
    requests_per_run: list[int] = []
    with tempfile.TemporaryDirectory() as forum_dir, SiteServer(site, port), sync_playwright() as p:
        Path(forum_dir, "index.html").write_text(forum_page(site_url), encoding="utf-8")
        csp = f"default-src 'none'; script-src {site_url.rstrip('/')}; connect-src {site_url.rstrip('/')}"
        with serve(Path(forum_dir), headers={"Content-Security-Policy": csp}) as forum:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            for _ in range(runs):
                context = browser.new_context()  # a cold cache: the first card fetches its game's data
                context.add_init_script(PROBE)
                data: list[str] = []
                context.on("request", lambda r, seen=data: seen.append(r.url) if "/api/" in r.url else None)
                page = context.new_page()
                page.goto(forum)
                page.wait_for_load_state("load")
                card = page.locator("rules-codex-card .card")
                for i in range(len(LINKS)):
                    page.locator(f"#l{i}").hover()
                    expect(card).to_be_visible(timeout=30_000)
                    page.locator("#top").hover()
                    expect(card).to_be_hidden(timeout=30_000)
                times = page.evaluate("() => window.__embedTimes")
                shown = {}
                for entry in times:  # the first pointerover of each link that showed its card
                    if entry["shown"] is not None and entry["id"] not in shown:
                        shown[entry["id"]] = entry["shown"] - entry["over"]
                first.append(shown["l0"])
                later += [shown[f"l{i}"] for i in (1, 2)]  # same game: the data is there
                requests_per_run.append(len(data))
                context.close()
            browser.close()
    return {"first_ms": statistics.median(first), "later_ms": statistics.median(later), "first_runs": first,
            "later_runs": later, "requests": max(requests_per_run), "games": len({g for g, _, _ in LINKS})}


def section(report: Report, tmp: Path, port: int) -> dict[str, Any]:
    progress("embed: building the site")
    site = build_site(copy_project(tmp / "embed-project"), f"http://127.0.0.1:{port}/", quiet=True, timeout=900)
    out = sizes(site)
    progress("embed: hovering in Chromium")
    out.update(timings(site, port))
    report.data["embed"] = out
    report.section("9. Hovercards on another site (embed.js)")
    rows = [["embed.js", fmt_b(out["embed_raw"]), fmt_b(out["embed_gzip"]), f"aim ≤ {fmt_b(EMBED_BUDGET)} gzip"]]
    rows += [[f"cards file, {game}", fmt_b(c["raw"]), fmt_b(c["gzip"]), "fetched once per host site"]
             for game, c in out["cards"].items()]
    report.emit(table(["file", "raw", "gzip", "note"], rows))
    dwell = 150
    report.emit("\n" + table(["pointer over a link → card shown (median)", "ms", "after the 150 ms dwell"], [
        ["first card (its game's data fetched)", f"{out['first_ms']:.0f}", f"{out['first_ms'] - dwell:.0f}"],
        ["later cards (data there)", f"{out['later_ms']:.0f}", f"{out['later_ms'] - dwell:.0f}"],
    ]))
    report.emit(f"\nRequests to the API for {out['games']} games' links: {out['requests']} (one per game).")
    report.aim("embed.js gzip", fmt_b(out["embed_gzip"]), f"≤ {fmt_b(EMBED_BUDGET)}",
               "met" if out["embed_gzip"] <= EMBED_BUDGET else "missed")
    later_after_dwell = out["later_ms"] - dwell
    report.aim("card after the dwell, data there", f"{later_after_dwell:.0f} ms", f"≤ {CARD_BUDGET_MS} ms",
               "met" if later_after_dwell <= CARD_BUDGET_MS else "missed")
    return out


if __name__ == "__main__":
    report = Report()
    with tempfile.TemporaryDirectory(prefix="codex-embed-bench-") as tmp:
        result = section(report, Path(tmp), free_port())
    print("\n" + json.dumps({k: v for k, v in result.items() if k not in ("first_runs", "later_runs")}, indent=1))
