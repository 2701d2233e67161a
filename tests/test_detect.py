"""The game detected from the text: the API, the protocol and the command line (`--game` optional)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from corpus_eval import load_posts

CORPORA = Path(__file__).parent / "corpus"


def accuracy(codex_api, posts):
    wrong = [(p["id"], codex_api.detect(p["text"])) for p in posts if codex_api.detect(p["text"]) != p["game"]]
    return 1 - len(wrong) / len(posts), wrong


@pytest.mark.parametrize("name,floor", [("posts.yml", 0.95), ("blind.yml", 1.0), ("forum.yml", 1.0)])
def test_detection_on_the_corpora(codex_api, name, floor):
    """One post is not detected as annotated: posts.yml's kf-en-destroyed-discard asks about KeyForge in
    Mage Wars' words ("Coming from Mage Wars… Burn or Aegis… In Mage Wars a Zone attack…"), and its Mage Wars
    terms outnumber the KeyForge ones. forum.yml's md-kf-en-strike names only KeyForge terms that Mage Wars
    has too (Elusive, Destroyed, Discard pile, Enemy), a tie of the rules alone; since round 5 the learned word
    evidence decides it (also when learned without forum.yml: benchmarks/learn.py). Every other post is right."""
    posts = load_posts(CORPORA / name) if name != "forum.yml" else yaml.safe_load((CORPORA / name).read_text("utf-8"))
    score, wrong = accuracy(codex_api, posts)
    assert score >= floor, wrong


@pytest.mark.parametrize("text,game", [
    ("Elusive", None),                                      # a name two games share, nothing else: a tie
    ("Elusive creature with Aegis 2", "mage-wars"),
    ("Elusive: the first fight each turn deals no damage, Æmber", "keyforge"),
    ("", None), ("nothing to see here", None),
    ("Smite Evil +10 and Sneak Attack", "dnd-miniatures"),
    ("Эгида и Горение", "mage-wars"),
    ("Mage Wars", "mage-wars"),                             # the game's own name counts
])
def test_shared_names_ties_and_empty_texts(codex_api, text, game):
    assert codex_api.detect(text) == game


def test_auto_links_as_the_detected_game_and_says_which(codex_api):
    text = "Aegis 2 и Горение"
    assert codex_api.link("auto", text) == codex_api.link("mage-wars", text)
    assert codex_api.linked(None, text)["game"] == "mage-wars"
    assert codex_api.linked("auto", "Elusive")["game"] is None
    assert codex_api.link("auto", "Elusive") == "Elusive"
    assert {m["game"] for m in codex_api.mentions("auto", text)} == {"mage-wars"}


def test_the_protocol_detects_when_the_game_is_auto_or_absent(codex_api):
    for request in ({"op": "link", "text": "Aegis 2"}, {"op": "link", "game": "auto", "text": "Aegis 2"}):
        answer = codex_api.handle(request)
        assert answer["game"] == "mage-wars" and answer["result"] == codex_api.link("mage-wars", "Aegis 2")
    assert codex_api.handle({"op": "link", "text": "Elusive"}) == {"result": "Elusive", "game": None}
    answer = codex_api.handle({"op": "traits", "traits": ["Conjuration"]})
    assert answer["game"] == "mage-wars" and answer["result"]["traits"]
    answer = codex_api.handle({"op": "lookup", "query": "Elusive"})
    assert answer["game"] is None and {c["game"] for c in answer["result"]} == {"keyforge", "mage-wars"}
    answer = codex_api.handle({"op": "mentions", "text": "Hazardous 2"})
    assert answer["game"] == "keyforge" and answer["result"][0]["game"] == "keyforge"


def cli(root, *args, stdin=""):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "SITE_URL": "https://example.org/"}
    return subprocess.run([sys.executable, "-m", "codex", *args], input=stdin.encode(), capture_output=True,
                          cwd=root, env=env, timeout=120)


def test_cli_link_detects_the_game(root, codex_api):
    text = "У моего Creature с Aegis 2 два жетона Burn"
    for args in ((), ("--game", "auto")):
        run = cli(root, "link", *args, stdin=text)
        assert run.returncode == 0 and run.stdout.decode() == codex_api.link("mage-wars", text)
    run = cli(root, "link", "--format", "json", stdin=text)
    assert {m["game"] for m in json.loads(run.stdout)} == {"mage-wars"}


def test_cli_link_without_a_game_links_nothing_and_says_so(root):
    run = cli(root, "link", stdin="plain words only")
    assert run.returncode == 0 and run.stdout.decode() == "plain words only"
    assert run.stderr.decode().count("\n") == 1 and "no game recognised" in run.stderr.decode()


def test_cli_traits_every_trait_cancelled_prints_the_pairs(root):
    for args in (("--game", "mage-wars"), ()):
        run = cli(root, "traits", *args, "Fast", "Slow")
        out = run.stdout.decode()
        assert run.returncode == 0, run.stderr.decode()
        assert "every trait is cancelled" in out and "cancelled: Fast (by Slow)" in out and "Traceback" not in out


def test_cli_traits_without_a_game_is_one_line_and_exit_2(root):
    run = cli(root, "traits", "blorp")
    assert run.returncode == 2 and run.stdout == b""
    assert run.stderr.decode().strip().count("\n") == 0 and "choose one with --game" in run.stderr.decode()


def test_cli_lookup_without_a_game_searches_every_game(root):
    run = cli(root, "lookup", "Elusive")
    out = run.stdout.decode()
    assert run.returncode == 0 and "keyforge" in out and "mage-wars" in out
