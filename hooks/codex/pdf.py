"""Printing each game's glossary to PDF with Typst (the `typst` package): the I/O side of printable.

Typst typesets the template with the game's data: one bookmark per heading, a named destination per term (its
links land on it), a tagged PDF (structure and language for screen readers), fonts embedded as subsets. It needs no
browser; each game prints in a child process, the site build's while MkDocs renders the pages. Cyrillic
comes from DejaVu when the system has it (`make setup` installs fonts-dejavu-core), else from the fonts Typst
carries (Libertinus Serif), never as boxes.
"""
from __future__ import annotations

import concurrent.futures
import hashlib
import multiprocessing
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .model import Game, Glossary
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


Printed = dict[str, tuple[str, bytes | None]]  # game -> (its document's key, its PDF, or None: unchanged)


def _print_game(game: Game, lang: str, mentions: Mentions | None, known: frozenset[str]) -> tuple[str, bytes | None]:
    """A game's document key (the SHA-256 of its data) and its PDF, unless that key is `known` (printed before)."""
    data = document_json(game, lang, mentions)
    key = hashlib.sha256(data.encode()).hexdigest()
    return key, None if key in known else print_pdf(data)


def _print_documents(glossary: Glossary, lang: str, mentions: dict[str, Mentions] | None,
                     known: frozenset[str]) -> Printed:
    """Every game's (key, PDF), each game in a forked child where the system has fork: Typst keeps every
    compilation's memoised layout for the life of its process (the `typst` package cannot evict it), so printing
    the games one after another in one process held them all (7 GB at 10,000 terms); a child's ends with it. The
    child also runs Typst and the document's Python on the other core, outside the interpreter MkDocs renders in."""
    fork = "fork" in multiprocessing.get_all_start_methods()
    return {gid: (_in_child if fork else _call)(_print_game, game, lang, (mentions or {}).get(gid), known)
            for gid, game in glossary.games.items()}


def _collect(results: Printed, reuse: bool) -> dict[str, bytes]:
    printed = {gid: data if data is not None else _printed[key] for gid, (key, data) in results.items()}
    if reuse:
        _printed.clear()
        _printed.update({key: printed[gid] for gid, (key, _) in results.items()})
    return printed


def pdf_bytes(glossary: Glossary, lang: str, reuse: bool = False,
              mentions: dict[str, Mentions] | None = None) -> dict[str, bytes]:
    """Every game's PDF, in memory, by game id. With `reuse`, games whose document is unchanged since the
    previous call are not printed again (for `mkdocs serve`)."""
    return _collect(_print_documents(glossary, lang, mentions, frozenset(_printed) if reuse else frozenset()), reuse)


def print_in_background(
    glossary: Glossary, lang: str, reuse: bool = False, mentions: dict[str, Mentions] | None = None,
) -> concurrent.futures.Future[dict[str, bytes]]:
    """`pdf_bytes` while MkDocs renders the pages: a thread that waits on each game's child (on a thread alone,
    Typst shared the interpreter with MkDocs and printed 1.6× slower)."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="codex-pdf")
    future = pool.submit(pdf_bytes, glossary, lang, reuse, mentions)
    pool.shutdown(wait=False)
    return future


T = TypeVar("T")


def _call(function: Callable[..., T], *args: Any) -> T:
    return function(*args)


def _in_child(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` in a forked child (its arguments inherited, not pickled); the result comes back through a
    pipe. A failure in the child is a PdfError with its one-line reason."""
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)

    def run() -> None:
        try:
            writer.send(("ok", function(*args)))
        except BaseException as error:  # noqa: BLE001 - reported to the parent as one line
            writer.send(("error", str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__))
        finally:
            writer.close()

    child = context.Process(target=run, name="codex-pdf", daemon=True)
    child.start()
    writer.close()
    try:
        status, value = reader.recv()
    except EOFError:
        raise PdfError("the PDF printer stopped without a result (out of memory?)") from None
    finally:
        reader.close()
        child.join()
    if status != "ok":
        raise PdfError(value)
    return value  # type: ignore[no-any-return]


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
