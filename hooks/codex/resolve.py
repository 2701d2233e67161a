"""Finding terms in text (mentions), looking up a query, and following trait implications."""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from bisect import bisect_right

from . import forms
from .index import Index, rank

# Text that is already markup or machine text: nothing inside is ever linked, and it is copied unchanged.
# Each kind comes with the character(s) it cannot do without, so text without them skips the scan entirely.
_PROTECTED_KINDS = [
    ("`", r"```.*?(?:```|\Z)"),                      # fenced code
    ("`", r"`[^`\n]*`"),                             # inline code
    ("[", r"!?\[[^\]\n]*\]\([^)\n]*\)"),             # Markdown link or image
    ("[", r"!?\[[^\]\n]*\]\[[^\]\n]*\]"),            # Markdown reference link
    ("[", r"^[ ]{0,3}\[[^\]\n]+\]:[^\n]*"),          # Markdown link definition
    ("[", r"\[url(?:=[^\]\n]*)?\].*?(?:\[/url\]|\Z)"),  # BBCode link
    ("[", r"\[(?P<bb>code|img|email)\b[^\]]*\].*?(?:\[/(?P=bb)\]|\Z)"),
    ("<", r"<(?P<tag>a|code|pre|script|style)\b[^>]*>.*?(?:</(?P=tag)\s*>|\Z)"),
    ("<", r"<[^<>\n]*>"),                            # any other HTML tag
    ("://", r"\b(?:https?|ftp)://[^\s<>\[\]()\"']+"),  # URL
    ("www.", r"\bwww\.[^\s<>\[\]()\"']+"),
    ("@", r"(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.-]+"),  # e-mail (from its first character only: no rescans)
]
_protected_by_triggers: dict[frozenset[str], re.Pattern | None] = {}


def protected_pattern(text: str) -> re.Pattern | None:
    """One pattern of the protected kinds whose trigger occurs in the text (None: nothing to protect)."""
    lowered = text.lower()
    triggers = frozenset(t for t in {"`", "[", "<", "://", "www.", "@"} if t in lowered)
    if triggers not in _protected_by_triggers:
        kinds = [pattern for trigger, pattern in _PROTECTED_KINDS if trigger in triggers]
        _protected_by_triggers[triggers] = re.compile("|".join(kinds), re.S | re.I | re.M) if kinds else None
    return _protected_by_triggers[triggers]


MAX_GAP = 4  # characters between two words of one name: " ", " - ", "’"


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    text: str
    term: str
    parameter: str | None = None


