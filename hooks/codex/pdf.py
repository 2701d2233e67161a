"""Printing each game's glossary to PDF with headless Chromium (Playwright for Python): the I/O side of printable.

One browser prints every game. Chromium turns the document's <h1>s into the PDF outline (bookmarks) and its
`#term-id` links into internal links; the fonts (DejaVu, with Cyrillic) are embedded as subsets.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import os
from pathlib import Path
from typing import Iterator

from .model import Glossary
from .printable import print_html

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
DEBIAN_CHROMIUM = Path("/usr/bin/chromium")
MISSING = "Chromium not found: install Debian's chromium (make setup does) or run `python -m playwright install chromium`"

# Printed PDFs by the SHA-256 of their HTML: the same HTML prints the same PDF, so `mkdocs serve` rebuilds
# (which reload the hooks but not this package) reprint only the games whose glossary file changed.
_printed: dict[str, bytes] = {}


class PdfError(Exception):
    """A one-line reason the PDFs could not be printed."""


class ChromiumNotFound(PdfError):
    def __init__(self, detail: str = ""):
        super().__init__(MISSING + (f" ({detail})" if detail else ""))


def chromium_executable() -> str | None:
    """CODEX_CHROMIUM, else Debian's /usr/bin/chromium, else None: Playwright's own downloaded browser."""
    configured = os.environ.get("CODEX_CHROMIUM")
    if configured:
        if not Path(configured).is_file():
            raise ChromiumNotFound(f"CODEX_CHROMIUM={configured} does not exist")
        return configured
    return str(DEBIAN_CHROMIUM) if DEBIAN_CHROMIUM.is_file() else None


@contextlib.contextmanager
def browser() -> Iterator[object]:
    """One headless Chromium, closed on exit; a missing browser is ChromiumNotFound, not a traceback."""
    executable = chromium_executable()
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        raise PdfError("Playwright for Python is not installed: run `make setup` (pip install -r requirements.txt)") from None
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Error as error:
            message = str(error)
            if "executable doesn't exist" in message.lower() or "ENOENT" in message:
                raise ChromiumNotFound() from None
            first = next((line.strip() for line in message.splitlines() if line.strip()), "unknown error")
            raise PdfError(f"Chromium did not start: {first}") from None
        try:
            yield chromium
        finally:
            chromium.close()


def print_pdf(chromium, html: str) -> bytes:
    """One document to PDF. JavaScript is off and every request is refused: the HTML is complete as it is."""
    context = chromium.new_context(java_script_enabled=False)
    try:
        context.route("**/*", lambda route: route.abort())
        page = context.new_page()
        page.set_content(html)
        # tagged=True: with Debian's Chromium the outline (bookmarks) is built only for a tagged PDF.
        return page.pdf(format="A4", print_background=True, outline=True, tagged=True)
    finally:
        context.close()


def pdf_bytes(glossary: Glossary, lang: str, reuse: bool = False, mentions: dict | None = None) -> dict[str, bytes]:
    """Every game's PDF, in memory, by game id. With `reuse`, games whose document is unchanged since the
    previous call are not printed again (for `mkdocs serve`)."""
    documents = {gid: print_html(game, lang, (mentions or {}).get(gid)) for gid, game in glossary.games.items()}
    keys = {gid: hashlib.sha256(html.encode()).hexdigest() for gid, html in documents.items()}
    found = {gid: _printed[key] for gid, key in keys.items() if reuse and key in _printed}
    todo = {gid: html for gid, html in documents.items() if gid not in found}
    if todo:
        found.update(_outside_event_loop(_print_all, todo))
    if reuse:
        _printed.clear()
        _printed.update({keys[gid]: data for gid, data in found.items()})
    return {gid: found[gid] for gid in documents}


def print_in_background(
    glossary: Glossary, lang: str, reuse: bool = False, mentions: dict | None = None,
) -> concurrent.futures.Future:
    """`pdf_bytes` on a worker thread: Chromium prints on the other core while MkDocs renders the pages."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="codex-pdf")
    future = pool.submit(pdf_bytes, glossary, lang, reuse, mentions)
    pool.shutdown(wait=False)
    return future


def write_pdfs(root: Path, out_dir: Path, games: list[str] | None = None) -> list[Path]:
    """Load root/glossary and write out_dir/<game-id>.pdf for every game (or the ones named); the paths written."""
    from .check import load
    from .settings import load as load_settings

    settings = load_settings(root)
    glossary = load(settings.glossary_dir, root)
    if games:
        unknown = [g for g in games if g not in glossary.games]
        if unknown:
            raise PdfError(f"unknown game '{unknown[0]}' (known: {', '.join(glossary.games)})")
        glossary = Glossary({gid: glossary.games[gid] for gid in dict.fromkeys(games)})
    printed = pdf_bytes(glossary, settings.language)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for gid, data in printed.items():
        path = out_dir / f"{gid}.pdf"
        path.write_bytes(data)
        written.append(path)
    return written


def _print_all(documents: dict[str, str]) -> dict[str, bytes]:
    with browser() as chromium:
        return {gid: print_pdf(chromium, html) for gid, html in documents.items()}


def _outside_event_loop(function, *args):
    """Playwright's sync API refuses to run inside a running asyncio loop; then use a worker thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return function(*args)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args).result()
