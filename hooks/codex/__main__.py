"""The command line: check the glossary, link a post, look a term up, follow traits, print PDFs."""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from . import forms
from .config import project_root
from .labels import label
from .model import GlossaryError, Lang

AUTO = "auto"

EXIT_PROBLEMS, EXIT_USAGE = 1, 2


class UsageError(Exception):
    """A one-line message for the user; the command exits 2 without a traceback."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m codex", description="Rules glossary tools.")
    parser.add_argument("--glossary", type=Path, help="the glossary directory (default: ./glossary of the project)")
    commands = parser.add_subparsers(dest="command", required=True)

    commands.add_parser("check", help="validate glossary/ and print every problem as file:line:col: term: message")

    game_help = "the game's id; 'auto' (the default): the game whose terms explain the text best"
    link = commands.add_parser("link", help="link the terms in a text (FILE or standard input)")
    link.add_argument("--game", default="auto", help=game_help)
    link.add_argument("--format", default="markdown", choices=("markdown", "bbcode", "html", "json"))
    link.add_argument("--all", action="store_true", help="link every mention, not only each term's first")
    link.add_argument("--skip", action="append", default=[], metavar="START:END",
                      help="leave the mention at these character offsets unlinked; the term's next mention takes "
                           "the link (repeatable; the offsets are --format json's start and end)")
    link.add_argument("file", nargs="?", type=Path)

    lookup = commands.add_parser("lookup", help="find the terms a query names, best first")
    lookup.add_argument("--game", default="auto", help=game_help + " (none recognised: every game's candidates)")
    lookup.add_argument("--format", default="text", choices=("text", "json"))
    lookup.add_argument("query", nargs="+")

    traits = commands.add_parser("traits", help="every trait the given traits imply, with the chain explaining it")
    traits.add_argument("--game", default="auto", help=game_help)
    traits.add_argument("--format", default="text", choices=("text", "json"))
    traits.add_argument("trait", nargs="+")

    pdf = commands.add_parser("pdf", help="write one PDF per game, DIR/<game-id>.pdf")
    pdf.add_argument("--out", type=Path, required=True)
    pdf.add_argument("--game", action="append", help="only this game (repeatable)")
    return parser


def _read_input(path: Path | None) -> str:
    try:
        data = path.read_bytes() if path else sys.stdin.buffer.read()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"{path or 'standard input'}: not UTF-8 (byte {error.start})") from None


def _codex(args: argparse.Namespace) -> Any:
    from .api import Codex
    from .check import load

    root = project_root()
    directory = args.glossary or root / "glossary"
    try:
        glossary = load(directory, root)
    except GlossaryError as error:
        raise UsageError(f"the glossary has problems; run `python -m codex check`: {error.problems[0]}") from None
    if args.game == AUTO:
        return Codex.from_glossary(glossary, _site_url(root))
    if args.game not in glossary.games:
        raise UsageError(f"unknown game '{args.game}' (known: {', '.join(glossary.games)}, or auto)")
    return Codex.from_glossary(glossary.__class__({args.game: glossary.games[args.game]}), _site_url(root))


def _site_url(root: Path) -> str:
    """Term URLs point at mkdocs.yml's site_url (SITE_URL first), as MkDocs itself reads it."""
    from .settings import SettingsError, load

    try:
        return load(root).site_url
    except SettingsError as error:
        raise UsageError(str(error)) from None


def _lang(text: str) -> Lang:
    """The language of the user's own words, for messages: Russian when the text is mostly Cyrillic."""
    letters = [c for c in text if c.isalpha()]
    cyrillic = sum(1 for c in letters if forms.is_cyrillic(c))
    return "ru" if letters and cyrillic * 2 > len(letters) else "en"


