"""Whatever a reader pastes, the resolver never raises, its spans are valid, and only link markup is added."""
from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GAMES = ("mage-wars", "dnd-miniatures", "keyforge")
# Pieces that exercise the matcher: names, forms, parameters, markup and the characters around them.
PIECES = [
    "Aegis", " 2", "+3", "-", "–", "Melee", " Attack", "брони", "бой", "Zone", "Attack", "[", "]", "(", ")", "`",
    "[url=", "[/url]", "<", ">", "http://x.y/", " ", "\n", "Эгида", "Resist 5 fire", "Smite Evil +", "**", "Опасный",
    "\u202e", "🙂", "ё", "\x00", "#", "www.", "@", "’", "Burn", "линии видимости",
]
text_strategy = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(PIECES), max_size=60).map("".join),
)
EXAMPLES = int(os.environ.get("CODEX_FUZZ_EXAMPLES", "2500"))  # "a few thousand cases in CI"


def assert_valid(codex_api, game, text):
    mentions = codex_api.mentions(game, text)
    last_end = 0
    for m in mentions:
        assert last_end <= m["start"] < m["end"] <= len(text)
        assert text[m["start"]:m["end"]] == m["text"]
        last_end = m["end"]
    for fmt in ("markdown", "bbcode", "html"):
        for every in (False, True):
            codex_api.link(game, text, fmt, every=every)
    # Markdown output: removing the link markup we added gives back the input, byte for byte.
    out = codex_api.link(game, text, "markdown", every=True)
    stripped = re.sub(r"\[([^\[\]]*)\]\(https://example\.org/[a-z0-9-]+/[a-z0-9-]+/\)", r"\1", out)
    if "](https://example.org/" not in text:
        assert stripped == text


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=text_strategy, game=st.sampled_from(GAMES))
def test_linking_never_raises_and_keeps_the_text(codex_api, text, game):
    assert_valid(codex_api, game, text)


@settings(max_examples=EXAMPLES // 3, deadline=None)
@given(query=st.text(max_size=40), game=st.sampled_from(GAMES))
def test_lookup_and_traits_never_raise(codex_api, query, game):
    for candidate in codex_api.lookup(game, query):
        assert 0 < candidate["score"] <= 1
    codex_api.traits(game, [query])


@pytest.mark.parametrize("text", [
    "", " ", "\n\n", "\x00\x01\x02\xff", "".join(chr(c) for c in range(0x20, 0x3000, 7)),
    "مرحبا Aegis 2 עברית", "\u202eAegis 2\u202c", "🙂 Burn 🔥 брони 🛡️", "[url=http://x]Aegis", "[Aegis 2](", "`Aegis",
    "**Burn", "<a href='x'>Burn", "[b]Burn[/i]",
])
@pytest.mark.parametrize("game", GAMES)
def test_hostile_and_odd_inputs(codex_api, game, text):
    assert_valid(codex_api, game, text)


def test_text_that_is_nothing_but_names(codex_api, glossary):
    game = glossary.game("mage-wars")
    text = " ".join(t.name["en"].replace(" X", " 2").replace("+X", "+1") for t in game.terms.values())
    mentions = codex_api.mentions("mage-wars", text)
    assert len(mentions) >= len(game.terms) * 0.9
    assert_valid(codex_api, "mage-wars", text)


def test_a_megabyte_of_text(codex_api):
    post = "У моего Creature с Aegis 2 два жетона Burn, и брони нет. [link](http://x) `code` " * 12_000
    assert len(post.encode()) > 1_000_000
    mentions = codex_api.mentions("mage-wars", post)
    assert len(mentions) == 5 * 12_000
