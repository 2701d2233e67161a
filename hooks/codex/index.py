"""The per-game matching structure: a trie over normalised words, built once, serialisable for the browser.

Matching is one left-to-right pass over the text's words; at each word the trie is walked for the longest
name, so the cost depends on the text and the longest name, not on how many terms the game has.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from . import forms
from .langs import LANGS, Lang

if TYPE_CHECKING:  # the build's side only: the browser loads an index without the glossary's model
    from .model import Game, Term

FORMAT_VERSION = 4
NOT_A_MENTION = ""  # the accept entry of a phrase that contains a name but is not a mention (game.not_mentions)
CARD = "#card"  # the accept entry of a card name (game.cards): not a term mention, evidence of the game
TITLE = "#title"  # the accept entry of one of the game's titles (game.titles, game.name)
KEYWORD = "#word"  # the accept entry of one of the game's own words its glossary does not define (game.keywords)
NOT_TERMS = frozenset({NOT_A_MENTION, CARD, TITLE, KEYWORD})  # accept entries that name no term


class Accept(NamedTuple):
    """What a trie node accepts: one name (or phrase) ending there. A NamedTuple: JSON writes it as the same
    compact array as before, and its fields read as fast as a dataclass(slots=True)'s within noise (issue 23)."""

    term: str  # the term's id, or one of NOT_TERMS (a card name, a title, a not-mention phrase, a keyword)
    is_name: bool  # the term's name in its language, not an alias (a name ranks first)
    capitalised: bool  # printed with a capital: "Melee Attack" (a statistic) against "melee attack" (an act)
    ordinary: bool  # one everyday word ("move"): in lower case it links only in a game role (roles.py)
    needs_number: bool  # ends on a word slot: a match only after a number ("Resist 5 fire", not "Vulnerable ENERGY")
    omits_placeholder: bool  # leaves out a placeholder the name prints: ranks after one that does not ("Armor")


@dataclass
class TermInfo:
    """What the resolver needs to know about a term without the glossary (and without PyYAML)."""

    id: str
    name: dict[str, str]
    path: str  # site-relative URL
    category: str
    summary: dict[str, str]  # the definition's first sentence, for tooltips and lookup results
    implies: list[str] = field(default_factory=list)
    cancels: list[str] = field(default_factory=list)
    names: dict[str, list[str]] = field(default_factory=dict)  # name, aliases and derived phrases per language
    has_number: bool = False


