"""Section 3, page weight: a term page's HTML, CSS and JS, raw and gzip, against the plain site's."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from common import Report, fmt_b, fmt_x, gz, ratio, table


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
    # What the search loads on every page: the worker #__config names (codex's, or Material's with lunr's files).
    ours = site / "assets/javascripts/search-worker.js"
    material = next(iter(sorted((site / "assets/javascripts/workers").glob("search.*.min.js"))), None)
    lunr = [site / "assets/javascripts/lunr/min" / n for n in
            ("lunr.stemmer.support.min.js", "lunr.ru.min.js", "lunr.multi.min.js")]
    search_js = [ours] if ours.is_file() else [p for p in [material, *lunr] if p and p.is_file()]
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


def section(report: Report, sites: dict[str, Any], sizes: list[str]) -> None:
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
                       ("search_js", "search worker (plain: Material's + lunr ru, multi)"), ("search_index", "search index")):
        p = project[key]
        q = plain[key] if plain else {"raw": 0, "gzip": 0}
        rows.append([label, fmt_b(p["raw"]), fmt_b(p["gzip"]), fmt_b(q["raw"]), fmt_b(q["gzip"])])
    first = sum(project[k]["raw"] for k in ("html", "css", "js"))
    first_gz = sum(project[k]["gzip"] for k in ("html", "css", "js"))
    p_first = sum(plain[k]["raw"] for k in ("html", "css", "js")) if plain else 0
    p_first_gz = sum(plain[k]["gzip"] for k in ("html", "css", "js")) if plain else 0
    rows.append(["**page total (HTML+CSS+JS)**", fmt_b(first), fmt_b(first_gz), fmt_b(p_first), fmt_b(p_first_gz)])
    report.emit(f"Term page `{rel}` of the real site, and the plain site's page at the same path (the same text); "
                f"gzip -6; fonts excluded (theme.font is false). Every page loads the search worker and "
                f"search_index.json (for codex, the small always-loaded part: shards come per query, section 5).\n")
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


