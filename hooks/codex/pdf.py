"""Printing each game's glossary to PDF with Typst (the `typst` package): the I/O side of printable.

Typst typesets the template with the game's data: one bookmark per heading, a named destination per term (its
links land on it), a tagged PDF (structure and language for screen readers), fonts embedded as subsets. It needs no
browser, and it releases the GIL while it typesets, so the site build prints on a worker thread while MkDocs
renders the pages. Cyrillic comes from DejaVu when the system has it (`make setup` installs fonts-dejavu-core),
else from the fonts Typst carries (Libertinus Serif), never as boxes.
"""
from __future__ import annotations

import concurrent.futures
import hashlib
from pathlib import Path

from .model import Glossary
from .pages import Mentions
from .printable import TEMPLATE, document_json

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")

# Printed PDFs by the SHA-256 of their data: the same data prints the same PDF, so `mkdocs serve` rebuilds
# (which reload the hooks but not this package) reprint only the games whose glossary file changed.
_printed: dict[str, bytes] = {}


class PdfError(Exception):
    """A one-line reason the PDFs could not be printed."""


def print_pdf(data: str) -> bytes:
    """One game's document data (printable.document_json) to PDF."""
    try:
        import typst
    except ImportError:
        raise PdfError("the typst package is not installed: run `make setup` (pip install -r requirements.txt)") from None
    fonts = [str(DEJAVU)] if DEJAVU.is_dir() else []
    try:
        pdf: object = typst.compile(TEMPLATE.encode(), font_paths=fonts, sys_inputs={"data": data})  # type: ignore[misc]
    except typst.TypstError as error:  # a template bug, not the glossary's: its text is data, never markup
        raise PdfError(f"Typst could not print the glossary: {str(error).splitlines()[0]}") from None
    if not isinstance(pdf, bytes):
        raise PdfError("Typst returned no PDF")
    return pdf


def pdf_bytes(glossary: Glossary, lang: str, reuse: bool = False,
              mentions: dict[str, Mentions] | None = None) -> dict[str, bytes]:
    """Every game's PDF, in memory, by game id. With `reuse`, games whose document is unchanged since the
    previous call are not printed again (for `mkdocs serve`)."""
    documents = {gid: document_json(game, lang, (mentions or {}).get(gid)) for gid, game in glossary.games.items()}
    keys = {gid: hashlib.sha256(data.encode()).hexdigest() for gid, data in documents.items()}
    printed = {gid: _printed[key] if reuse and key in _printed else print_pdf(data) for gid, (key, data)
               in ((gid, (keys[gid], documents[gid])) for gid in documents)}
    if reuse:
        _printed.clear()
        _printed.update({keys[gid]: data for gid, data in printed.items()})
    return printed


def print_in_background(
    glossary: Glossary, lang: str, reuse: bool = False, mentions: dict[str, Mentions] | None = None,
) -> concurrent.futures.Future[dict[str, bytes]]:
    """`pdf_bytes` on a worker thread: Typst typesets on the other core while MkDocs renders the pages."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="codex-pdf")
    future = pool.submit(pdf_bytes, glossary, lang, reuse, mentions)
    pool.shutdown(wait=False)
    return future


def write_pdfs(root: Path, out_dir: Path, games: list[str] | None = None) -> list[Path]:
    """Load the project's glossary and write out_dir/<game-id>.pdf for every game (or the ones named)."""
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
