"""The site search index: what Material's search box queries through our worker, built from the resolver's forms.

Every word form is generated here, at build time, from the resolver's per-game index (`codex.index`: every
pymorphy3 form of every Russian name word, English plurals and verb forms, aliases, parameter slots), so the
browser only looks words up. The worker (docs/assets/javascripts/search-worker.js) speaks Material for MkDocs'
worker protocol; Material keeps its search box, result list, highlighting and keyboard handling.

What the browser downloads:
- `search/search_index.json` (Material's page fetches it on load and hands it to the worker): Material's own
  `config` (its highlighter needs the separator) plus ours under `config.codex` — the folding and stemming rules,
  the games, each term's popularity, the list of shards — and, as `docs`, the hand-written pages.
- shards (runs of words in sorted order; the index lists each shard's first word), fetched by the worker for the
  words of a query: name-word forms -> name words, Russian stems -> name words (the resolver's fallback), name
  words -> the names that contain them (postings), and definition-word stems -> terms (full text);
- the name vocabulary (for typos), and result chunks (names, game, snippet) only for the results shown.
Under file:// (the offline copy) the worker cannot fetch: everything goes inline into search_index.json.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import forms
from .index import NOT_TERMS, SLOT_KEYS, Index, first_sentence
from .labels import both
from .links import page_url
from .model import LANGS, Glossary, Term

FORMAT = 1
WORKER = "assets/javascripts/search-worker.js"  # the page's `#__config` "search" points here (point_worker)
DATA_DIR = "search/codex/"  # shards, chunks and vocabulary, under a content hash
MATERIAL_WORKER_DIR = "assets/javascripts/workers/"  # where Material's own worker lives (its URL's prefix is kept)
SHARD_BYTES = 12_000  # a shard is cut after about this many bytes of raw JSON (3-4 KB gzip)
CHUNK_TERMS = 16  # terms per result chunk
SNIPPET_CHARS = 160
RESULT_LIMIT = 30  # results the worker returns (Material renders the first ten at once, the rest on scroll)
MIN_TYPO = 5  # letters a word needs before near spellings of it are tried
MAX_POP = 35  # popularity is the number of other terms whose definitions mention the term, capped (one base-36 digit)

# Posting codes pack (term, name, position, name length, flags) into one integer (see `posting`).
NAME_SLOTS, POSITION_SLOTS, LENGTH_SLOTS, FLAG_SLOTS = 32, 16, 16, 16
FLAG_NUMBER, FLAG_WORD, FLAG_MAIN, FLAG_PRINTED = 1, 2, 4, 8

# English suffixes for full-text stems: (suffix, replacement, letters that must remain, letters it may not follow).
# One rule applies (the first that fits), then a final "e" is dropped, a final "y" becomes "i" and a doubled final
# consonant is undoubled, so "charge", "charges", "charged", "charging" share "charg". Crude and deterministic: it
# only has to give a word and its forms one stem, the same in Python and in the worker.
EN_SUFFIXES: list[tuple[str, str, int, str]] = [
    ("'s", "", 2, ""), ("ing", "", 3, ""), ("ies", "i", 2, ""), ("ied", "i", 2, ""), ("es", "", 3, "ius"),
    ("ed", "", 3, ""), ("s", "", 3, "isu"),
]
EN_MIN = 3  # letters the final-letter rules leave
EN_KEEP_DOUBLE = "aeiousl"  # doubled final letters that stay ("pass", "fall", "agree")
STOP_WORDS = frozenset("""
    a an and are as at be been but by can for from has have if in into is it its may must no not of on or such
    than that the their then there these this those to was were which will with
    а без более бы был была были было в во вы да для до его ее её если есть же за и из или им их к как ко ли
    либо на над не него нее неё нет ни но о об однако он она они оно от по под при с со так также то того тоже у
    уже чем что чтобы это эти этот
    """.split())


fold = forms.fold  # the spelling every lookup compares: the resolver's one fold, by the name the worker's tests use


def tokens(text: str) -> list[str]:
    """The folded words of a text, as the worker splits a query (letters and digits, in any script)."""
    return [fold(w) for w in forms.WORD.findall(text)]


def english_stem(word: str) -> str:
    """A folded Latin word's full-text stem (see EN_SUFFIXES)."""
    for suffix, replacement, keep, not_after in EN_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            before = word[: len(word) - len(suffix)]
            if not_after and before[-1:] in not_after:
                continue
            word = before + replacement
            break
    if len(word) > EN_MIN and word.endswith("e"):
        word = word[:-1]
    if len(word) >= EN_MIN and word.endswith("y"):
        word = word[:-1] + "i"
    if len(word) > EN_MIN and word[-1] == word[-2] and word[-1] not in EN_KEEP_DOUBLE:
        word = word[:-1]
    return word


