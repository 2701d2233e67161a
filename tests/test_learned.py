"""Detection's learned word evidence (issue 20, round 5): regenerated from the corpora it is the same file, and it
decides the passages the learned evidence is for without changing what the rules alone decide."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from linecount import lines_executed

ROOT = Path(__file__).resolve().parent.parent


def learn_module():
    spec = importlib.util.spec_from_file_location("benchmarks_learn", ROOT / "benchmarks" / "learn.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_regenerating_the_learned_data_from_the_corpora_gives_the_committed_file():
    committed = (ROOT / "hooks" / "codex" / "learned_data.py").read_text(encoding="utf-8")
    assert learn_module().learn() == committed, "run `make learn` (python -m benchmarks.learn) and commit the result"


def test_the_learned_data_is_small_and_well_formed():
    from codex import detect, learned_data

    table = detect.evidence_table()
    assert 200 < len(table) < 3000 and len(learned_data.WORDS) < 40_000
    assert all(len(weights) == len(learned_data.GAMES) for weights in table.values())
    assert table["aember"][learned_data.GAMES.index("keyforge")] > 0 > table["aember"][learned_data.GAMES.index("mage-wars")]


@pytest.fixture(scope="module")
def without_learning(glossary):
    """A linker whose detector has no learned evidence: the rules alone."""
    from codex.api import Codex
    from codex.detect import Detector

    codex = Codex.from_glossary(glossary, "https://example.org/")
    codex._detector = Detector(codex.resolvers, learned={})
    return codex


# A review with no term of its own: the rules alone find Mage Wars's names in it, the words around them (minis,
# maps, prepainted, initiative) are D&D Miniatures'.
REVIEW = ("The review: the minis are prepainted, the maps are nice, and the initiative roll decides a lot. "
          "Elusive creatures are rare.")


def test_learned_evidence_decides_a_review_the_rules_alone_get_wrong(codex_api, without_learning):
    assert without_learning.detect(REVIEW) == "mage-wars"
    assert codex_api.detect(REVIEW) == "dnd-miniatures"
    assert codex_api.linked("auto", REVIEW)["game"] == "dnd-miniatures"


@pytest.mark.parametrize("text,game", [
    ("Elusive", None),  # one name two games share: still a tie, the word alone is not evidence enough
    ("nothing to see here", None),  # no term, card or title: no game, whatever the words
    ("I bought a new car and it is fast.", None),
    ("Painted my warband last night: a cleric, two archers and an ogre.", "dnd-miniatures"),
    ("Собрал банду: клерик, два лучника и огр, командир даёт бонус.", "dnd-miniatures"),
    ("My spellbook is mostly conjurations; the Warlock plays well against the Beastmaster.", "mage-wars"),
])
def test_what_the_rules_decide_stays_decided(codex_api, without_learning, text, game):
    assert codex_api.detect(text) == without_learning.detect(text) == game


def test_the_evidence_reads_each_distinct_word_once(codex_api):
    codex_api.detect("x")  # the detector is built on the first detection
    evidence = codex_api._detector.evidence
    once = evidence("Aember and keys")
    assert evidence("Aember and keys. " * 50) == pytest.approx(once)


def test_the_evidence_is_linear_in_the_text(codex_api):
    """Lines of detect.py executed reading n and 4n distinct words: about 4x (the cost is counted, not timed)."""
    codex_api.detect("x")
    evidence = codex_api._detector.evidence

    def cost(words: int) -> int:
        text = " ".join(f"word{i:06d}x aember" for i in range(words))
        return lines_executed(lambda: evidence(text), lambda name: name.endswith("detect.py"))

    small, large = cost(500), cost(2000)
    assert small > 500 and large <= 6 * small, (small, large)


def test_a_game_this_glossary_lacks_is_never_detected(codex_api):
    """The learned evidence knows three games; a linker of fewer must not answer a game it lacks."""
    import copy

    text = "Elusive. The aember, the keys, the houses: forge, reap, fight, chains, a deck from the vault, archons."
    mage_wars_only = copy.copy(codex_api)
    mage_wars_only.resolvers = {"mage-wars": codex_api.resolvers["mage-wars"]}
    mage_wars_only._detector = None
    assert mage_wars_only.detect(text) in (None, "mage-wars")
    assert set(mage_wars_only._detector.evidence(text)) == {"mage-wars"}
    codex_api.detect("x")  # the detector is built on the first detection
    evidence = codex_api._detector.evidence(text)
    assert evidence["keyforge"] - evidence["mage-wars"] > 1  # the words do speak for KeyForge


SUMMING = """
import sys
sys.path.insert(0, sys.argv[1])
from codex.detect import Detector
detector = Detector.__new__(Detector)  # the evidence alone: no glossary needed
detector._stems, detector.sizes = {}, {"dnd-miniatures": 1, "keyforge": 1, "mage-wars": 1}
weights = {"alpha": 0.1, "bravo": 0.2, "charlie": 0.3, "delta": 0.7, "echo": 0.11, "foxtrot": 0.13}
detector.learned = {word: (weight, -weight, 0.0) for word, weight in weights.items()}
print(repr(detector.evidence("alpha bravo charlie delta echo foxtrot")))
"""


def test_the_learned_evidence_does_not_depend_on_the_hash_seed():
    # A text's stems come as a set, in an order PYTHONHASHSEED chooses; a float sum's last bit follows the order,
    # and a near tie followed it (real11 was 57 or 58 of 60 by the seed): the sum is exact, the same every time.
    import os
    import subprocess

    outputs = {subprocess.run([sys.executable, "-c", SUMMING, str(ROOT / "hooks")], capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
               for seed in range(12)}
    assert len(outputs) == 1, outputs
