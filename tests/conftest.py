"""Shared fixtures: the project root, the real glossary and its resolvers, loaded once per session."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def glossary():
    from codex.check import load

    return load(ROOT / "glossary", ROOT)


@pytest.fixture(scope="session")
def codex_api(glossary):
    from codex.api import Codex

    return Codex.from_glossary(glossary, "https://example.org/")
