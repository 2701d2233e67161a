"""Precision and recall of the resolver on the annotated corpus (shared by the tests and the benchmark)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

CORPUS = Path(__file__).parent / "corpus" / "posts.yml"


@dataclass
class Score:
    true_positives: int = 0
    predicted: int = 0
    expected: int = 0
    misses: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.expected if self.expected else 1.0


def load_posts(path: Path = CORPUS) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def gold_spans(post: dict) -> set[tuple[int, int, str]]:
    """The annotated links as (start, end, term), each found after the previous one, outside every `not` span
    ("mage" is not the one inside "r/magewars") and never inside a word ("mage" is not the one in "damage")."""
    spans, position = set(), 0
    text, forbidden = post["text"], not_spans(post)

    def misplaced(start: int, end: int) -> bool:  # inside a `not` span, or inside a word ("mage" in "damage")
        inside_word = (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum())
        return inside_word or any(s < end and start < e for s, e in forbidden)

    for link in post["links"] or []:
        start = text.index(link["text"], position)
        while misplaced(start, start + len(link["text"])):
            start = text.index(link["text"], start + 1)
        spans.add((start, start + len(link["text"]), link["term"]))
        position = start + len(link["text"])
    return spans


def not_spans(post: dict) -> list[tuple[int, int]]:
    text, out = post["text"], []
    for phrase in post.get("not") or []:
        start = text.find(phrase)
        while start != -1:
            out.append((start, start + len(phrase)))
            start = text.find(phrase, start + 1)
    return out


def evaluate(mentions_for, posts: list[dict]) -> Score:
    """`mentions_for(game, text)` returns dicts with start, end, term (the codex.api contract)."""
    score = Score()
    for post in posts:
        gold = gold_spans(post)
        predicted = {(m["start"], m["end"], m["term"]) for m in mentions_for(post["game"], post["text"])}
        forbidden = not_spans(post)
        score.expected += len(gold)
        score.predicted += len(predicted)
        score.true_positives += len(gold & predicted)
        for start, end, term in sorted(gold - predicted):
            score.misses.append(f"{post['id']}: {post['text'][start:end]!r} -> {term}")
        for start, end, term in sorted(predicted - gold):
            inside_not = any(s < end and start < e for s, e in forbidden)
            score.false_alarms.append(f"{post['id']}: {post['text'][start:end]!r} -> {term}{' (in not)' if inside_not else ''}")
    return score


def annotated_as(posts: list[dict]):
    """Another annotation of the same passages as a `mentions_for`: its links, so that `evaluate(annotated_as(second),
    first)` scores one annotator against the other (the agreement a linker can be measured against)."""
    by_text = {(post["game"], post["text"]): post for post in posts}

    def mentions_for(game: str, text: str) -> list[dict]:
        return [{"start": s, "end": e, "term": t} for s, e, t in gold_spans(by_text[game, text])]
    return mentions_for
