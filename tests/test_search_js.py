"""The search worker under Node.js: its word rules agree with the Python ones, and it answers Material's protocol.

The worker (docs/assets/javascripts/search-worker.js) folds, tokenises and stems on its own, from rules the build
writes into the index; here both sides get the same words and must give the same results. The protocol tests
run the worker on a fixture index (no MkDocs build): fetched shards and the inline (offline) form alike.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from codex import forms, search
from codex.check import load
from codex.index import build as build_index
from codex.pages import definition_mentions
from codex.resolve import Resolver

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "docs" / "assets" / "javascripts" / "search-worker.js"
HARNESS = Path(__file__).parent / "js" / "search_harness.cjs"
FIXTURES = Path(__file__).parent / "fixtures"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None and not os.environ.get("CI"), reason="Node.js is not installed")

EDGE_WORDS = [
    "Эгида", "ЭГИДЫ", "Ёлка", "ёж", "ЁЖИКИ", "бесплотного", "ответного", "удара", "регенерацией", "оцепинение",
    "стеном", "и", "ии", "иия", "CHARGE", "charges", "charged", "charging", "creature's", "stunned", "losses",
    "carried", "dies", "us", "aegis", "bonus", "DС", "dc", "Stunning", "İstanbul", "STRASSE", "straße", "ǅemal",
    "x²", "٣٤", "ΟΔΟΣ", "𝔄bc", "и\u0306", "can't", "a_b", "rock-n-roll", "Thorg’s", "+2", "-X", "(Х)", "12",
    "ВЕРБЛЮДЫ", "ἀγάπη", "naïve", "café", "ﬁre", "Ǆ", "ẞ",
]


def _glossary_words() -> list[str]:
    words: set[str] = set()
    for directory in (ROOT / "glossary", FIXTURES / "search", FIXTURES / "hostile", FIXTURES / "glossary"):
        glossary = load(directory, directory.parent)
        for term in glossary.terms:
            for lang in ("en", "ru"):
                for text in [*term.names(lang), term.definition[lang]]:
                    words.update(forms.WORD.findall(text))
    return sorted(words)


def run_worker(site: Path, requests: list[dict]) -> dict:
    result = subprocess.run([NODE, str(HARNESS), str(WORKER), str(site)], input=json.dumps(requests),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _python_side(word: str) -> dict:
    folded = search.fold(word)
    return {"fold": folded, "tokens": search.tokens(word), "russianStem": forms.russian_stem(word),
            "englishStem": search.english_stem(folded), "textStem": search.text_stem(folded)}


def _site(tmp: Path, glossary_dir: Path, inline: bool = False) -> Path:
    """A site folder holding just what the worker reads: search/search_index.json (and the data files)."""
    glossary = load(glossary_dir, glossary_dir.parent)
    indexes = {gid: build_index(game) for gid, game in glossary.games.items()}
    mentions = {gid: definition_mentions(game, Resolver(indexes[gid])) for gid, game in glossary.games.items()}
    material = json.dumps({"config": {"lang": ["ru", "en"], "separator": "[\\s\\-]+", "pipeline": [], "fields": {}},
                           "docs": [{"location": "linker/", "title": "Term linker · Ссылки на термины",
                                     "text": "<p>Paste a forum post.</p>"}]})
    written = search.files(search.build(glossary, indexes, mentions), material, inline=inline)
    for path, data in written.items():
        (tmp / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp / path).write_bytes(data)
    return tmp


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory) -> Path:
    return _site(tmp_path_factory.mktemp("search-site"), FIXTURES / "search")


def _locations(items: list) -> list[str]:
    return [group[0]["location"] for group in items]


# --- the word rules: JavaScript == Python --------------------------------------------------------------------


def test_word_rules_agree_with_python_on_every_glossary_word(fixture_site):
    words = EDGE_WORDS + _glossary_words()
    answers = run_worker(fixture_site, [{"words": words}])["answers"][0]
    mismatches = [(w, js, _python_side(w)) for w, js in zip(words, answers) if js != _python_side(w)]
    assert len(words) > 3000
    assert not mismatches, mismatches[:5]


ALPHABET = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЕЁЙЯabcdefghijklmnopqrstuvwxyzABEZ0123456789 -'’_.,+"


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(ALPHABET, min_size=1, max_size=14), min_size=300, max_size=300))
def test_word_rules_agree_with_python_on_random_text(fixture_site, words):
    answers = run_worker(fixture_site, [{"words": words}])["answers"][0]
    mismatches = [(w, js, _python_side(w)) for w, js in zip(words, answers) if js != _python_side(w)]
    assert not mismatches, mismatches[:5]


# --- the protocol ---------------------------------------------------------------------------------------------


def test_setup_answers_ready_and_queries_find_terms_by_any_form(fixture_site):
    out = run_worker(fixture_site, [{"query": "эгиды"}, {"query": "aegis 3"}, {"query": "teleprot"},
                                    {"query": "линии огня"}, {"query": "телепо"}, {"query": ""}])
    assert out["ready"] == 1  # READY
    eгиды, aegis3, typo, phrase, prefix, empty = out["answers"]
    assert _locations(eгиды)[0] == "north/aegis/"
    assert _locations(aegis3)[0] == "north/aegis/"
    assert "3" not in aegis3[0][0]["terms"]  # the parameter is neither missing nor highlighted on the page
    assert _locations(typo)[0] == "south/teleport/"
    assert _locations(phrase)[0] == "north/line-of-fire/"
    assert _locations(prefix)[0] == "south/teleport/"
    assert empty == []


def test_a_signed_parameter_takes_the_readers_number(fixture_site):
    for query in ("rage +3", "ярость 2", "rage"):
        items = run_worker(fixture_site, [{"query": query}])["answers"][0]
        assert _locations(items)[0] == "south/rage/", query


def test_a_shared_name_shows_both_games_each_labelled(fixture_site):
    items = run_worker(fixture_site, [{"query": "elusive"}])["answers"][0]
    assert set(_locations(items)[:2]) == {"north/elusive/", "south/elusive/"}
    labels = {group[0]["location"]: group[0]["title"] for group in items[:2]}
    assert "North Game" in labels["north/elusive/"] and "Северная игра" in labels["north/elusive/"]
    assert "South Game" in labels["south/elusive/"]


def test_results_carry_both_names_game_and_snippet_in_both_languages(fixture_site):
    item = run_worker(fixture_site, [{"query": "эгида"}])["answers"][0][0][0]
    assert re.search(r'<span lang="en">Aegis X</span> · <span lang="ru"><mark>Эгида</mark></span>', item["title"])
    assert '<span class="codex-l10n" lang="en">Attacks against the object roll X fewer dice.</span>' in item["text"]
    assert '<span class="codex-l10n" lang="ru">Атаки против объекта' in item["text"]
    # The query word, matched; and the name word's stem, so Material highlights every form on the term page.
    assert item["terms"] == {"эгида": True, "эгид": True}


def test_a_terms_own_page_ranks_above_pages_that_mention_it(fixture_site):
    items = run_worker(fixture_site, [{"query": "aegis"}])["answers"][0]
    locations = _locations(items)
    assert locations[0] == "north/aegis/"
    assert {"north/elusive/", "north/line-of-fire/"} <= set(locations[1:])  # their definitions mention Aegis
    assert items[0][0]["score"] > max(group[0]["score"] for group in items[1:])


def test_pages_that_mention_the_named_term_in_another_language_are_found(fixture_site):
    items = run_worker(fixture_site, [{"query": "неуловимый"}])["answers"][0]
    # Line of Fire's definitions say "Elusive" only in English; the resolver's mention finds it for «неуловимый».
    assert _locations(items)[0] == "north/elusive/"
    assert "north/line-of-fire/" in _locations(items)


def test_definition_words_find_pages_below_names(fixture_site):
    items = run_worker(fixture_site, [{"query": "кубиков"}, {"query": "blows"}, {"query": "forum"}])["answers"]
    assert _locations(items[0]) == ["north/aegis/"]  # «кубиков» is only in Aegis's definition
    assert _locations(items[1]) == ["south/elusive/"]
    assert _locations(items[2]) == ["linker/"]  # a hand-written page, by its text
    assert items[0][0][0]["score"] < 1 < run_worker(fixture_site, [{"query": "эгида"}])["answers"][0][0][0]["score"]


def test_suggests_the_name_word_the_typed_word_starts(fixture_site):
    out = run_worker(fixture_site, [{"result": q} for q in ("телепо", "телепорт", "эгиды")])
    assert [r["suggest"] for r in out["answers"]] == [["телепорт"], [], []]  # Material's search.suggest


def test_only_the_newest_of_overlapping_queries_is_answered(fixture_site):
    first, second = run_worker(fixture_site, [{"race": ["эгида", "teleport"]}])["answers"][0]
    assert first is None
    assert _locations(second)[0] == "south/teleport/"


def test_online_it_fetches_only_the_shards_and_chunks_a_query_needs(fixture_site):
    out = run_worker(fixture_site, [{"query": "эгиды"}])
    fetched = [url.rsplit("/", 1)[-1] for url in out["fetched"]]
    assert fetched and all(re.fullmatch(r"(s|c)\d+\.json|vocabulary\.json", name) for name in fetched)
    assert len(fetched) <= 4


def test_inline_index_gives_the_same_results_without_fetching(tmp_path, fixture_site):
    inline = _site(tmp_path, FIXTURES / "search", inline=True)
    queries = [{"query": q} for q in ("эгиды", "elusive", "teleprot", "линии огня", "кубиков", "aegis 2")]
    out = run_worker(inline, queries)
    assert out["fetched"] == []
    assert out["answers"] == run_worker(fixture_site, queries)["answers"]


def test_hostile_glossary_text_is_escaped_in_results(tmp_path):
    site = _site(tmp_path, FIXTURES / "hostile")
    answers = run_worker(site, [{"query": "script alert"}, {"query": "img onerror"}, {"query": "armor"}])["answers"]
    html = json.dumps(answers)
    assert "&lt;script&gt;" in html and "&lt;img src=x onerror=" in html
    for group in [g for items in answers for g in items]:
        for field in ("title", "text"):
            assert not re.search(r"<(script|img|a|b)\b", group[0][field], re.I), group[0][field]
