"""Quality on the project's own annotated forum posts: precision ≥ 0.95 and recall ≥ 0.90, and no `not` span linked."""
from __future__ import annotations

from pathlib import Path

import pytest

from corpus_eval import CORPUS, evaluate, load_posts, not_spans

BLIND = Path(__file__).parent / "corpus" / "blind.yml"
REAL = Path(__file__).parent / "corpus" / "real.yml"
SECOND = Path(__file__).parent / "corpus" / "real2.yml"
THIRD = Path(__file__).parent / "corpus" / "real3.yml"
FOURTH = Path(__file__).parent / "corpus" / "real4.yml"
FIFTH = Path(__file__).parent / "corpus" / "real5.yml"
SIXTH = Path(__file__).parent / "corpus" / "real6.yml"
SEVENTH = Path(__file__).parent / "corpus" / "real7.yml"
FRESH = Path(__file__).parent / "corpus" / "real8.yml"
SECOND_ANNOTATIONS = sorted((Path(__file__).parent / "corpus" / "second").glob("*.yml"))


def test_corpus_is_large_enough_and_covers_every_game():
    posts = load_posts()
    assert len(posts) >= 20 and len(load_posts(BLIND)) >= 20
    assert {p["game"] for p in posts} == {"mage-wars", "dnd-miniatures", "keyforge"}


def assert_quality(codex_api, posts: list[dict], precision: float, recall: float, detection: float | None = None):
    """Precision and recall with the game given (misses and false alarms listed), and the share of posts whose
    game is detected, at or above the floors."""
    score = evaluate(codex_api.mentions, posts)
    report = "\n".join(["misses:", *score.misses, "false alarms:", *score.false_alarms])
    assert score.precision >= precision, report
    assert score.recall >= recall, report
    if detection is not None:
        detected = [p["id"] for p in posts if codex_api.detect(p["text"]) == p["game"]]
        assert len(detected) / len(posts) >= detection, sorted({p["id"] for p in posts} - set(detected))


@pytest.mark.parametrize("corpus", [CORPUS, BLIND], ids=["posts", "blind"])
def test_precision_and_recall(codex_api, corpus):
    assert_quality(codex_api, load_posts(corpus), 0.95, 0.90)


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


# The held-out half of the real-text corpus (issue 20): no rule of round 1 was chosen on it. Floors are the figures
# reached (README, Performance); the aims are precision 0.95, recall 0.90, detection 95%.
# Round 2 tuned on both halves of real.yml: these figures are no longer held out (the fresh set below is).
REAL_PRECISION, REAL_RECALL, REAL_DETECTION = 0.96, 0.98, 1.0  # round 4 (0.960 / 0.986 / 37 of 37)


def test_real_text_held_out(codex_api):
    assert_quality(codex_api, real("heldout"), REAL_PRECISION, REAL_RECALL, REAL_DETECTION)


@pytest.mark.parametrize("path", [SECOND, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH, FRESH],
                         ids=["real2", "real3", "real4", "real5", "real6", "real7", "real8"])
def test_the_later_sets_are_held_out_and_cover_every_game_and_language(path):
    posts = load_posts(path)
    assert len(posts) >= 60 and {p["split"] for p in posts} == {"heldout"}
    for game in ("mage-wars", "dnd-miniatures", "keyforge"):
        assert len([p for p in posts if p["game"] == game]) >= 20
        assert {p["lang"] for p in posts if p["game"] == game} == {"en", "ru", "mix"}


# The second set (issue 20, round 2): written and annotated blind after round 1 and held out in round 2; round 3
# tuned on it. Floors are the figures reached.
SECOND_PRECISION, SECOND_RECALL, SECOND_DETECTION = 0.94, 0.93, 1.0  # round 4 (0.948 / 0.938 / 60 of 60)


def test_real_text_second_set(codex_api):
    assert_quality(codex_api, load_posts(SECOND), SECOND_PRECISION, SECOND_RECALL, SECOND_DETECTION)


# The third set (issue 20, round 3): written and annotated blind after round 2, held out in round 3 (0.882 / 0.847 /
# 55 before it, 0.891 / 0.887 / 56 after); round 4 tuned on it (0.954 / 0.926 / 59 of 60).
THIRD_PRECISION, THIRD_RECALL, THIRD_DETECTION = 0.95, 0.92, 0.98


