"""Printing each game's glossary to PDF with Typst (the `typst` package): the I/O side of printable.

Typst typesets the template with the game's data: one bookmark per heading, a named destination per term (its
links land on it), a tagged PDF (structure and language for screen readers), fonts embedded as subsets. It needs no
browser; each game prints in a spawned child process, the site build's while MkDocs renders the pages. Cyrillic
comes from DejaVu when the system has it (`make setup` installs fonts-dejavu-core), else from the fonts Typst
carries (Libertinus Serif), never as boxes.
"""
from __future__ import annotations

import concurrent.futures
import hashlib
import multiprocessing
import multiprocessing.process
import signal
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .model import Game, Glossary, Lang
from .pages import Mentions
from .printable import TEMPLATE, document_json

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")

# Printed PDFs by the SHA-256 of their data: the same data prints the same PDF, so `mkdocs serve` rebuilds
# (which reload the hooks but not this package) reprint only the games whose glossary file changed.
_printed: dict[str, bytes] = {}


class PdfError(Exception):
    """A one-line reason the PDFs could not be printed."""


def print_pdf(data: str, template: str = TEMPLATE) -> bytes:
    """One game's document data (printable.document_json) to PDF, with the Typst template."""
    try:
        import typst
    except ImportError:
        raise PdfError("the typst package is not installed: run `make setup` (pip install -r requirements.txt)") from None
    fonts = [str(DEJAVU)] if DEJAVU.is_dir() else []
    try:
        pdf: object = typst.compile(template.encode(), font_paths=fonts, sys_inputs={"data": data})  # type: ignore[misc]
    except typst.TypstError as error:  # a template bug, not the glossary's: its text is data, never markup
        raise PdfError(f"Typst could not print the glossary: {str(error).splitlines()[0]}") from None
    if not isinstance(pdf, bytes):
        raise PdfError("Typst returned no PDF")
    return pdf


Printed = dict[str, tuple[str, bytes | None]]  # game -> (its document's key, its PDF, or None: unchanged)


def _print_game(game: Game, lang: Lang, mentions: Mentions | None, known: frozenset[str],
                template: str) -> tuple[str, bytes | None]:
    """A game's document key (the SHA-256 of its data) and its PDF, unless that key is `known` (printed before)."""
    data = document_json(game, lang, mentions)
    key = hashlib.sha256(data.encode()).hexdigest()
    return key, None if key in known else print_pdf(data, template)


def _print_documents(glossary: Glossary, lang: Lang, mentions: dict[str, Mentions] | None,
                     known: frozenset[str], job: Job | None = None) -> Printed:
    """Every game's (key, PDF), each game in a child process of its own, one after another: Typst keeps every
    compilation's memoised layout for the life of its process (the `typst` package cannot evict it), so printing
    the games in one process held them all (7 GB at 10,000 terms); a child's ends with it. The child also runs
    Typst and the document's Python on the other core, outside the interpreter MkDocs renders in."""
    job = job or Job()
    return {gid: job.run(_print_game, game, lang, (mentions or {}).get(gid), known, TEMPLATE)
            for gid, game in glossary.games.items()}


def _collect(results: Printed, reuse: bool) -> dict[str, bytes]:
    printed = {gid: data if data is not None else _printed[key] for gid, (key, data) in results.items()}
    if reuse:
        _printed.clear()
        _printed.update({key: printed[gid] for gid, (key, _) in results.items()})
    return printed


def pdf_bytes(glossary: Glossary, lang: Lang, reuse: bool = False,
              mentions: dict[str, Mentions] | None = None, job: Job | None = None) -> dict[str, bytes]:
    """Every game's PDF, in memory, by game id. With `reuse`, games whose document is unchanged since the
    previous call are not printed again (for `mkdocs serve`)."""
    known = frozenset(_printed) if reuse else frozenset()
    return _collect(_print_documents(glossary, lang, mentions, known, job), reuse)


