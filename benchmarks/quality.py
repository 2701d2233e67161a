"""The linker's quality on every corpus: precision, recall (game given) and detection, for one checkout.

    python benchmarks/quality.py [ROOT] [--misses]

ROOT (default: this checkout) is a project directory whose hooks/ and glossary/ are measured: pointing it at
another checkout measures that one's linker (a before/after table) with the corpora of this one.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CORPORA = HERE / "tests" / "corpus"


# The later real sets (issue 20), each held out when written, scored fresh, then tuned on by a later round; the last is
# the fresh set, never tuned on nor learned from.
LABELS = {
    "real2": "real2 (round 2's held-out)",  # tuned on in round 3
    "real3": "real3 (round 3's held-out)",  # tuned on in round 4
    "real4": "real4 (round 4's held-out)",  # learned from in round 5
    "real5": "real5 (round 5's held-out)",  # tuned on in round 6
    "real6": "real6 (round 6's first)",  # held out when written in round 6, then tuned on in it
    "real7": "real7 (round 6's second)",  # likewise
    "real8": "real8 (round 6's held-out)",  # tuned on in round 7
    "real9": "real9 (round 7's held-out)",  # tuned on in round 8
    "real10": "real10 (round 8's held-out)",  # tuned on in round 9
    "real11": "real11 (round 9's held-out)",  # weighed with every other set in round 10
    "real12": "real12 (round 10's held-out)",  # read after it was scored (round 10)
    "real13": "real13 (round 10's second)",  # scored fresh once, then read (round 10's Teleport rule)
    "real14": "real14 (round 10's held-out)",  # weighed with every other set in round 11
    "real15": "real15 (round 11's held-out 1)",  # weighed with every other set in round 12
    "real16": "real16 (round 11's held-out 2)",  # likewise
    "real17": "real17 (round 12's first)",  # written at round 12's start, scored fresh once, then read in it
    "real18": "real18 (round 12's second)",  # likewise
    "real19": "real19 (round 12's third)",  # written after round 12 had read real17 and real18, scored, read in round 13
    "real20": "real20 (round 12's fourth)",  # likewise
    "real21": "real21 (round 13's first)",  # written in the kinds players write most, scored fresh, read in round 14
    "real22": "real22 (round 13's second)",  # likewise
    "real23": "real23 (round 14's first)",  # written at round 14 in the same kinds, scored fresh, read in round 15
    "real24": "real24 (round 14's second)",  # likewise
    "real25": "real25 (round 15's first)",  # written at round 15 in the same kinds, scored fresh, read in round 16
    "real26": "real26 (round 15's second)",  # likewise
    "real27": "real27 (round 15's third)",  # likewise
    "real28": "real28 (round 15's fourth)",  # likewise
    "real29": "real29 (round 16's first)",  # written at round 16 in the same kinds, scored fresh, read in round 17
    "real30": "real30 (round 16's second)",  # likewise
    "real31": "real31 (round 16's third)",  # likewise
    "real32": "real32 (round 16's fourth)",  # likewise
    "real33": "real33 (round 17's first)",  # written at round 17 in the same kinds, scored fresh, read in round 18
    "real34": "real34 (round 17's second)",  # likewise
    "real35": "real35 (round 17's third)",  # likewise
    "real36": "real36 (round 17's fourth)",  # likewise
    "real37": "real37 (round 18's first)",  # written at round 18 in the same kinds, scored fresh, read in round 19
    "real38": "real38 (round 18's second)",  # likewise
    "real39": "real39 (round 18's third)",  # likewise
    "real40": "real40 (round 18's fourth)",  # likewise
    "real41": "real41 (round 19's first)",  # written at round 19's start, scored fresh twice, then read in it
    "real42": "real42 (round 19's second)",  # likewise
    "real43": "real43 (round 19's third)",  # likewise
    "real44": "real44 (round 19's fourth)",  # likewise
    "real45": "fresh held-out (1 of 4)",  # written in round 19 after its first rules, scored, never read nor tuned on
    "real46": "fresh held-out (2 of 4)",  # likewise
    "real47": "fresh held-out (3 of 4)",  # likewise
    "real48": "fresh held-out (4 of 4)",  # likewise
}


def corpora() -> dict[str, list[dict]]:
    """Each annotated corpus, the real one split into its held-out and tuning halves, and the later real sets."""
    import yaml

    out: dict[str, list[dict]] = {}
    for name in ("posts", "blind", "forum", "real", *LABELS):
        path = CORPORA / f"{name}.yml"
        if not path.is_file():
            continue
        posts = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if name == "real":
            out["real held-out"] = [p for p in posts if p.get("split") == "heldout"]
            out["real tune"] = [p for p in posts if p.get("split") != "heldout"]
        else:
            out[LABELS.get(name, name)] = posts
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", nargs="?", default=str(HERE))
    parser.add_argument("--misses", action="store_true", help="print every miss and false alarm")
    parser.add_argument("--only", help="one corpus name")
    args = parser.parse_args()
    root = Path(args.root).resolve()
    sys.path[:0] = [str(root / "hooks"), str(HERE / "tests")]
    from codex.api import Codex
    from codex.check import load
    from corpus_eval import evaluate

    codex = Codex.from_glossary(load(root / "glossary", root), "https://example.org/")
    print(f"{'corpus':<14} {'posts':>5} {'links':>5} {'precision':>9} {'recall':>7} {'detection':>10}")
    for name, posts in corpora().items():
        if args.only and name != args.only:
            continue
        detected = [p for p in posts if codex.detect(p["text"]) == p["game"]]
        wrong = [f"{p['id']}: {codex.detect(p['text'])}" for p in posts if codex.detect(p["text"]) != p["game"]]
        if name == "forum":  # marked-up posts without gold spans: detection only
            print(f"{name:<14} {len(posts):>5} {'-':>5} {'-':>9} {'-':>7} {len(detected):>4}/{len(posts):<5}")
        else:
            score = evaluate(codex.mentions, posts)
            print(f"{name:<14} {len(posts):>5} {score.expected:>5} {score.precision:>9.3f} {score.recall:>7.3f} "
                  f"{len(detected):>4}/{len(posts):<5}")
            if args.misses:
                for line in ["  misses:", *score.misses, "  false alarms:", *score.false_alarms]:
                    print("   ", line)
        if args.misses and wrong:
            print("    detected wrong:", *wrong, sep="\n      ")
    agreement(codex, args.only)


def agreement(codex, only: str | None) -> None:
    """Each set a second annotator marked too (tests/corpus/second/), blind and independently: that annotator
    scored against the first, and the linker against each — how far the measure itself is from certain."""
    import yaml
    from corpus_eval import annotated_as, evaluate

    seconds = sorted((CORPORA / "second").glob("*.yml"), key=lambda p: int("0" + "".join(filter(str.isdigit, p.stem))))
    if only or not seconds:
        return
    print(f"\n{'second annotation':<18} {'links':>5} {'2nd vs 1st: P':>13} {'R':>6} {'linker vs 1st':>14} "
          f"{'linker vs 2nd':>14}")
    for path in seconds:
        first = yaml.safe_load((CORPORA / path.name).read_text(encoding="utf-8"))
        second = yaml.safe_load(path.read_text(encoding="utf-8"))
        between = evaluate(annotated_as(second), first)
        one, two = evaluate(codex.mentions, first), evaluate(codex.mentions, second)
        print(f"{path.stem:<18} {between.expected:>5} {between.precision:>13.3f} {between.recall:>6.3f} "
              f"{one.precision:>7.3f} / {one.recall:.3f} {two.precision:>7.3f} / {two.recall:.3f}")


if __name__ == "__main__":
    main()