def is_number(word: str) -> bool:
    """A query or name word that is a number (ASCII digits: what readers type in "Aegis 2")."""
    return word.isascii() and word.isdigit()


def text_stem(word: str) -> str:
    """A folded word's full-text key: Russian by the resolver's suffix stripper, Latin by `english_stem`."""
    if is_number(word):
        return word
    return forms.russian_stem(word) if forms.is_cyrillic(word) else english_stem(word)


# --- what is indexed ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Name:
    """One way a term is named, as matched: its words (folded, placeholders removed) and what it accepts."""

    words: tuple[str, ...]
    number: bool  # takes a number ("Aegis 2", "эгида 3")
    word_slot: bool  # takes a word ("Smite evil")
    main: bool  # the term's name in a language (not an alias)
    printed: bool = False  # prints a placeholder ("Armor +/- X"): without it, it fits after a name that does not


NUMBER_STEPS = frozenset({SLOT_KEYS[forms.NUMBER_SLOT], SLOT_KEYS[forms.SIGNED_SLOT]})  # a search takes any number
WORD_STEP = SLOT_KEYS[forms.WORD_SLOT]


def names_from_trie(trie: Mapping[str, Any]) -> dict[str, list[Name]]:
    """Every name of every term, read from the resolver's trie (the same words and slots the linker matches).

    A name with trailing placeholders is several paths of the trie ("aegis", "aegis #n"): they become one Name.
    Each accept entry is an index.Accept; not-mention phrases are the linker's business, not names. A slot this
    code does not know is an error.
    """
    found: dict[str, dict[tuple[str, ...], list[bool]]] = {}
    stack: list[tuple[Mapping[str, Any], tuple[str, ...]]] = [(trie, ())]
    while stack:
        node, path = stack.pop()
        for entry in node.get("a", ()):
            if entry.term in NOT_TERMS:  # not-mention phrases, card names, titles
                continue
            words = tuple(step for step in path if step not in NUMBER_STEPS and step != WORD_STEP)
            flags = found.setdefault(entry.term, {}).setdefault(words, [False, False, False, False])
            flags[0] = flags[0] or any(step in NUMBER_STEPS for step in path)
            flags[1] = flags[1] or WORD_STEP in path
            flags[2] = flags[2] or entry.is_name
            flags[3] = flags[3] or entry.omits_placeholder
        for step, child in node.get("c", {}).items():
            if step.startswith("#") and step not in NUMBER_STEPS and step != WORD_STEP:
                raise ValueError(f"the resolver's trie has a slot {step!r} that codex.search does not know")
            stack.append((child, path + (step,)))
    return {
        term: sorted((Name(words, *flags) for words, flags in by_words.items() if words),
                     key=lambda n: (not n.main, n.words))
        for term, by_words in found.items()
    }


def posting(term: int, name: int, position: int, length: int, flags: int) -> int:
    """One integer per (term, name, word position): small in JSON, exact in JavaScript (below 2**53)."""
    return (((term * NAME_SLOTS + name) * POSITION_SLOTS + position) * LENGTH_SLOTS + length) * FLAG_SLOTS + flags


def unpack(code: int) -> tuple[int, int, int, int, int]:
    """The inverse of `posting` (the worker decodes the same way)."""
    code, flags = divmod(code, FLAG_SLOTS)
    code, length = divmod(code, LENGTH_SLOTS)
    code, position = divmod(code, POSITION_SLOTS)
    term, name = divmod(code, NAME_SLOTS)
    return term, name, position, length, flags


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The definition's first sentence, cut at a word boundary when long."""
    sentence = first_sentence(text)
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:—–- ")
    return cut + "…"


@dataclass
class SearchIndex:
    """Everything the worker needs, before it is split into files (`files`)."""

    games: list[dict[str, Any]]
    # per term number: [game number, url, name en, name ru, snippet en, snippet ru, the terms whose definitions
    # mention it (the resolver's mentions, as deltas): pages that mention a term the query names are results too]
    records: list[list[Any]]
    popularity: str  # one base-36 digit per term number
    words: dict[str, dict[str, Any]] = field(default_factory=dict)  # "f" forms, "s" stems, "k" postings, "t" text
    vocabulary: list[str] = field(default_factory=list)  # name words for near spellings


