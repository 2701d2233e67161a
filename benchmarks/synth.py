"""Synthetic glossaries made from the real one, and the plain-site pages that serve as the floor.

A scaled game is the real game plus copies of it. Copy k renames every term: a new id (`<id>-<suffix>`) and every
name and alias with a suffix word appended ("Aegis X" -> "Aegis X Sigma", «Эгида» -> «Эгида сигма»). The Russian
names keep their real words, so the morphological dictionary expands them as it does the real ones; the suffixes
are real Russian nouns too (Greek letters, minerals). Each copy is a whole, self-consistent clone: its relations
point inside the copy, and its definitions mention the copy's own terms (every mention the real resolver finds in
a real definition gets the suffix appended), so links, backlinks and "Implies" spread over the copy as they do over
the real glossary. A last partial copy tops the game up to the wanted size; relations and mentions that point at a
term the partial copy lacks keep pointing at the real term.
"""
from __future__ import annotations

import copy as copying
import math
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))

# (English, Russian) suffix words; none of them is a word of a real name (the generator checks the result).
SUFFIXES = [
    ("Alpha", "альфа"), ("Beta", "бета"), ("Gamma", "гамма"), ("Delta", "дельта"), ("Epsilon", "эпсилон"),
    ("Zeta", "дзета"), ("Theta", "тета"), ("Iota", "йота"), ("Kappa", "каппа"), ("Lambda", "лямбда"),
    ("Omicron", "омикрон"), ("Sigma", "сигма"), ("Upsilon", "ипсилон"), ("Omega", "омега"),
    ("Onyx", "оникс"), ("Jasper", "яшма"), ("Agate", "агат"), ("Topaz", "топаз"), ("Opal", "опал"),
    ("Quartz", "кварц"), ("Beryl", "берилл"), ("Coral", "коралл"), ("Pearl", "жемчуг"), ("Ruby", "рубин"),
    ("Sapphire", "сапфир"), ("Emerald", "изумруд"), ("Jade", "нефрит"), ("Cobalt", "кобальт"),
    ("Granite", "гранит"), ("Marble", "мрамор"), ("Basalt", "базальт"), ("Obsidian", "обсидиан"),
    ("Malachite", "малахит"), ("Turquoise", "бирюза"), ("Zircon", "циркон"), ("Graphite", "графит"),
    ("Platinum", "платина"), ("Titanium", "титан"), ("Mercury", "ртуть"), ("Sulfur", "сера"),
]