class Printing:
    """The PDFs printing in the background while MkDocs renders the pages (a thread that waits on each game's
    child: on a thread alone, Typst shared the interpreter with MkDocs and printed 1.6× slower). `cancel` stops
    the child at once (a rebuild under `mkdocs serve`, Ctrl-C, the build's end)."""

    def __init__(self, glossary: Glossary, lang: Lang, reuse: bool, mentions: dict[str, Mentions] | None):
        self.job = Job()
        self.future: concurrent.futures.Future[dict[str, bytes]] = concurrent.futures.Future()
        self.thread = threading.Thread(target=self._run, args=(glossary, lang, reuse, mentions),
                                       name="codex-pdf", daemon=True)  # never holds the interpreter's exit
        self.thread.start()

    def _run(self, glossary: Glossary, lang: Lang, reuse: bool, mentions: dict[str, Mentions] | None) -> None:
        try:
            self.future.set_result(pdf_bytes(glossary, lang, reuse, mentions, self.job))
        except BaseException as error:  # noqa: BLE001 - handed to whoever asks for the result, traceback and all
            self.future.set_exception(error)

    def result(self, timeout: float | None = None) -> dict[str, bytes]:
        return self.future.result(timeout)

    def cancel(self) -> None:
        self.job.cancel()


def print_in_background(
    glossary: Glossary, lang: Lang, reuse: bool = False, mentions: dict[str, Mentions] | None = None,
) -> Printing:
    """`pdf_bytes` while MkDocs renders the pages: `.result()` waits for the PDFs, `.cancel()` stops printing."""
    return Printing(glossary, lang, reuse, mentions)


T = TypeVar("T")


class Job:
    """Runs functions each in a fresh child process, one at a time, and can stop the running one.

    The child is spawned, not forked: the build's process has threads (this one's, MkDocs' server's under
    `mkdocs serve`), and a forked copy of a threaded process may hold a lock no thread will ever release. The
    function and its arguments are pickled (module-level functions, plain data); the result comes back through
    a pipe. A PdfError in the child is a PdfError here, with its one line; anything else is a bug, raised here
    as ChildError with the child's traceback."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.child: multiprocessing.process.BaseProcess | None = None
        self.cancelled = False

    def run(self, function: Callable[..., T], *args: Any) -> T:
        context = multiprocessing.get_context("spawn")
        reader, writer = context.Pipe(duplex=False)
        with self.lock:
            if self.cancelled:
                raise PdfError("printing the PDFs was cancelled")
            child = self.child = context.Process(target=_child, args=(writer, function, args), name="codex-pdf",
                                                 daemon=True)
            child.start()
        writer.close()
        try:
            status, value = reader.recv()
        except EOFError:
            if self.cancelled:
                raise PdfError("printing the PDFs was cancelled") from None
            raise PdfError("the PDF printer stopped without a result (out of memory?)") from None
        finally:
            reader.close()
            child.join()
        if status == "error":
            raise PdfError(value)
        if status == "bug":
            raise ChildError(value)
        return value  # type: ignore[no-any-return]

    def cancel(self) -> None:
        """Stop the running child (the one waiting gets a PdfError) and start no other."""
        with self.lock:
            self.cancelled = True
            child = self.child
        if child is not None and child.is_alive():
            child.terminate()
            child.join(timeout=30)
            if child.is_alive():
                child.kill()
                child.join()


class ChildError(RuntimeError):
    """A bug in a printing child: its message is the child's traceback."""


def _child(writer: Any, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """A printing child's body: Ctrl-C is its parent's to handle (the parent cancels it, or it ends the build)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        writer.send(("ok", function(*args)))
    except PdfError as error:
        writer.send(("error", str(error)))
    except BaseException:  # noqa: BLE001 - a bug: the parent raises it with this traceback
        writer.send(("bug", "the PDF printer failed:\n" + traceback.format_exc()))
    finally:
        writer.close()


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