def test_real_text_third_set(codex_api):
    assert_quality(codex_api, load_posts(THIRD), THIRD_PRECISION, THIRD_RECALL, THIRD_DETECTION)


# The fourth set (issue 20, round 4): written and annotated blind after round 3, scored before and after round 4's
# rules (0.867 / 0.919 / 55 of 60 before, 0.870 / 0.915 / 56 after); round 5 learned detection's word evidence from
# it and every other corpus (58 of 60 also when learned without real4: benchmarks/learn.py).
FOURTH_PRECISION, FOURTH_RECALL, FOURTH_DETECTION = 0.87, 0.91, 0.96


def test_real_text_fourth_set(codex_api):
    assert_quality(codex_api, load_posts(FOURTH), FOURTH_PRECISION, FOURTH_RECALL, FOURTH_DETECTION)


# The fifth set (issue 20, round 5): written and annotated blind after round 4, held out in round 5 (0.907 / 0.889 /
# 56 of 60 before it, 0.907 / 0.889 / 57 after); round 6 tuned on it (0.918 / 0.937 / 58 of 60).
FIFTH_PRECISION, FIFTH_RECALL, FIFTH_DETECTION = 0.91, 0.93, 0.96


def test_real_text_fifth_set(codex_api):
    assert_quality(codex_api, load_posts(FIFTH), FIFTH_PRECISION, FIFTH_RECALL, FIFTH_DETECTION)


# The sixth set (issue 20, round 6): written and annotated blind after round 5, scored once on round 6's first
# rules (0.919 / 0.911 / 59 of 60 before them, 0.919 / 0.907 after, 0.920 / 0.916 once the defect it showed in the
# "replaces attacks" rule was mended), then tuned on in round 6 (0.933 / 0.933 / 58 of 60).
SIXTH_PRECISION, SIXTH_RECALL, SIXTH_DETECTION = 0.93, 0.93, 0.96


def test_real_text_sixth_set(codex_api):
    assert_quality(codex_api, load_posts(SIXTH), SIXTH_PRECISION, SIXTH_RECALL, SIXTH_DETECTION)


# The seventh set (issue 20, round 6): written and annotated blind (twice) after round 6's first rules, scored once
# (0.904 / 0.846 / 60 of 60 before round 6, 0.914 / 0.867 after its first rules), then tuned on (0.955 / 0.919).
SEVENTH_PRECISION, SEVENTH_RECALL, SEVENTH_DETECTION = 0.95, 0.91, 1.0


def test_real_text_seventh_set(codex_api):
    assert_quality(codex_api, load_posts(SEVENTH), SEVENTH_PRECISION, SEVENTH_RECALL, SEVENTH_DETECTION)


# The fresh held-out set (issue 20, round 6's last): written and annotated blind (twice) after round 6's last rule
# was chosen, never tuned on nor learned from: 0.889 / 0.904 / 59 of 60 on the linker before round 6 (c313cb0),
# 0.897 / 0.924 / 59 of 60 after it (against the second annotator: 0.909 / 0.918 → 0.917 / 0.939). Floors are the
# figures reached (README, Performance); the aims are precision 0.95, recall 0.90, detection 95%.
FRESH_PRECISION, FRESH_RECALL, FRESH_DETECTION = 0.89, 0.92, 0.98


def test_real_text_fresh_held_out(codex_api):
    assert_quality(codex_api, load_posts(FRESH), FRESH_PRECISION, FRESH_RECALL, FRESH_DETECTION)


@pytest.mark.parametrize("path", SECOND_ANNOTATIONS, ids=[p.stem for p in SECOND_ANNOTATIONS])
def test_a_second_annotation_is_of_the_same_passages_and_agrees_closely(path):
    # The same passages marked again, blind and independently (round 6): the measure's own uncertainty. Two
    # annotators reading the policy agree on 98-99.6% of links; far less would mean the policy is read two ways.
    from corpus_eval import annotated_as, evaluate

    first, second = load_posts(path.parent.parent / path.name), load_posts(path)
    assert [(p["id"], p["text"]) for p in first] == [(p["id"], p["text"]) for p in second]
    between = evaluate(annotated_as(second), first)
    assert between.precision >= 0.95 and between.recall >= 0.95, between.misses + between.false_alarms