class Resolver:
    """Matches one game's names in text; build once per game and reuse (the index is read-only)."""

    def __init__(self, index: Index):
        self.index = index
        self._keys_cache: dict[str, tuple[str, ...]] = {}
        self._word_cache: dict[str, tuple[str, bool, bool]] = {}
        # The game's own name is never a term mention ("Mage Wars" is not the Mage).
        names = sorted({n for n in index.game_name.values() if n}, key=len, reverse=True)
        self._game_name = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in names), re.I) if names else None

    # --- words --------------------------------------------------------------------------
    def keys(self, word: str) -> tuple[str, ...]:
        """The name-word keys a folded text word can stand for."""
        cached = self._keys_cache.get(word)
        if cached is None:
            if word.isdigit():
                cached = (word,)
            else:
                cached = tuple(self.index.word_keys.get(word, ()))
                if not cached and forms.is_cyrillic(word):
                    stem = forms.russian_stem(word)
                    if len(stem) >= forms.MIN_STEM:
                        cached = tuple(self.index.stem_keys.get(stem, ()))
            if len(self._keys_cache) < 100_000:
                self._keys_cache[word] = cached
        return cached

    def _word(self, word: str) -> tuple[str, bool, bool]:
        """(folded, capitalised, can begin a name) for a word as written; cached, most words repeat."""
        info = self._word_cache.get(word)
        if info is None:
            folded = forms.fold(word)
            root = self.index.trie.get("c", {})
            info = (folded, word[:1].isupper(), any(key in root for key in self.keys(folded)))
            if len(self._word_cache) < 100_000:
                self._word_cache[word] = info
        return info

    def _scan(self, text: str) -> tuple[list[re.Match], list[int], list[int]]:
        """The text's words (match objects: cheap to make) and the protected spans (starts, ends), merged."""
        pattern = protected_pattern(text)
        spans = [m.span() for m in pattern.finditer(text)] if pattern else []
        if self._game_name:
            spans = sorted(spans + [m.span() for m in self._game_name.finditer(text)])
        starts, ends = [], []
        for start, end in spans:
            if ends and start < ends[-1]:
                ends[-1] = max(ends[-1], end)
            else:
                starts.append(start)
                ends.append(end)
        return list(forms.WORD.finditer(text)), starts, ends

    @staticmethod
    def _inside(position: int, starts: list[int], ends: list[int]) -> bool:
        index = bisect_right(starts, position) - 1
        return index >= 0 and position < ends[index]

    # --- matching -----------------------------------------------------------------------
    def _matches_at(self, text: str, words: list[re.Match], i: int, starts: list[int], ends: list[int]):
        """The longest name starting at word i: (end offset, next word, accept entries, parameters), or None."""
        best = None
        first = words[i]
        first_folded, first_upper, _ = self._word(first[0])
        root = self.index.trie.get("c", {})
        stack = [(root[k], i + 1, first.end(), (), False) for k in self.keys(first_folded) if k in root]
        while stack:
            node, j, end, params, had_number = stack.pop()
            entries = [e for e in node.get("a", ()) if (had_number or not e[4]) and (not e[3] or first_upper)]
            if entries and (best is None or end > best[0]):
                best = (end, j, entries, list(params))
            children = node.get("c")
            if not children or j >= len(words):
                continue
            token = words[j]
            token_start, token_end = token.span()
            gap = text[end:token_start]
            if (len(gap) > MAX_GAP and not gap.isspace()) or "\n" in gap:
                continue
            if starts and self._inside(token_start, starts, ends):
                continue
            word = self._word(token[0])[0]
            if word.isdigit() and "#n" in children:
                sign = forms.SIGN.match(gap)
                if sign:
                    value = (sign.group(2) or "").replace("−", "-").replace("–", "-").replace("—", "-") + word
                    number_end = token_end
                    if sign.group(1):  # "Опасный (3)": the closing bracket belongs to the mention
                        number_end = token_end + 1 if text[token_end:token_end + 1] == ")" else -1
                    if number_end > 0:
                        stack.append((children["#n"], j + 1, number_end, params + (value,), True))
            if forms.JOINER.match(gap):
                for key in self.keys(word):
                    child = children.get(key)
                    if child is not None:
                        stack.append((child, j + 1, token_end, params, had_number))
                if "#w" in children and word.isalpha():
                    stack.append((children["#w"], j + 1, token_end, params + (token[0],), had_number))
        return best

    def _rank(self, entries: list, first_upper: bool) -> list:
        """Best fit first (see index.rank): "Melee Attack" vs "melee attack" goes by capitalisation."""
        return sorted(entries, key=lambda e: rank(e, first_upper))

    def mentions(self, text: str) -> list[Mention]:
        """Every mention, left to right, longest first, never overlapping: one pass over the words."""
        words, starts, ends = self._scan(text)
        found: list[Mention] = []
        i, count, cache = 0, len(words), self._word_cache
        while i < count:
            word = words[i]
            _, upper, can_start = cache.get(word[0]) or self._word(word[0])
            if not can_start or (starts and self._inside(word.start(), starts, ends)):
                i += 1
                continue
            match = self._matches_at(text, words, i, starts, ends)
            if match is None:
                i += 1
                continue
            end, next_i, entries, params = match
            entry = self._rank(entries, upper)[0]
            start = word.start()
            found.append(Mention(start, end, text[start:end], entry[0], " ".join(params) if params else None))
            i = next_i
        return found

    # --- lookup -------------------------------------------------------------------------
    def lookup(self, query: str, limit: int = 10) -> list[dict]:
        """Candidates for a query, best first: exact (any form, with parameter), then near spellings."""
        query = query.strip()
        results: dict[str, dict] = {}
        words, starts, ends = self._scan(query)
        words = [w for w in words if not (starts and self._inside(w.start(), starts, ends))]
        folded = [self._word(w[0])[0] for w in words]
        if words:
            match = self._matches_at(query, words, 0, [], [])
            if match:
                end, next_i, entries, params = match
                whole = next_i == len(words) and not query[end:].strip(" .,!?)")
                for rank, entry in enumerate(self._rank(entries, self._word(words[0][0])[1])):
                    score = (1.0 if whole else 0.8) - rank * 0.01
                    results[entry[0]] = self._candidate(entry[0], score, " ".join(params) or None)
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

    def _candidate(self, term_id: str, score: float, parameter: str | None) -> dict:
        info = self.index.terms[term_id]
        return {"term": term_id, "name": info.name["en"], "name_ru": info.name["ru"], "path": info.path,
                "score": round(score, 3), "parameter": parameter}

    # --- traits -------------------------------------------------------------------------
    def traits(self, given: list[str]) -> dict:
        """Every trait implied by the given ones (with the chain explaining it), minus pairs that cancel."""
        terms = self.index.terms
        start_ids, unknown = [], []
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
        queue = deque()
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
