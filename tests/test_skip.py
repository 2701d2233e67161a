"""Unticking a wrong link: `skip` ([start, end] of mentions the reader unticked) in the core, the protocol and the CLI.

The post is real-looking player text where the linker is wrong once: "Rage" inside the card name "Rage Unleashed"
is linked as the term Rage; the Rage marker later in the post is the right mention.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from codex.linkify import FORMATS, link
from codex.protocol import MAX_SKIP
from linecount import lines_executed

POST = "I opened with Rage Unleashed on my bear. Then it got a Rage marker and hit hard with Burn."
CARD, MARKER, BURN = (14, 18), (55, 59), (85, 89)  # "Rage" in the card name, "Rage" the marker, "Burn"
URL = "https://example.org/mage-wars/"


def expected(fmt: str, spans: list[tuple[int, int]]) -> str:
    """POST with a link around each of `spans` (in order), written with the one link writer."""
    out, pos = [], 0
    for start, end in spans:
        term = POST[start:end].lower()
        out += [POST[pos:start], link(f"{URL}{term}/", POST[start:end], fmt)]  # type: ignore[arg-type]
        pos = end
    return "".join(out) + POST[pos:]


def test_the_post_is_what_the_tests_below_assume(codex_api):
    found = [(m["start"], m["end"], m["term"]) for m in codex_api.mentions("mage-wars", POST)]
    assert found == [(*CARD, "rage"), (*MARKER, "rage"), (*BURN, "burn")]
    assert codex_api.link("mage-wars", POST) == expected("markdown", [CARD, BURN])


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_skipped_first_mention_passes_the_link_to_the_next_one(codex_api, fmt):
    linked = codex_api.linked("mage-wars", POST, fmt, skip=frozenset({CARD}))
    assert linked["text"] == expected(fmt, [MARKER, BURN])
    assert codex_api.link("auto", POST, fmt, skip=frozenset({CARD})) == linked["text"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_with_every_a_skipped_mention_is_the_only_one_unlinked(codex_api, fmt):
    assert codex_api.link("mage-wars", POST, fmt, every=True) == expected(fmt, [CARD, MARKER, BURN])
    assert codex_api.link("mage-wars", POST, fmt, every=True, skip=frozenset({MARKER})) == expected(fmt, [CARD, BURN])


@pytest.mark.parametrize("fmt", FORMATS)
def test_skipping_every_mention_of_a_term_leaves_it_unlinked(codex_api, fmt):
    assert codex_api.link("mage-wars", POST, fmt, skip=frozenset({CARD, MARKER})) == expected(fmt, [BURN])


def test_a_span_that_is_no_mention_changes_nothing(codex_api):
    """A span that names no mention (the text moved under it) skips nothing: no error, the same links."""
    for span in ((0, 1), (14, 17), (13, 18), (0, len(POST))):
        assert codex_api.link("mage-wars", POST, skip=frozenset({span})) == codex_api.link("mage-wars", POST)


def test_the_preview_lists_each_mention_and_whether_it_is_linked(codex_api):
    answer = codex_api.handle({"op": "link", "game": "auto", "text": POST, "preview": True, "skip": [list(CARD)]})
    result = answer["result"]
    assert answer["game"] == "mage-wars" and result["text"] == expected("markdown", [MARKER, BURN])
    assert result["html"] == expected("html", [MARKER, BURN])
    rage = codex_api.resolver("mage-wars").index.terms["rage"].name
    assert result["mentions"][0] == {"start": 14, "end": 18, "text": "Rage", "term": "rage", "name": rage["en"],
                                     "name_ru": rage["ru"], "linked": False}
    assert [(m["start"], m["linked"]) for m in result["mentions"]] == [(14, False), (55, True), (85, True)]
    plain = codex_api.handle({"op": "link", "game": "mage-wars", "text": POST, "preview": True})["result"]
    assert [m["linked"] for m in plain["mentions"]] == [True, False, True]  # a later repeat: not linked
    every = codex_api.handle({"op": "link", "game": "mage-wars", "text": POST, "preview": True, "every": True,
                              "skip": [list(MARKER), [0, 2]]})["result"]
    assert [m["linked"] for m in every["mentions"]] == [True, False, True]


def test_the_preview_counts_offsets_in_characters_as_python_does(codex_api):
    """Offsets are code points: an emoji before a mention (two UTF-16 units in JavaScript) counts one."""
    text = "🔥 " + POST
    answer = codex_api.handle({"op": "link", "game": "mage-wars", "text": text, "preview": True,
                               "skip": [[CARD[0] + 2, CARD[1] + 2]]})
    first = answer["result"]["mentions"][0]
    assert text[first["start"]:first["end"]] == "Rage" and first["linked"] is False


@pytest.mark.parametrize("skip, message", [
    ("14:18", "skip must be a list of [start, end] pairs"),
    ({"14": 18}, "skip must be a list of [start, end] pairs"),
    ([14, 18], "skip[0] must be a pair of integers [start, end]"),
    ([[14]], "skip[0] must be a pair of integers [start, end]"),
    ([[14, 18, 20]], "skip[0] must be a pair of integers [start, end]"),
    ([[14, 18], ["55", "59"]], "skip[1] must be a pair of integers [start, end]"),
    ([[14.0, 18]], "skip[0] must be a pair of integers [start, end]"),
    ([[False, True]], "skip[0] must be a pair of integers [start, end]"),
    ([[18, 14]], "skip[0] must have 0 <= start < end (got [18, 14])"),
    ([[14, 14]], "skip[0] must have 0 <= start < end (got [14, 14])"),
    ([[-1, 4]], "skip[0] must have 0 <= start < end (got [-1, 4])"),
    ([[14, 18], [80, 200]], f"skip[1] ends at 200, past the text's end ({len(POST)})"),
    ([[0, 1]] * (MAX_SKIP + 1), f"skip has {MAX_SKIP + 1} spans (at most {MAX_SKIP})"),
])
def test_a_bad_skip_is_a_one_line_error(codex_api, skip, message):
    answer = codex_api.handle({"op": "link", "game": "mage-wars", "text": POST, "skip": skip})
    assert answer == {"error": message}


def test_an_absent_or_empty_skip_skips_nothing(codex_api):
    plain = codex_api.link("mage-wars", POST)
    for skip in (None, []):
        assert codex_api.handle({"op": "link", "game": "mage-wars", "text": POST, "skip": skip})["result"] == plain
    assert json.loads(codex_api.handle_json(json.dumps({"op": "link", "game": "mage-wars", "text": POST,
                                                        "skip": [[14, 18]] * MAX_SKIP})))["result"] \
        == expected("markdown", [MARKER, BURN])


def _lines(codex_api, request: dict) -> int:
    """Python lines of codex code one request executes (counted, not timed: the machine is shared)."""
    answers = []
    count = lines_executed(lambda: answers.append(codex_api.handle(request)), lambda name: "codex" in name)
    assert "error" not in answers[0], answers[0]
    return count


def test_skip_and_the_mentions_list_cost_linear_work(codex_api):
    """4x the text with 4x the skipped spans (each Rage in the card name) costs about 4x, not 16x."""
    def request(n: int) -> dict:
        text = (POST + "\n") * n
        spans = [[k * (len(POST) + 1) + CARD[0], k * (len(POST) + 1) + CARD[1]] for k in range(n)]
        return {"op": "link", "game": "mage-wars", "text": text, "preview": True, "skip": spans}

    codex_api.handle(request(2))  # warm
    small, large = _lines(codex_api, request(MAX_SKIP // 4)), _lines(codex_api, request(MAX_SKIP))
    assert large <= 6 * small, (small, large)


# --- the command line: --skip START:END, the same result as the protocol's ----------------------

def cli(root, *args: str, stdin: str = POST) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "SITE_URL": "https://example.org/"}
    return subprocess.run([sys.executable, "-m", "codex", "link", *args], input=stdin.encode(), capture_output=True,
                          cwd=root, env=env, timeout=120)


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_skip_gives_what_the_protocol_gives(root, codex_api, fmt):
    run = cli(root, "--format", fmt, "--skip", "14:18")
    assert run.returncode == 0, run.stderr.decode()
    answer = codex_api.handle({"op": "link", "text": POST, "format": fmt, "skip": [[14, 18]]})
    assert run.stdout.decode() == answer["result"] == expected(fmt, [MARKER, BURN])


def test_cli_skip_repeats_and_leaves_skipped_mentions_out_of_json(root):
    run = cli(root, "--skip", "14:18", "--skip", "55:59")
    assert run.returncode == 0 and run.stdout.decode() == expected("markdown", [BURN])
    run = cli(root, "--format", "json", "--skip", "14:18")
    assert [(m["start"], m["term"]) for m in json.loads(run.stdout)] == [(55, "rage"), (85, "burn")]


@pytest.mark.parametrize("value, message", [
    ("14-18", "error: --skip '14-18': give START:END, two character offsets (e.g. 10:17)"),
    ("18:14", "error: --skip[0] must have 0 <= start < end (got [18, 14])"),
    ("14:999", f"error: --skip[0] ends at 999, past the text's end ({len(POST)})"),
])
def test_cli_bad_skip_is_a_usage_error(root, value, message):
    run = cli(root, "--skip", value)
    assert run.returncode == 2 and run.stdout == b""
    assert run.stderr.decode().strip() == message
