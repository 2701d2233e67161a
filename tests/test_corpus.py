"""Quality on the project's own annotated forum posts: precision ≥ 0.95 and recall ≥ 0.90, and no `not` span linked."""
from __future__ import annotations

from pathlib import Path

import pytest

from corpus_eval import CORPUS, evaluate, load_posts, not_spans

BLIND = Path(__file__).parent / "corpus" / "blind.yml"
REAL = Path(__file__).parent / "corpus" / "real.yml"
FRESH = Path(__file__).parent / "corpus" / "real2.yml"


def test_corpus_is_large_enough_and_covers_every_game():
    posts = load_posts()
    assert len(posts) >= 20 and len(load_posts(BLIND)) >= 20
    assert {p["game"] for p in posts} == {"mage-wars", "dnd-miniatures", "keyforge"}


@pytest.mark.parametrize("corpus", [CORPUS, BLIND], ids=["posts", "blind"])
def test_precision_and_recall(codex_api, corpus):
    score = evaluate(codex_api.mentions, load_posts(corpus))
    report = "\n".join(["misses:", *score.misses, "false alarms:", *score.false_alarms])
    assert score.precision >= 0.95, report
    assert score.recall >= 0.90, report


def test_nothing_in_a_not_span_is_linked(codex_api):
    for post in load_posts():
        spans = not_spans(post)
        for m in codex_api.mentions(post["game"], post["text"]):
            assert not any(s < m["end"] and m["start"] < e for s, e in spans), (post["id"], m["text"])


def real(split: str) -> list[dict]:
    return [p for p in load_posts(REAL) if p["split"] == split]


def test_the_real_corpus_is_split_in_halves_per_game_and_language():
    posts = load_posts(REAL)
    assert len(posts) >= 60 and {p["split"] for p in posts} == {"tune", "heldout"}
    for game in ("mage-wars", "dnd-miniatures", "keyforge"):
        for split in ("tune", "heldout"):
            assert len([p for p in posts if p["game"] == game and p["split"] == split]) >= 10


# The held-out half of the real-text corpus (issue 20): no rule was chosen on it. Floors are the figures reached
# (README, Performance); the aims are precision 0.95, recall 0.90, detection 95%.
# Round 2 tuned on both halves of real.yml: these figures are no longer held out (the fresh set below is).
REAL_PRECISION, REAL_RECALL, REAL_DETECTION = 0.92, 0.94, 0.97


def test_real_text_held_out(codex_api):
    posts = real("heldout")
    score = evaluate(codex_api.mentions, posts)
    report = "\n".join(["misses:", *score.misses, "false alarms:", *score.false_alarms])
    assert score.precision >= REAL_PRECISION, report
    assert score.recall >= REAL_RECALL, report
    detected = [p["id"] for p in posts if codex_api.detect(p["text"]) == p["game"]]
    assert len(detected) / len(posts) >= REAL_DETECTION, sorted({p["id"] for p in posts} - set(detected))


def test_the_fresh_set_is_held_out_and_covers_every_game_and_language():
    posts = load_posts(FRESH)
    assert len(posts) >= 60 and {p["split"] for p in posts} == {"heldout"}
    for game in ("mage-wars", "dnd-miniatures", "keyforge"):
        assert {p["lang"] for p in posts if p["game"] == game} == {"en", "ru", "mix"}


# The fresh held-out set (issue 20, round 2): written and annotated blind after round 1, scored before and after
# round 2's rules, never tuned on. Floors are the figures reached (README, Performance): short of the aims
# (precision 0.95, recall 0.90, detection 95%).
FRESH_PRECISION, FRESH_RECALL, FRESH_DETECTION = 0.85, 0.81, 0.86


def test_real_text_fresh_held_out(codex_api):
    posts = load_posts(FRESH)
    score = evaluate(codex_api.mentions, posts)
    report = "\n".join(["misses:", *score.misses, "false alarms:", *score.false_alarms])
    assert score.precision >= FRESH_PRECISION, report
    assert score.recall >= FRESH_RECALL, report
    detected = [p["id"] for p in posts if codex_api.detect(p["text"]) == p["game"]]
    assert len(detected) / len(posts) >= FRESH_DETECTION, sorted({p["id"] for p in posts} - set(detected))