def build(
    glossary: Glossary,
    indexes: Mapping[str, Index],
    mentions: Mapping[str, Mapping[str, Mapping[str, Iterable[Any]]]],
    directory_urls: bool = True,
) -> SearchIndex:
    """The search index of the whole site from the resolver's indexes and the definitions' mentions (both built once
    per site build; `mentions`: game -> term -> lang -> the resolver's Mention objects)."""
    from .pages import sort_key

    forms_map: dict[str, set[str]] = {}
    stems: dict[str, set[str]] = {}
    postings: dict[str, list[int]] = {}
    text: dict[str, set[int]] = {}
    games: list[dict[str, Any]] = []
    records: list[list[Any]] = []
    popularity: list[int] = []
    for game_number, (game_id, game) in enumerate(glossary.games.items()):
        index = indexes[game_id]
        start = len(records)
        games.append({
            "id": game_id, "name": dict(game.name), "label": both(game.name),
            "url": page_url(f"{game_id}/index.md", directory_urls),
            "words": sorted({w for lang in LANGS for w in tokens(game.name[lang])}), "start": start,
        })
        for form, keys in index.word_keys.items():
            forms_map.setdefault(form, set()).update(keys)
        for stem, keys in index.stem_keys.items():
            stems.setdefault(stem, set()).update(keys)
        names = names_from_trie(index.trie)
        mentioned_by: dict[str, set[str]] = {}
        for term_id, by_lang in mentions.get(game_id, {}).items():
            for found in by_lang.values():
                for mention in found:
                    if mention.term != term_id:
                        mentioned_by.setdefault(mention.term, set()).add(term_id)
        ordered = sorted(game.terms.values(), key=lambda t: (sort_key(t.name["en"]), t.id))
        numbers = {term.id: start + i for i, term in enumerate(ordered)}
        for term in ordered:
            number = numbers[term.id]
            mentioning = sorted(numbers[t] for t in mentioned_by.get(term.id, ()))
            records.append([
                game_number, page_url(f"{game_id}/{term.id}.md", directory_urls), term.name["en"], term.name["ru"],
                snippet(term.definition["en"]), snippet(term.definition["ru"]), _deltas(mentioning),
            ])
            popularity.append(min(MAX_POP, len(mentioning)))
            _add_names(number, term, names.get(term.id, []), postings)
            for lang in LANGS:
                for word in tokens(term.definition[lang]):
                    if is_number(word) or word in STOP_WORDS or len(word) < 2:
                        continue
                    text.setdefault(text_stem(word), set()).add(number)
        games[-1]["end"] = len(records)
    for key in postings:
        if is_number(key):
            forms_map.setdefault(key, set()).add(key)  # "line 12", "radius 2": numbers that are name words
    words: dict[str, dict[str, Any]] = {
        "f": {form: _keys_value(form, keys) for form, keys in forms_map.items()},
        "s": {stem: sorted(keys) for stem, keys in stems.items()},
        "k": {key: sorted(codes) for key, codes in postings.items()},
        "t": {stem: _deltas(sorted(numbers)) for stem, numbers in text.items()},
    }
    vocabulary = sorted(k for k in postings if len(k) >= MIN_TYPO and not is_number(k))
    return SearchIndex(games, records, "".join(_base36(p) for p in popularity), words, vocabulary)


def _add_names(number: int, term: Term, names: list[Name], postings: dict[str, list[int]]) -> None:
    for name_number, name in enumerate(names[:NAME_SLOTS]):
        flags = (FLAG_NUMBER * name.number) | (FLAG_WORD * name.word_slot) | (FLAG_MAIN * name.main) | (
            FLAG_PRINTED * name.printed)
        length = min(len(name.words), LENGTH_SLOTS - 1)
        for position, word in enumerate(name.words[: POSITION_SLOTS - 1]):
            code = posting(number, name_number, position, length, flags)
            postings.setdefault(word, []).append(code)


def _keys_value(form: str, keys: set[str]) -> str | list[str]:
    """A form's name words: "" when it is the only one and the form itself (most forms of most words)."""
    if len(keys) == 1:
        (key,) = keys
        return "" if key == form else key
    return sorted(keys)


def _deltas(numbers: list[int]) -> list[int]:
    return [n - (numbers[i - 1] if i else 0) for i, n in enumerate(numbers)]


def _base36(n: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n]


# --- files ------------------------------------------------------------------------------------------------------


def utf16_key(word: str) -> bytes:
    """Sort order of JavaScript's string comparison (UTF-16 code units), so the worker's binary search agrees."""
    return word.encode("utf-16-be")


def shard_bounds(sizes: Mapping[str, int], limit: int = SHARD_BYTES) -> list[str]:
    """The first word of each shard: the words in sorted order, cut into runs of about `limit` bytes.

    `sizes` maps each word to the bytes its entries take. A word's shard is the last one whose first word is not
    after it; the words a prefix starts are consecutive, so a prefix search reads one run of shards.
    """
    bounds = [""]
    filled = 0
    for word in sorted(sizes, key=utf16_key):
        if filled and filled + sizes[word] > limit:
            bounds.append(word)
            filled = 0
        filled += sizes[word]
    return bounds


