"""What one checkout's linker proposes on corpora, as JSON on stdout (run by learn.py in its own process, so an
older checkout's codex package never meets this one's).

    python benchmarks/proposals.py ROOT CORPUS...
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent.parent


def main() -> None:
    root, names = Path(sys.argv[1]).resolve(), sys.argv[2:]
    sys.path.insert(0, str(root / "hooks"))
    from codex.api import Codex
    from codex.check import load

    codex = Codex.from_glossary(load(root / "glossary", root), "https://example.org/")
    if hasattr(codex, "learned"):
        codex.learned = None  # the matcher's own proposals
    out: dict = {"terms": {}, "corpora": {}}
    for gid, resolver in codex.resolvers.items():
        out["terms"][gid] = {t.id: [t.name, t.names] for t in resolver.index.terms.values()}
    for name in names:
        posts = yaml.safe_load((HERE / "tests" / "corpus" / f"{name}.yml").read_text(encoding="utf-8"))
        out["corpora"][name] = [[[m["start"], m["end"], m["text"], m["term"], m.get("parameter")]
                                 for m in codex.mentions(p["game"], p["text"])] for p in posts]
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
