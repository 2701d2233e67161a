"""Quality on the project's own annotated forum posts: precision ≥ 0.95 and recall ≥ 0.90, and no `not` span linked."""
from __future__ import annotations

from pathlib import Path

import pytest

from corpus_eval import CORPUS, evaluate, load_posts, not_spans

BLIND = Path(__file__).parent / "corpus" / "blind.yml"


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
