"""codex.search: the site search index built from the resolver's word forms, its files, and the worker URL step."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, strategies as st

from codex import forms, search
from codex.check import load
from codex.index import SLOT_KEYS, build as build_index
from codex.pages import definition_mentions
from codex.resolve import Resolver

FIXTURE = Path(__file__).parent / "fixtures" / "search"
HOSTILE = Path(__file__).parent / "fixtures" / "hostile"
QUERIES = Path(__file__).parent / "search_queries.yml"


def _index(directory: Path, directory_urls: bool = True) -> search.SearchIndex:
    glossary = load(directory, directory.parent)
    indexes = {gid: build_index(game) for gid, game in glossary.games.items()}
    mentions = {gid: definition_mentions(game, Resolver(indexes[gid])) for gid, game in glossary.games.items()}
    return search.build(glossary, indexes, mentions, directory_urls)


@pytest.fixture(scope="module")
def fixture_index() -> search.SearchIndex:
    return _index(FIXTURE)


def _number(index: search.SearchIndex, game: str, term: str) -> int:
    start = next(g["start"] for g in index.games if g["id"] == game)
    end = next(g["end"] for g in index.games if g["id"] == game)
    return next(i for i in range(start, end) if index.records[i][1].rstrip("/").endswith(f"{game}/{term}"))


# --- words ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("group", [
    ["charge", "charges", "charged", "charging"],
    ["heal", "heals", "healed", "healing"],
    ["push", "pushes", "pushed", "pushing"],
    ["loss", "losses"],
    ["stun", "stuns", "stunned", "stunning"],
    ["carry", "carries", "carried"],
    ["creature", "creatures", "creature's"],
])
def test_english_forms_share_one_text_stem(group):
    assert len({search.english_stem(w) for w in group}) == 1, {w: search.english_stem(w) for w in group}


def test_english_stem_keeps_short_words_and_distinct_words_apart():
    assert search.english_stem("us") == "us"
    assert search.english_stem("aegis") != search.english_stem("aegi")  # "s" after "i" stays
    assert search.english_stem("attack") != search.english_stem("attach")


def test_text_stems_use_the_resolvers_russian_fallback():
    for word in ("кубиков", "кубики", "кубик"):
        assert search.text_stem(word) == forms.russian_stem(word) == "кубик"
    assert search.text_stem("12") == "12"


def test_russian_stem_rules_describe_russian_stem():
    rules = forms.russian_stem_rules()
    assert rules["min_stem"] == forms.MIN_STEM
    endings = rules["endings"]
    assert [len(e) for e in endings] == sorted((len(e) for e in endings), reverse=True)
    for word in ("эгиды", "коррозией", "бесплотного", "ответного", "ударами"):
        ending = next(e for e in endings if word.endswith(e) and len(word) - len(e) >= rules["keep"])
        assert forms.russian_stem(word) == word[: -len(ending)]


# --- names and postings ---------------------------------------------------------------------------------------


def test_names_come_from_the_resolvers_trie_with_their_slots():
    glossary = load(FIXTURE, FIXTURE.parent)
    names = search.names_from_trie(build_index(glossary.games["north"]).trie)
    aegis = names["aegis"]
    assert aegis[0].main and aegis[0].number and aegis[0].words == ("aegis",)  # "Aegis X" and the alias "Aegis"
    assert search.Name(("эгида",), True, False, True) in aegis  # a number although the Russian name prints none
    assert names["line-of-fire"][0].words == ("line", "of", "fire")


def test_signed_and_plain_number_slots_both_take_a_number():
    glossary = load(FIXTURE, FIXTURE.parent)
    rage = search.names_from_trie(build_index(glossary.games["south"]).trie)["rage"]
    assert rage and all(name.number for name in rage)  # "Rage +X": a signed slot; a search takes "rage 2" too
    assert search.NUMBER_STEPS | {search.WORD_STEP} == set(SLOT_KEYS.values())  # every slot the resolver has


@given(st.integers(0, 10**6), st.integers(0, search.NAME_SLOTS - 1), st.integers(0, search.POSITION_SLOTS - 1),
       st.integers(0, search.LENGTH_SLOTS - 1), st.integers(0, search.FLAG_SLOTS - 1))
def test_postings_round_trip_below_2_to_the_53(term, name, position, length, flags):
    code = search.posting(term, name, position, length, flags)
    assert code < 2**53
    assert search.unpack(code) == (term, name, position, length, flags)


def test_every_form_leads_to_the_names_that_contain_it(fixture_index):
    words = fixture_index.words
    assert words["f"]["эгиды"] == "эгида"  # a form -> its name word
    assert words["f"]["эгида"] == ""  # the name word itself
    assert "elusive" in words["k"]
    elusive_terms = {search.unpack(code)[0] for code in words["k"]["elusive"]}
    assert elusive_terms == {_number(fixture_index, "north", "elusive"), _number(fixture_index, "south", "elusive")}
    line = [search.unpack(code) for code in words["k"]["fire"]]
    assert [(p[2], p[3]) for p in line] == [(2, 3)]  # third word of a three-word name
    assert words["s"][forms.russian_stem("эгида")] == ["эгида"]  # the resolver's fallback stems


def test_full_text_postings_find_definitions(fixture_index):
    text = fixture_index.words["t"]
    numbers = []
    at = 0
    for step in text[search.text_stem("dice")]:
        at += step
        numbers.append(at)
    assert numbers == [_number(fixture_index, "north", "aegis")]
    assert "the" not in text and "и" not in text  # stop words are not indexed


def test_records_hold_names_game_url_and_snippet_as_plain_text(fixture_index):
    record = fixture_index.records[_number(fixture_index, "north", "aegis")]
    game, url, en, ru, snippet_en, snippet_ru, mentioned_by = record
    assert fixture_index.games[game]["id"] == "north"
    assert (url, en, ru) == ("north/aegis/", "Aegis X", "Эгида")
    assert snippet_en == "Attacks against the object roll X fewer dice."
    assert snippet_ru.startswith("Атаки против объекта")
    mentioning = [sum(mentioned_by[: i + 1]) for i in range(len(mentioned_by))]  # deltas
    assert mentioning == sorted(_number(fixture_index, "north", t) for t in ("elusive", "line-of-fire"))


def test_offline_urls_are_html_files():
    index = _index(FIXTURE, directory_urls=False)
    assert {r[1] for r in index.records} >= {"north/aegis.html", "south/teleport.html"}
    assert index.games[0]["url"] == "north/index.html"


def test_popularity_counts_the_terms_whose_definitions_mention_it(fixture_index):
    def popularity(game: str, term: str) -> int:
        return int(fixture_index.popularity[_number(fixture_index, game, term)], 36)

    assert popularity("north", "aegis") == 2  # Elusive and Line of Fire mention it
    assert popularity("north", "elusive") == 1
    assert popularity("south", "teleport") == 0


def test_long_snippets_are_cut_at_a_word():
    text = "word " * 100
    cut = search.snippet(text, 30)
    assert cut.endswith("…") and len(cut) <= 31 and not cut[:-1].endswith(" ")


def test_hostile_text_stays_data(tmp_path):
    index = _index(HOSTILE)
    names = {(r[2], r[3]) for r in index.records}
    assert ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>") in names  # escaped by the worker, as text


# --- shards and files -----------------------------------------------------------------------------------------


@given(st.dictionaries(st.text("абвгдеёжabcdez0", min_size=1, max_size=6), st.integers(1, 400), min_size=1))
def test_every_word_lives_in_one_shard_and_prefixes_are_consecutive(sizes):
    bounds = search.shard_bounds(sizes, limit=500)
    assert bounds[0] == "" and bounds == sorted(bounds, key=search.utf16_key)
    by_shard: dict[int, int] = {}
    for word, size in sizes.items():
        shard = search.shard_of(word, bounds)
        assert search.utf16_key(bounds[shard]) <= search.utf16_key(word)
        assert shard == len(bounds) - 1 or search.utf16_key(word) < search.utf16_key(bounds[shard + 1])
        by_shard[shard] = by_shard.get(shard, 0) + size
    for shard, total in by_shard.items():  # a shard over the limit holds a single word that alone exceeds it
        members = [w for w in sizes if search.shard_of(w, bounds) == shard]
        assert total <= 500 or len(members) == 1, (shard, members)


def test_files_online_are_a_small_index_plus_data_under_a_content_hash(fixture_index):
    material = json.dumps({"config": {"lang": ["ru", "en"], "separator": "[\\s\\-]+", "pipeline": [], "fields": {}},
                           "docs": [{"location": "", "title": "Home", "text": "t"},
                                    {"location": "north/", "title": "North", "text": "generated"},
                                    {"location": "north/aegis/#en", "title": "Aegis", "text": "generated"},
                                    {"location": "linker/#_2", "title": "Linker", "text": "x"}]})
    written = search.files(fixture_index, material, games=["north", "south"])
    index = json.loads(written["search/search_index.json"])
    assert index["config"]["separator"] == "[\\s\\-]+"  # Material's highlighter on the target page reads it
    assert [d["location"] for d in index["docs"]] == ["", "linker/#_2"]  # generated pages are searched as terms
    codex = index["config"]["codex"]
    assert "inline" not in codex
    data = {p for p in written if p != "search/search_index.json"}
    assert data and all(p.startswith(codex["dir"]) and p.startswith(search.DATA_DIR) for p in data)
    shards = [json.loads(written[f"{codex['dir']}s{i}.json"]) for i in range(len(codex["shards"]))]
    merged: dict[str, dict[str, object]] = {}
    for shard in shards:
        for table, entries in shard.items():
            merged.setdefault(table, {}).update(entries)
    assert merged == fixture_index.words  # every entry in exactly the shard the bounds name
    chunks = [json.loads(written[f"{codex['dir']}c{i}.json"]) for i in range(-(-codex["terms"] // codex["chunk"]))]
    assert [r for c in chunks for r in c] == fixture_index.records


def test_files_offline_carry_everything_inline(fixture_index):
    written = search.files(fixture_index, None, inline=True)
    assert list(written) == ["search/search_index.json"]
    codex = json.loads(written["search/search_index.json"])["config"]["codex"]
    assert len(codex["inline"]["shards"]) == len(codex["shards"])
    assert [r for c in codex["inline"]["chunks"] for r in c] == fixture_index.records
    assert codex["inline"]["vocabulary"] == fixture_index.vocabulary


def test_the_hash_changes_with_the_content(fixture_index):
    first = json.loads(search.files(fixture_index, None)["search/search_index.json"])["config"]["codex"]["dir"]
    fixture_index.records[0] = [*fixture_index.records[0][:4], "changed", "изменено", []]
    try:
        second = json.loads(search.files(fixture_index, None)["search/search_index.json"])["config"]["codex"]["dir"]
    finally:
        fixture_index.records[0] = _index(FIXTURE).records[0]
    assert first != second


# --- the page's #__config -------------------------------------------------------------------------------------


def _page(config: dict[str, object]) -> str:
    body = search.html_safe_json(config)  # as Material's `tojson` writes it: no "<" inside the element
    return f'<html><body><script id="__config" type="application/json">{body}</script><p>rest</p></body></html>'


@pytest.mark.parametrize("material, ours", [
    ("assets/javascripts/workers/search.a7633da7.min.js", "assets/javascripts/search-worker.js"),
    ("../../assets/javascripts/workers/search.a7633da7.min.js", "../../assets/javascripts/search-worker.js"),
    ("/sub/assets/javascripts/workers/search.a7633da7.min.js", "/sub/assets/javascripts/search-worker.js"),
])
def test_point_worker_sets_our_worker_with_materials_prefix(material, ours):
    page = search.point_worker(_page({"base": "..", "search": material, "translations": {"x": "</script><b>"}}))
    start = page.index(search.CONFIG_OPEN) + len(search.CONFIG_OPEN)
    body = page[start:page.index("</script>", start)]
    config = json.loads(body)
    assert config["search"] == ours
    assert config["translations"]["x"] == "</script><b>" and "<" not in body  # still cannot end the element
    assert page.endswith("</script><p>rest</p></body></html>")


def test_point_worker_leaves_pages_without_config_alone_and_refuses_unknown_workers():
    assert search.point_worker("<html>redirect</html>") == "<html>redirect</html>"
    with pytest.raises(ValueError, match="not Material's worker"):
        search.point_worker(_page({"search": "elsewhere.js"}))


@pytest.mark.slow
def test_every_built_page_talks_to_our_worker(built_site):
    pages = list(built_site.rglob("*.html"))
    configured = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        if search.CONFIG_OPEN not in text:
            continue  # short-link redirect pages
        configured += 1
        start = text.index(search.CONFIG_OPEN) + len(search.CONFIG_OPEN)
        url = json.loads(text[start:text.index("</script>", start)])["search"]
        assert url.endswith(search.WORKER) and "workers/" not in url, page
    assert configured > 300 and (built_site / search.WORKER).is_file()
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert (built_site / index["config"]["codex"]["dir"]).is_dir()


# --- the query set claims what it exercises -------------------------------------------------------------------


def test_the_query_set_exercises_what_it_claims(glossary):
    """Each query's rule is true of the real index: a form is a form (not the name), a typo matches no form, ..."""
    queries = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    assert len(queries) >= 60
    assert {q["first"].split("/")[0] for q in queries} == set(glossary.games)
    scripts = {"ru": 0, "en": 0}
    indexes = {gid: build_index(game) for gid, game in glossary.games.items()}
    wrong = []
    for q in queries:
        game, term_id = q["first"].split("/")
        index = indexes[game]
        term = glossary.games[game].terms[term_id]
        words = [w for w in search.tokens(q["query"]) if not search.is_number(w)]
        scripts["ru" if any(forms.is_cyrillic(w) for w in words) else "en"] += 1
        name_words = {w for lang in ("en", "ru") for n in term.names(lang) for w in search.tokens(n)}
        keys = [set(index.word_keys.get(w, ())) for w in words]
        rule = q["rule"]
        ok = True
        if rule in ("ru-form", "en-form", "ru-phrase", "en-phrase"):
            ok = all(k & name_words for k in keys) and any(w not in name_words for w in words)
        elif rule == "ru-stem":
            ok = all(not k for k in keys) and all(
                set(index.stem_keys.get(forms.russian_stem(w), ())) & name_words for w in words)
        elif rule == "param":  # a number, name words, and at most one word for a word placeholder ("smite evil +2")
            loose = [w for w, k in zip(words, keys) if not k & name_words]
            takes_word = any(p.kind == "word" for p in term.params)
            ok = any(search.is_number(w) for w in search.tokens(q["query"])) and len(loose) <= takes_word
        elif rule.startswith("typo"):
            ok = any(not k for k in keys) and all(len(w) >= search.MIN_TYPO for w in words if not index.word_keys.get(w))
        elif rule.startswith("prefix"):  # not a form of the term's names, but the start of one
            last = words[-1]
            ok = not set(index.word_keys.get(last, ())) & name_words and any(
                f.startswith(last) and set(k) & name_words for f, k in index.word_keys.items())
        elif rule in ("name", "alias"):
            printed = {" ".join(search.tokens(n)) for lang in ("en", "ru") for n in
                       ([term.name[lang]] if rule == "name" else term.aliases.get(lang, []))}
            ok = " ".join(words) in printed
        elif rule == "game":
            ok = bool(set(words) & set(search.tokens(" ".join(glossary.games[game].name.values()))))
        else:
            ok = False
        if not ok:
            wrong.append(f"{q['query']!r}: not {rule}")
    assert not wrong, wrong
    assert min(scripts.values()) >= 25, scripts  # both languages, well represented
