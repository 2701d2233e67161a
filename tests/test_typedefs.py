"""codex.typedefs: protocol.py's TypedDicts as TypeScript declarations (what tsc checks the linker's JavaScript
against; tests/test_js_lint.py renames a field and watches tsc fail)."""
from __future__ import annotations

import importlib.util
import sys
import textwrap

import pytest

from codex import protocol, typedefs

SAMPLE = '''
"""A protocol in miniature."""
from __future__ import annotations

from typing import Literal, NotRequired, Required, TypedDict

Colour = Literal["red", "green"]  # the colours


class Base(TypedDict):
    kept: int


class ThingRequest(Base, total=False):
    op: Required[Literal["thing"]]
    colour: Colour  # which one
    names: dict[str, list[str]]
    either: int | str | None


class Part(TypedDict):
    weight: float
    later: NotRequired[bool]


class ThingAnswer(TypedDict):
    result: list[Part | str]
    nested: list[list[Part]]


Answer = ThingAnswer
Request = ThingRequest | Base
'''


@pytest.fixture
def module(tmp_path, monkeypatch):
    """A module made from source (registered while the test runs: get_type_hints reads its namespace there)."""
    def make(source: str, name: str):
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        spec = importlib.util.spec_from_file_location(name, path)
        made = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, made)
        spec.loader.exec_module(made)
        return made
    return make


def test_every_shape_the_protocol_uses(module):
    text = typedefs.typescript(module(SAMPLE, "sample_protocol"))
    assert 'export type Colour = "red" | "green";' in text
    assert "/** the colours */\nexport type Colour" in text
    # Required in a total=False class, the class's own keys optional, an inherited key required as its base says
    assert ("export interface ThingRequest {\n  kept: number;\n  op: \"thing\";\n  /** which one */\n  colour?: Colour;\n"
            "  names?: Record<string, string[]>;\n  either?: number | string | null;\n}") in text
    assert "export interface Part {\n  weight: number;\n  later?: boolean;\n}" in text
    assert "  result: (Part | string)[];\n  nested: Part[][];" in text
    assert "export type Request = ThingRequest | Base;" in text
    assert "export type Answer = ThingAnswer;" in text and text.count("export interface ThingAnswer") == 1
    assert "export interface Requests {\n  thing: ThingRequest;\n}" in text
    assert "export interface Answers {\n  thing: ThingAnswer;\n}" in text


def test_a_type_without_a_json_shape_is_named_with_its_field(module):
    odd = module("from __future__ import annotations\nfrom typing import TypedDict\n\n"
                               "class Odd(TypedDict):\n    pair: tuple[int, int]\n", "odd_protocol")
    with pytest.raises(typedefs.TypedefError, match=r"^Odd\.pair: tuple\[int, int\] has no JSON shape"):
        typedefs.typescript(odd)


def test_a_request_without_its_answer_is_refused(module):
    lost = module("from __future__ import annotations\nfrom typing import Literal, TypedDict\n\n"
                               "class LostRequest(TypedDict):\n    op: Literal['lost']\n", "lost_protocol")
    with pytest.raises(typedefs.TypedefError, match=r"LostRequest: a request needs .* an answer type LostAnswer"):
        typedefs.typescript(lost)


def test_the_protocol_itself(tmp_path):
    """Each op of protocol.OPS has its request and answer; optional fields follow total=False and Required."""
    text = typedefs.typescript(protocol)
    for op in protocol.OPS:
        assert f"\n  {op}: {op.capitalize()}Request;" in text and f"\n  {op}: {op.capitalize()}Answer;" in text
    assert 'export interface LinkRequest {\n  op: "link";\n  game?: string | null;' in text
    assert "export interface Linked {\n  /** the text with its mentions linked */\n  text: string;" in text
    assert "  html?: string;\n" in text and "  mentions?: LinkedMention[];\n}" in text
    assert "  skip?: number[][];\n}" in text and "export interface LinkedMention {" in text
    out = tmp_path / "types" / "protocol.d.ts"
    assert typedefs.main([str(out)]) == 0
    assert out.read_text(encoding="utf-8") == text
    assert typedefs.write(out) is False  # unchanged: not rewritten
