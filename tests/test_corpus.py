"""Quality on the project's own annotated forum posts: precision ≥ 0.95 and recall ≥ 0.90, and no `not` span linked."""
from __future__ import annotations

from pathlib import Path

import pytest

from corpus_eval import CORPUS, evaluate, load_posts, not_spans

BLIND = Path(__file__).parent / "corpus" / "blind.yml"
REAL = Path(__file__).parent / "corpus" / "real.yml"
CORPORA = Path(__file__).parent / "corpus"
SECOND_ANNOTATIONS = sorted((CORPORA / "second").glob("*.yml"))


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
REAL_PRECISION, REAL_RECALL, REAL_DETECTION = 0.96, 0.99, 1.0  # round 6 (0.967 / 0.993 / 37 of 37)


def test_real_text_held_out(codex_api):
    assert_quality(codex_api, real("heldout"), REAL_PRECISION, REAL_RECALL, REAL_DETECTION)


# The later real sets (issue 20), each written and annotated blind after the round before it, first scored fresh, then
# tuned on by the next round — except the last, never tuned on. The history is each
# set's first figures; the floors (precision, recall with the game given; detection) are the figures reached (README,
# Performance). The aims are precision 0.95, recall 0.90, detection 95%.
LATER_SETS = [
    # round 2's held-out (0.859 / 0.820, 52/60), tuned on in round 3 (0.948 since round 8's «двигаться», which its
    # annotator left once and both of real9's mark twice)
    pytest.param("real2.yml", 0.95, 0.96, 1.0, id="real2"),
    # round 3's held-out (0.882 / 0.847, 55 before it; 0.891 / 0.887, 56 after), tuned on in round 4
    pytest.param("real3.yml", 0.97, 0.98, 0.98, id="real3"),
    # round 4's held-out (0.867 / 0.919, 55 before it; 0.870 / 0.915, 56 after); learned from in round 5
    pytest.param("real4.yml", 0.93, 0.96, 0.98, id="real4"),
    # round 5's held-out (0.907 / 0.889, 56 before it; 57 after), tuned on in round 6
    # 0.949 since round 18: "you draw at the end of your own turn", End of Turn whoever's turn it is, which its
    # annotator left unlinked (12 of the 16 such uses in the read sets were linked)
    pytest.param("real5.yml", 0.94, 0.97, 0.96, id="real5"),  # 0.938 since round 10: a charge «бежал к врагу»
    # round 6's first (0.919 / 0.911, 59 before it; 0.920 / 0.916 once its first rules stood), then tuned on
    pytest.param("real6.yml", 0.96, 0.96, 0.98, id="real6"),
    # round 6's second (0.904 / 0.846, 60 before round 6; 0.914 / 0.867 after its first rules), then tuned on
    pytest.param("real7.yml", 0.97, 0.95, 1.0, id="real7"),
    # round 6's last: 0.889 / 0.904, 59/60 before round 6 (c313cb0), 0.897 / 0.924, 59/60 after it (against the second
    # annotator 0.909 / 0.918 -> 0.917 / 0.939); tuned on in round 7
    pytest.param("real8.yml", 0.92, 0.96, 0.98, id="real8"),  # 0.969 since "counter" became ordinary (round 10)
    # round 7's fresh set: 0.924 / 0.913, 58/60 before round 7 (bdf0727), 0.927 / 0.913 after it (against the second
    # annotator 0.918 / 0.894 -> 0.921 / 0.894); tuned on in round 8
    pytest.param("real9.yml", 0.95, 0.95, 0.96, id="real9"),
    # round 8's fresh set: 0.923 / 0.909, 59/60 before round 8 (cf33862) and the same after it (against the second
    # annotator 0.926 / 0.905 both times); tuned on in round 9 (58/60: "Enjoy sleeping in" was its only D&D word)
    pytest.param("real10.yml", 0.98, 0.97, 0.96, id="real10"),
    # round 9's fresh set: 0.908 / 0.923, 57/60 before round 9 (3e73cd9) and the same after it (against the second
    # annotator 0.904 / 0.916 both times); weighed with every other set in round 10
    pytest.param("real11.yml", 0.95, 0.95, 0.96, id="real11"),
    # round 10's fresh set: 0.919 / 0.912, 59/60 before round 10 (63e0c09), 0.922 / 0.912, 59/60 after its rules
    # (against the second annotator 0.922 / 0.932 -> 0.924 / 0.932); read after it was scored (0.927 / 0.920 since)
    pytest.param("real12.yml", 0.95, 0.93, 0.98, id="real12"),
    # round 10's second fresh set, written while its last rules were chosen: 0.918 / 0.932, 60/60 at 63e0c09, 0.918 /
    # 0.935 at 4f24153 and 2456eea, 0.916 / 0.935, 60/60 when scored at b3b4faa (against the second annotator 0.903 /
    # 0.922; the two annotators agree 0.971 / 0.971); then read: 0.921 since c498373 (its Teleports)
    pytest.param("real13.yml", 0.95, 0.95, 1.0, id="real13"),
    # round 10's last fresh set, written after the stop's last rule (60a447f) and never tuned on: 0.931 / 0.886, 57/60
    # at 63e0c09, 0.932 / 0.897 at 4f24153 and 2456eea, 0.932 / 0.901, 57/60 at 60a447f (against the second annotator
    # 0.936 / 0.905; the two annotators agree 0.978 / 0.978); weighed with every older set in round 11 (0.932 / 0.905)
    pytest.param("real14.yml", 0.95, 0.93, 0.95, id="real14"),
    # the next stop's two fresh sets, written at its start (60cbf85) and never tuned on: 0.956 / 0.902 and 0.942 /
    # 0.889, 59/60 each, before round 11 and after it (against the second annotators 0.938 / 0.893 and 0.937 /
    # 0.884; the annotators agree 0.990 / 0.980 and 0.988 / 0.988); read in round 12, which took them with every older
    # set: 0.954 / 0.921 and 0.943 / 0.903
    pytest.param("real15.yml", 0.96, 0.95, 0.98, id="real15"),
    # real16 0.969 since round 18: «Мой огр толкнул вражеского паладина», D&D's push/pull by the push's half, which
    # its annotator linked as the Push keyword (10 of the 11 such Russian words in the read sets were push/pull)
    pytest.param("real16.yml", 0.96, 0.93, 0.98, id="real16"),
    # round 12's four fresh sets, written in it by twelve more writers and annotated blind twice against the glossary at
    # 57fc864 (annotators agree 0.985 / 0.998, 0.956 / 0.953, 0.969 / 0.974, 0.982 / 0.985). real17 and real18 were
    # scored at 57fc864 (0.918 / 0.942, 59/60 and 0.841 / 0.936, 60/60), then read by round 12; real19 and real20,
    # written after that, were scored once at 57fc864 (0.846 / 0.938 and 0.887 / 0.887), at b1782ae and at 4af7bba
    # (0.854 / 0.938 and 0.888 / 0.898, 60/60 each); then read by round 13 (0.868 / 0.953 and 0.908 / 0.905)
    pytest.param("real17.yml", 0.96, 0.96, 0.98, id="real17"),
    pytest.param("real18.yml", 0.93, 0.95, 1.0, id="real18"),
    pytest.param("real19.yml", 0.9, 0.97, 1.0, id="real19"),
    pytest.param("real20.yml", 0.94, 0.94, 1.0, id="real20"),
    # round 13's two fresh sets, in the kinds players write most (forums, Reddit, chats, reports, reviews, sales), never
    # read: 0.887 / 0.928, 60/60 and 0.929 / 0.939, 59/60 at 57fc864; 0.903 / 0.935 and 0.936 / 0.939 at b1782ae and at
    # the end of round 13 (against the second annotators 0.906 / 0.932 and 0.936 / 0.913; annotators agree 0.989 /
    # 0.996 and 0.972 / 1.000); then read by round 14 (0.929 / 0.939 and 0.940 / 0.957)
    pytest.param("real21.yml", 0.96, 0.96, 1.0, id="real21"),
    pytest.param("real22.yml", 0.96, 0.97, 0.98, id="real22"),
    # round 14's two fresh sets, in the same kinds, never read: 0.906 / 0.951 and 0.889 / 0.889 at 57fc864, 0.913 / 0.955
    # and 0.897 / 0.889 at b1782ae, 0.914 / 0.962 and 0.897 / 0.889 at the end of round 14, 60/60 each (against the second
    # annotators 0.925 / 0.963 and 0.897 / 0.886; the annotators agree 0.985 / 0.996 and 0.991 / 0.994); then read by
    # round 15 (0.924 / 0.962 and 0.923 / 0.917)
    pytest.param("real23.yml", 0.94, 0.96, 1.0, id="real23"),
    pytest.param("real24.yml", 0.93, 0.96, 1.0, id="real24"),
    # round 15's four fresh sets, in the same kinds, written and annotated blind twice against the glossary at ff52d1e
    # while the round's rules were chosen, never read: at ff52d1e 0.902 / 0.902, 0.930 / 0.918, 0.898 / 0.938 (60/60
    # each) and 0.909 / 0.915 (59/60); at the round's end 0.904 / 0.902, 0.943 / 0.918, 0.899 / 0.942, 0.912 / 0.915
    # (annotators agree 0.986 / 0.991, 0.968 / 0.987, 0.983 / 0.990, 1.000 / 0.967); then read by round 16 (0.938 /
    # 0.919, 0.957 / 0.941, 0.936 / 0.952, 0.943 / 0.919)
    pytest.param("real25.yml", 0.94, 0.93, 1.0, id="real25"),
    pytest.param("real26.yml", 0.96, 0.95, 1.0, id="real26"),
    pytest.param("real27.yml", 0.95, 0.96, 1.0, id="real27"),
    pytest.param("real28.yml", 0.95, 0.95, 0.98, id="real28"),
    # round 16's four fresh sets, in the same kinds, written and annotated blind twice against the glossary at f80d4b3
    # while the round's rules were chosen, never read: at f80d4b3 0.944 / 0.928, 0.916 / 0.868, 0.913 / 0.888, 0.936 /
    # 0.898; at the round's end 0.941 / 0.925, 0.928 / 0.901, 0.920 / 0.938, 0.938 / 0.938 (60/60 each, both times;
    # annotators agree 0.986 / 0.983, 0.983 / 0.983, 0.994 / 0.997, 0.966 / 0.978); then read by round 17 (0.967 /
    # 0.925, 0.951 / 0.901, 0.953 / 0.938, 0.956 / 0.938)
    pytest.param("real29.yml", 0.97, 0.94, 1.0, id="real29"),
    pytest.param("real30.yml", 0.95, 0.92, 1.0, id="real30"),
    pytest.param("real31.yml", 0.96, 0.94, 1.0, id="real31"),
    pytest.param("real32.yml", 0.95, 0.96, 1.0, id="real32"),
    # round 17's four fresh sets, in the same kinds, written and annotated blind twice against the glossary at bd198e4
    # while the round's rules were chosen, never read: at bd198e4 0.934 / 0.899 (59/60), 0.945 / 0.920 (59/60), 0.925 /
    # 0.896 (59/60), 0.943 / 0.954 (60/60); at the round's end 0.950 / 0.899, 0.957 / 0.920, 0.935 / 0.896, 0.950 /
    # 0.954 (59/60 each; annotators agree 0.994 / 0.968, 0.992 / 0.992, 0.976 / 0.990, 0.993 / 1.000); then read by
    # round 18 (0.955 / 0.927, 0.958 / 0.958, 0.940 / 0.931, 0.964 / 0.961)
    pytest.param("real33.yml", 0.95, 0.92, 0.98, id="real33"),
    pytest.param("real34.yml", 0.95, 0.95, 1.0, id="real34"),
    pytest.param("real35.yml", 0.94, 0.93, 0.98, id="real35"),
    pytest.param("real36.yml", 0.96, 0.96, 0.98, id="real36"),
    # round 18's four fresh sets, in the same kinds, written and annotated blind twice against the glossary at 399eb11
    # while the round's rules were chosen, never read: at 399eb11 0.954 / 0.966 (60/60), 0.940 / 0.962 (57/60), 0.921 /
    # 0.957 (60/60), 0.929 / 0.908 (59/60); at the round's end 0.954 / 0.975, 0.937 / 0.965, 0.921 / 0.957, 0.930 /
    # 0.921 (the same detection; annotators agree 0.992 / 0.992, 1.000 / 0.992, 0.977 / 0.996, 0.990 / 0.987); then read
    # by round 19 (0.975 / 0.975, 0.947 / 0.965, 0.932 / 0.957, 0.946 / 0.921)
    pytest.param("real37.yml", 0.97, 0.97, 1.0, id="real37"),
    pytest.param("real38.yml", 0.94, 0.96, 0.95, id="real38"),
    pytest.param("real39.yml", 0.93, 0.95, 1.0, id="real39"),
    pytest.param("real40.yml", 0.94, 0.92, 0.98, id="real40"),
    # round 19's first four fresh sets, in the same kinds, written and annotated blind twice against the glossary at
    # 2243b78: at 2243b78 0.939 / 0.958 (60/60), 0.947 / 0.950 (60/60), 0.937 / 0.951 (58/60), 0.966 / 0.969 (60/60);
    # at d3dbef2, the round's first rules, 0.942 / 0.958, 0.950 / 0.950, 0.940 / 0.951, 0.966 / 0.969 (annotators agree
    # 0.996 / 0.986, 0.980 / 0.991, 1.000 / 0.996, 0.988 / 0.997); then read by round 19 itself
    pytest.param("real41.yml", 0.94, 0.96, 1.0, id="real41"),
    pytest.param("real42.yml", 0.95, 0.97, 1.0, id="real42"),
    pytest.param("real43.yml", 0.95, 0.95, 0.96, id="real43"),
    pytest.param("real44.yml", 0.97, 0.97, 1.0, id="real44"),
    # round 19's second batch, written after its first rules in the same kinds and annotated blind twice against the
    # glossary at d3dbef2, never read: at 2243b78 0.983 / 0.951 (58/60), 0.934 / 0.916 (59/60), 0.955 / 0.926 (59/60),
    # 0.942 / 0.949 (59/60); at d3dbef2 and at the round's end 0.983 / 0.951, 0.938 / 0.916, 0.958 / 0.926, 0.942 /
    # 0.949, the same detection (annotators agree 0.992 / 0.992, 0.989 / 0.989, 0.977 / 0.986, 1.000 / 1.000)
    pytest.param("real45.yml", 0.98, 0.95, 0.96, id="real45"),
    pytest.param("real46.yml", 0.93, 0.91, 0.98, id="real46"),
    pytest.param("real47.yml", 0.95, 0.92, 0.98, id="real47"),
    pytest.param("real48.yml", 0.94, 0.94, 0.98, id="real48"),
]


