"""`python -m codex check`: one test per way a contributor can break the glossary, asserting file, line, term, message."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codex.check import collect

FIXTURE = Path(__file__).parent / "fixtures" / "glossary"

# (case, file, old text, new text, expected "file:line:col: term: message" prefix or full line)
CASES = [
    ("invalid-yaml", "alpha.yml", "  - id: aegis\n", "  - id: aegis\n   broken: [\n",
     "glossary/alpha.yml:20:4: -: invalid YAML: did not find expected '-' indicator"),
    ("tab", "alpha.yml", "    category: trait\n    params:", "\tcategory: trait\n    params:",
     "glossary/alpha.yml:21:1: -: tab character; indent with spaces"),
    ("duplicate-key", "alpha.yml", "    category: trait\n    definition:\n      ru: Броня",
     "    category: trait\n    category: term\n    definition:\n      ru: Броня",
     "glossary/alpha.yml:14:5: -: duplicate key 'category' (first at line 13)"),
    ("duplicate-id", "alpha.yml", "  - id: aegis", "  - id: armor",
     "glossary/alpha.yml:19:9: armor: duplicate id 'armor' (first at line 11)"),
    ("alias-collision", "alpha.yml", "aliases: {en: [Aegis]}", "aliases: {en: [Aegis, Armor]}",
     "glossary/alpha.yml:24:27: aegis: alias 'Armor' (en) is also a name of 'armor'"),
    ("short-link-collision", "alpha.yml", "aliases: {en: [Aegis]}", "aliases: {en: [Aegis, Armor!]}",
     "glossary/alpha.yml:19:5: aegis: short link /t/alpha/armor/ is claimed by both 'armor' and 'aegis'"),
    ("missing-language", "alpha.yml", "      en: Armor is subtracted from damage.\n", "",
     "glossary/alpha.yml:15:7: armor: definition: missing language 'en'"),
    ("empty-definition", "alpha.yml", "      en: Armor is subtracted from damage.", "      en: ''",
     "glossary/alpha.yml:16:11: armor: definition.en is empty"),
    ("unknown-category", "alpha.yml", "    category: trait\n    definition:\n      ru: Броня",
     "    category: trate\n    definition:\n      ru: Броня",
     "glossary/alpha.yml:13:15: armor: unknown category 'trate' (known: trait, term)"),
    ("missing-relation", "alpha.yml", "implies: [armor]", "implies: [armour]",
     "glossary/alpha.yml:28:14: aegis: implies: no term 'armour' in alpha"),
    ("non-slug-id", "alpha.yml", "  - id: aegis", "  - id: Aegis X",
     "glossary/alpha.yml:19:9: Aegis X: id 'Aegis X' is not a slug (lower-case ASCII letters, digits and '-')"),
    ("wrong-game-file", "beta.yml", "    source: {docs: [manual]}", "    source: {docs: [book]}",
     "glossary/beta.yml:15:13: fight: source 'book' belongs to alpha: is the term in the wrong game's file?"),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the fixture glossary laid out like the project (root/glossary/*.yml)."""
    shutil.copytree(FIXTURE, tmp_path / "glossary")
    (tmp_path / "mkdocs.yml").write_text("site_url: https://example.org/\n")
    return tmp_path


def break_file(project: Path, name: str, old: str, new: str) -> None:
    path = project / "glossary" / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture no longer contains {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_fixture_is_valid(project: Path):
    glossary, problems = collect(project / "glossary", project)
    assert problems == []
    assert sorted(glossary.games) == ["alpha", "beta"]


@pytest.mark.parametrize("case,name,old,new,expected", CASES, ids=[c[0] for c in CASES])
def test_each_broken_edit_is_reported_with_file_line_and_term(project, case, name, old, new, expected):
    break_file(project, name, old, new)
    _, problems = collect(project / "glossary", project)
    lines = [str(p) for p in problems]
    assert lines[0] == expected, lines


def test_not_utf8(project: Path):
    path = project / "glossary" / "alpha.yml"
    path.write_bytes(path.read_bytes().replace("Броня вычитается".encode(), "Броня".encode("cp1251") + b" x", 1))
    _, problems = collect(project / "glossary", project)
    assert [str(p) for p in problems] == [
        "glossary/alpha.yml:15:11: -: not UTF-8 (byte 0xc1); save the file as UTF-8"
    ]


def test_every_problem_is_reported_not_just_the_first(project: Path):
    break_file(project, "alpha.yml", "implies: [armor]", "implies: [nope]")
    break_file(project, "alpha.yml", "    category: trait\n    definition:\n      ru: Броня",
               "    category: nope\n    definition:\n      ru: Броня")
    _, problems = collect(project / "glossary", project)
    assert len(problems) == 2


def test_cli_check_exit_codes(project: Path):
    run = lambda: subprocess.run([sys.executable, "-m", "codex", "check"], cwd=project, capture_output=True, text=True)
    ok = run()
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == ""
    break_file(project, "alpha.yml", "implies: [armor]", "implies: [armour]")
    broken = run()
    assert broken.returncode == 1
    assert broken.stdout.splitlines() == ["glossary/alpha.yml:28:14: aegis: implies: no term 'armour' in alpha"]
    assert "Traceback" not in broken.stderr


def test_check_writes_nothing(project: Path):
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    subprocess.run([sys.executable, "-m", "codex", "check"], cwd=project, capture_output=True)
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before


def test_the_real_glossary_is_clean(root: Path):
    glossary, problems = collect(root / "glossary", root)
    assert [str(p) for p in problems] == []
    assert {g: len(game.terms) for g, game in glossary.games.items()} == {
        "dnd-miniatures": 124, "keyforge": 17, "mage-wars": 162,
    }
