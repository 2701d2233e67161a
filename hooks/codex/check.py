"""Every validation rule of the glossary; each failure is a Problem with file, line and term."""
from __future__ import annotations

import gc
import re
from pathlib import Path
from typing import Any

from .model import (
    LANGS,
    Game,
    Glossary,
    GlossaryError,
    Lang,
    Located,
    Param,
    Problem,
    SourceDoc,
    Term,
    char_position,
    load_yaml,
    position,
    read_text,
)
from .links import collisions
from .lookalikes import in_english, in_russian, mixed_words

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
TERM_KEYS = {
    "id", "name", "category", "definition", "aliases", "params", "implies", "cancels", "see_also",
    "former_ids", "source", "ru_supplied", "en_supplied", "related", "source_typos", "derived",
}
GAME_KEYS = {"id", "name", "sources", "scope"}  # a game file's `game:` head
RELATIONS = ("implies", "cancels", "see_also", "related")
PARAM_KINDS = ("number", "word")


class _FileChecker:
    """Turns one game file's YAML into a Game, collecting problems instead of stopping at the first."""

    def __init__(self, shown: str):
        self.shown = shown
        self.problems: list[Problem] = []
        self.lines: list[str] = []  # the file's text, for the column of a character inside a value

    def problem(self, where: Any, term: str, message: str, default: tuple[int, int] = (1, 1)) -> None:
        self.problems.append(Problem(self.shown, *position(where, default), term, message))

    def lang_map(self, value: Any, owner: Any, term: str, what: str, required: bool = True) -> dict[str, str]:
        """A `{en, ru}` mapping of non-empty strings."""
        if not isinstance(value, dict):
            self.problem(value if value is not None else owner, term, f"{what} must be a mapping with 'en' and 'ru'")
            return {lang: "" for lang in LANGS}
        out: dict[str, str] = {}
        for lang in LANGS:
            text = value.get(lang)
            if text is None:
                self.problem(value, term, f"{what}: missing language '{lang}'")
            elif not isinstance(text, str) or (required and not text.strip()):
                self.problem(text if isinstance(text, str) else value, term, f"{what}.{lang} is empty")
            out[lang] = str(text or "").strip()
        for extra in sorted(set(value) - set(LANGS)):
            self.problem(_key_at(value, extra), term, f"{what}: unknown language '{extra}' (use en and ru)")
        return out

    def id_list(self, value: Any, owner: Any, term: str, what: str) -> list[str]:
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.problem(owner, term, f"{what} must be a list of term ids")
            return []
        return [str(v) for v in value]

    def game(self, data: Any, path: Path) -> Game | None:
        if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
            self.problem(data, "-", "the file needs a 'game:' mapping (id, name, sources)")
            return None
        head = data["game"]
        game_id = str(head.get("id", ""))
        if not SLUG.match(game_id):
            self.problem(head, "-", f"game id '{game_id}' is not a slug (lower-case letters, digits, '-')")
        elif path.stem != game_id:
            self.problem(head.get("id"), "-", f"game id '{game_id}' must match the file name ({game_id}.yml)")
        name = self.lang_map(head.get("name"), head, "-", "game name")
        sources = {}
        raw_sources = head.get("sources")
        if not isinstance(raw_sources, dict) or not raw_sources:
            self.problem(head, "-", "game.sources must map a document id to {file, title}")
        else:
            for doc_id, doc in raw_sources.items():
                if not isinstance(doc, dict) or "file" not in doc:
                    self.problem(_key_at(raw_sources, doc_id), "-", f"source '{doc_id}' needs a file")
                    continue
                sources[doc_id] = SourceDoc(
                    str(doc_id), str(doc["file"]), self.lang_map(doc.get("title"), doc, "-", f"source {doc_id} title"),
                    doc.get("page"),
                )
        categories = {}
        raw_categories = data.get("categories")
        if not isinstance(raw_categories, dict) or not raw_categories:
            self.problem(data, "-", "the file needs a 'categories:' mapping of id to {en, ru}")
        else:
            for cat_id, labels in raw_categories.items():
                categories[str(cat_id)] = self.lang_map(labels, raw_categories, "-", f"category {cat_id}")
                if isinstance(labels, dict):
                    self.lookalikes(labels, "-", f"category {cat_id}", frozenset())
        for key in sorted(set(head) - GAME_KEYS, key=str):
            self.problem(_key_at(head, key), "-", f"game: unknown field '{key}' (known: {', '.join(sorted(GAME_KEYS))})")
        game = Game(game_id, name, str(path), sources, categories, {})
        if head.get("scope") is not None:
            game.scope = self.lang_map(head["scope"], head, "-", "game scope")
        game.not_mentions = _phrases(self, data.get("not_mentions"), data, "not_mentions")
        game.titles = _phrases(self, data.get("titles"), data, "titles")
        game.cards = _phrases(self, data.get("cards"), data, "cards")
        game.keywords = _phrases(self, data.get("keywords"), data, "keywords")
        raw_terms = data.get("terms")
        if isinstance(raw_terms, dict):  # the mapping form: id -> term
            items = []
            for key, body in raw_terms.items():
                if isinstance(body, Located):
                    if "id" in body and body["id"] != key:
                        self.problem(body["id"], str(key), f"id '{body['id']}' differs from its key '{key}'")
                    body = _with_id(body, key, _key_at(raw_terms, key))
                items.append(body)
        elif isinstance(raw_terms, list):
            items = list(raw_terms)
        else:
            self.problem(data, "-", "the file needs 'terms:', a list of terms (or a mapping from id to term)")
            items = []
        for raw in items:
            term = self.term(raw, game)
            if term is None:
                continue
            if term.id in game.terms:
                self.problem(raw.get("id"), term.id, f"duplicate id '{term.id}' (first at line {game.terms[term.id].line})")
                continue
            game.terms[term.id] = term
        return game

    def term(self, raw: Any, game: Game) -> Term | None:
        if not isinstance(raw, dict):
            self.problem(raw, "-", "each term must be a mapping with id, name, category, definition")
            return None
        term_id = str(raw.get("id", ""))
        label = term_id or "-"
        if "id" not in raw:
            self.problem(raw, "-", "term has no id")
            return None
        if not SLUG.match(term_id):
            self.problem(raw.get("id"), label, f"id '{term_id}' is not a slug (lower-case ASCII letters, digits and '-')")
        for key in sorted(set(raw) - TERM_KEYS):
            self.problem(_key_at(raw, key), label, f"unknown field '{key}'")
        name = self.lang_map(raw.get("name"), raw, label, "name")
        definition = self.lang_map(raw.get("definition"), raw, label, "definition")
        category = str(raw.get("category", ""))
        if category not in game.categories:
            known = ", ".join(game.categories) or "none defined"
            self.problem(raw.get("category", raw), label, f"unknown category '{category}' (known: {known})")
        aliases: dict[str, list[str]] = {}
        raw_aliases = raw.get("aliases") or {}
        if not isinstance(raw_aliases, dict):
            self.problem(raw_aliases, label, "aliases must be a mapping {en: [...], ru: [...]}")
            raw_aliases = {}
        for lang, values in raw_aliases.items():
            if lang not in LANGS:
                self.problem(_key_at(raw_aliases, lang), label, f"aliases: unknown language '{lang}'")
                continue
            values = [values] if isinstance(values, str) else (values or [])
            aliases[lang] = [str(v).strip() for v in values if str(v).strip()]
        derived = self.derived_words(raw, label, name, aliases)
        params = []
        for raw_param in raw.get("params") or []:
            if not isinstance(raw_param, dict) or raw_param.get("kind") not in PARAM_KINDS or not raw_param.get("en"):
                self.problem(raw_param, label, "a param needs 'en' (the placeholder as printed) and kind: number or word")
                continue
            values = raw_param.get("values") or []
            if values and (not isinstance(values, list) or raw_param["kind"] != "word" or
                           not all(isinstance(v, str) and re.fullmatch(r"[A-Za-z]+", v) for v in values)):
                self.problem(raw_param, label, "a param's values are a list of English words, for kind: word only")
                values = []
            param = Param(str(raw_param["en"]), str(raw_param["kind"]), raw_param.get("ru"), tuple(values))
            if param.en not in name["en"]:
                self.problem(raw_param, label, f"placeholder '{param.en}' does not occur in name.en '{name['en']}'")
            if param.ru and param.ru not in name["ru"] and not any(param.ru in a for a in aliases.get("ru", [])):
                self.problem(raw_param, label, f"placeholder '{param.ru}' does not occur in the Russian name or aliases")
            params.append(param)
        source = raw.get("source")
        docs: list[str] = []
        page = None
        if not isinstance(source, dict) or not source.get("docs"):
            self.problem(source if source is not None else raw, label, "source must name its documents: source: {docs: [...]}")
        else:
            docs = self.id_list(source.get("docs"), source, label, "source.docs")
            page = source.get("page")
        supplied = tuple(lang for lang in LANGS if raw.get(f"{lang}_supplied"))
        self.term_lookalikes(raw, label)
        term = Term(
            id=term_id, game=game.id, name=name, category=category, definition=definition, aliases=aliases, derived=derived,
            params=params, source_docs=docs, source_page=page, supplied=supplied,
            former_ids=self.id_list(raw.get("former_ids"), raw, label, "former_ids"),
            line=position(raw)[0],
            raw=raw,
            **{rel: self.id_list(raw.get(rel), raw, label, rel) for rel in RELATIONS},
        )
        return term

    def derived_words(self, raw: Any, label: str, name: dict[str, str], aliases: dict[str, list[str]]
                      ) -> dict[str, list[str]]:
        """`derived: {ru: [...], en: [...]}`: words made from the name, or a name's phrase as players vary it ("end of
        my turn" for "End of Turn"), none of them a name or alias: linked, never shown on the page."""
        out: dict[str, list[str]] = {}
        block = raw.get("derived") or {}
        if not isinstance(block, dict):
            self.problem(block, label, "derived must be a mapping {en: [...], ru: [...]}")
            return out
        for lang, values in block.items():
            if lang not in LANGS:
                self.problem(_key_at(block, lang), label, f"derived: unknown language '{lang}'")
                continue
            names = {n.casefold() for n in [name.get(lang, ""), *aliases.get(lang, [])]}
            words = []
            for value in [values] if isinstance(values, str) else (values or []):
                word = str(value).strip()
                if not re.fullmatch(r"[^\W\d_]+(?: [^\W\d_]+)*", word):
                    self.problem(block, label, f"derived: '{word}' is not a word or words (letters, single spaces)")
                elif word.casefold() in names:
                    self.problem(block, label, f"derived: '{word}' is already a name or alias")
                else:
                    words.append(word)
            out[lang] = words
        return out

    def term_lookalikes(self, raw: Any, term: str) -> None:
        """Look-alike letters in a term's names, aliases and definitions; `source_typos` lists the words of the
        Russian text that the source itself misspells this way (kept verbatim, so not reported)."""
        russian = [value for key in ("name", "definition") for value in [_get(raw, key, "ru")] if value]
        aliases = raw.get("aliases") if isinstance(raw.get("aliases"), dict) else {}
        russian += [a for a in _as_list(aliases.get("ru")) if isinstance(a, str)]
        typos = raw.get("source_typos")
        allowed = frozenset(str(word) for word in _as_list(typos))
        for word in sorted(allowed):
            if not any(word in mixed_words(text) for text in russian):
                message = f"source_typos: '{word}' is not a word of the Russian text that mixes scripts"
                self.problem(typos, term, message)
        self.lookalikes(raw.get("name"), term, "name", allowed)
        self.lookalikes(raw.get("definition"), term, "definition", allowed)
        for lang in LANGS:
            for alias in _as_list(aliases.get(lang)):
                if isinstance(alias, str):
                    self.lookalikes({lang: alias}, term, "aliases", allowed)

    def lookalikes(self, value: Any, term: str, what: str, allowed: frozenset[str]) -> None:
        """A Cyrillic letter in `value['en']`, a word mixing scripts in `value['ru']`: one problem per letter, at
        the letter itself (see `char_position`); a name is quoted whole, a definition by the word."""
        if not isinstance(value, dict):
            return
        for lang, scan in (("en", in_english), ("ru", lambda text: in_russian(text, allowed))):
            text = value.get(lang)
            if not isinstance(text, str):
                continue
            for found in scan(text):
                shown = found.word if what == "definition" else text
                at = char_position(self.lines, text, found.index)
                self.problems.append(Problem(self.shown, *at, term, f"{what}.{lang} '{shown}' {found.message}"))