@dataclass
class Index:
    game: str
    game_name: dict[str, str]
    terms: dict[str, TermInfo]
    trie: dict[str, Any]
    word_keys: dict[str, list[str]]  # a folded text word -> the name-word keys it can stand for
    stem_keys: dict[str, list[str]]  # a Russian stem -> keys, for words the dictionary does not know
    # Russian words the dictionary knows that share a name word's stem without being its forms («поля» is not a
    # form of «полет»): the stem fallback never takes them.
    known_words: list[str] = field(default_factory=list)
    # English words of the game's own text one edit away from a name word ("attach" for "attack"): never typos.
    not_typos: list[str] = field(default_factory=list)
    # The English words of term names, which a misspelt word may stand for (card names and titles are not).
    typo_words: list[str] = field(default_factory=list)
    # Terms that are also a card's name ("Teleport"): the card in card contexts (cards.uncounted).
    card_terms: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        data = {
            "version": FORMAT_VERSION, "game": self.game, "game_name": self.game_name,
            "terms": {tid: t.__dict__ for tid, t in self.terms.items()},
            "trie": self.trie, "word_keys": self.word_keys, "stem_keys": self.stem_keys,
            "known_words": self.known_words, "not_typos": self.not_typos, "typo_words": self.typo_words,
            "card_terms": self.card_terms,
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Index":
        data = json.loads(text)
        if data.get("version") != FORMAT_VERSION:
            raise ValueError(f"index format {data.get('version')} is not {FORMAT_VERSION}; rebuild it")
        terms = {tid: TermInfo(**t) for tid, t in data["terms"].items()}
        return cls(data["game"], data["game_name"], terms, _named_entries(data["trie"]), data["word_keys"],
                   data["stem_keys"], data["known_words"], data["not_typos"], data["typo_words"], data["card_terms"])


def _named_entries(trie: dict[str, Any]) -> dict[str, Any]:
    """The trie as read from JSON, its accept entries (arrays there) made Accept again, in place: one walk."""
    make = partial(tuple.__new__, Accept)  # Accept._make without its Python-level call: C speed per entry
    stack = [trie]
    while stack:
        node = stack.pop()
        accept = node.get("a")
        if accept:
            node["a"] = list(map(make, accept))
        children = node.get("c")
        if children:
            stack.extend(children.values())
    return trie


SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[A-ZА-ЯЁ«\"“(])")


def first_sentence(text: str) -> str:
    """The definition's first sentence, as plain one-line text."""
    flat = " ".join(text.split())
    return SENTENCE_END.split(flat, maxsplit=1)[0]


def _placeholders(term: Term, lang: Lang) -> list[tuple[str, str]]:
    """(placeholder as printed, slot) pairs; a number is signed when the English name prints its sign."""
    out = []
    for param in term.params:
        slot = forms.WORD_SLOT
        if param.kind == "number":
            slot = forms.SIGNED_SLOT if forms.is_signed(param.en) else forms.NUMBER_SLOT
        for text in (param.en, param.ru) if lang == "ru" else (param.en,):
            if text:
                out.append((text, slot))
    return out


def _filled(pattern: list[str], values: list[str]) -> list[list[str]]:
    """The pattern with its word slot replaced by each listed value; where a number comes before the slot ("Resist #
    ENERGY"), also the value first ("Resist Fire 10", as players write it). Nothing without a word slot or values."""
    if not values or forms.WORD_SLOT not in pattern:
        return []
    i = pattern.index(forms.WORD_SLOT)
    out = []
    for value in sorted({forms.fold(v) for v in values}):
        out.append(pattern[:i] + [value] + pattern[i + 1:])
        if i > 0 and pattern[i - 1] in (forms.NUMBER_SLOT, forms.SIGNED_SLOT):
            out.append(pattern[:i - 1] + [value, pattern[i - 1]] + pattern[i + 1:])
    return out


def _number_slot(term: Term) -> str:
    """The slot an implicit trailing number takes ("Aegis 3" although the alias is "Aegis"): the printed one's kind."""
    signed = any(p.kind == "number" and forms.is_signed(p.en) for p in term.params)
    return forms.SIGNED_SLOT if signed else forms.NUMBER_SLOT


def _pattern(name: str, placeholders: list[tuple[str, str]]) -> list[str]:
    """Placeholders are replaced only where they stand as whole tokens ("X" in "Aegis X", not in "Extra")."""
    for text, slot in sorted(placeholders, key=lambda p: -len(p[0])):
        name = re.sub(rf"(?<!\w){re.escape(text)}(?!\w)", f" {slot} ", name)
    return forms.name_pattern(name)


def build(game: Game, lexeme: Callable[[str], set[str]] = forms.russian_lexeme,
          known: Callable[[str], list[str]] = forms.russian_words_from, derive: bool = True) -> Index:
    """Build the index of one game; `lexeme` expands Russian words, `known` lists the dictionary's words that begin
    with a stem (the dictionary, at build time); `derive`: Russian names' verbs and word order (the dictionary)."""
    from .links import term_path  # with the glossary's model: not imported where an index is only loaded

    trie: dict[str, Any] = {}
    word_keys: dict[str, set[str]] = {}
    stem_keys: dict[str, set[str]] = {}
    infos: dict[str, TermInfo] = {}
    vocabulary = _english_vocabulary(game)
    named: dict[tuple[str, ...], str] = {}  # a name's words -> its term, to find the cards named like a term
    for term in game.terms.values():
        has_number = any(p.kind == "number" for p in term.params)
        infos[term.id] = TermInfo(
            id=term.id, name=dict(term.name), path=term_path(game.id, term.id), category=term.category,
            summary={lang: first_sentence(term.definition[lang]) for lang in LANGS},
            implies=list(term.implies), cancels=list(term.cancels),
            # a derived phrase ("end of my turn") is a name's variant to lookup and detection, as an alias is
            names={lang: [*term.names(lang), *(d for d in term.derived.get(lang, []) if " " in d)] for lang in LANGS},
            has_number=has_number,
        )
        for lang in LANGS:
            for position, name in enumerate(term.names(lang)):
                pattern = _pattern(name, _placeholders(term, lang))
                words = [w for w in pattern if w not in forms.SLOTS]
                if not words:
                    continue
                printed = len(pattern)
                if has_number and forms.NUMBER_SLOT not in pattern and forms.SIGNED_SLOT not in pattern:
                    pattern.append(_number_slot(term))  # "эгида 3", "Aegis 3" although the name has no X
                for word in words:
                    _add_word(word, word_keys, stem_keys, lexeme)
                    if lang == "ru" and derive:  # «лечилась» for «лечение», «вылечить» for «лечить»
                        for verb in forms.russian_verb_forms(word):
                            word_keys.setdefault(verb, set()).add(word)
                ordinary = forms.is_ordinary(" ".join(words))  # one everyday word, or a phrase ("your warband")
                if lang == "ru" and derive and len(words) >= 2 and (finite := forms.russian_finite_forms(pattern[0])):
                    pattern = [forms.VERB_ONLY_MARK + pattern[0], *pattern[1:]]  # the act, not its participle
                    for form in finite:
                        word_keys.setdefault(form, set()).add(pattern[0])
                # Capitalisation tells D&D's "Melee Attack" (statistic) from "melee attack" (act); their Russian
                # names are identical, so a Russian name carries the English name's capitalisation.
                printed_upper = (name if lang == "en" else term.name["en"])[:1].isupper()
                _insert(trie, pattern, printed, term.id, is_name=position == 0, capitalised=printed_upper,
                        ordinary=ordinary)
                named.setdefault(tuple(words), term.id)
                if lang == "ru" and len(words) >= 2 and pattern[-1] in forms.RU_PREPOSITIONS:
                    # «сразитесь с»: the name ends in a preposition; without it, it is the same act («и сразитесь»)
                    _insert(trie, pattern[:-1], printed - 1, term.id, capitalised=printed_upper)
                if lang == "ru" and derive and len(pattern) == 2 and forms.russian_is_adjective(pattern[0]) and \
                        position == 0:  # (a players' alias only as they write it: «атака ближнего боя» is no alias)
                    # the noun first, as speech puts it («атака дальняя»): the same name in the other order
                    _insert(trie, pattern[::-1], printed, term.id, capitalised=printed_upper)
                variants = player_spellings(pattern, vocabulary) if lang == "en" else []
                if lang == "en":  # "Resist Fire 10", "Vulnerable Cold": the word placeholder filled from its list
                    variants += _filled(pattern, [v for p in term.params for v in p.values])
                if lang == "ru" and re.search(r"\w-\w", name):  # «спасбросок» for «спас-бросок»
                    variants.append(_pattern(re.sub(r"(?<=\w)-(?=\w)", "", name), _placeholders(term, lang)) +
                                    pattern[len(_pattern(name, _placeholders(term, lang))):])
                if variants:  # how players write the name: apart, together, by sound ("line of site")
                    for variant in variants:
                        for word in variant:
                            if word not in forms.SLOTS:
                                _add_word(word, word_keys, stem_keys, lexeme)
                        _insert(trie, variant, printed + len(variant) - len(pattern), term.id,
                                capitalised=printed_upper)
        for lang in LANGS:  # a noun name's verb («телепортировал» → Телепорт): every form, the term's own match
            last = forms.name_pattern(term.name[lang])[-1]  # «Сразиться с»: a name that ends in a preposition
            for word in term.derived.get(lang, []):
                pattern = forms.name_pattern(word)
                for key in pattern:
                    _add_word(key, word_keys, stem_keys, lexeme)
                    if lang == "ru" and derive:  # «выковать» for «ковать», «активироваться» for «активировать»
                        for verb in forms.russian_verb_forms(key):
                            word_keys.setdefault(verb, set()).add(key)
                _insert(trie, pattern, len(pattern), term.id, capitalised=term.name["en"][:1].isupper(),
                        ordinary=len(pattern) == 1 and forms.is_ordinary(pattern[0]))
                if lang == "ru" and last in forms.RU_PREPOSITIONS:  # «сражаться с существами», as «Сразиться с» (round 9)
                    _add_word(last, word_keys, stem_keys, lexeme)
                    _insert(trie, [*pattern, last], len(pattern) + 1, term.id,
                            capitalised=term.name["en"][:1].isupper())
    titles = {lang: [game.name[lang], *game.titles.get(lang, [])] for lang in LANGS}
    card_terms: set[str] = set()
    for marker, block in ((NOT_A_MENTION, game.not_mentions), (CARD, game.cards), (TITLE, titles),
                          (KEYWORD, game.keywords)):
        for phrases in block.values():
            for phrase in phrases:  # the longest match wins, so a phrase swallows the name inside it
                words = forms.phrase_pattern(phrase)
                if marker == CARD and tuple(words) in named:  # "Teleport": the term, and a card in card contexts
                    card_terms.add(named[tuple(words)])
                    continue
                for word in words:
                    if word != forms.COMMA_STEP:
                        _add_word(word, word_keys, stem_keys, lexeme, inflect=marker in (NOT_A_MENTION, KEYWORD))
                bare = [word for word in words if word != forms.COMMA_STEP]  # "Fellella Pixie Familiar" too
                for path in (words, bare) if len(bare) < len(words) else (words,):
                    if path:
                        _insert(trie, path, len(path), marker, is_name=True, capitalised=phrase[:1].isupper())
    known_words = sorted({word for stem in stem_keys for word in known(stem)
                          if word not in word_keys and forms.russian_stem(word) == stem})
    typo_words = sorted({w for term in game.terms.values() for name in term.names("en")
                         for w in forms.name_pattern(name) if w not in forms.SLOTS and not forms.is_cyrillic(w)})
    return Index(
        game.id, dict(game.name), infos, trie,
        {w: sorted(k) for w, k in sorted(word_keys.items())},
        {s: sorted(k) for s, k in sorted(stem_keys.items())},
        known_words, _not_typos(game, word_keys, typo_words), typo_words, sorted(card_terms),
    )


# Words players write for a name word that sounds alike, inside a longer name only ("line of site").
SOUND_ALIKES = {"sight": ("site",)}
MIN_PART = 5  # letters each half of a name word needs before it is written apart ("counter strike"; not "Mage cast")


def _english_vocabulary(game: Game) -> set[str]:
    """The English words of the game's definitions, names and card names, folded."""
    words: set[str] = set()
    for term in game.terms.values():
        for text in (term.definition["en"], *term.names("en")):
            words.update(forms.fold(w) for w in forms.WORD.findall(text))
    for card in game.cards.get("en", []):
        words.update(forms.fold(w) for w in forms.WORD.findall(card))
    return words


def player_spellings(pattern: list[str], vocabulary: set[str]) -> list[list[str]]:
    """A name's other spellings players write: a one-word name's word written apart where both halves are words
    of the game's own text ("counter strike" for Counterstrike, "double strike"), and a later word of a longer
    name by its sound-alike ("line of site")."""
    out: list[list[str]] = []
    words = [w for w in pattern if w not in forms.SLOTS]
    if len(words) == 1 and len(words[0]) >= 2 * MIN_PART and words[0].isalpha():
        word, index = words[0], pattern.index(words[0])
        for cut in range(MIN_PART, len(word) - MIN_PART + 1):
            if word[:cut] in vocabulary and word[cut:] in vocabulary:
                out.append(pattern[:index] + [word[:cut], word[cut:]] + pattern[index + 1:])
    for i, word in enumerate(pattern[1:], start=1):
        for alike in SOUND_ALIKES.get(word, ()):
            out.append(pattern[:i] + [alike] + pattern[i + 1:])
    return out


def _not_typos(game: Game, word_keys: dict[str, set[str]], typo_words: list[str]) -> list[str]:
    """The English words (the dictionary's, the game's own text's) that the typo rule would take for a name word:
    "outside" is not a typo of Outsider, "forget" not of Forge."""
    words = _english_vocabulary(game) | forms.COMMON_ENGLISH
    dictionary = forms.english_dictionary()
    for name_word in typo_words:
        near_word = forms.near_spellings(name_word)
        words |= near_word & dictionary
        words |= {w for w in near_word - dictionary if forms.inflected_word(w, dictionary)}  # "sounded"
        if name_word in forms.NOUN_NAMES:  # "charged", "burning": the everyday verb is not a typo of the noun
            words |= forms.verb_forms(name_word)
    near = forms.TypoIndex(typo_words)
    return sorted(w for w in words if w not in word_keys and w.isalpha() and near.lookup(w))


def _add_word(word: str, word_keys: dict[str, set[str]], stem_keys: dict[str, set[str]],
              lexeme: Callable[[str], set[str]], inflect: bool = True) -> None:
    """Index a name word under its forms; `inflect` False (English card names, titles): only it and its plural,
    as players write them ("Timber Wolves"), which keeps the browser's index small."""
    if word.isdigit():
        return
    if forms.is_cyrillic(word):
        variants = lexeme(word)
        stem = forms.russian_stem(word)
        if len(stem) >= forms.MIN_STEM:
            stem_keys.setdefault(stem, set()).add(word)
    elif inflect:
        variants = forms.english_forms(word)
    else:
        variants = {word, word + "s"}
    for variant in variants | {word}:
        word_keys.setdefault(variant, set()).add(word)


def _insert(trie: dict[str, Any], pattern: list[str], printed: int, term: str, *, is_name: bool = False,
            capitalised: bool, ordinary: bool = False) -> None:
    """Add a name's path (`printed`: how many of its steps the name prints) accepting an Accept for `term`;
    trailing slots are optional, so the node before them accepts too.

    A word slot may end a match only after a number ("Resist 5 fire"), never on its own ("Vulnerable ENERGY"
    must not swallow the next word, "Smite damage" is not "Smite CREATURE"). A match that leaves out a placeholder
    the name prints ranks after one that does not ("Armor" is Armor before it is "Armor +/- X").
    """
    trailing = len(pattern)
    while trailing > 0 and pattern[trailing - 1] in forms.SLOTS:
        trailing -= 1
    node = trie
    for i, step in enumerate(pattern):
        if i >= trailing and i > 0:
            _accept(node, Accept(term, is_name, capitalised, ordinary, needs_number=pattern[i - 1] == forms.WORD_SLOT,
                                 omits_placeholder=i < printed))
        key = SLOT_KEYS.get(step, step)
        node = node.setdefault("c", {}).setdefault(key, {})
    _accept(node, Accept(term, is_name, capitalised, ordinary, needs_number=pattern[-1] == forms.WORD_SLOT,
                         omits_placeholder=False))


SLOT_KEYS = {forms.NUMBER_SLOT: "#n", forms.SIGNED_SLOT: "#s", forms.WORD_SLOT: "#w"}


def rank(entry: Accept, first_upper: bool) -> tuple[bool, bool, bool, bool]:
    """How well an accept entry fits a match: a not-mention phrase (card name, title) first, then printed
    placeholders, then capitalisation, then names over aliases."""
    return (entry.term not in NOT_TERMS, entry.omits_placeholder, entry.capitalised != first_upper, not entry.is_name)


def _accept(node: dict[str, Any], entry: Accept) -> None:
    """One entry per term and node: the better-fitting name wins."""
    entries: list[Accept] = node.setdefault("a", [])
    for i, other in enumerate(entries):
        if other.term == entry.term:
            if (entry.omits_placeholder, not entry.is_name) < (other.omits_placeholder, not other.is_name):
                entries[i] = entry
            return
    entries.append(entry)