def suffix(k: int) -> tuple[str, str]:
    """The k-th suffix (k >= 1); past the list, two words ("Alpha Beta")."""
    n = len(SUFFIXES)
    if k <= n:
        return SUFFIXES[k - 1]
    a, b = SUFFIXES[(k - 1) // n - 1], SUFFIXES[(k - 1) % n]
    return f"{a[0]} {b[0]}", f"{a[1]} {b[1]}"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _with_suffix(name: str, word: str) -> str:
    """Append the suffix, lower-case when the name is ("melee attack" stays apart from "Melee Attack")."""
    first = name[:1]
    return f"{name} {word if first.isupper() or not first.isalpha() else word.lower()}"


def real_games(root: Path = ROOT) -> dict[str, dict]:
    """The real glossary files as plain data, by game id."""
    out = {}
    for path in sorted((root / "glossary").glob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out[data["game"]["id"]] = data
    return out


def _definition_mentions(root: Path) -> dict[str, dict[str, dict[str, list[tuple[int, int, str]]]]]:
    """game -> term -> lang -> [(start, end, term)] found by the real resolver in the real definitions."""
    from codex.check import load
    from codex.index import build
    from codex.resolve import Resolver

    glossary = load(root / "glossary", root)
    out: dict = {}
    for gid, game in glossary.games.items():
        resolver = Resolver(build(game))
        out[gid] = {
            t.id: {lang: [(m.start, m.end, m.term) for m in resolver.mentions(t.definition[lang])] for lang in ("en", "ru")}
            for t in game.terms.values()
        }
    return out


def _copy_term(raw: dict, k: int, in_copy: set[str], mentions: dict[str, list]) -> dict:
    en_word, ru_word = suffix(k)
    tag = slug(en_word)
    term = copying.deepcopy(raw)

    def rid(term_id: str) -> str:
        return f"{term_id}-{tag}" if term_id in in_copy else term_id

    term["id"] = rid(raw["id"])
    term["name"] = {"en": _with_suffix(raw["name"]["en"], en_word), "ru": _with_suffix(raw["name"]["ru"], ru_word)}
    aliases = raw.get("aliases") or {}
    if aliases:
        term["aliases"] = {
            lang: [_with_suffix(a, en_word if lang == "en" else ru_word) for a in ([v] if isinstance(v, str) else v)]
            for lang, v in aliases.items()
        }
    for rel in ("implies", "cancels", "see_also"):
        if raw.get(rel):
            values = [raw[rel]] if isinstance(raw[rel], str) else raw[rel]
            term[rel] = [rid(t) for t in values]
    if raw.get("former_ids"):
        values = [raw["former_ids"]] if isinstance(raw["former_ids"], str) else raw["former_ids"]
        term["former_ids"] = [f"{old}-{tag}" for old in values]
    definition = {}
    for lang, text in raw["definition"].items():
        word = en_word if lang == "en" else ru_word
        out, pos = [], 0
        for start, end, target in mentions.get(lang, []):
            if target not in in_copy or target == raw["id"]:
                continue
            out.append(text[pos:end])
            # Lower-case after a lower-case mention, as in names: "the zone" -> "the zone sigma".
            out.append(" " + (word if text[start:start + 1].isupper() else word.lower()))
            pos = end
        out.append(text[pos:])
        definition[lang] = "".join(out)
    term["definition"] = definition
    return term


def scale_game(data: dict, target: int, mentions: dict) -> dict:
    """The game with copies appended until it has `target` terms (at least the real ones)."""
    real = list(data["terms"])
    out = copying.deepcopy(data)
    terms = out["terms"]
    k = 0
    while len(terms) < target:
        k += 1
        take = real[: target - len(terms)]
        in_copy = {t["id"] for t in take}
        terms.extend(_copy_term(t, k, in_copy, mentions.get(t["id"], {})) for t in take)
    return out


def scaled_glossary(total: int | None = None, factor: float | None = None, root: Path = ROOT) -> dict[str, dict]:
    """Every game scaled: to `total` terms in all (shared in proportion to the real sizes), or `factor` times each."""
    games = real_games(root)
    mentions = _definition_mentions(root)
    sizes = {gid: len(g["terms"]) for gid, g in games.items()}
    if factor is not None:
        targets = {gid: round(n * factor) for gid, n in sizes.items()}
    else:
        assert total is not None
        real_total = sum(sizes.values())
        targets, left = {}, total
        ids = list(sizes)
        for gid in ids[:-1]:
            targets[gid] = max(sizes[gid], math.floor(total * sizes[gid] / real_total))
            left -= targets[gid]
        targets[ids[-1]] = max(sizes[ids[-1]], left)
    return {gid: scale_game(g, targets[gid], mentions.get(gid, {})) for gid, g in games.items()}


def write_glossary(directory: Path, games: dict[str, dict]) -> int:
    """Write glossary/<game>.yml files; the number of terms written."""
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*.yml"):
        old.unlink()
    for gid, data in games.items():
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=4096)
        (directory / f"{gid}.yml").write_text(text, encoding="utf-8")
    return sum(len(g["terms"]) for g in games.values())


# --- the plain site ----------------------------------------------------------------------------------------------

_FILLER_WORDS = None


def _filler(root: Path = ROOT) -> list[str]:
    """Ordinary prose to fill plain pages: the real definitions' words, in order."""
    global _FILLER_WORDS
    if _FILLER_WORDS is None:
        words = []
        for data in real_games(root).values():
            for term in data["terms"]:
                for lang in ("ru", "en"):
                    words.extend(term["definition"][lang].split())
        _FILLER_WORDS = [re.sub(r"[\[\]*_`<>#|\\]", "", w) for w in words if re.sub(r"[\[\]*_`<>#|\\]", "", w)]
    return _FILLER_WORDS


def plain_page(title: str, length: int, seed: int) -> str:
    """An ordinary Markdown page of about `length` characters: a title, a few sections of paragraphs."""
    words = _filler()
    out = [f"# {title}", ""]
    size = len(title) + 4
    i = (seed * 7919) % len(words)
    paragraph: list[str] = []
    count = 0
    while size < length:
        word = words[i % len(words)]
        i += 1
        paragraph.append(word)
        size += len(word) + 1
        if len(paragraph) >= 60 or size >= length:
            out += [" ".join(paragraph), ""]
            paragraph = []
            count += 1
            if count % 3 == 0 and size < length:
                heading = f"## Раздел {count // 3}"
                out += [heading, ""]
                size += len(heading) + 2
    return "\n".join(out)
