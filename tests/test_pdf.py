"""The printed glossaries: one PDF per game with every name and definition, bookmarks, working internal links,
embedded fonts, hostile text shown as text; and the site build puts them at pdf/<game>.pdf."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, Destination

from codex.printable import FRONT_MATTER
from codex.labels import label

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def run_pdf(cwd: Path, out: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codex", "pdf", "--out", str(out)],
        cwd=cwd, capture_output=True, text=True, timeout=300, env={**os.environ, **(env or {})},
    )


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[str, Path]:
    """Every game's PDF, printed once for the module by the command line."""
    out = tmp_path_factory.mktemp("pdf")
    result = run_pdf(ROOT, out)
    assert result.returncode == 0, result.stderr
    written = [Path(line) for line in result.stdout.split()]
    assert all(path.parent == out for path in written)
    return {path.stem: path for path in written}


@pytest.fixture(scope="module")
def texts(glossary, printed) -> dict[str, str]:
    """Each PDF's text without the page furniture (running head, page number), which interrupts the body."""
    return {gid: body_text(pdf_text(path), glossary.games[gid].name["ru"]) for gid, path in printed.items()}


def body_text(text: str, game_name: str, lang: str = "ru") -> str:
    running_head = f"{game_name} — {label('rules_glossary', lang)}"
    pages = []
    for page in text.split("\f"):
        lines = [line for line in page.split("\n") if line.strip()]
        if lines and lines[0].strip() == running_head:
            lines = lines[1:]
        if lines and lines[-1].strip().isdigit():
            lines = lines[:-1]
        pages.append("\n".join(lines))
    return "\n".join(pages)


def pdf_text(path: Path, first: int | None = None, last: int | None = None) -> str:
    pages = (["-f", str(first), "-l", str(last)] if first else [])
    return subprocess.run(["pdftotext", "-enc", "UTF-8", *pages, str(path), "-"],
                          capture_output=True, text=True, check=True).stdout


def squash(text: str) -> str:
    """Compare text tolerant of line breaks and hyphenation: no whitespace, no (soft) hyphens, and no
    private-use characters (the D&D seed's extracted checkbox glyph, U+F071, which no font can draw)."""
    return re.sub(r"[\s\u00ad\u2010\ue000-\uf8ff-]+", "", text)


def flatten(outline) -> list:
    out = []
    for item in outline:
        out.extend(flatten(item) if isinstance(item, list) else [item])
    return out


def test_one_pdf_per_game(glossary, printed):
    assert set(printed) == set(glossary.games)
    for path in printed.values():
        assert path.read_bytes().startswith(b"%PDF-")


def test_every_name_in_both_languages_is_printed(glossary, texts):
    for game in glossary.games.values():
        text = squash(texts[game.id])
        missing = [(t.id, lang) for t in game.terms.values() for lang in ("en", "ru") if squash(t.name[lang]) not in text]
        assert missing == [], game.id


def test_every_definition_alias_and_relation_is_printed_whole(glossary, texts):
    """Nothing lost: each whole definition, every alias and every related term's name is in the PDF's text."""
    for game in glossary.games.values():
        text = squash(texts[game.id])
        lost = []
        for term in game.terms.values():
            for lang in ("ru", "en"):
                if squash(term.definition[lang]) not in text:
                    lost.append((term.id, lang))
                lost += [(term.id, alias) for alias in term.aliases.get(lang, []) if squash(alias) not in text]
            for relation in ("implies", "cancels", "see_also"):
                for target in getattr(term, relation):
                    if squash(game.terms[target].name["en"]) not in text:
                        lost.append((term.id, relation, target))
        assert lost == [], game.id


def test_one_bookmark_per_term_plus_front_matter(glossary, printed):
    for game in glossary.games.values():
        reader = PdfReader(printed[game.id])
        titles = [" ".join(item.title.split()) for item in flatten(reader.outline)]
        assert len(titles) == len(game.terms) + len(FRONT_MATTER), game.id
        expected = {f"{t.name['en']} · {t.name['ru']}" for t in game.terms.values()}
        assert set(titles[len(FRONT_MATTER):]) == expected, game.id
        assert titles[0] == game.name["ru"]  # the title page (mkdocs.yml's theme.language is ru)
        assert titles[1] == "Содержание"


