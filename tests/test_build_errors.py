"""A broken glossary stops `mkdocs build` with the checker's messages, and the previous site stays intact."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from project import copy_project, mkdocs_build
from test_check import CASES, FIXTURE, break_file

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of the project with the small fixture glossary, built once successfully."""
    base = copy_project(tmp_path_factory.mktemp("project"), FIXTURE, home="# Home\n\n<!-- codex:games -->\n")
    result = build(base)
    assert result.returncode == 0, result.stderr
    return base


def build(project: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict`, PDFs included, whatever its outcome."""
    return mkdocs_build(project, "http://127.0.0.1:9/", pdf=True, timeout=300)


def snapshot(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}


@pytest.fixture
def broken(project):
    """The project's glossary, restored after each test."""
    saved = {p.name: p.read_bytes() for p in (project / "glossary").iterdir()}
    yield project
    for name, data in saved.items():
        (project / "glossary" / name).write_bytes(data)


@pytest.mark.parametrize("case,name,old,new,expected", CASES, ids=[c[0] for c in CASES])
def test_build_stops_with_the_message_and_keeps_the_old_site(broken, case, name, old, new, expected):
    before = snapshot(broken / "site")
    assert "alpha/armor/index.html" in before
    break_file(broken, name, old, new)
    result = build(broken)
    assert result.returncode != 0
    assert expected in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(broken / "site") == before  # validated before MkDocs cleaned site/


def test_not_utf8_stops_the_build(broken):
    path = broken / "glossary" / "alpha.yml"
    path.write_bytes(path.read_bytes().replace("Броня вычитается".encode(), b"\xc1\xf0 x", 1))
    before = snapshot(broken / "site")
    result = build(broken)
    assert result.returncode != 0
    assert "glossary/alpha.yml:15:11: -: not UTF-8 (byte 0xc1); save the file as UTF-8" in result.stderr
    assert snapshot(broken / "site") == before


def test_term_pages_match_terms_per_game(project):
    for game, count in (("alpha", 2), ("beta", 1)):
        pages = [p for p in (project / "site" / game).iterdir() if p.is_dir()]
        assert len(pages) == count
