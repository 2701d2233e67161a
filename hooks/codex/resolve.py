"""Finding terms in text (mentions), looking up a query, and following trait implications."""
from __future__ import annotations

import re
from bisect import bisect_left
from collections import deque
from collections.abc import Callable
from itertools import accumulate, compress
from operator import itemgetter
from typing import Any, NamedTuple

from . import forms
from .index import CARD, KEYWORD, NOT_TERMS, TITLE, Accept, Index, rank
from .markup import Spans, merge, protected

MAX_GAP = 4  # characters between two words of one name: " ", " - ", "’"
_SPLIT = re.compile(r"([^\W_]+)")  # text -> [gap, word, gap, word, ..., gap]: one C call, no match objects


class Mention(NamedTuple):
    """One mention: text[start:end] names `term` (with its parameter, "2" in "Aegis 2"). A tuple: cheap to make."""

    start: int
    end: int
    text: str
    term: str
    parameter: str | None = None


_MISSING: Any = object()  # not in the match cache (None there means: no match)
# What a gap between two words allows: (breaks a name, joins two name words, (bracket, sign) before a number).
_GapInfo = tuple[bool, bool, "tuple[bool, str] | None"]
# A match: (length, words consumed * 2, term, parameter, an ordinary word in lower case, an ordinary word).
_Hit = tuple[int, int, str, "str | None", bool, bool]  # ..., and whether the name is an ordinary word
# What the matcher needs of a word as written: (folded, capitalised, trie nodes it begins, keys, digit, alpha).
_WordInfo = tuple[str, bool, tuple[Any, ...], tuple[str, ...], bool, bool]


