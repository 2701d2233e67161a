"""Finding terms in text (mentions), looking up a query, and following trait implications.

The matcher is here; the rules that judge its matches afterwards have their own modules: cards (a term named like
a card), prices (Cost before a sum of money), roles (ordinary words in lower case), verbs (a name's word as the
verb), phases (the round's phases in order), detect (which game)."""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from itertools import accumulate, compress
from typing import Any

from . import forms
from .attributes import unattributed
from .cards import CARD_EFFECT_CATEGORY, listed_figures, uncounted, untranslated
from .components import unboxed
from .detect import Detector as Detector  # re-exported: codex.resolve stays the place to import the linker from
from .index import CARD, KEYWORD, NOT_TERMS, Accept, Index, rank
from .markup import Markup, Spans, merge, protected
from .mention import SPLIT as _SPLIT
from .mention import Mention as Mention  # re-exported, as above
from .named import named_spans, untitled
from .phases import bare_phases, unphased
from .prices import unpriced
from .roles import in_context
from .suffixes import hyphen_suffixed
from .verbs import unverbed

MAX_GAP = 4  # characters between two words of one name: " ", " - ", "’"

_MISSING: Any = object()  # not in the match cache (None there means: no match)
# What a gap between two words allows: (breaks a name, joins two name words, (bracket, sign) before a number, a comma
# that a printed comma's step may follow).
_GapInfo = tuple[bool, bool, "tuple[bool, str] | None", bool]
_NO_NODE: dict[str, Any] = {}
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
        # an effect printed as a spell card ("Teleport"), by its printed name: the card unless acted or ruled on
        self._card_effects = {term: index.terms[term].name["en"] for term in index.card_terms
                              if index.terms[term].category == CARD_EFFECT_CATEGORY}
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
                    (bool(sign.group(1)), sign.group(2) or "") if sign else None, forms.COMMA_GAP.match(gap) is not None)
            if len(self._gap_cache) < 10_000:
                self._gap_cache[gap] = info
        return info

    def spans(self, text: str, markup: Markup = "any") -> Spans:
        """The protected spans for this game: the markup's, and the game's own name."""
        return self._with_names(text, protected(text, markup))

    def _with_names(self, text: str, spans: Spans) -> Spans:
        """The spans, every place the text names the game (a case-insensitive regex runs only when the name's
        longest word occurs: a plain substring test first, much faster over a long text), and names given in
        quotes to a club, a team or an event."""
        named = named_spans(text)
        if named:
            spans = merge(spans + named)
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
            breaks, joins, sign, comma = self._gap_cache.get(gap) or self._gap(gap)
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
            if comma:  # "Fellella, Pixie": only a phrase printed with the comma goes on
                children = children.get(forms.COMMA_STEP, _NO_NODE).get("c")
                joins = children is not None
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

    def mentions(self, text: str, markup: Markup = "any", spans: Spans | None = None,
                 names: list[Mention] | None = None) -> list[Mention]:
        """Every mention, left to right, longest first, never overlapping: one pass over the unprotected text.

        `spans`: protected spans already found for this text and markup (the game's name and quoted names are added here).
        `names`: a list that receives the card names and titles found (term CARD or TITLE), for detection."""
        spans = self.spans(text, markup) if spans is None else self._with_names(text, spans)
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
                if step > 2 and names is not None:  # "your warband": an everyday phrase, but the game's own words
                    names.append(make(Mention, (at, at + length, text[at:at + length], KEYWORD, None)))
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
            found = uncounted(text, found, names, self._card_terms, cards, self._card_effects)
        if found and cards:  # "Wall of Thorns — стена шипов": a card's translation, not the terms in it
            found = untranslated(text, found, cards)
        if found:  # "Warforged Scout — 8": a figure's name on a list line with its cost
            found = listed_figures(text, found, names)
        if found:  # «Цена 900 р.»: a price, not the game's Cost
            found = unpriced(text, found)
        if found:  # «не хватает жетонов»: the box's pieces, not the game's Token
            found = unboxed(text, found)
        if found:  # «живых соперников», «пока существо живо»: live opponents, alive — not the game's Living
            found = unattributed(text, found)
        if found and "-" in text:  # «counterstrike-ом»: a Russian ending; "counter-ish": an English word made from it
            found = hyphen_suffixed(text, found)
        if found:  # "keys cost +3": the keys, and the verb in the cost's sense — not the alias "Key cost"
            found = unverbed(text, found, self._term_of)
        if found:  # "Reset, Channeling, Upkeep, Planning": the round's phases in order, not the traits
            found = unphased(text, found)
        if found:  # "each upkeep", "A: Upkeep, one die per marker": the phase, a time, not the cost paid in it
            found = bare_phases(text, found)
        if found:  # «Кузнец Ржавых Ключей»: a deck's name, every word capitalised, not the game's Key
            found = untitled(text, found)
        modifiers = {hit.end(): hit for hit in _signs_first(text)}  # one pass: where each modifier ends
        if modifiers:  # «+1 к броне», "+1 channeling": a modifier names its term's parameterised form
            found = self._modifiers(text, found, pending, modifiers)
        return in_context(text, found, pending, self.keys) if pending else found

    def _term_of(self, word: str) -> str | None:
        """The term one word names on its own, or None."""
        hits = self._segment(word, _SPLIT.split(word))
        return hits[0].term if len(hits) == 1 and hits[0].end - hits[0].start == len(word) else None

    def _modifiers(self, text: str, found: list[Mention], pending: list[Mention],
                   modifiers: dict[int, re.Match[str]]) -> list[Mention]:
        """Mentions written sign and number first: «+1 к броне» is Armor +1, «+3 к жизни» Life +3, "+1 channeling"
        Channeling +1.
        The name with its number put after it ("броне +1") is matched again; when that gives one mention with a
        parameter, it replaces the bare name (`modifiers`: each sign-first modifier by where it ends). Bounded work
        per mention: linear."""
        out: list[Mention] = []
        waiting = set(pending)
        taken = set()
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


_SENTENCE_START = re.compile(r"(?:\A|[.!?…]|\n)[ \t\"'«“(*>•·–—-]*\Z")  # what a sentence's first word follows
# "+1 к " or "+1 " before a name: the Russian way («+1 к броне»), and English players' ("+1 channeling", round 8).
# The sign comes first in the pattern so the scan runs at C speed (a look-behind first cost 40 ms a megabyte).
_SIGN_FIRST = re.compile(r"([+\-−–])[ \t]?(\d+)[ \t]+(?:к[ \t]+)?")


def _signs_first(text: str) -> Iterator[re.Match[str]]:
    """Each sign-first modifier, not a range's second number ("2-3 armor") nor a word's hyphen: hits are few."""
    for hit in _SIGN_FIRST.finditer(text):
        before = text[hit.start() - 1] if hit.start() else " "
        if not (before.isalnum() or before in "_+-−–"):
            yield hit


def _names_a_term(node: dict[str, Any]) -> bool:
    """Some path through this trie node ends in a term's name (not only in card names or titles)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if any(entry.term not in NOT_TERMS for entry in current.get("a", ())):
            return True
        stack.extend(current.get("c", {}).values())
    return False


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