def _get(raw: Any, key: str, lang: Lang) -> Any:
    value = raw.get(key)
    return value.get(lang) if isinstance(value, dict) else None


def _as_list(value: Any) -> list[Any]:
    return [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []


def _key_at(mapping: Any, key: str) -> Any:
    """Something positioned at a mapping's key, for messages about that key."""
    marker = Located()
    pos = getattr(mapping, "key_pos", {}).get(key)
    marker.line, marker.col = pos if pos else position(mapping)
    return marker


def _with_id(body: Located, key: Any, where: Any) -> Located:
    copy = Located(body)
    copy.line, copy.col = position(where)
    copy.key_pos = dict(getattr(body, "key_pos", {}))
    copy.key_pos.setdefault("id", (copy.line, copy.col))
    copy["id"] = key
    return copy


def _cross_checks(game: Game, checker: _FileChecker, other_sources: dict[str, str]) -> None:
    """Rules that look across terms: relations, name collisions, short-link collisions, misplaced terms."""
    terms = game.terms
    for term in terms.values():
        raw = term.raw
        for rel in RELATIONS:
            for target in getattr(term, rel):
                if target == term.id:
                    checker.problem(raw.get(rel), term.id, f"{rel} names the term itself")
                elif target not in terms:
                    checker.problem(raw.get(rel), term.id, f"{rel}: no term '{target}' in {game.id}")
        # A link is either stated by the text (see_also) or editorial (related), never both.
        for target in sorted(set(term.related) & set(term.see_also)):
            checker.problem(raw.get("related"), term.id, f"related: '{target}' is already in see_also")
        for doc in term.source_docs:
            if doc in game.sources:
                continue
            if doc in other_sources:
                message = f"source '{doc}' belongs to {other_sources[doc]}: is the term in the wrong game's file?"
            else:
                message = f"source document '{doc}' is not one of this game's sources ({', '.join(game.sources)})"
            checker.problem(raw.get("source"), term.id, message)
    # A name or alias must point at one term; identical *names* are allowed only when the other language tells
    # the terms apart (D&D's "Melee Attack" statistic vs "melee attack" act share "рукопашная атака").
    owners: dict[tuple[Lang, str], list[tuple[Term, bool]]] = {}
    reported: set[frozenset[str]] = set()  # pairs already named by a name collision
    for term in terms.values():
        for lang in LANGS:
            for index, text in enumerate(term.names(lang)):
                owners.setdefault((lang, _fold(text)), []).append((term, index == 0))
    for (lang, text), claims in owners.items():
        distinct = {t.id for t, _ in claims}
        if len(distinct) < 2:
            continue
        if all(is_name for _, is_name in claims) and _distinct_elsewhere([t for t, _ in claims], lang):
            continue
        owner = claims[0][0]
        for term, is_name in claims[1:]:
            if term.id == owner.id:
                continue
            reported.add(frozenset((term.id, owner.id)))
            checker.problem(_alias_pos(term, lang, text), term.id,
                            f"{'name' if is_name else 'alias'} '{text}' ({lang}) is also a name of '{owner.id}'")
    for slug, claimants in collisions(game).items():
        first, second = claimants[0], claimants[1]
        if frozenset((first.id, second.id)) in reported:
            continue
        checker.problem(second.raw, second.id,
                        f"short link /t/{game.id}/{slug}/ is claimed by both '{first.id}' and '{second.id}'")


def _phrases(checker: _FileChecker, value: Any, owner: Any, block: str) -> dict[str, list[str]]:
    """A game-level block of phrases per language (`not_mentions:`, `titles:`, `cards:`, `keywords:`), {en: [...], ru: [...]}:
    shape, empty strings and duplicates."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        checker.problem(value if getattr(value, "line", 0) else owner, block,
                        f"{block} must be a mapping {{en: [...], ru: [...]}}")
        return {}
    out: dict[str, list[str]] = {}
    for lang, phrases in value.items():
        if lang not in LANGS:
            checker.problem(_key_at(value, lang), block, f"unknown language '{lang}' (use en and ru)")
            continue
        if not isinstance(phrases, list):
            checker.problem(_key_at(value, lang), block, f"{block}.{lang} must be a list of phrases")
            continue
        seen: dict[str, str] = {}
        for phrase in phrases:
            text = " ".join(str(phrase).split()) if isinstance(phrase, str) else ""
            if not text:
                checker.problem(phrase if getattr(phrase, "line", 0) else value, block, f"{block}.{lang}: empty phrase")
                continue
            key = _fold(text).casefold()
            if key in seen:
                checker.problem(phrase, block, f"{block}.{lang}: '{text}' is listed twice")
                continue
            seen[key] = text
            out.setdefault(lang, []).append(phrase if isinstance(phrase, str) else text)
    return out


def _check_not_mentions(game: Game, checker: _FileChecker) -> None:
    """Each not-mention phrase must contain a name of one of the game's terms, and no phrase (card names and
    titles too) may be a term's name itself."""
    from . import forms

    def words(text: str) -> tuple[str, ...]:
        out = []
        for word in forms.WORD.findall(text):
            folded = forms.fold(word)
            if forms.is_cyrillic(folded):
                folded = forms.russian_stem(folded)
            elif len(folded) > 3 and folded.endswith("s"):
                folded = folded[:-1]
            out.append(folded)
        return tuple(out)

    placeholders = {"x", "х"}
    names: dict[tuple[str, ...], str] = {}
    for term in game.terms.values():
        for lang in LANGS:
            for name in term.names(lang):
                key = tuple(w for w in words(name) if w not in placeholders)
                if key:
                    names.setdefault(key, term.id)
    for block, entries in (("titles", game.titles), ("keywords", game.keywords)):
        for language, phrases in entries.items():  # a card named like a term is allowed: index.card_terms
            for phrase in phrases:
                key = words(phrase)
                if key in names:
                    checker.problem(phrase, block, f"{block}.{language}: '{phrase}' is a name of '{names[key]}' itself; "
                                    "leave it out (the term links it)")
    # a phrase may hold a one-word name in another form ("a stack of" for stacking, «космической скоростью» for
    # «скорость»), as the linker reads it, or a derived word in any form («куй железо»: «куй» is «ковать», Forge)
    one_word_forms = {f for key in names if len(key) == 1 and not forms.is_cyrillic(key[0])
                      for f in forms.english_forms(key[0])}
    for term in game.terms.values():
        for name in term.names("ru"):  # a Russian name's key is its crude stem: its forms come from the name itself
            if len(forms.WORD.findall(name)) == 1:
                one_word_forms |= forms.russian_lexeme(name)
        for word in term.derived.get("en", []):
            one_word_forms |= forms.english_forms(forms.fold(word))
        for word in term.derived.get("ru", []):
            one_word_forms |= forms.russian_lexeme(word)
    for language, phrases in game.not_mentions.items():
        for phrase in phrases:
            key = words(phrase)
            if key in names:
                checker.problem(phrase, "not_mentions",
                                f"not_mentions.{language}: '{phrase}' is a name of '{names[key]}' itself")
                continue
            inside = any(key[i:i + len(name)] == name for name in names for i in range(len(key) - len(name) + 1))
            inside = inside or any(forms.fold(w) in one_word_forms for w in forms.WORD.findall(phrase))
            if not inside:
                checker.problem(phrase, "not_mentions",
                                f"not_mentions.{language}: '{phrase}' contains no name (nor derived word) of a "
                                f"{game.id} term")