def shard_of(word: str, bounds: list[str]) -> int:
    """The number of the shard that holds the word's entries (the worker does the same binary search)."""
    key = utf16_key(word)
    low, high = 0, len(bounds) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if utf16_key(bounds[middle]) <= key:
            low = middle
        else:
            high = middle - 1
    return low


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _shards(words: dict[str, dict[str, Any]]) -> tuple[list[str], list[dict[str, dict[str, Any]]]]:
    sizes: dict[str, int] = {}
    for table in words.values():
        for word, value in table.items():
            sizes[word] = sizes.get(word, 0) + len(word.encode()) + len(_dump(value).encode()) + 4
    bounds = shard_bounds(sizes)
    shards: list[dict[str, dict[str, Any]]] = [{name: {} for name in words} for _ in bounds]
    for name, table in words.items():
        for word, value in table.items():
            shards[shard_of(word, bounds)][name][word] = value
    return bounds, shards


def stemming_rules() -> dict[str, Any]:
    """Everything the worker computes on its own, as data (tested against the Python functions)."""
    return {
        "ru": forms.russian_stem_rules(),
        "en": {"suffixes": [list(rule) for rule in EN_SUFFIXES], "min": EN_MIN, "keep_double": EN_KEEP_DOUBLE},
        "stop": sorted(STOP_WORDS),
    }


def files(
    index: SearchIndex, material_index: str | None, inline: bool = False, games: Iterable[str] = ()
) -> dict[str, bytes]:
    """Site path -> bytes: `search/search_index.json` and, unless everything is inline, the shards, chunks and
    vocabulary under `search/codex/<hash>/`.

    `material_index` is the search plugin's own search_index.json: its `config` is kept (Material's highlighter on
    the target page reads the separator) and its documents are kept for the hand-written pages only — a page
    under a game's folder is generated, and its terms are searched here. `games`: the game ids (folders).
    """
    material: dict[str, Any] = json.loads(material_index) if material_index else {}
    config: dict[str, Any] = dict(material.get("config") or {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": [],
                                                               "fields": {}})
    folders = set(games) | {g["id"] for g in index.games}
    docs = [d for d in material.get("docs", []) if d.get("location", "").split("/")[0].split("#")[0] not in folders]
    bounds, shards = _shards(index.words)
    chunks = [index.records[i: i + CHUNK_TERMS] for i in range(0, len(index.records), CHUNK_TERMS)]
    payload = {f"s{i}.json": _dump(shard) for i, shard in enumerate(shards)}
    payload.update({f"c{i}.json": _dump(chunk) for i, chunk in enumerate(chunks)})
    payload["vocabulary.json"] = _dump(index.vocabulary)
    digest = hashlib.sha256("\n".join(f"{k}\n{v}" for k, v in sorted(payload.items())).encode()).hexdigest()[:12]
    directory = f"{DATA_DIR}{digest}/"
    codex: dict[str, Any] = {
        "format": FORMAT,
        "dir": directory,
        "rules": stemming_rules(),
        "games": index.games,
        "popularity": index.popularity,
        "terms": len(index.records),
        "shards": bounds,
        "chunk": CHUNK_TERMS,
        "limit": RESULT_LIMIT,
        "typo": MIN_TYPO,
        "posting": [NAME_SLOTS, POSITION_SLOTS, LENGTH_SLOTS, FLAG_SLOTS],
    }
    out: dict[str, bytes] = {}
    if inline:
        codex["inline"] = {"shards": shards, "chunks": chunks, "vocabulary": index.vocabulary}
    else:
        out.update({directory + name: data.encode() for name, data in payload.items()})
    config["codex"] = codex
    out["search/search_index.json"] = _dump({"config": config, "docs": docs}).encode()
    return out


# --- the page's configuration ------------------------------------------------------------------------------------

CONFIG_OPEN = '<script id="__config" type="application/json">'


def html_safe_json(data: Any) -> str:
    """JSON that cannot end the <script> element it sits in (the escapes Jinja's `tojson` uses)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e").replace("'", "\\u0027")


def point_worker(html: str, worker: str = WORKER) -> str:
    """The page with Material's `#__config` "search" (its worker's URL) pointing at our worker instead.

    The JSON is parsed, changed and written back; the URL keeps whatever prefix Material gave its own worker
    ("../../" on a term page, "/" on the 404 page), so it resolves from every page. A page without the element
    (a redirect page) is returned unchanged.
    """
    start = html.find(CONFIG_OPEN)
    if start < 0:
        return html
    start += len(CONFIG_OPEN)
    end = html.find("</script>", start)
    if end < 0:
        raise ValueError("the page's #__config script is not closed")
    config = json.loads(html[start:end])
    current = str(config.get("search") or "")
    if MATERIAL_WORKER_DIR not in current:
        raise ValueError(f"#__config search is {current!r}, not Material's worker under {MATERIAL_WORKER_DIR}")
    config["search"] = current[: current.rindex(MATERIAL_WORKER_DIR)] + worker
    return html[:start] + html_safe_json(config) + html[end:]
