"""Which game a text is about: the one whose terms, card names and titles explain it best."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import forms, learned_data
from .index import KEYWORD, TITLE
from .mention import SPLIT as _SPLIT
from .mention import Mention

if TYPE_CHECKING:
    from .resolve import Resolver

GAME_NAME_WEIGHT = 3.0  # "Mage Wars" (or another of its titles) written in the post says more than any one term
CARD_WEIGHT = 2.0  # a card name of the game ("Teleport Trap"), each distinct one; half for a one-word name
KEYWORD_WEIGHT = 1.0  # one of the game's own words its glossary does not define ("enrage"), each distinct one
SIZE_EXPONENT = 0.25  # a hit in a small glossary is less likely by chance: scores scale by (largest/size)**this
# Learned evidence (round 5, benchmarks/learn.py): the words of the annotated corpora's passages, each weighing for
# the games whose passages use it more often than the others (a naive Bayes log-ratio, learned_data.py). It is
# added to the scores when some game has a term, card or title; it makes a winner without evidence of its own only
# when it alone puts that game this far ahead.
OWN_MARGIN = learned_data.OWN_MARGIN
_STEMS_CACHED = 100_000

Evidence = dict[str, tuple[float, ...]]  # a word's stem -> its weight for each game of learned_data.GAMES


def evidence_table(packed: str = learned_data.WORDS) -> Evidence:
    """learned_data.WORDS unpacked: "stem:a,b,c" entries, weights in hundredths."""
    table: Evidence = {}
    for entry in packed.split():
        stem, _, weights = entry.partition(":")
        table[stem] = tuple(int(w) / 100 for w in weights.split(","))
    return table


def _stem(word: str) -> str:
    folded = forms.fold(word)
    if forms.is_cyrillic(folded):
        return forms.russian_stem(folded)
    return folded[:-1] if len(folded) > 3 and folded.endswith("s") else folded


def evidence_stem(word: str) -> str:
    """The stem a text word counts under as learned evidence, "" for one too short or a number (benchmarks/learn.py
    learns the table by this very function, so the two read words alike)."""
    return _stem(word) if len(word) > 2 and not word.isdigit() else ""


class Detector:
    """Which game a text is about: the one whose terms, card names and titles explain it best (see `detect`)."""

    def __init__(self, resolvers: dict[str, Resolver], learned: Evidence | None = None):
        self.learned = evidence_table() if learned is None else learned
        self._stems: dict[str, str] = {}
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
        return decide(scores, own, self.evidence(text) if scores and self.learned else {})

    def evidence(self, text: str) -> dict[str, float]:
        """The learned evidence for each game: the weights of the text's distinct word stems (one pass)."""
        stems = self._stems
        seen = set()
        for word in set(_SPLIT.findall(text)):
            stem = stems.get(word)
            if stem is None:
                stem = evidence_stem(word)
                if len(stems) < _STEMS_CACHED:
                    stems[word] = stem
            seen.add(stem)
        table = self.learned
        rows = [table[stem] for stem in seen if stem in table]
        # fsum: the exact sum, whatever order the set hands the stems in (a float sum's last bit follows the order,
        # and with it a near tie, so detection varied with PYTHONHASHSEED)
        totals = [math.fsum(column) for column in zip(*rows, strict=True)] if rows else [0.0] * len(learned_data.GAMES)
        # Only this codex's games: a game the corpora know but this glossary lacks can never be detected.
        return {game: total for game, total in zip(learned_data.GAMES, totals, strict=True) if game in self.sizes}


def decide(scores: dict[str, float], own: dict[str, bool], learned: dict[str, float]) -> str | None:
    """The winner of the scores plus the learned evidence, or None: no scores, a tie, or a winner with no evidence
    of its own (only names other games share, "Elusive") that the learned evidence alone does not put OWN_MARGIN
    ahead."""
    if not scores:
        return None
    totals = {game: scores.get(game, 0.0) + learned.get(game, 0.0) for game in set(scores) | set(learned)}
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    if len(ranked) > 1 and ranked[1][1] >= ranked[0][1]:
        return None
    best = ranked[0][0]
    runner_up = max((v for g, v in learned.items() if g != best), default=0.0)  # a one-game codex has none
    if not own.get(best) and (not learned or learned.get(best, 0.0) - runner_up < OWN_MARGIN):
        return None
    return best