class Resolver:
    """Matches one game's names in text; build once per game and reuse (the index is read-only)."""

    def __init__(self, index: Index):
        self.index = index
        self._keys_cache: dict[str, tuple[str, ...]] = {}
        self._word_cache: dict[str, _WordInfo] = {}
        self._starters: set[str] = set()  # cached words that can begin a name
        self._gap_cache: dict[str, _GapInfo] = {}
        # (word, gap, next word) -> what matching there gives, when the walk looked no further: text repeats.
        self._match_cache: dict[tuple[str, ...], _Hit | None] = {}
        self._root: dict[str, Any] = index.trie.get("c", {})
        self._known = frozenset(index.known_words)  # dictionary words the stem fallback must not take
        self._card_terms = frozenset(index.card_terms)
        self._not_typos = frozenset(index.not_typos)
        self._typos: forms.TypoIndex | None = None  # built on the first word no name explains
        self._term_starts: set[str] | None = None  # first words of term names (not of cards, titles)
        # The game's own name is never a term mention ("Mage Wars" is not the Mage).
        names = sorted({n for n in index.game_name.values() if n}, key=len, reverse=True)
        self._game_name = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in names), re.I) if names else None
        # each name's longest word, lower-cased: the regex runs only when one of them occurs
        self._game_words = [max(_SPLIT.findall(n.lower()) or [n.lower()], key=len) for n in names]

    # --- words --------------------------------------------------------------------------
    def keys(self, word: str) -> tuple[str, ...]:
        """The name-word keys a folded text word can stand for."""
        cached = self._keys_cache.get(word)
        if cached is None:
            if word.isdigit():
                cached = (word,)
            else:
                cached = tuple(self.index.word_keys.get(word, ()))
                if cached:
                    pass
                elif forms.is_cyrillic(word):  # a form the dictionary did not produce, of a word it does not know
                    stem = forms.russian_stem(word)
                    if len(stem) >= forms.MIN_STEM and word not in self._known:
                        cached = tuple(self.index.stem_keys.get(stem, ()))
                elif len(word) >= forms.MIN_SWAP and word not in self._not_typos:
                    cached = tuple(self.typos().lookup(word))  # "meele", "conterstrike", "Moster"
            if len(self._keys_cache) < 100_000:
                self._keys_cache[word] = cached
        return cached

    def typos(self) -> forms.TypoIndex:
        """The English name words by their near spellings (built once, on first need)."""
        if self._typos is None:
            self._typos = forms.TypoIndex(self.index.typo_words)
        return self._typos

    def _word(self, word: str) -> _WordInfo:
        """Everything the matcher asks of a word as written; cached, most words repeat."""
        info = self._word_cache.get(word)
        if info is None:
            folded = forms.fold(word)
            keys = self.keys(folded)
            root = self._root
            info = (folded, word[:1].isupper(), tuple(root[k] for k in keys if k in root), keys, folded.isdigit(),
                    word.isalpha())
            if len(self._word_cache) < 100_000:
                self._word_cache[word] = info
                if info[2]:
                    self._starters.add(word)
        return info

    def _gap(self, gap: str) -> _GapInfo:
        info = self._gap_cache.get(gap)
        if info is None:
            sign = forms.SIGN.match(gap)
            breaks = "\n" in gap or (len(gap) > MAX_GAP and not gap.isspace() and sign is None)
            info = (breaks, forms.JOINER.match(gap) is not None,
                    (bool(sign.group(1)), sign.group(2) or "") if sign else None)
            if len(self._gap_cache) < 10_000:
                self._gap_cache[gap] = info
        return info

    def spans(self, text: str, markup: str = "any") -> Spans:
        """The protected spans for this game: the markup's, and the game's own name."""
        return self._with_game_name(text, protected(text, markup))

    def _with_game_name(self, text: str, spans: Spans) -> Spans:
        """The spans and every place the text names the game (a case-insensitive regex runs only when the
        name's longest word occurs: a plain substring test first, much faster over a long text)."""
        if self._game_name is None:
            return spans
        lowered = text.lower()
        if not any(word in lowered for word in self._game_words):
            return spans
        named = [m.span() for m in self._game_name.finditer(text)]
        return merge(spans + named) if named else spans

    # --- matching -----------------------------------------------------------------------
    def _match(self, parts: list[str], k: int, start: int) -> tuple[int, int, list[Accept], tuple[str, ...]] | None:
        """The longest name starting at word parts[k] (at offset `start`): (end, next word index, accept entries,
        parameters), or None. parts alternates gaps and words: parts[k + 1] is the gap after word k."""
        return self._walk(parts, k, start)[0]

    def _walk(self, parts: list[str], k: int, start: int) -> tuple[tuple[int, int, list[Accept], tuple[str, ...]] | None, int]:
        """_match, and the index of the last part the walk looked at."""
        best: tuple[int, int, list[Accept], tuple[str, ...]] | None = None
        examined = k
        first = parts[k]
        info = self._word_cache.get(first) or self._word(first)
        first_upper = info[1]
        count = len(parts)
        stack: list[tuple[Any, int, int, tuple[str, ...], bool]] = [
            (node, k, start + len(first), (), False) for node in info[2]]
        while stack:
            node, j, end, params, had_number = stack.pop()
            accept = node.get("a")
            if accept:
                entries = [e for e in accept if had_number or not e.needs_number]
                # an ordinary word in lower case ("move") only when nothing else fits: _segment decides by context
                entries = [e for e in entries if not e.ordinary or first_upper] or entries
                if entries and (best is None or end > best[0]):
                    best = (end, j + 2, entries, params)
            children = node.get("c")
            if not children:
                continue
            if j + 2 >= count:
                examined = count + 1  # the text's end stopped the walk: that is no cacheable answer
                continue
            gap = parts[j + 1]
            token = parts[j + 2]
            if j + 2 > examined:
                examined = j + 2
            if not token:
                continue
            breaks, joins, sign = self._gap_cache.get(gap) or self._gap(gap)
            if breaks:
                continue
            token_start = end + len(gap)
            token_end = token_start + len(token)
            word = self._word_cache.get(token) or self._word(token)
            if word[4] and sign is not None:
                for slot in ("#n", "#s"):
                    child = children.get(slot)
                    if child is None or (slot == "#s" and not sign[1]):
                        continue  # a name printed with a sign ("Armor +/- X") takes only a signed number
                    value = sign[1].replace("−", "-").replace("–", "-").replace("—", "-") + word[0]
                    number_end = token_end
                    if sign[0]:  # "Опасный (3)": the closing bracket belongs to the mention
                        after = parts[j + 3] if j + 3 < count else ""
                        examined = max(examined, j + 3)
                        number_end = token_end + 1 if after.startswith(")") else -1
                    if number_end > 0:
                        stack.append((child, j + 2, number_end, params + (value,), True))
            if joins:
                verbal = word[0].endswith("ing")  # "a zone bordering a wall": a verb, not Zone Border's word
                for key in word[3]:
                    child = children.get(key)
                    if child is not None and not (verbal and not key.endswith("ing")):
                        stack.append((child, j + 2, token_end, params, had_number))
                if word[5]:
                    child = children.get("#w")
                    if child is not None:
                        stack.append((child, j + 2, token_end, params + (token,), had_number))
        return best, examined

    def _rank(self, entries: list[Accept], first_upper: bool) -> list[Accept]:
        """Best fit first (see index.rank): "Melee Attack" vs "melee attack" goes by capitalisation."""
        return sorted(entries, key=lambda e: rank(e, first_upper))

    def mentions(self, text: str, markup: str = "any", spans: Spans | None = None,
                 names: list[Mention] | None = None) -> list[Mention]:
        """Every mention, left to right, longest first, never overlapping: one pass over the unprotected text.

        `spans`: protected spans already found for this text and markup (the game's name is added here).
        `names`: a list that receives the card names and titles found (term CARD or TITLE), for detection."""
        spans = self.spans(text, markup) if spans is None else self._with_game_name(text, spans)
        if spans:  # markup becomes line breaks: no word inside it, and no name reaches across it
            pieces, position = [], 0
            for start, end in spans:
                pieces.append(text[position:start])
                pieces.append("\n" * (end - start))
                position = end
            pieces.append(text[position:])
            clean = "".join(pieces)
        else:
            clean = text
        return self._segment(text, _SPLIT.split(clean), names)

    def _segment(self, text: str, parts: list[str], names: list[Mention] | None = None,
                 raw: bool = False) -> list[Mention]:
        """The mentions in text, given as parts (gap, word, gap, ..., gap) of a copy whose markup is blanked."""
        found: list[Mention] = []
        cards: list[Mention] = []  # card names found: a term named like a card beside one is that card
        cache = self._word_cache
        for word in set(parts[1::2]).difference(cache):
            self._word(word)  # each distinct word once; then only the words that can begin a name are visited
        if len(cache) >= 100_000:  # the cache is full: words it lacks are looked up as they come
            candidates = [k for k in range(1, len(parts), 2) if self._word(parts[k])[2]]
        else:
            candidates = list(compress(range(1, len(parts), 2), map(self._starters.__contains__, parts[1::2])))
        if not candidates:
            return found
        offsets = list(accumulate(map(len, parts), initial=0))  # offsets[k]: where parts[k] starts
        matches = self._match_cache
        free = 0  # the first part index not inside the previous mention
        pending: list[Mention] = []
        make = tuple.__new__  # a Mention without NamedTuple's Python-level constructor: the hot path
        append = found.append
        for k in candidates:
            if k < free:
                continue
            key = tuple(parts[k:k + 3])  # the word, the gap and the next word: shorter at the text's end
            at = offsets[k]
            hit = matches.get(key, _MISSING)
            if hit is _MISSING:
                word = parts[k]
                hit = self._matched(parts, k, at, key, cache[word][1] if word in cache else self._word(word)[1])
            if hit is None:
                continue
            length, step, term, parameter, lower, ordinary = hit
            if parameter is not None:
                lower = False  # with its number ("опасный 3", "slow 2") the name is the game's
            elif ordinary and not lower and (_SENTENCE_START.search(text, max(0, at - 4), at) or
                                             self._proper_name(parts, k + step)):
                lower = True  # "Save the list.", "Small Fire Elemental": a capital that is not the term's
            if lower:  # an ordinary word in lower case: linked only in context (see _in_context)
                pending.append(make(Mention, (at, at + length, text[at:at + length], term, parameter)))
            elif term not in NOT_TERMS:
                append(make(Mention, (at, at + length, text[at:at + length], term, parameter)))
            elif term:  # a card name, a title, a keyword: nothing to link, evidence of the game
                hit = make(Mention, (at, at + length, text[at:at + length], term, parameter))
                if names is not None:
                    names.append(hit)
                if term == CARD:
                    cards.append(hit)
            free = k + step
        if raw:  # every match as it stands, ordinary words in lower case too (for _modifiers)
            return sorted(found + pending)
        if found:
            found = _uncounted(text, found, names, self._card_terms, cards)
        if found:  # «Цена 900 р.»: a price, not the game's Cost
            found = _unpriced(text, found)
        if "к" in text and _RU_MODIFIER.search(text):  # «+1 к броне»: a modifier names its term's parameterised form
            found = self._modifiers(text, found, pending)
        return _in_context(text, found, pending, self.keys) if pending else found

    def _modifiers(self, text: str, found: list[Mention], pending: list[Mention]) -> list[Mention]:
        """Mentions written the Russian way, sign and number first: «+1 к броне» is Armor +1, «+3 к жизни» Life +3.
        The name with its number put after it ("броне +1") is matched again; when that gives one mention with a
        parameter, it replaces the bare name. Bounded work per mention: linear."""
        out: list[Mention] = []
        waiting = set(pending)
        taken = set()
        modifiers = {hit.end(): hit for hit in _RU_MODIFIER.finditer(text)}  # one pass: where each ends
        for m in sorted(found + pending):
            hit = modifiers.get(m.start)
            if hit and (not out or out[-1].end <= hit.start()):
                synthetic = f"{m.text} {hit.group(1)}{hit.group(2)}"
                alt = self._segment(synthetic, _SPLIT.split(synthetic), raw=True)
                if len(alt) == 1 and alt[0].end == len(synthetic) and alt[0].parameter:
                    out.append(Mention(hit.start(), m.end, text[hit.start():m.end], alt[0].term, alt[0].parameter))
                    taken.add(m)
                    continue
            if m not in waiting:
                out.append(m)
        if taken:
            pending[:] = [m for m in pending if m not in taken]
        return out

    def _proper_name(self, parts: list[str], k: int) -> bool:
        """parts[k] is a capitalised word after one space that begins no name: the word before it is part of a
        proper name ("Small Fire Elemental", "Wild Elf Barbarian"), not a capitalised term."""
        if k >= len(parts) or parts[k - 1] != " ":
            return False
        word = parts[k]
        if not (word[:1].isupper() and word.isalpha()):
            return False
        if self._term_starts is None:
            self._term_starts = {key for key, node in self._root.items() if _names_a_term(node)}
        return not set(self._word(word)[3]) & self._term_starts

    def _matched(self, parts: list[str], k: int, start: int, key: tuple[str, ...], upper: bool) -> _Hit | None:
        """The match at word k as (length, words consumed * 2, term, parameter); cached when the walk looked
        no further than the next word (the usual case), so a repeated phrase is matched once."""
        best, examined = self._walk(parts, k, start)
        result = None
        if best is not None:
            end, next_k, entries, params = best
            entry = min(entries, key=lambda e: rank(e, upper)) if len(entries) > 1 else entries[0]
            result = (end - start, next_k - k, entry.term, " ".join(params) if params else None,
                      entry.ordinary and not upper, entry.ordinary)
        if examined <= k + 2 and len(self._match_cache) < 100_000:
            self._match_cache[key] = result
        return result

    # --- lookup -------------------------------------------------------------------------
    def lookup(self, query: str, limit: int = 10) -> list[dict[str, Any]]:
        """Candidates for a query, best first: exact (any form, with parameter), then near spellings."""
        query = query.strip()
        results: dict[str, dict[str, Any]] = {}
        clean = query
        for start, end in self.spans(query):  # markup in a query is not part of the name asked for
            clean = clean[:start] + " " * (end - start) + clean[end:]
        parts = _SPLIT.split(clean)
        folded = [self._word(w)[0] for w in parts[1::2]]
        if folded:
            match = self._match(parts, 1, len(parts[0])) if self._word(parts[1])[2] else None
            if match:
                end, next_k, entries, params = match
                whole = next_k >= len(parts) and not query[end:].strip(" .,!?)")
                position = 0
                for entry in self._rank(entries, self._word(parts[1])[1]):
                    if entry.term in NOT_TERMS:
                        continue
                    score = (1.0 if whole else 0.8) - position * 0.01
                    position += 1
                    results[entry.term] = self._candidate(entry.term, score, " ".join(params) or None)
        wanted = " ".join(w for w in folded if not w.isdigit())
        number = next((w for w in folded if w.isdigit()), None)
        if wanted:
            for term in self.index.terms.values():
                best = 0.0
                for lang_names in term.names.values():
                    for name in lang_names:
                        words = " ".join(w for w in forms.name_pattern(name) if w not in ("x", "х"))
                        best = max(best, _similarity(wanted, words))
                if best >= 0.6 and (term.id not in results or results[term.id]["score"] < best * 0.79):
                    results[term.id] = self._candidate(term.id, round(best * 0.79, 3), number if term.has_number else None)
        ranked = sorted(results.values(), key=lambda c: (-c["score"], c["name"]))
        return ranked[:limit]

    def _candidate(self, term_id: str, score: float, parameter: str | None) -> dict[str, Any]:
        info = self.index.terms[term_id]
        return {"term": term_id, "name": info.name["en"], "name_ru": info.name["ru"], "path": info.path,
                "score": round(score, 3), "parameter": parameter}

    # --- traits -------------------------------------------------------------------------
    def traits(self, given: list[str]) -> dict[str, Any]:
        """Every trait implied by the given ones (with the chain explaining it), minus pairs that cancel."""
        terms = self.index.terms
        start_ids: list[str] = []
        unknown: list[str] = []
        for query in given:
            if query in terms:
                start_ids.append(query)
                continue
            found = self.lookup(query, limit=1)
            if found and found[0]["score"] >= 0.79:
                start_ids.append(found[0]["term"])
            else:
                unknown.append(query)
        chains: dict[str, list[str]] = {}
        queue: deque[str] = deque()
        for tid in start_ids:
            if tid not in chains:
                chains[tid] = [tid]
                queue.append(tid)
        while queue:  # breadth first: each trait is explained by its shortest chain
            tid = queue.popleft()
            for implied in terms[tid].implies:
                if implied in terms and implied not in chains:
                    chains[implied] = chains[tid] + [implied]
                    queue.append(implied)
        cancelled = []
        for tid in list(chains):
            for other in terms[tid].cancels:
                if other in chains and tid in chains:
                    for victim, by in ((tid, other), (other, tid)):
                        cancelled.append({"term": victim, "name": terms[victim].name["en"], "cancelled_by": by,
                                          "because": chains[victim]})
                    del chains[tid], chains[other]
                    break
        return {
            "traits": [{"term": t, "name": terms[t].name["en"], "name_ru": terms[t].name["ru"], "because": chain}
                       for t, chain in chains.items()],
            "cancelled": cancelled,
            "unknown": unknown,
        }