def cmd_check(args: argparse.Namespace) -> int:
    from .check import collect

    root = project_root()
    glossary, problems = collect(args.glossary or root / "glossary", root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem{'s' * (len(problems) != 1)}", file=sys.stderr)
        return EXIT_PROBLEMS
    counts = ", ".join(f"{g.id}: {len(g.terms)}" for g in glossary.games.values())
    print(f"ok — {counts} terms", file=sys.stderr)
    return 0


def cmd_link(args: argparse.Namespace) -> int:
    text = _read_input(args.file)
    skip = _skip(args.skip, len(text))
    codex = _codex(args)
    if args.format == "json":  # the mentions found, but for the skipped ones
        found_game, found = codex.found(args.game, text)
        sys.stdout.write(_mentions_json(codex, found_game, [m for m in found if (m.start, m.end) not in skip]))
    else:
        result = codex.linked(args.game, text, args.format, every=args.all, skip=skip)
        found_game = result["game"]
        sys.stdout.write(result["text"])
    if found_game is None:
        print(label("linker_no_game", _lang(text)), file=sys.stderr)
    return 0


def _skip(given: list[str], length: int) -> frozenset[tuple[int, int]]:
    """--skip START:END (repeatable), checked as the browser's `skip` is (codex.protocol.spans)."""
    from .protocol import BadRequest, spans

    pairs: list[object] = []
    for value in given:
        given_pair = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", value, re.ASCII)
        if not given_pair:
            raise UsageError(f"--skip {value[:40]!r}: give START:END, two character offsets (e.g. 10:17)")
        pairs.append([int(given_pair[1]), int(given_pair[2])])
    try:
        return frozenset((s, e) for s, e in spans(pairs, length))
    except BadRequest as error:
        raise UsageError("--" + str(error)) from None


def _mentions_json(codex: Any, game: str | None, found: list[Any]) -> str:
    """The documented contract — start, end, text, game, term, name, url — one mention per line. Each line is
    encoded by json's C encoder (an indented dump runs the pure-Python one: 0.4 s for 60,000 mentions)."""
    if game is None or not found:
        return "[]\n"
    encode = json.JSONEncoder(ensure_ascii=False).encode
    terms = codex.resolver(game).index.terms
    url, name = codex._url_for(game), {}
    lines = []
    for m in found:
        if m.term not in name:
            name[m.term] = terms[m.term].name["en"]
        lines.append(encode({"start": m.start, "end": m.end, "text": m.text, "game": game, "term": m.term,
                             "name": name[m.term], "url": url(m.term)}))
    return "[\n " + ",\n ".join(lines) + "\n]\n"


def cmd_lookup(args: argparse.Namespace) -> int:
    query = " ".join(args.query)
    found = _codex(args).lookup(args.game, query)
    if args.format == "json":
        print(json.dumps(found, ensure_ascii=False, indent=1))
        return 0
    if not found:
        print(f"nothing found for '{query}'", file=sys.stderr)
        return 0
    first, second = ("name_ru", "name") if forms.is_cyrillic(query) else ("name", "name_ru")
    several = len({c["game"] for c in found}) > 1  # auto found no game: every game's candidates, named
    rows = [(f"{c['score']:.2f}", f"{c[first]} · {c[second]}", c["parameter"] or "", *([c["game"]] if several else []),
             c["url"]) for c in found]
    _print_table(rows)
    return 0


def cmd_traits(args: argparse.Namespace) -> int:
    codex = _codex(args)
    result = codex.traits(args.game, args.trait)
    lang: Lang = "ru" if any(forms.is_cyrillic(t) for t in args.trait) else "en"
    if result["game"] is None:
        raise UsageError(label("linker_traits_no_game", lang))
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=1))
        return 0
    if result["unknown"]:
        raise UsageError(f"unknown trait(s): {', '.join(result['unknown'])}")
    terms = codex.resolver(result["game"]).index.terms

    def chain(ids: list[str]) -> str:
        return " → ".join(terms[t].name[lang] for t in ids)

    _print_table([(terms[t["term"]].name[lang], chain(t["because"])) for t in result["traits"]])
    if not result["traits"] and result["cancelled"]:
        print(label("linker_all_cancelled", lang))
    for item in result["cancelled"]:
        print(label("linker_cancelled", lang).format(term=terms[item["term"]].name[lang],
                                                     by=terms[item["cancelled_by"]].name[lang]))
    return 0


def cmd_pdf(args: argparse.Namespace) -> int:
    from .pdf import PdfError, write_pdfs
    from .settings import SettingsError

    root = project_root()
    try:
        written = write_pdfs(root, args.out, games=args.game)
    except GlossaryError as error:
        raise UsageError(f"the glossary has problems; run `python -m codex check`: {error.problems[0]}") from None
    except (PdfError, SettingsError) as error:
        raise UsageError(str(error)) from None
    for path in written:
        print(path)
    return 0


def _print_table(rows: list[tuple[str, ...]]) -> None:
    if not rows:
        return
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = {"check": cmd_check, "link": cmd_link, "lookup": cmd_lookup, "traits": cmd_traits, "pdf": cmd_pdf}
    try:
        return command[args.command](args)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