def _link_targets(reader: PdfReader) -> list[tuple[int, str, int]]:
    """(page index, destination name, target page index) for every internal link annotation."""
    named = reader.named_destinations
    out = []
    for index, page in enumerate(reader.pages):
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            dest = annot.get("/Dest")
            action = annot.get("/A")
            if dest is None and action is not None and action.get("/S") == "/GoTo":
                dest = action.get("/D")
            if dest is None:
                continue
            dest = dest.get_object() if hasattr(dest, "get_object") else dest
            if isinstance(dest, ArrayObject):  # an explicit destination: [page /XYZ ...]
                target = next(i for i, p in enumerate(reader.pages) if p.indirect_reference == dest[0])
                out.append((index, "", target))
                continue
            name = str(dest)
            resolved = named.get(name) or named.get(name.lstrip("/")) or named.get("/" + name.lstrip("/"))
            assert isinstance(resolved, Destination), f"link to unknown destination {name} on page {index + 1}"
            out.append((index, name.lstrip("/"), reader.get_destination_page_number(resolved)))
    return out


def test_cross_references_link_to_their_terms_page(glossary, printed):
    for game in glossary.games.values():
        reader = PdfReader(printed[game.id])
        links = [(src, name, target) for src, name, target in _link_targets(reader) if name in game.terms]
        assert len(links) > len(game.terms), game.id  # the contents alone links every term
        first_term_page = reader.get_destination_page_number(flatten(reader.outline)[len(FRONT_MATTER)])
        from_terms = [link for link in links if link[0] >= first_term_page]  # cross-references, not the contents
        assert len(from_terms) > len(game.terms) // 2, game.id
        wrong = []
        page_text: dict[int, str] = {}
        for _, name, target in links:
            if target not in page_text:
                page_text[target] = squash(pdf_text(printed[game.id], target + 1, target + 1))
            if squash(game.terms[name].name["en"]) not in page_text[target]:
                wrong.append((name, target + 1))
        assert wrong == [], game.id