def _distinct_elsewhere(terms: list[Term], lang: Lang) -> bool:
    other = "ru" if lang == "en" else "en"
    return len({t.name[other] for t in terms}) == len(terms)


def _fold(text: str) -> str:
    return " ".join(text.replace("ё", "е").split())


def _alias_pos(term: Term, lang: Lang, text: str) -> Any:
    raw = term.raw
    for group in (raw.get("aliases") or {}).get(lang) or [], [(raw.get("name") or {}).get(lang)]:
        for value in group:
            if isinstance(value, str) and _fold(value) == text:
                return value
    return raw


def collect(directory: Path, root: Path | None = None) -> tuple[Glossary, list[Problem]]:
    """Load and validate every `*.yml` in the glossary directory; problems are sorted by file and line."""
    # Loading makes hundreds of thousands of small objects and no cycles: the cyclic collector only slows it
    # down (10,000 terms: about half the time).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _collect(directory, root)
    finally:
        if enabled:
            gc.enable()


def _collect(directory: Path, root: Path | None) -> tuple[Glossary, list[Problem]]:
    root = root or directory.parent
    games: dict[str, Game] = {}
    problems: list[Problem] = []
    checkers = []
    files = sorted(directory.glob("*.yml"))
    if not files:
        problems.append(Problem(str(directory), 1, 1, "-", "no glossary files (*.yml) found"))
    for path in files:
        shown = _shown(path, root)
        checker = _FileChecker(shown)
        text, read_problems = read_text(path, shown)
        checker.problems.extend(read_problems)
        if text is not None:
            checker.lines = text.split("\n")
            data, yaml_problems = load_yaml(text, shown)
            checker.problems.extend(yaml_problems)
            if data is not None:
                game = checker.game(data, path)
                if game is not None:
                    if game.id in games:
                        checker.problem(data["game"].get("id"), "-", f"game '{game.id}' is defined twice")
                    else:
                        games[game.id] = game
                        checkers.append((game, checker))
        problems.extend(checker.problems)
    source_owner = {doc: game.id for game in games.values() for doc in game.sources}
    for game, checker in checkers:
        before = len(checker.problems)
        _cross_checks(game, checker, source_owner)
        _check_not_mentions(game, checker)
        problems.extend(checker.problems[before:])
    problems.sort(key=lambda p: (p.file, p.line, p.col))
    return Glossary(dict(sorted(games.items()))), problems


def load(directory: Path, root: Path | None = None) -> Glossary:
    """The validated glossary, or GlossaryError with every problem."""
    glossary, problems = collect(directory, root)
    if problems:
        raise GlossaryError(problems)
    return glossary


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
