"""The glossary's types, and loading its YAML with the line of every value kept for messages."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .langs import LANGS as LANGS  # re-exported: the glossary's languages, and the interface's
from .langs import Lang as Lang


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the glossary, located precisely enough for a contributor to fix it."""

    file: str
    line: int
    col: int
    term: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.term}: {self.message}"


class GlossaryError(Exception):
    """Raised when the glossary cannot be used; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class Param:
    """A placeholder in a parameterised name: `X` in `Aegis X`, `CREATURE` in `Smite CREATURE +[#]`."""

    en: str
    kind: str  # "number" or "word"
    ru: str | None = None
    # A word placeholder's English words, where the game has a closed list ("Resist Fire 10", "Vulnerable Cold"): a
    # listed word completes the name with or without its number; any other word only after a number
    values: tuple[str, ...] = ()


@dataclass
class Term:
    id: str
    game: str
    name: dict[str, str]
    category: str
    definition: dict[str, str]
    aliases: dict[str, list[str]] = field(default_factory=dict)
    # Words made from the name and used in its game sense (a noun name's verb: «телепортировать» for «Телепорт»), or
    # the name's phrase as players vary it ("end of my turn" for "End of Turn"): linked in every form, never shown as a
    # name (issue 20's policy: a derived word in the term's sense is a mention).
    derived: dict[str, list[str]] = field(default_factory=dict)
    params: list[Param] = field(default_factory=list)
    implies: list[str] = field(default_factory=list)
    cancels: list[str] = field(default_factory=list)
    see_also: list[str] = field(default_factory=list)  # the references the text itself makes ("см. …", "See …")
    related: list[str] = field(default_factory=list)  # editorial links the text does not state
    former_ids: list[str] = field(default_factory=list)
    source_docs: list[str] = field(default_factory=list)
    source_page: int | None = None
    supplied: tuple[str, ...] = ()  # languages whose name the project supplied (the seed gave none)
    line: int = 0
    raw: Any = field(default=None, repr=False, compare=False)  # the loaded YAML, for positions in messages

    def names(self, lang: Lang) -> list[str]:
        """The name first, then the aliases, in one language."""
        return [self.name[lang], *self.aliases.get(lang, [])]

    @property
    def title(self) -> str:
        return f"{self.name['en']} · {self.name['ru']}"


@dataclass
class SourceDoc:
    id: str
    file: str
    title: dict[str, str]
    page: int | None = None


@dataclass
class Game:
    id: str
    name: dict[str, str]
    path: str
    sources: dict[str, SourceDoc]
    categories: dict[str, dict[str, str]]
    terms: dict[str, Term]
    # Phrases that contain a term's name but name something else ("Upkeep Phase" is not Upkeep +X): per language.
    not_mentions: dict[str, list[str]] = field(default_factory=dict)
    # The game's titles in both languages ("Mage Wars Arena", «Войны магов»): never a mention, evidence of the game.
    titles: dict[str, list[str]] = field(default_factory=dict)
    # Card names from public card lists ("Teleport Trap"): one mention of a card, never of the terms inside it.
    cards: dict[str, list[str]] = field(default_factory=dict)
    # The game's own words its glossary does not define ("enrage", «спасбросок»): never linked, evidence of the game.
    keywords: dict[str, list[str]] = field(default_factory=dict)
    # What of its sources the glossary covers, when not all of a rulebook ("the skirmish rules' glossary, line 12 to
    # your warband"): said on the game's page and its PDF, so an A–Z that starts at L reads as the source's, not a gap.
    scope: dict[str, str] = field(default_factory=dict)

    def term(self, term_id: str) -> Term:
        return self.terms[term_id]


@dataclass
class Glossary:
    games: dict[str, Game]

    def game(self, game_id: str) -> Game:
        return self.games[game_id]

    @property
    def terms(self) -> list[Term]:
        return [t for g in self.games.values() for t in g.terms.values()]


# --- YAML with positions -------------------------------------------------------------------


class Located(dict[str, Any]):
    """A YAML mapping that remembers where it and each of its keys stood."""

    line: int = 0
    col: int = 0
    key_pos: dict[str, tuple[int, int]]


class LocatedList(list[Any]):
    line: int = 0
    col: int = 0


class LocatedStr(str):
    line: int = 0
    col: int = 0


def position(value: Any, default: tuple[int, int] = (1, 1)) -> tuple[int, int]:
    """The 1-based line and column where a loaded value starts."""
    if getattr(value, "line", 0):
        return value.line, value.col
    return default


def char_position(lines: list[str], value: Any, index: int) -> tuple[int, int]:
    """The 1-based line and column of the character `value[index]` of a loaded string in the source `lines`.

    Exact for one-line plain and quoted scalars (up to the first escape sequence) and for literal block scalars
    (`|`, `|-`, `|+` without an explicit indentation digit), which is how the glossary writes its text. Anything
    else (folded `>` blocks, plain or quoted scalars spanning lines, a character after an escape) gives the
    value's start instead. Every result is checked against the source, so a column is never a guess.
    """
    start = position(value)
    line, col = start
    if not isinstance(value, str) or not 0 <= index < len(value) or not 0 < line <= len(lines):
        return start
    source = lines[line - 1]
    head = source[col - 1:col]
    if head == "|":
        header = source[col - 1:].split("#")[0].strip()
        if any(char.isdigit() for char in header):
            return start
        before = value.rfind("\n", 0, index) + 1
        row = line + 1 + value.count("\n", 0, index)
        indent = next((len(text) - len(text.lstrip(" ")) for text in lines[line:] if text.strip()), 0)
        if row <= len(lines) and lines[row - 1][indent:indent + index - before + 1] == value[before:index + 1]:
            return row, indent + index - before + 1
        return start
    begin = col - 1 + (1 if head in ("'", '"') else 0)
    if head != ">" and source[begin:begin + index + 1] == value[:index + 1]:
        return line, begin + index + 1
    return start


def load_yaml(text: str, path: str) -> tuple[Any, list[Problem]]:
    """Parse YAML, keeping positions; duplicate keys are problems, not silent overwrites."""
    import yaml  # imported here: the browser runtime never loads YAML

    problems: list[Problem] = []

    # libyaml's C parser when PyYAML has it (10x faster on big glossaries); positions and our constructors are the same.
    base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[valid-type,misc]  # a subclass per call: its constructors are this call's
        pass

    T = TypeVar("T", Located, LocatedList, LocatedStr)

    def at(node: yaml.Node, value: T) -> T:
        value.line, value.col = node.start_mark.line + 1, node.start_mark.column + 1
        return value

    def mapping(loader: Loader, node: yaml.MappingNode) -> Located:
        result = at(node, Located())
        result.key_pos = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            pos = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if key in result:
                first = result.key_pos[key][0]
                problems.append(Problem(path, *pos, "-", f"duplicate key '{key}' (first at line {first})"))
                continue
            result[key] = loader.construct_object(value_node, deep=True)
            result.key_pos[key] = pos
        return result

    def sequence(loader: Loader, node: yaml.SequenceNode) -> LocatedList:
        return at(node, LocatedList(loader.construct_object(n, deep=True) for n in node.value))

    def string(loader: Loader, node: yaml.ScalarNode) -> LocatedStr:
        return at(node, LocatedStr(loader.construct_scalar(node)))

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, sequence)
    Loader.add_constructor("tag:yaml.org,2002:str", string)
    try:
        data = yaml.load(text, Loader=Loader)  # noqa: S506 - a (C)SafeLoader subclass
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = error.problem or str(error)
        return None, [Problem(path, line, col, "-", f"invalid YAML: {what}")]
    except yaml.YAMLError as error:
        return None, [Problem(path, 1, 1, "-", f"invalid YAML: {error}")]
    return data, problems


def read_text(path: Path, shown: str) -> tuple[str | None, list[Problem]]:
    """Read a glossary file as UTF-8; a bad byte or a tab is a located problem."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        col = error.start - (before.rfind(b"\n") + 1) + 1
        return None, [Problem(shown, line, col, "-", f"not UTF-8 (byte 0x{raw[error.start]:02x}); save the file as UTF-8")]
    problems = []
    for number, line_text in enumerate(text.split("\n"), start=1):
        if "\t" in line_text:
            problems.append(Problem(shown, number, line_text.index("\t") + 1, "-", "tab character; indent with spaces"))
    return text, problems
