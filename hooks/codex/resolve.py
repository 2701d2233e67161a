"""Finding terms in text (mentions), looking up a query, and following trait implications."""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import NamedTuple

from . import forms
from .index import Index, rank

# Text that is already markup or machine text: nothing inside is ever linked, and it is copied unchanged.
PROTECTED = re.compile(
    "|".join([
        r"```.*?(?:```|\Z)",                      # fenced code
        r"`[^`\n]*`",                             # inline code
        r"!?\[[^\]\n]*\]\([^)\n]*\)",             # Markdown link or image
        r"!?\[[^\]\n]*\]\[[^\]\n]*\]",            # Markdown reference link
        r"^[ ]{0,3}\[[^\]\n]+\]:[^\n]*",          # Markdown link definition
        r"\[url(?:=[^\]\n]*)?\].*?(?:\[/url\]|\Z)",  # BBCode link
        r"\[(code|img|email)\b[^\]]*\].*?(?:\[/\1\]|\Z)",
        r"<(a|code|pre|script|style)\b[^>]*>.*?(?:</\2\s*>|\Z)",
        r"<[^<>\n]*>",                            # any other HTML tag
        r"\b(?:https?|ftp)://[^\s<>\[\]()\"']+",  # URL
        r"\bwww\.[^\s<>\[\]()\"']+",
        r"[\w.+-]+@[\w-]+\.[\w.-]+",               # e-mail
    ]),
    re.S | re.I | re.M,
)
MAX_GAP = 4  # characters between two words of one name: " ", " - ", "’"


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    text: str
    term: str
    parameter: str | None = None


class _Token(NamedTuple):  # a tuple: one is made per word of the text, so it must be cheap
    start: int
    end: int
    word: str  # folded
    first_upper: bool


class Resolver:
    """Matches one game's names in text; build once per game and reuse (the index is read-only)."""

    def __init__(self, index: Index):
        self.index = index
        self._keys_cache: dict[str, tuple[str, ...]] = {}
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

    def tokens(self, text: str) -> list[_Token]:
        protected = [(m.start(), m.end()) for m in PROTECTED.finditer(text)]
        if self._game_name:
            protected = sorted(protected + [(m.start(), m.end()) for m in self._game_name.finditer(text)])
        out, p, count = [], 0, len(protected)
        folded: dict[str, tuple[str, bool]] = {}
        for match in forms.WORD.finditer(text):
            start = match.start()
            while p < count and protected[p][1] <= start:
                p += 1
            if p < count and protected[p][0] <= start:
                continue
            word = match.group()
            known = folded.get(word)
            if known is None:
                known = folded[word] = (forms.fold(word), word[:1].isupper())
            out.append(_Token(start, match.end(), *known))
        return out

    # --- matching -----------------------------------------------------------------------
    def _matches_at(self, text: str, tokens: list[_Token], i: int) -> tuple[int, int, list, list[str]] | None:
        """The longest name starting at token i: (end offset, next token, accept entries, parameters)."""
        best = None
        first = tokens[i]
        root = self.index.trie.get("c", {})
        stack = [(root[k], i + 1, first.end, (), False) for k in self.keys(first.word) if k in root]
        while stack:
            node, j, end, params, had_number = stack.pop()
            entries = [
                e for e in node.get("a", ())
                if (had_number or not e[4]) and (not e[3] or first.first_upper)
            ]
            if entries and (best is None or end > best[0]):
                best = (end, j, entries, list(params))
            children = node.get("c")
            if not children or j >= len(tokens):
                continue
            token = tokens[j]
            gap = text[end:token.start]
            if len(gap) > MAX_GAP and not gap.isspace():
                continue
            if token.word.isdigit() and "#n" in children:
                sign = forms.SIGN.match(gap) if len(gap) <= 6 else None
                if sign and "\n" not in gap:
                    value = (sign.group(2) or "").replace("−", "-").replace("–", "-").replace("—", "-") + token.word
                    number_end = token.end
                    if sign.group(1):  # "Опасный (3)": the closing bracket belongs to the mention
                        number_end = token.end + 1 if text[token.end:token.end + 1] == ")" else -1
                    if number_end > 0:
                        stack.append((children["#n"], j + 1, number_end, params + (value,), True))
            if forms.JOINER.match(gap) and "\n" not in gap:
                for key in self.keys(token.word):
                    child = children.get(key)
                    if child is not None:
                        stack.append((child, j + 1, token.end, params, had_number))
                if "#w" in children and token.word.isalpha():
                    stack.append((children["#w"], j + 1, token.end, params + (text[token.start:token.end],), had_number))
        return best

    def _rank(self, entries: list, first_upper: bool) -> list:
        """Best fit first (see index.rank): "Melee Attack" vs "melee attack" goes by capitalisation."""
        return sorted(entries, key=lambda e: rank(e, first_upper))

    def mentions(self, text: str) -> list[Mention]:
        """Every mention, left to right, longest first, never overlapping."""
        tokens = self.tokens(text)
        found: list[Mention] = []
        root = self.index.trie.get("c", {})
        starts: dict[str, bool] = {}  # can this word begin a name? (most words cannot: skip them cheaply)
        i = 0
        while i < len(tokens):
            word = tokens[i].word
            can_start = starts.get(word)
            if can_start is None:
                can_start = starts[word] = any(key in root for key in self.keys(word))
            match = self._matches_at(text, tokens, i) if can_start else None
            if match is None:
                i += 1
                continue
            end, next_i, entries, params = match
            entry = self._rank(entries, tokens[i].first_upper)[0]
            start = tokens[i].start
            parameter = " ".join(params) if params else None
            found.append(Mention(start, end, text[start:end], entry[0], parameter))
            i = next_i
        return found

    # --- lookup -------------------------------------------------------------------------
    def lookup(self, query: str, limit: int = 10) -> list[dict]:
        """Candidates for a query, best first: exact (any form, with parameter), then near spellings."""
        query = query.strip()
        results: dict[str, dict] = {}
        tokens = self.tokens(query)
        if tokens:
            match = self._matches_at(query, tokens, 0)
            if match:
                end, next_i, entries, params = match
                whole = next_i == len(tokens) and not query[end:].strip(" .,!?)")
                for rank, entry in enumerate(self._rank(entries, tokens[0].first_upper)):
                    score = (1.0 if whole else 0.8) - rank * 0.01
                    results[entry[0]] = self._candidate(entry[0], score, " ".join(params) or None)
        wanted = " ".join(t.word for t in tokens if not t.word.isdigit())
        number = next((t.word for t in tokens if t.word.isdigit()), None)
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
