"""Every scan over user text is linear: repeated markup fragments at n and 4n characters cost about 4x, not 16x.

Robust on a noisy shared machine: the cost is counted, not timed. A line-event counter (sys.settrace, only for
frames of the `codex` package) counts the Python lines the linker executes, so a scanner that restarts a search
per opener shows as a ratio near 16 between 4n and n, linear work as about 4; the bound (6) leaves room for
constant start-up lines. Work inside one C call (a regex, str.find) is not counted: the scanners never let one
such call rescan what an earlier one covered (memoised finds), and benchmarks/linker.py times the same
fragments at 10 KB, 100 KB and 1 MB.
"""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from linecount import lines_executed

FRAGMENTS = ["[", "![", "[url=", "[code", "[a](", "<a ", "`", "``", "@", "http://", "> ", "    ", "~~~", "*", "_", "|",
             "[x]: ", "<!--", "\n", "- ", "1. ", "\\", "](", "[/url]", "<", "(", "\"", "[quote=\"", "Aegis ", "**Aegis** ",
             "<b>x</b>\n\n", "(*Aegis*),\n\n", "`a` [b](c)\n\n", "> - Aegis\n"]


def cost(codex_api, text: str, fmt: str, game: str = "mage-wars") -> int:
    """Lines of codex code executed to link `text` (warm: caches filled first, as in real use)."""
    codex_api.link(game, text[:200], fmt)
    return lines_executed(lambda: codex_api.link(game, text, fmt), lambda name: "codex" in name)


@settings(max_examples=25, deadline=None)
@given(pieces=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=4), fmt=st.sampled_from(["markdown", "bbcode", "html"]))
@example(pieces=["[", "**Aegis** "], fmt="markdown")  # found by CI: each mention beside emphasis re-read the paragraph's runs
@example(pieces=["<b>x</b>\n\n", "~~Aegis~~"], fmt="markdown")  # each paragraph re-listed the whole text's protected spans
def test_cost_grows_linearly(codex_api, pieces, fmt):
    unit = "".join(pieces)
    n = max(1, 2_000 // len(unit))
    small, large = cost(codex_api, unit * n, fmt), cost(codex_api, unit * (4 * n), fmt)
    assert large <= 6 * max(small, 50), (unit, fmt, small, large)


@pytest.mark.parametrize("fragment", FRAGMENTS)
def test_each_fragment_alone(codex_api, fragment):
    n = max(1, 3_000 // len(fragment))
    for fmt in ("markdown", "bbcode", "html"):
        small, large = cost(codex_api, fragment * n, fmt), cost(codex_api, fragment * (4 * n), fmt)
        assert large <= 6 * max(small, 50), (fragment, fmt, small, large)


# Round 19's looks, each repeated: capitalised mentions beside the words of events and groups (every word a hit, and
# spaces between), and a listing's "Condition:" field at every line's start.
NAME_SHAPES = [
    ("dnd-miniatures", "Tuesday Night Skirmish Classic Skirmish Society Skirmish Basics "),
    ("dnd-miniatures", "Night        Skirmish        Night   "),
    ("mage-wars", "Night Night Monday Winter Burn Melee Winter "),
    ("mage-wars", "Condition: Used\nCondition: Burn\n"),
]


@pytest.mark.parametrize("game,unit", NAME_SHAPES)
def test_names_looks_cost_linear_work(codex_api, game, unit):
    n = max(1, 3_000 // len(unit))
    small, large = cost(codex_api, unit * n, "markdown", game), cost(codex_api, unit * (4 * n), "markdown", game)
    assert large <= 6 * max(small, 50), (unit, small, large)