@pytest.mark.parametrize("name,precision,recall,detection", LATER_SETS)
def test_real_text_later_sets(codex_api, name, precision, recall, detection):
    assert_quality(codex_api, load_posts(CORPORA / name), precision, recall, detection)


@pytest.mark.parametrize("name", [p.values[0] for p in LATER_SETS], ids=[p.id for p in LATER_SETS])
def test_the_later_sets_are_held_out_and_cover_every_game_and_language(name):
    posts = load_posts(CORPORA / name)
    assert len(posts) >= 60 and {p["split"] for p in posts} == {"heldout"}
    for game in ("mage-wars", "dnd-miniatures", "keyforge"):
        assert len([p for p in posts if p["game"] == game]) >= 20
        assert {p["lang"] for p in posts if p["game"] == game} == {"en", "ru", "mix"}


@pytest.mark.parametrize("path", SECOND_ANNOTATIONS, ids=[p.stem for p in SECOND_ANNOTATIONS])
def test_a_second_annotation_is_of_the_same_passages_and_agrees_closely(path):
    # The same passages marked again, blind and independently (round 6): the measure's own uncertainty. Two
    # annotators reading the policy agree on 98-99.6% of links; far less would mean the policy is read two ways.
    from corpus_eval import annotated_as, evaluate

    first, second = load_posts(path.parent.parent / path.name), load_posts(path)
    assert [(p["id"], p["text"]) for p in first] == [(p["id"], p["text"]) for p in second]
    between = evaluate(annotated_as(second), first)
    assert between.precision >= 0.95 and between.recall >= 0.95, between.misses + between.false_alarms
