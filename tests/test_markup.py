"""The markup scanners, case by case: each input beside the spans the linker must never touch, marked ⟦like this⟧.

`protected(text, markup)` is what the linker asks; the property tests (test_forum_render.py, test_linear.py)
check it against real renderers and for linear time, these pin down what it answers, one construct at a time."""
from __future__ import annotations

import io
import subprocess
import sys
import zipfile

import pytest

from codex.markup import MARKUPS, bbcode_spans, markdown_spans, merge, protected, url_spans
from codex.markup.code import code_line_spans
from codex.markup.handles import handle_spans

OPEN, CLOSE = "⟦", "⟧"


def unmark(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """The text without its ⟦ ⟧ marks, and the spans they enclosed."""
    text, spans, start = [], [], -1
    length = 0
    for char in marked:
        if char == OPEN:
            start = length
        elif char == CLOSE:
            spans.append((start, length))
        else:
            text.append(char)
            length += 1
    return "".join(text), spans


CASES = [
    # Found by fuzzing (the @example cases of tests/test_forum_render.py and tests/test_linear.py):
    ('⟦Aegis`.So⟧', 'markdown'),
    ('|---|\n⟦|---|⟧\n⟦    Aegis⟧', 'markdown'),
    ('|a⟦|⟧b|\n⟦|-|-|⟧\n|`x⟦|⟧Aegis `|\n|⟦` Burn `⟧|', 'markdown'),
    ("⟦<a href='x'>\\</a>Aegis⟧", 'markdown'),
    ("⟦<a href='x'><code></a>Aegis⟧", 'markdown'),
    ("Hazardous 2*⟦<a href='x'>*⟧", 'markdown'),
    ('⟦[x]: /u⟧\n⟦[x]⟧Aegis', 'markdown'),
    ('[**Aegis** ', 'markdown'),
    ('⟦<b>⟧x⟦</b>⟧\n\n~~Aegis~~', 'markdown'),
    # URLs, host names, e-mail addresses (every markup):
    ('see ⟦https://example.org/Aegis⟧ now', 'any'),
    ('mail ⟦guard@example.org⟧', 'any'),
    ('⟦www.example.org/Burn⟧', 'bbcode'),
    ('⟦Aegis.So⟧', 'any'),
    # Code: spans, fences, indented code (not after a paragraph line), in list items and block quotes:
    ('Aegis ⟦`code`⟧ Burn', 'markdown'),
    ('⟦``a ` b``⟧ Aegis', 'markdown'),
    ('`open Aegis', 'markdown'),
    ('⟦```⟧\n⟦Aegis⟧\n⟦```⟧\nBurn', 'markdown'),
    ('⟦~~~⟧\n⟦Aegis⟧', 'markdown'),
    ('para\n    Aegis', 'markdown'),
    ('⟦    Aegis⟧\nBurn', 'markdown'),
    ('⟦- ⟧item\n\n⟦      code Aegis⟧', 'markdown'),
    ('> quote Aegis', 'markdown'),
    ('⟦> ```⟧\n⟦> Aegis⟧\n⟦> ```⟧', 'markdown'),
    # HTML: blocks (markdown) and tags (any), comments, autolinks, inline elements' contents:
    ('⟦<div>⟧\n⟦Aegis⟧\n⟦</div>⟧\n\nBurn', 'markdown'),
    ('⟦<div>⟧\nAegis', 'any'),
    ('⟦<!-- Aegis -->⟧', 'markdown'),
    # Links: inline, images, full / collapsed / shortcut references (only with a definition), destinations:
    ('⟦[Aegis](https://x.org/a)⟧ Burn', 'markdown'),
    ('⟦![Aegis](a.png)⟧', 'markdown'),
    ('⟦[Aegis][ref]⟧\n\n⟦[ref]: /u⟧', 'markdown'),
    ('⟦[Aegis]⟧\n\n⟦[aegis]: /u⟧', 'markdown'),
    ('⟦[Aegis][]⟧\n\n⟦[Aegis]: /u "title"⟧', 'markdown'),
    ('[Aegis] no definition', 'markdown'),
    ('⟦[a](<b c>)⟧ Aegis', 'markdown'),
    ('[a](b (c) Aegis', 'markdown'),
    ('⟦<https://x.org>⟧ Aegis ⟦<a@b.org>⟧', 'markdown'),
    ('⟦<code>Aegis</code>⟧ Burn', 'markdown'),
    ('⟦<script>Aegis⟧', 'markdown'),
    ('⟦`<a>`⟧ Aegis', 'markdown'),
    # No markup: headings, setext underlines, a bracket without a definition:
    ('# Aegis', 'markdown'),
    ('Aegis\n===', 'markdown'),
    # BBCode: known tags, the contents of [code], [url], [img] (to the end when unclosed), quoted attributes:
    ('⟦[b]⟧Aegis⟦[/b]⟧', 'bbcode'),
    ('⟦[code]Aegis[/code]⟧ Burn', 'bbcode'),
    ('⟦[url=https://x.org]Aegis[/url]⟧ Burn', 'bbcode'),
    ('⟦[url]Aegis⟧', 'bbcode'),
    ('⟦[quote="Aegis"]⟧Burn⟦[/quote]⟧', 'bbcode'),
    ('[Aegis] [notatag]', 'bbcode'),
    ('⟦[img]a.png[/img]⟧', 'bbcode'),
    # any: the union, plus every <...> tag:
    ('⟦<b>⟧Aegis⟦</b>⟧', 'any'),
    ('⟦[b]⟧Aegis⟦[/b]⟧ ⟦`x`⟧', 'any'),
    # every markup: user names and chat commands, whole; not a slash between words, not emphasis, not a hashtag:
    ('Table 1: ⟦vortex_mage⟧ (Forcemaster)', 'any'),
    ('⟦Страж_леса⟧ | Druid', 'markdown'),
    ('The ⟦/forge⟧ chat command; ⟦/mage⟧ <маг>', 'bbcode'),
    ('thanks ⟦@kestrel_mw⟧ for #rout and #skirmish', 'any'),  # a hashtag names its topic: it links
    ('burn/corrode and name/type', 'any'),
    ('_Teleport_ and Guard_', 'bbcode'),
    # a wiki template's call, to its braces or, cut short, to the line's end:
    ('page with "⟦{{Creature infobox|school=Water|level=3|...")⟧\nGuard', 'any'),
    ('удержание зон.⟦{{нет АИ|12|03|2012}}⟧ Guard', 'markdown'),
    # lines of program code pasted without a fence; prose that starts alike is prose:
    ('⟦def expected(dice, armor, piercing=0):⟧\n⟦    total += max(0, armor - piercing)⟧\nreturn the Armor', 'any'),
    ('⟦for armor in range(4):⟧\n⟦    print(armor)⟧\nfor creatures in play: Armor', 'bbcode'),
    ('⟦from itertools import product⟧\n⟦class Card:⟧\nif Burn is on: Armor', 'markdown'),
    # an indented line that reads as prose (a copied thread's nested reply) is text to `any`, code to Markdown;
    # indented lines that read as code stay code (issue 20, round 16):
    ('u/moth · 2y\n\n    nope. she loses the Guard marker.\n\n⟦    $ sbcalc --mage Druid⟧\n\n⟦    damage: int = 0⟧', 'any'),
    ('u/moth · 2y\n\n⟦    nope. she loses the Guard marker.⟧', 'markdown'),
    ('⟦    @dataclass(eq=False)⟧\n⟦    class Card:⟧\n⟦        name: str⟧\n\n    total cost = 6 plus Guard', 'any'),
    # Backslash escapes: an escaped bracket or backtick starts nothing:
    ('\\[Aegis](x)', 'markdown'),
    ('\\`Aegis`', 'markdown'),
]


@pytest.mark.parametrize(("marked", "markup"), CASES)
def test_protected_spans(marked, markup):
    text, expected = unmark(marked)
    assert protected(text, markup) == expected


def test_the_case_notation_reads_back():
    assert unmark("a ⟦b⟧ c⟦d⟧") == ("a b cd", [(2, 3), (5, 6)])


def test_each_markup_is_the_union_of_its_scanners():
    text = "[b]x[/b] `Aegis` https://example.org/Burn <i>y</i> @vortex_mage /forge\ndef f(armor):"
    machine = url_spans(text) + handle_spans(text) + code_line_spans(text)
    assert protected(text, "bbcode") == merge(machine + bbcode_spans(text))
    assert protected(text, "markdown") == merge(machine + markdown_spans(text))
    assert set(MARKUPS) == {"any", "markdown", "bbcode"}


def test_an_unknown_markup_is_refused():
    with pytest.raises(ValueError, match="unknown markup 'rst'"):
        protected("Aegis", "rst")


@pytest.mark.parametrize(("spans", "merged"), [
    ([(5, 7), (0, 2)], [(0, 2), (5, 7)]),
    ([(0, 3), (3, 5)], [(0, 5)]),  # touching spans join
    ([(0, 5), (1, 2)], [(0, 5)]),
    ([(2, 2), (4, 6)], [(4, 6)]),  # empty spans go
])
def test_merge(spans, merged):
    assert merge(spans) == merged


def test_a_reference_shape_without_its_definition_goes_to_the_shapes():
    text = "x\n[ref]: /u\n\n[Aegis][ref]"  # "[ref]: /u" continues the paragraph "x": no definition
    shapes: list[tuple[int, int]] = []
    assert markdown_spans(text, shapes=shapes) == []
    assert (13, 25) in shapes
    # by default the shapes are kept with the rest ("/u", a word after a slash, is kept as a chat command is)
    assert protected(text, "markdown") == [(2, 7), (9, 11), (13, 25)]


def test_the_browser_wheel_carries_the_package(tmp_path):
    """Pyodide imports codex from the wheel the build makes: every scanner module is in it, and it runs from it."""
    from codex.wheel import wheel_bytes

    name, data = wheel_bytes()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    for module in ("__init__", "spans", "urls", "blocks", "inline", "tables", "bbcode"):
        assert f"codex/markup/{module}.py" in names
    (tmp_path / name).write_bytes(data)
    run = subprocess.run([sys.executable, "-I", "-c", "import sys; sys.path.insert(0, sys.argv[1]); import codex.markup as m;"
                          "print(m.__file__, m.protected('`Aegis` x', 'markdown'))", str(tmp_path / name)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert name in run.stdout and run.stdout.strip().endswith("[(0, 7)]")
