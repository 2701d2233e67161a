"""Word forms: tokenising, normalising and inflecting English and Russian words for matching.

Everything here is pure Python and runs unchanged in Pyodide. Russian inflections come from a morphological
dictionary at build time (`russian_lexeme`, needs pymorphy3); the browser receives the generated forms in the
index and only uses `russian_stem`, a small suffix stripper, for words the dictionary did not produce.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

# A token is a word (letters/digits) — the unit of matching; signs and punctuation live in the gaps between.
WORD = re.compile(r"[^\W_]+")
# What may stand between two words of one multi-word name: spaces, a hyphen, an apostrophe, a slash or an "&"
# ("D&D Miniatures", a title: round 4).
JOINER = re.compile(r"\s*[-‐‑’'/&]?\s*\Z|\s+\Z")
# A sign before a number parameter: "Melee +2", "Tough -3", "Tough – 3", "Armor +/- 1", "Опасный (3)".
SIGN = re.compile(r"\s*(\()?\s*(\+/-|\+|-|−|–|—)?\s*\Z")
CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
NUMBER_SLOT = "\x00N\x00"
SIGNED_SLOT = "\x00S\x00"  # a number printed with a sign ("+X", "-X", "+/- X", "+[#]"): takes only a signed number
WORD_SLOT = "\x00W\x00"
SLOTS = (NUMBER_SLOT, SIGNED_SLOT, WORD_SLOT)
# A card or phrase printed with a comma ("Fellella, Pixie Familiar", "Mohktari, Great Tree of Life"): the comma is a
# step of its path, so the phrase holds where players copy it with its comma and a term's name never joins across one
COMMA_STEP = ","
COMMA_GAP = re.compile(r"[ \t]*,[ \t]*\Z")
_SIGNED_PLACEHOLDER = re.compile(r"\s*(?:\+\s*/\s*-|±|\+|-|−|–|—)")


def is_signed(placeholder: str) -> bool:
    """A placeholder printed with its sign: "+X", "-X", "–X", "+/- X", "+[#]" (not "X", "[#]", "(Х)")."""
    return bool(_SIGNED_PLACEHOLDER.match(placeholder))


def fold(word: str) -> str:
    """The case- and ё-insensitive spelling every comparison uses."""
    return word.lower().replace("ё", "е")


def is_cyrillic(word: str) -> bool:
    return bool(CYRILLIC.search(word))


# --- English -------------------------------------------------------------------------------

_VOWELS = set("aeiou")


def english_forms(word: str) -> set[str]:
    """Plural, past and -ing forms of an English word, and the base of an inflected name word.

    Generated, not looked up: "heal" gives "healed", "pushes", "conjurations"; "Incapacitated" also gives
    "incapacitate". Only names' words are expanded, so a rare wrong form costs nothing.
    """
    if len(word) <= 3 or word[1:] != word[1:].lower():
        # "LoS", "AC": acronyms take at most a plural ("loses" is not LoS), and one ending in s none ("loss")
        return {fold(word)} | ({fold(word) + "s"} if not word.lower().endswith("s") else set())
    word = fold(word)
    bases = {word}
    if len(word) > 4:
        if word.endswith("ed"):
            bases |= {word[:-2], word[:-1]}
        if word.endswith("ing"):
            bases |= {word[:-3], word[:-3] + "e"}
    if len(word) > 3 and word.endswith("s") and word[-2] not in "siu":  # "Attacks" -> attack, "Keys" -> key;
        bases.add(word[:-1])                                             # not "Aegis", "Bonus"
    bases -= NOT_BASES
    forms = set()
    for base in bases:
        forms |= {base, base + "s", base + "es", base + "'s"}
        if base.endswith("y") and len(base) > 2 and base[-2] not in _VOWELS:
            forms.add(base[:-1] + "ies")
        if base not in NOUN_NAMES:  # "burning light", "phasing through a wall": the everyday verb, not the marker
            forms |= verb_forms(base)
    return forms


def verb_forms(base: str) -> set[str]:
    """The past and -ing forms of an English base: "healed", "healing", "stunned", "rallied", "fought"."""
    forms = {base + "ed", base + "ing"}
    if base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    if base.endswith("y") and len(base) > 2 and base[-2] not in _VOWELS:
        forms.add(base[:-1] + "ied")
    if len(base) >= 3 and base[-1] not in _VOWELS | {"w", "x", "y"} and base[-2] in _VOWELS and base[-3] not in _VOWELS:
        forms |= {base + base[-1] + "ed", base + base[-1] + "ing"}  # stun -> stunned, stunning
    return forms | set(IRREGULAR_VERBS.get(base, ()))  # "fought" for Fight, "slept" for Sleep


# The irregular past forms of the verbs that are (or begin) term names in the games: generated forms miss them.
IRREGULAR_VERBS = {
    "fight": ("fought",), "sleep": ("slept",), "fly": ("flew", "flown"), "freeze": ("froze", "frozen"),
    "steal": ("stole", "stolen"), "draw": ("drew", "drawn"), "take": ("took", "taken"), "bind": ("bound",),
    "strike": ("struck",), "shoot": ("shot",), "hide": ("hid", "hidden"), "break": ("broke", "broken"),
    "bleed": ("bled",), "rise": ("rose", "risen"), "forget": ("forgot", "forgotten"), "throw": ("threw", "thrown"),
    "hold": ("held",), "seek": ("sought",), "choose": ("chose", "chosen"), "lose": ("lost",),
}


# Names that are nouns only in the game: a condition marker (Mage Wars' Burn, Bleed, Charge) or a part of the
# round (D&D's phase). Their -ed and -ing forms are an everyday verb in players' text ("burning light", "once
# something is bleeding", "his bear charged across", "phasing through a wall": round 4, issue 20); plurals stay.
NOUN_NAMES = frozenset({"burn", "bleed", "charge", "phase", "type", "reach"})  # "I typed 312 creatures" (round 12),
# "his wolves never reached me" (Mage Wars' Reach is an attack trait, D&D's Melee Reach a distance; round 14)

# Bases an inflected name word must not give: "round" (a game round) is not D&D's "rounding".
# "range" (how far an attack reaches) is not Mage Wars' Ranged ("alive is range and mana"). "live" is not Living:
# "BINGO IS LIVE", "lives on the shelf", "I live 10 min away" (round 13: none of its 39 uses in 20 sets was the term);
# nor "liv", the stem "living" would give "lives" and "lived" from (round 14).
# Round 19: nor "route", the -ing rule's base of "routing", a way and a word of its own ("the scenic route", "you route
# a bus": 3 false links of Rout, none gold); "rout", "routs", "routed", "routing" stay.
NOT_BASES = frozenset({"round", "range", "rang", "live", "liv", "root", "route"})

# A name that is one of these ordinary English words is a game term only when written with a capital:
# "Move", "Slow", "Friendly" are linked, "move 2 squares", "pretty slow", "a friendly game" are not. Words that in a
# rules question almost always carry their game meaning (zone, token, wall, enemy, damage, fight, spell, phase...)
# are not on the list and link in any case. See "Ordinary words" in the README.
ORDINARY_ENGLISH = frozenset("""
    cancel controller cost counter fast friendly ignore large life magic medium move owner remove
    pull replace replaces requires resist rounding save self sight size sleep slow small space tiny touch tough type
    unique weak
    """.split())  # "pull": "Pulled a Wight" from a booster (round 3); "resist" (D&D's alias of Resist ENERGY, round
# 17): bare and in lower case it was the verb in all 4 of its uses in the annotated sets ("a creature can choose not
# to resist", "why would he resist his own buddy"); "resist fire 10" and "Resist" stay the term
# "tough" (Mage Wars' Tough -X, round 18): bare and in lower case it was everyday in all 3 of its uses ("tough guy",
# "a walking wall with tough armor"); "Tough -2" stays the trait
# Round 10 weighed the list on every annotated corpus (13 sets, each annotated blind): in D&D text lower-case
# "opponent" was the term 24 times in 26 (the other two are posts.yml's, annotated by this very list) and "rally"
# 8 in 8, yet the list let only half of them link; both left it, as «скорость» left the Russian one (7 in 8, the
# eighth «с космической скоростью», now a not-mention) and «сон» (Mage Wars' and D&D's Sleep 7 in 8, the eighth
# «перед сном», now a not-mention with «во сне»). "counter" joined it (Mage Wars' Counter in 1 of 9 lower-case uses:
# "load counter", "nobody left to counter"; as printed, "Counter", it links). See "Ordinary words" in the README.
# Round 14: "living" left it — with "lives" and "lived" no longer its forms, lower-case "living" was the attribute in
# all 10 of its uses in the annotated sets ("a living beater", "off living targets"); "living room" is a not-mention.
# The same for Russian names that are everyday words: «в состоянии», «содержание раздела».
# «новичкам» (beginners), «маленьких фигурок» (small figures), «уникальную книгу» (a unique book): real player
# text uses these in their everyday sense (issue 20); «линия» (D&D's line 12 has no number in its Russian name):
# «провести линию», «стоит на линии», «строиться в линию» (round 3).
ORDINARY_RUSSIAN = frozenset("""
    быстрый вывод линия магия маленькое цена медленный новичок опасный размер слабость содержание
    состояние среднее тип ударить удаление уникальный уровень заменить замените заменять скрытый видимость
    рассеивание
    """.split())  # «Вывод:» (conclusion) for D&D's phase out (round 4); «Покраска средняя» (average, round 7);
# «заменить»: «Теперь её заменили записью Double Damage» in D&D's own Vulnerable, «заменил на клей» (real10);
# «скрытый» (Mage Wars' Obscured): "hidden" — «ники скрыты», «два скрытых заклинания», «повесил скрытым» (round 15: 5
# of 5 lower-case uses in the annotated sets were everyday or a face-down enchantment, none the trait)
# Round 17: «видимость» (D&D's range sight; English "sight" is on the list) said for line of sight («закрывает
# видимость как стена»: 3 of 3 in the annotated sets, none gold); «рассеивание» (Mage Wars' Dissipate X) the Dispel
# card of the Russian edition («отвечал на каждое проклятие рассеиванием»: 4 of 4; the verb «облако рассеялось» stays).
# Names of several words that are a player's everyday phrase: D&D's range "your warband" is, in players' text, the
# player's army ("everything your warband is going to do"): linked only with a capital, as the ordinary words.
# "warband building" is the act of building one ("only checked at warband building"), the commander effect being
# printed "Warband Building" (round 6).
ORDINARY_PHRASES = frozenset({"your warband", "warband building"})


def is_ordinary(word: str) -> bool:
    """A one-word name that is also everyday language: linked only when written with a capital."""
    return word in ORDINARY_ENGLISH or word in ORDINARY_RUSSIAN or word in ORDINARY_PHRASES


# --- Russian -------------------------------------------------------------------------------

# Inflectional endings, longest first; stripping one gives a stem shared by a word's forms.
_RU_ENDINGS = sorted(set("""
    ами ями ыми ими ого его ому ему ыми ими ой ей ою ею ая яя ое ее ые ие ый ий ым им ых их ую юю ом ем ах ях ам ям
    ов ев ей ию ия ие ий ии ья ье ьи ью а я о е ы и у ю ь й
    ться тся ешь ете ют ут ят ат ет ит ем им ал ала али ало ил ила или ило ть ти
    """.split()), key=len, reverse=True)
MIN_STEM = 4  # shorter stems over-match: «бой» must not reach «боевой»


def russian_stem(word: str) -> str:
    """A crude, deterministic stem for Russian words the dictionary did not expand (the browser's fallback)."""
    word = fold(word)
    for ending in _RU_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            return word[: -len(ending)]
    return word


_morph = None


def russian_lexeme(word: str) -> set[str]:
    """Every form of a Russian word from the pymorphy3 dictionary (build time only)."""
    return set(_russian_lexeme(fold(word)))


@lru_cache(maxsize=None)
def _russian_lexeme(word: str) -> tuple[str, ...]:
    global _morph
    if _morph is None:
        import pymorphy3  # type: ignore[import-untyped]  # build time only: never imported in the browser

        _morph = pymorphy3.MorphAnalyzer()
    parses = _morph.parse(word)
    forms = {word}
    if not parses:
        return (word,)
    # The name's own reading: the best parse's word (lemma) and part of speech. Other readings of the same
    # spelling are other words («полет» is also a form of «полоть», whose «поля» is not Flying), and a word's
    # lexeme spans parts of speech (a participle's holds its verb: «вызвало» is not «вызванное»): only forms of the
    # reading's own part of speech are the name's forms.
    best = parses[0]  # the most likely parse; a name in its dictionary form reads as that form («псионика», not
    for parse in parses:  # the genitive of «псионик» that the dictionary ranks as likely)
        if fold(parse.normal_form) == word and parse.score >= best.score * 0.3:
            best = parse
            break
    group = _POS_GROUPS.get(best.tag.POS)
    for parse in parses:
        if parse.normal_form != best.normal_form or _POS_GROUPS.get(parse.tag.POS) != group:
            continue
        forms |= {fold(f.word) for f in parse.lexeme if group is None or f.tag.POS in group}
    return tuple(sorted(f for f in forms if not f.startswith("по") or word.startswith("по")))


# Parts of speech whose forms are forms of one name word (short adjectives with full ones, and so on).
# A verb's forms include its participles and gerunds («уничтожено» is a form of «уничтожить»); a participle's do
# not include its verb's finite forms («вызвало» is not a form of «вызванное»).
_ADJECTIVE, _PARTICIPLE = frozenset({"ADJF", "ADJS"}), frozenset({"PRTF", "PRTS"})
_VERB = frozenset({"INFN", "VERB", "PRTF", "PRTS", "GRND"})
_POS_GROUPS: dict[str | None, frozenset[str]] = {
    "NOUN": frozenset({"NOUN"}), "ADJF": _ADJECTIVE, "ADJS": _ADJECTIVE, "PRTF": _PARTICIPLE, "PRTS": _PARTICIPLE,
    "INFN": _VERB, "VERB": _VERB, "GRND": frozenset({"GRND"}), "COMP": frozenset({"COMP"}),
}


# A verb name's perfective and reflexive, which players write for it («вылечить», «лечиться» for «лечить»): forms of
# the same act. Only a verb name's: a noun's verb is another word («лечить» is not a form of «лечение»; the
# annotators of posts.yml kept the two apart).
_VERB_PREFIXES = ("вы", "из")
RU_PREPOSITIONS = frozenset("с со в во на к ко по от из за".split())  # a name's last word that may be left out


def russian_verb_forms(word: str) -> set[str]:
    """The forms of a Russian verb name's perfective («вылечить») and reflexive («лечиться»), beyond its own
    lexeme; nothing for other words (build time only)."""
    return set(_verb_family(fold(word), _VERB, own=False))


@lru_cache(maxsize=None)
def _verb_family(word: str, kinds: frozenset[str], own: bool) -> tuple[str, ...]:
    """The forms of the parts of speech `kinds` of an infinitive's вы-/из- perfective and reflexive, and with `own`
    its own; nothing for a word that is not an infinitive."""
    morph = _analyzer()
    parses = morph.parse(word)
    if not parses or parses[0].tag.POS != "INFN" or parses[0].normal_form != word:
        return ()
    verbs = {prefix + word for prefix in _VERB_PREFIXES} | {word + "ся"} | ({word} if own else set())
    out: set[str] = set()
    for verb in verbs:
        if verb != word and not morph.word_is_known(verb):
            continue
        for parse in morph.parse(verb):
            if parse.tag.POS == "INFN" and parse.normal_form == verb:
                out |= {fold(f.word) for f in parse.lexeme if f.tag.POS in kinds}
                break
    return tuple(sorted(out if own else out - {word}))


def _analyzer() -> Any:
    global _morph
    if _morph is None:
        import pymorphy3

        _morph = pymorphy3.MorphAnalyzer()
    return _morph


# A verb that begins a phrase name («Выковать ключ», «Выбрать дом») is that act only as a verb: «выкованного ключа»,
# «выбранного дома» are a key already forged and the house chosen, a participle and its noun — two mentions, as both
# annotators of real10 marked them (round 9). Such a name's first word is indexed under VERB_ONLY_MARK + the verb.
VERB_ONLY_MARK = "~"
_FINITE = frozenset({"INFN", "VERB", "GRND"})


def russian_finite_forms(word: str) -> set[str]:
    """A Russian infinitive's forms that are verbs (finite, infinitive, gerund; no participles), with those of its
    вы-/из- perfective and reflexive; nothing for a word that is not an infinitive (build time only)."""
    return set(_verb_family(fold(word), _FINITE, own=True))


def russian_is_adjective(word: str) -> bool:
    """The dictionary's best reading of a Russian word is an adjective or participle (build time only)."""
    parses = _analyzer().parse(fold(word))
    return bool(parses) and parses[0].tag.POS in ("ADJF", "PRTF")


def russian_words_from(stem: str) -> list[str]:
    """The words of the pymorphy3 dictionary that `russian_stem` cuts to `stem` — the stem and one of its endings
    (build time only): the words the stem fallback could take."""
    global _morph
    if _morph is None:
        import pymorphy3

        _morph = pymorphy3.MorphAnalyzer()
    candidates = {stem, *(stem + ending for ending in _RU_ENDINGS)}
    return sorted(w for w in candidates if russian_stem(w) == stem and _morph.word_is_known(w))


# --- typos ---------------------------------------------------------------------------------

MIN_TYPO = 6  # letters a text word needs before one edit (a letter wrong, missing, extra) may be a typo
MIN_SWAP = 5  # letters a text word needs before two swapped neighbours may be a typo ("meele")
MIN_TWO = 9  # letters a text word (and the name word) needs before two edits may be a typo ("incapitated")
# Everyday English words one edit away from a name word: never typos of it ("attach" is not Attack).
COMMON_ENGLISH = frozenset("""
    attach attacks attach attached battle cards chance charge counted creator enable faster lowers master
    powers reaching shielded slower though through player places plane planes trample
    """.split())


@lru_cache(maxsize=1)
def english_dictionary() -> frozenset[str]:
    """English words (build time only): those in both of the `english-words` package's lists, web2 and GCIDE, so
    that fewer archaic spellings ("domage", "disard") pass for words. A text word that is one is not a typo."""
    from english_words import get_english_words_set  # type: ignore[import-untyped]  # build time only

    web2 = get_english_words_set(["web2"], lower=True, alpha=True)
    return frozenset(web2 & get_english_words_set(["gcide"], lower=True, alpha=True))


def inflected_word(word: str, dictionary: frozenset[str]) -> bool:
    """An English word the dictionary lists only in its base form: "sounded" (sound), "rooting" (root), "wards".
    The word lists hold base forms, so "Sounded" would otherwise pass for a typo of Wounded (round 6)."""
    for suffix, restore in (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", "")):
        base = word[:-len(suffix)] + restore
        if word.endswith(suffix) and len(base) >= 3 and base in dictionary:
            return True
    return False


def near_spellings(word: str) -> set[str]:
    """Every spelling one edit from `word` (and, for a long word, two letters dropped): the strings the typo rule
    could take for it, so the build can tell which of them are real words."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = _deletes(word)
    out |= {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
    out |= {word[:i] + c + word[i + 1:] for i in range(len(word)) for c in letters}
    out |= {word[:i] + c + word[i:] for i in range(len(word) + 1) for c in letters}
    if len(word) >= MIN_TWO:
        out |= {d for once in _deletes(word) for d in _deletes(once)}
    out.discard(word)
    return out


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def one_edit(a: str, b: str) -> bool:
    """a and b differ by exactly one edit: a letter changed, added or dropped, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def swapped(a: str, b: str) -> bool:
    """a is b with two neighbouring letters swapped."""
    if len(a) != len(b):
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


class TypoIndex:
    """Name words by their one-letter deletions, so a text word's near spellings are found in O(its length)."""

    def __init__(self, keys: Iterable[str]):
        self._by_delete: dict[str, set[str]] = {}
        self._keys: set[str] = set()
        self._long: dict[str, list[str]] = {}  # long name words by their first two letters, for two edits
        for key in keys:
            if len(key) < MIN_SWAP or not key.isalpha():
                continue
            self._keys.add(key)
            if len(key) >= MIN_TWO:
                self._long.setdefault(key[:2], []).append(key)
            for variant in _deletes(key) | {key}:
                self._by_delete.setdefault(variant, set()).add(key)

    def lookup(self, word: str) -> list[str]:
        """The name words `word` is a typo of (one edit; long words only), best guess only when it is unique."""
        if len(word) < MIN_SWAP or not word.isalpha() or word in self._keys:
            return []
        found: set[str] = set()
        for variant in _deletes(word) | {word}:
            found |= self._by_delete.get(variant, set())
        if len(word) >= MIN_TYPO:
            hits = sorted(k for k in found if len(k) >= MIN_SWAP and one_edit(word, k))
        else:
            hits = sorted(k for k in found if swapped(word, k))
        if not hits and len(word) >= MIN_TWO - 2:  # a long word, its first two letters right: two letters dropped
            hits = sorted(k for k in self._long.get(word[:2], ()) if len(k) - len(word) == 2 and _within(word, k))
        return hits if len(hits) == 1 else []


def _within(short: str, long_: str) -> bool:
    """`short` is `long_` with some letters dropped (a subsequence)."""
    letters = iter(long_)
    return all(c in letters for c in short)


def distance(a: str, b: str) -> int:
    """Edits (a letter changed, added, dropped, or two neighbours swapped) from a to b; for short words only."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


# --- names ---------------------------------------------------------------------------------


def name_pattern(name: str) -> list[str]:
    """A name as folded words, slots kept: "smite \x00W\x00 \x00N\x00" -> ["smite", WORD_SLOT, NUMBER_SLOT]."""
    out: list[str] = []
    for piece in name.split():
        if piece in SLOTS:
            out.append(piece)
        else:
            out.extend(fold(w) for w in WORD.findall(piece))
    return out


def phrase_pattern(phrase: str) -> list[str]:
    """A phrase (a card name, a not-mention) as folded words with its commas kept as steps:
    "Fellella, Pixie Familiar" -> ["fellella", COMMA_STEP, "pixie", "familiar"]."""
    out: list[str] = []
    previous_end = None
    for word in WORD.finditer(phrase):
        if previous_end is not None and "," in phrase[previous_end:word.start()]:
            out.append(COMMA_STEP)
        out.append(fold(word.group()))
        previous_end = word.end()
    return out


def russian_stem_rules() -> dict[str, object]:
    """`russian_stem` as data (its endings, longest first, and its limits), for the browser's copy of the fallback.

    codex.search writes this into the site's search index, so the search worker strips exactly these endings;
    tests/test_search_js.py checks that both give the same stem for the same words.
    """
    endings = sorted(_RU_ENDINGS, key=lambda e: (-len(e), e))
    return {"endings": endings, "min_stem": MIN_STEM, "keep": 2}  # keep: letters that must remain (see above)
