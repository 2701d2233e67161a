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
    ("lookalike-name", "alpha.yml", "name: {en: Armor, ru: Броня}", "name: {en: Armоr, ru: Броня}",
     "glossary/alpha.yml:12:19: armor: name.en 'Armоr' has the Cyrillic letter 'о' (U+043E): use the Latin 'o'"),
    ("lookalike-russian-word", "alpha.yml", "ru: Броня вычитается", "ru: Бpоня вычитается",
     "glossary/alpha.yml:15:12: armor: definition.ru 'Бpоня' has the Latin letter 'p' (U+0070) inside a Russian word: "
     "use the Cyrillic 'р'"),
    ("related-missing", "alpha.yml", "    see_also: [armor]\n", "    see_also: [armor]\n    related: [armour]\n",
     "glossary/alpha.yml:30:14: aegis: related: no term 'armour' in alpha"),
    ("related-self", "alpha.yml", "    see_also: [armor]\n", "    see_also: [armor]\n    related: [aegis]\n",
     "glossary/alpha.yml:30:14: aegis: related names the term itself"),
    ("related-and-see-also", "alpha.yml", "    see_also: [armor]\n", "    see_also: [armor]\n    related: [armor]\n",
     "glossary/alpha.yml:30:14: aegis: related: 'armor' is already in see_also"),
    ("scope-missing-language", "alpha.yml", "categories:\n", "  scope: {en: The whole rulebook.}\ncategories:\n",
     "glossary/alpha.yml:7:10: -: game scope: missing language 'ru'"),
    ("unknown-game-field", "alpha.yml", "categories:\n", "  scop: {en: The whole rulebook., ru: Все правила.}\ncategories:\n",
     "glossary/alpha.yml:7:3: -: game: unknown field 'scop' (known: id, name, scope, sources)"),
]
LOOKALIKES = Path(__file__).parent / "fixtures" / "lookalikes"


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
    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "codex", "check"], cwd=project, capture_output=True, text=True)

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


# --- look-alike letters and editorial links ------------------------------------------------------------
def test_lookalike_letters_are_reported_at_the_letter(tmp_path: Path):
    """Every look-alike letter of the fixture, at its own line and column (inside a block scalar too); a folded
    block (`>-`) is reported at the value's start; a word listed in source_typos is not reported."""
    shutil.copytree(LOOKALIKES, tmp_path / "glossary")
    _, problems = collect(tmp_path / "glossary", tmp_path)
    assert [str(p) for p in problems] == [
        "glossary/gamma.yml:9:17: -: category trait.en 'trаit' has the Cyrillic letter 'а' (U+0430): use the Latin 'a'",
        "glossary/gamma.yml:13:22: regenerate: name.en 'Regenerate Х' has the Cyrillic letter 'Х' (U+0425): "
        "use the Latin 'X'",
        "glossary/gamma.yml:17:31: regenerate: aliases.en 'Regen С' has the Cyrillic letter 'С' (U+0421): "
        "use the Latin 'C'",
        "glossary/gamma.yml:22:43: regenerate: definition.ru 'Creаture' has the Cyrillic letter 'а' (U+0430) inside a "
        "Latin word: use the Latin 'a'",
        "glossary/gamma.yml:22:61: regenerate: definition.ru 'повреждениz' has the Latin letter 'z' (U+007A) inside a "
        "Russian word: retype the word in Cyrillic",
        "glossary/gamma.yml:25:58: regenerate: definition.en 'Аegis' has the Cyrillic letter 'А' (U+0410): "
        "use the Latin 'A'",
        "glossary/gamma.yml:33:11: poison: definition.en 'Сommon' has the Cyrillic letter 'С' (U+0421): "
        "use the Latin 'C'",
    ]


def test_each_reported_position_holds_the_letter(tmp_path: Path):
    shutil.copytree(LOOKALIKES, tmp_path / "glossary")
    _, problems = collect(tmp_path / "glossary", tmp_path)
    lines = (tmp_path / "glossary" / "gamma.yml").read_text(encoding="utf-8").split("\n")
    for problem in problems:
        letter = str(problem).split(" has the ")[1].split("'")[1]
        at = lines[problem.line - 1][problem.col - 1:]
        assert at.startswith(letter) or at.startswith(">-"), str(problem)  # the folded block: its start


def test_source_typos_must_name_a_mixed_word_of_the_russian(tmp_path: Path):
    shutil.copytree(LOOKALIKES, tmp_path / "glossary")
    break_file(tmp_path, "gamma.yml", "source_typos: [повреждениz]", "source_typos: [повреждения]")
    _, problems = collect(tmp_path / "glossary", tmp_path)
    lines = [str(p) for p in problems if p.term == "poison"]
    assert lines == [
        "glossary/gamma.yml:32:44: poison: definition.ru 'повреждениz' has the Latin letter 'z' (U+007A) inside a "
        "Russian word: retype the word in Cyrillic",
        "glossary/gamma.yml:33:11: poison: definition.en 'Сommon' has the Cyrillic letter 'С' (U+0421): "
        "use the Latin 'C'",
        "glossary/gamma.yml:36:19: poison: source_typos: 'повреждения' is not a word of the Russian text that mixes "
        "scripts",
    ]


def test_related_is_kept_apart_from_see_also(project: Path):
    break_file(project, "alpha.yml", "    see_also: [armor]\n", "    related: [armor]\n")
    glossary, problems = collect(project / "glossary", project)
    assert problems == []
    aegis = glossary.game("alpha").term("aegis")
    assert aegis.related == ["armor"] and aegis.see_also == []