_SENTENCE_START = re.compile(r"(?:\A|[.!?…]|\n)[ \t\"'«“(*>-]*\Z")  # what a sentence's first word follows
_RU_MODIFIER = re.compile(r"([+\-−–])[ \t]?(\d+)[ \t]+к[ \t]+")  # "+1 к " before a name


# --- prices ------------------------------------------------------------------------------------

# A sum of money: "$25", "900 р.", "700 рублей", "20 EUR". A term's word just before one, in the same sentence, names a
# price, not the game's Cost («Цена 900 р.», «ну и цена: по одной колоде за 700 рублей»). Two scans keyed on their
# first character (a digit; a currency sign), no re.I: about 0.3x tokenising, far less than one alternation.
_PRICE_WORD = re.compile(r"[0-9][ \t]?(?:[рР](?:\.|уб)|РУБ|[uU][sS][dD]|[eE][uU][rR]|[еЕ]вро|[дД]оллар|[dD]ollar|"
                         r"[bB]uck|[$€£₽])")  # "900 р.", "700 рублей", "5$"
_PRICE_SIGN = re.compile(r"[$€£₽][ \t]?[0-9]")  # "$40"
PRICE_CHARS = 40  # how far before a price a term's word names it
_SENTENCE_BREAK = re.compile(r"[.!?\n]")