def test_fonts_are_embedded_and_dejavu(printed):
    for gid, path in printed.items():
        reader = PdfReader(path)
        seen = {}
        for page in reader.pages:
            fonts = page.get("/Resources", {}).get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                seen[font["/BaseFont"]] = font
        assert seen, gid
        for name, font in seen.items():
            descriptor_owner = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = descriptor_owner["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), (gid, name)
            assert "DejaVu" in name, (gid, name)  # Cyrillic comes from DejaVu, not a fallback that may draw boxes


HOSTILE = (Path(__file__).parent / "fixtures" / "hostile" / "evil.yml").read_text(encoding="utf-8")


def test_hostile_text_is_printed_literally(tmp_path):
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "evil.yml").write_text(HOSTILE, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Evil\nsite_url: https://example.org/\ntheme:\n  name: material\n  language: en\n")
    result = run_pdf(tmp_path, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    path = tmp_path / "out" / "evil.pdf"
    text = " ".join(pdf_text(path).split())
    for shown in ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<img src=x onerror=alert(2)>",
                  "<a href='#armor'>a</a> & Armor.", "Second <b>paragraph</b>.", "[клик](javascript:alert(1))",
                  "**жирный**", "Evil</style><script>alert(0)</script>"):
        assert shown in text, shown
    titles = [item.title for item in flatten(PdfReader(path).outline)]
    assert titles[:2] == ["Evil</style><script>alert(0)</script>", "Contents"]  # theme.language en
    assert len(titles) == 2 + len(FRONT_MATTER)


def test_a_printing_failure_is_one_line_not_a_traceback(monkeypatch):
    import codex.pdf as pdf

    monkeypatch.setattr(pdf, "TEMPLATE", "#let broken = (")
    with pytest.raises(pdf.PdfError) as raised:
        pdf.print_pdf("{}")
    assert str(raised.value).startswith("Typst could not print the glossary: ")
    assert "\n" not in str(raised.value)


def _two_games(glossary):
    from codex.model import Glossary

    return Glossary({"keyforge": glossary.games["keyforge"], "dnd-miniatures": glossary.games["dnd-miniatures"]})


def test_each_game_prints_in_a_child_of_its_own(monkeypatch, glossary):
    """Typst never frees its memoised layout in a process: a child per game gives the memory back."""
    import codex.pdf as pdf
    import pdf_children

    monkeypatch.setattr(pdf, "_print_game", pdf_children.report_pid)
    printed = pdf.pdf_bytes(_two_games(glossary), "en")
    pids = {int(data) for data in printed.values()}
    assert len(pids) == 2 and os.getpid() not in pids


def test_the_children_are_spawned_not_forked(monkeypatch, glossary):
    """The build's process has threads: a forked copy could inherit a lock held by one of them."""
    import multiprocessing

    import codex.pdf as pdf
    import pdf_children

    methods = []
    real = multiprocessing.get_context
    monkeypatch.setattr(multiprocessing, "get_context", lambda method=None: methods.append(method) or real(method))
    monkeypatch.setattr(pdf, "_print_game", pdf_children.report_pid)
    pdf.print_in_background(_two_games(glossary), "en").result(timeout=300)
    assert methods == ["spawn", "spawn"]


def test_a_bug_in_the_printing_child_keeps_its_traceback(monkeypatch, glossary):
    """Only an expected failure (PdfError) is one line; a programming error arrives with the child's traceback."""
    import codex.pdf as pdf
    import pdf_children

    monkeypatch.setattr(pdf, "_print_game", pdf_children.divide_by_zero)
    with pytest.raises(pdf.ChildError) as raised:
        pdf.print_in_background(_two_games(glossary), "en").result(timeout=300)
    assert not isinstance(raised.value, pdf.PdfError)
    assert "Traceback" in str(raised.value) and "ZeroDivisionError" in str(raised.value)
    assert "pdf_children.py" in str(raised.value)


def test_cancelling_stops_the_printing_child(monkeypatch, glossary):
    """What on_shutdown (Ctrl-C under `mkdocs serve`) and a rebuild do: the child ends now, not when it is done."""
    import multiprocessing

    import codex.pdf as pdf
    import pdf_children

    monkeypatch.setattr(pdf, "_print_game", pdf_children.sleep_long)
    printing = pdf.print_in_background(_two_games(glossary), "en")
    for _ in range(600):  # the child is up (spawning takes a moment on a loaded machine)
        if printing.job.child is not None and printing.job.child.is_alive():
            break
        printing.thread.join(timeout=0.5)
    child = printing.job.child
    assert child is not None and child.is_alive()
    printing.cancel()
    with pytest.raises(pdf.PdfError, match="cancelled"):
        printing.result(timeout=300)
    assert not child.is_alive() and child not in multiprocessing.active_children()
    printing.thread.join(timeout=300)
    assert not printing.thread.is_alive()


def test_a_failure_in_the_printing_child_is_one_line(monkeypatch, glossary):
    import codex.pdf as pdf

    monkeypatch.setattr(pdf, "TEMPLATE", "#let broken = (")
    with pytest.raises(pdf.PdfError) as raised:
        pdf.print_in_background(_two_games(glossary), "en").result(timeout=120)
    assert str(raised.value).startswith("Typst could not print the glossary: ")
    assert "\n" not in str(raised.value)


def test_a_printing_child_that_dies_is_reported(monkeypatch, glossary):
    import codex.pdf as pdf
    import pdf_children

    monkeypatch.setattr(pdf, "_print_game", pdf_children.die)
    with pytest.raises(pdf.PdfError, match="stopped without a result"):
        pdf.pdf_bytes(_two_games(glossary), "en")


def test_unknown_game_is_one_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "codex", "pdf", "--out", str(tmp_path), "--game", "chess"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.startswith("error: unknown game 'chess' (known: "), result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.pdf"))


def test_site_build_puts_the_pdfs_in_place_and_links_them(glossary, built_site):
    for gid in glossary.games:
        pdf = built_site / "pdf" / f"{gid}.pdf"
        assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF-"), gid
        assert len(PdfReader(pdf).outline) == len(glossary.games[gid].terms) + len(FRONT_MATTER)
        index = (built_site / gid / "index.html").read_text(encoding="utf-8")
        assert f'href="../pdf/{gid}.pdf"' in index, gid


def _spawned_children(pid: int) -> list[int]:
    """The multiprocessing children (spawned: `spawn_main` in their command line) of a process, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid and "spawn_main" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc (Linux)")
def test_ctrl_c_under_mkdocs_serve_stops_the_printing_child(tmp_path):
    """Ctrl-C while the first build's PDFs print: serve ends at once and leaves no child printing (on_shutdown
    cancels it; a daemon child, it would also end with the interpreter)."""
    import signal
    import time

    from project import copy_project, free_port, mkdocs_serve

    project = copy_project(tmp_path / "project")
    serve = mkdocs_serve(project, free_port(), pdf=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # a terminal's Ctrl-C
    try:
        deadline = time.monotonic() + 600
        while not (children := _spawned_children(serve.pid)) and time.monotonic() < deadline and serve.poll() is None:
            time.sleep(0.2)  # polling for the state (a printing child), under the deadline above
        assert children, "no PDF child was seen printing"
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=300)
        deadline = time.monotonic() + 60
        while any(Path(f"/proc/{pid}").exists() for pid in children) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(Path(f"/proc/{pid}").exists() for pid in children), "a PDF child outlived mkdocs serve"
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait()