def _prices(text: str) -> list[int]:
    """Where each sum of money starts, in order."""
    starts = [m.start() for m in _PRICE_WORD.finditer(text)]
    if any(sign in text for sign in "$€£₽"):
        starts = sorted(starts + [m.start() for m in _PRICE_SIGN.finditer(text)])
    return starts


def _unpriced(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less those a price follows within PRICE_CHARS in the same sentence. One scan finds the
    prices; each mention bisects them: linear."""
    prices = _prices(text)
    if not prices:
        return found
    kept = []
    for m in found:
        i = bisect_left(prices, m.end)
        if i < len(prices) and prices[i] - m.end <= PRICE_CHARS and \
                not _SENTENCE_BREAK.search(text, m.end, prices[i]):
            continue
        kept.append(m)
    return kept


# --- card counts -------------------------------------------------------------------------------

# Card counts: "Teleport x2", "Teleport ×1", "2x Dispel" (no re.I: it would cost the first-character scan)
_COUNT_AFTER_ANY = re.compile(r"[xX×хХ](?<!\w[xX×хХ])[ \t]?\d(?!\w)")
_COUNT_BEFORE_ANY = re.compile(r"[xX×хХ](?!\w)")  # "2x Dispel": the digit is checked at each (rare) hit


_PUNCTUATION = "\"'«»“”„()[]{}<>.,;:!?*_~`"
_LIST_BEFORE = re.compile(r"[ \t]*(?:[,+/&;]|(?<!\w)(?:and|or|и|или))[ \t]*\Z", re.I)  # "Tanglevine + "
_LIST_AFTER = re.compile(r"[ \t]*(?:[,+/&;]|(?:and|or|и|или)(?!\w))[ \t]*", re.I)  # " + Tanglevine"
# Words before a card named like a term that make it the card: "a second Teleport", "two Teleports", «без Teleport».
CARD_CUES = frozenset("""
    another second third two three four with without без второй второго вторую два две три ещё еще
    """.split())


def _uncounted(text: str, found: list[Mention], names: list[Mention] | None, card_terms: frozenset[str] = frozenset(),
               cards: list[Mention] | None = None) -> list[Mention]:
    """The mentions less those that name a card: counted like cards in a spellbook or deck list ("Teleport x2",
    "2x Dispel"); and for a term that is also a card ("Teleport"), listed beside another card ("Tanglevine +
    Teleport"), after a number or an ordinal ("2 телепорта", "a second Teleport") or "with"/«без» ("a Wizard with
    Teleport", «без Teleport»). The card is evidence of the game only. Bounded looks around each mention: linear."""
    counted_ends: set[int] = set()  # where a name followed by a count ends ("Teleport| x2")
    counted_starts: set[int] = set()  # where a name after a count starts ("2x |Dispel")
    for hit in _COUNT_AFTER_ANY.finditer(text):  # C-speed scans keyed on their first character; hits are rare
        end = hit.start()
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        counted_ends.add(end)
    for hit in _COUNT_BEFORE_ANY.finditer(text):  # an "x" ending a word: a count when a lone digit is before it
        digit = hit.start() - 1 - (hit.start() >= 2 and text[hit.start() - 1] in " \t")
        if digit < 0 or not text[digit].isdigit() or (digit > 0 and (text[digit - 1].isalnum() or
                                                                     text[digit - 1] == "_")):
            continue
        start = hit.end()
        while start < len(text) and text[start] in " \t":
            start += 1
        counted_starts.add(start)
    index = range(len(found))
    counted = set(compress(index, map(counted_ends.__contains__, map(itemgetter(1), found)))) if counted_ends else set()
    if counted_starts:
        counted.update(compress(index, map(counted_starts.__contains__, map(itemgetter(0), found))))
    named = compress(index, map(card_terms.__contains__, map(itemgetter(3), found))) if card_terms else ()
    ends = {c.end for c in cards or ()}
    starts = {c.start for c in cards or ()}
    for i in named:  # C-speed filters above: only the mentions that may be cards are looked at here
        m = found[i]
        words = text[max(0, m.start - 24):m.start].split()
        previous = forms.fold(words[-1].strip(_PUNCTUATION)) if words else ""
        gap_before = _LIST_BEFORE.search(text, max(0, m.start - 8), m.start)
        gap_after = _LIST_AFTER.match(text, m.end, m.end + 8)
        if (previous in CARD_CUES or previous.isdigit() or (gap_before is not None and gap_before.start() in ends)
                or (gap_after is not None and gap_after.end() in starts)):
            counted.add(i)
    if not counted:
        return found
    if names is not None:
        names.extend(Mention(found[i].start, found[i].end, found[i].text, CARD) for i in sorted(counted))
    return [m for i, m in enumerate(found) if i not in counted]


def _names_a_term(node: dict[str, Any]) -> bool:
    """Some path through this trie node ends in a term's name (not only in card names or titles)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if any(entry.term not in NOT_TERMS for entry in current.get("a", ())):
            return True
        stack.extend(current.get("c", {}).values())
    return False


# --- ordinary words in lower case ---------------------------------------------------------------
# An ordinary word ("move", "friendly") links in lower case only when the text is about the game and the word
# stands in a game role, read from its neighbours (see "How it matches" in the README): an adjective before a
# game noun ("a friendly creature", not "a friendly game"), a noun after a creature's possessive ("fails its save",
# "next to its space"), a verb after a modal ("can it rally", "still move up to", not "feel free to move this
# thread"). English only: Russian writes every term in lower case, so its everyday words stay capital-only.

CONTEXT_MENTIONS = 2  # other mentions a text needs before a lower-case ordinary word may link
CONTEXT_CHARS = 400  # ...and one of them this close (characters between the two)
ADJECTIVES = frozenset("fast friendly large living medium slow small tiny weak".split())
GAME_NOUNS = frozenset("""
    ally allies attack attacks card cards character characters creature creatures enemies enemy figure figures
    mage mages mini minis miniature miniatures minion minions model models monster monsters object objects spell
    spells unit units warband
    """.split())
NOUNS = frozenset("cost move opponent reach save sight size space type".split())  # not "life": "lost its life"
POSSESSIVES = frozenset("its their his her my your".split())
COPULAS = frozenset("it's is are was were".split())  # "it's slow": an adjective said of a game object
VERBS = frozenset("cancel ignore move rally reach remove save sleep touch".split())
_RU_GAME_NOUN = re.compile(r"существ\w*|маг(?:а|у|ом|е|и|ов|ам|ами|ах)?|объект\w*")
_RU_ADJECTIVE_ENDINGS = frozenset("ый ий ой ая яя ое ее ые ие ого его ому ему ым им ых их ую юю ою ею".split())
# "two life back", "he had more life left": a quantity
NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten twelve twenty more less fewer".split())
ROLLS = frozenset("make makes made making fail fails failed pass passes passed".split())  # "makes the save"
ARTICLES = frozenset("a an the".split())
MODALS = frozenset("can cannot can't could may might must shall should still will would".split())
PRONOUNS = frozenset("it he she they i you we".split())
CREATURES = frozenset("it he she they".split())  # a creature as the subject
_BEFORE = re.compile(r"([\w'’]+)[^\w'’]{1,3}(?:([\w'’]+)[^\w'’]{1,3})?\Z")  # the one or two words before, in a short slice
_AFTER = re.compile(r"\W{1,3}([\w']+)")


def _game_role(text: str, m: Mention, starts: set[int], keys: Callable[[str], tuple[str, ...]]) -> bool:
    """The lower-case ordinary word at m stands in a game role (see above); looks at most 40 characters around.
    `keys` gives the name words a text word stands for ("rallies" -> rally)."""
    after = _AFTER.match(text, m.end, m.end + 40)
    before = _BEFORE.search(text[max(0, m.start - 40):m.start])
    previous = forms.fold(before.group(2) or before.group(1)) if before else ""
    earlier = forms.fold(before.group(1)) if before and before.group(2) else ""
    words = {forms.fold(m.text), *keys(forms.fold(m.text))}
    counted = previous.isdigit() or previous in NUMBER_WORDS or bool(after and after.group(1).isdigit())
    if forms.is_cyrillic(m.text):  # «оставалось 6 жизни», «уровень 2»: a quantity or a statistic; «медленные
        # существа»: an adjective before a creature (not «маленьких фигурок»: a figure is the toy, not the game's)
        return counted or bool(after and _RU_GAME_NOUN.fullmatch(forms.fold(after.group(1))) and
                               m.text[-2:] in _RU_ADJECTIVE_ENDINGS)
    if counted and words & (NOUNS | {"life"}):
        return True  # "3 life", "life 12"
    word = next((w for w in sorted(words) if w in ADJECTIVES | NOUNS | VERBS), "")
    if word in ADJECTIVES and after and (forms.fold(after.group(1)) in GAME_NOUNS or after.start(1) in starts):
        return True
    if word in ADJECTIVES and (previous in {"it's", "it’s"} or (previous in COPULAS and earlier in PRONOUNS)):
        return True
    if word in NOUNS and previous in POSSESSIVES and not text.startswith(("'s", "’s"), m.end):
        return True  # "its save", "your opponent"; not "my opponent's Halfling" (the player, owning a figure)
    if word in NOUNS and (previous in ROLLS or (previous in ARTICLES and earlier in ROLLS)):
        return True  # "makes the save", "failed a save": what a creature rolls
    # "can it rally", "still move", "it rallies" (a creature's act; not "before I save the list")
    return word in VERBS and (previous in MODALS | CREATURES or (previous in PRONOUNS and earlier in MODALS))


def _in_context(text: str, found: list[Mention], pending: list[Mention],
                keys: Callable[[str], tuple[str, ...]]) -> list[Mention]:
    """The mentions, with each lower-case ordinary word that stands in a game role in game context: the text
    has at least CONTEXT_MENTIONS other mentions, one of them within CONTEXT_CHARS. Linear: one bisection per
    candidate, a bounded look around it."""
    if len(found) < CONTEXT_MENTIONS:
        return found
    starts = [m.start for m in found]
    beginning = set(starts)
    kept = []
    for m in pending:
        i = bisect_left(starts, m.start)
        near = [found[j] for j in (i - 1, i) if 0 <= j < len(found)]
        if any(min(abs(m.start - o.end), abs(o.start - m.end)) <= CONTEXT_CHARS for o in near) and \
                _game_role(text, m, beginning, keys):
            kept.append(m)
    return sorted(found + kept) if kept else found


# --- which game a text is about ----------------------------------------------------------------

GAME_NAME_WEIGHT = 3.0  # "Mage Wars" (or another of its titles) written in the post says more than any one term
CARD_WEIGHT = 2.0  # a card name of the game ("Teleport Trap"), each distinct one; half for a one-word name
KEYWORD_WEIGHT = 1.0  # one of the game's own words its glossary does not define ("enrage"), each distinct one
SIZE_EXPONENT = 0.25  # a hit in a small glossary is less likely by chance: scores scale by (largest/size)**this


def _stem(word: str) -> str:
    folded = forms.fold(word)
    if forms.is_cyrillic(folded):
        return forms.russian_stem(folded)
    return folded[:-1] if len(folded) > 3 and folded.endswith("s") else folded


class Detector:
    """Which game a text is about: the one whose terms, card names and titles explain it best (see `detect`)."""

    def __init__(self, resolvers: dict[str, Resolver]):
        self.vocabulary: dict[str, set[str]] = {}
        self.sizes = {gid: max(1, len(r.index.terms)) for gid, r in resolvers.items()}
        self.names = {gid: {n.casefold() for n in r.index.game_name.values() if n} for gid, r in resolvers.items()}
        for gid, resolver in resolvers.items():
            words: set[str] = set()
            for term in resolver.index.terms.values():
                for text in [*term.summary.values(), *(n for names in term.names.values() for n in names)]:
                    words.update(_stem(w) for w in _SPLIT.findall(text))
            self.vocabulary[gid] = words

    def scores(self, text: str, mentions: dict[str, list[Mention]],
               names: dict[str, list[Mention]] | None = None) -> tuple[dict[str, float], dict[str, bool]]:
        """Each game's score and whether it has evidence of its own (see `detect`)."""
        largest = max(self.sizes.values(), default=1)
        lowered = text.casefold()
        scores: dict[str, float] = {}
        spans: dict[tuple[int, int], int] = {}
        for found in mentions.values():
            for m in found:
                spans[(m.start, m.end)] = spans.get((m.start, m.end), 0) + 1
        own = {game: any(spans[(m.start, m.end)] == 1 for m in found) for game, found in mentions.items()}
        for game, found in mentions.items():
            best: dict[str, float] = {}
            for m in found:
                words = [w for w in _SPLIT.findall(m.text) if not w.isdigit()]
                stems = [_stem(w) for w in words]
                sharing = sum(1 for vocabulary in self.vocabulary.values() if all(s in vocabulary for s in stems))
                weight = (len(words) + (m.parameter is not None)) / max(1, sharing)
                best[m.term] = max(best.get(m.term, 0.0), weight)
            score = sum(best.values()) * (largest / self.sizes.get(game, largest)) ** SIZE_EXPONENT
            named = sum(lowered.count(name) for name in self.names.get(game, ()))
            cards: dict[str, float] = {}
            for hit in (names or {}).get(game, ()):
                several = len(_SPLIT.findall(hit.text)) > 1
                if hit.term == KEYWORD:  # any case: "enrage", "ward"
                    cards[hit.text.casefold()] = KEYWORD_WEIGHT
                    continue
                if not several and not hit.text[:1].isupper():
                    continue  # "anger", "troll": a one-word card name counts only as printed, capitalised
                if hit.term == TITLE:
                    named += 1
                else:
                    cards[hit.text.casefold()] = CARD_WEIGHT if several else CARD_WEIGHT / 2
            score += GAME_NAME_WEIGHT * named + sum(cards.values())
            own[game] = own.get(game, False) or named > 0 or bool(cards)
            if score > 0:
                scores[game] = score
        return scores, own

    def detect(self, text: str, mentions: dict[str, list[Mention]],
               names: dict[str, list[Mention]] | None = None) -> str | None:
        """The best-explaining game, or None when no game has evidence or the best two tie.

        Each distinct term a game finds scores its number of words (+1 with a parameter: "Aegis 2"), divided by
        the number of games whose vocabulary (names and definitions' first sentences) holds all its words: an
        everyday word every game uses ("creature", «живой») counts little, "Aegis" or «зловоние» counts whole.
        A game's sum is scaled by (largest glossary / its size) ** SIZE_EXPONENT; each time the text names the
        game or one of its titles («Войны магов», "Dragoneye") adds GAME_NAME_WEIGHT, and each distinct card name
        of the game (`names`: what the resolvers found besides mentions) CARD_WEIGHT. The winner must have
        something of its own — a mention on a span no other game matches, a title or a card —, else the text is
        a tie ("Elusive" alone).
        """
        scores, own = self.scores(text, mentions, names)
        if not scores:
            return None
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        if len(ranked) > 1 and ranked[1][1] >= ranked[0][1]:
            return None
        if not own[ranked[0][0]]:
            return None  # only names other games share ("Elusive"): no evidence for one game
        return ranked[0][0]


def _similarity(a: str, b: str) -> float:
    """1 - edit distance / length, for catching misspellings ("Incorporal")."""
    if not a or not b:
        return 0.0
    if abs(len(a) - len(b)) > 3:
        return 0.0
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return 1 - previous[-1] / max(len(a), len(b))
