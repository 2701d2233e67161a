"""The site's scripts type-check (TypeScript over their JSDoc: tsconfig.json for the pages, tsconfig.workers.json
for the workers) and pass ESLint (eslint.config.mjs): both run with the suite, from the pinned npm packages.
The browser protocol's types (types/protocol.d.ts) are generated from codex/protocol.py before tsc runs."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codex import typedefs

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "node_modules" / ".bin"
SCRIPTS = sorted([*(ROOT / "docs" / "assets" / "javascripts").glob("*.js"), ROOT / "docs" / "sw.js"])


@pytest.fixture(scope="module", autouse=True)
def protocol_types():
    """types/protocol.d.ts as protocol.py stands now (gitignored; `make types` writes the same file)."""
    typedefs.write(ROOT / typedefs.OUT)


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    tool = BIN / command[0]
    assert tool.exists(), f"{tool} is missing: run `make setup` (npm ci)"
    return subprocess.run([str(tool), *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("project", ["tsconfig.json", "tsconfig.workers.json"])
def test_typescript_finds_no_error(project):
    """Both projects, with the protocol's types generated from protocol.py."""
    result = _run("tsc", "-p", project, "--noEmit", "--pretty", "false")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_every_script_is_type_checked():
    """Each script opts in with `// @ts-check` on its first line and is in one of the two projects."""
    listed = (ROOT / "tsconfig.json").read_text(encoding="utf-8") + (ROOT / "tsconfig.workers.json").read_text(
        encoding="utf-8")
    assert len(SCRIPTS) >= 10
    for script in SCRIPTS:
        assert script.read_text(encoding="utf-8").startswith("// @ts-check\n"), script
        assert f'"{script.relative_to(ROOT).as_posix()}"' in listed, script


def test_eslint_is_clean():
    result = _run("eslint", "--max-warnings", "0", "docs/")
    assert result.returncode == 0, result.stdout + result.stderr


# A script with an untyped parameter, a value that may be missing and an undeclared global, for each project: the
# page's (a possibly-null element) and the workers' (a Map's possibly-undefined value).
BAD = {
    "tsconfig.json": ('// @ts-check\nfunction f(x) { return x; }\ndocument.getElementById("a").hidden = true;\n'
                      "window.codexNothing = f(1);\n", {"TS7006", "TS2531", "TS2339"}),
    "tsconfig.workers.json": ("// @ts-check\nfunction f(x) { return x; }\n"
                              "const m = /** @type {Map<number, {a: number}>} */ (new Map());\n"
                              "m.get(1).a = 1;\nself.codexNothing = f(1);\n", {"TS7006", "TS2532", "TS2339"}),
}


@pytest.mark.parametrize("project", sorted(BAD))
def test_the_settings_catch_a_missing_value_and_an_untyped_parameter(tmp_path, project):
    """The checks can fail: with each project's settings, a value that may be null or undefined and an untyped
    parameter are errors (strict null checks and noImplicitAny are on, in the workers too), and so is an undeclared
    global."""
    import json

    settings = json.loads(re.sub(r"^\s*//.*$", "", (ROOT / project).read_text(encoding="utf-8"), flags=re.M))
    source, expected = BAD[project]
    bad = tmp_path / "bad.js"
    bad.write_text(source, encoding="utf-8")
    (tmp_path / "tsconfig.json").write_text(json.dumps({**settings, "files": [str(bad)]}), encoding="utf-8")
    result = subprocess.run([str(BIN / "tsc"), "-p", str(tmp_path), "--pretty", "false"], capture_output=True,
                            text=True, timeout=600)
    codes = set(re.findall(r"error (TS\d+)", result.stdout))
    assert result.returncode != 0
    assert expected <= codes, result.stdout


# An answer field the widget reads (Linked.html: the preview), one the worker reads (GamesAnswer.result) and
# one a request sends (LookupRequest.query): renamed in Python, each fails the JavaScript check by name.
RENAMED = [  # (protocol.py's line, the line renamed, the field, its new name, the scripts that read it)
    ("html: str  # with preview", "preview_html: str  # with preview", "html", "preview_html", ("linker.js",)),
    ("class GamesAnswer(TypedDict):\n    result:", "class GamesAnswer(TypedDict):\n    games:", "result", "games",
     ("linker-worker.js", "linker-client.js")),
    ("    query: str\n", "    search: str\n", "query", "search", ("linker.js",)),
]


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    """The scripts, their projects and the codex package in a temporary project (node_modules linked), which
    type-checks as it is."""
    copy = tmp_path_factory.mktemp("typed") / "project"
    shutil.copytree(ROOT / "docs", copy / "docs", ignore=shutil.ignore_patterns("*.md", "*.png", "*.svg", "*.ico"))
    shutil.copytree(ROOT / "types", copy / "types")
    shutil.copytree(ROOT / "hooks" / "codex", copy / "hooks" / "codex", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("tsconfig.json", "tsconfig.workers.json"):
        shutil.copy(ROOT / name, copy / name)
    (copy / "node_modules").symlink_to(ROOT / "node_modules")
    (copy / typedefs.OUT).unlink()
    assert _regenerate_and_check(copy) == ""
    return copy


def _regenerate_and_check(copy: Path) -> str:
    """`python -m codex.typedefs` from the copy's codex (not the installed one), then tsc over both projects."""
    out = copy / typedefs.OUT
    generated = subprocess.run([sys.executable, "-m", "codex.typedefs", str(out)], cwd=copy, capture_output=True,
                               text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(copy / "hooks")})
    assert generated.returncode == 0, generated.stderr
    found = ""
    for project in ("tsconfig.json", "tsconfig.workers.json"):
        result = subprocess.run([str(BIN / "tsc"), "-p", str(copy / project), "--pretty", "false"], cwd=copy,
                                capture_output=True, text=True, timeout=600)
        assert result.returncode in (0, 2), result.stdout + result.stderr  # 2: errors found
        found += result.stdout
    return found


@pytest.mark.parametrize(("old", "new", "field", "renamed", "scripts"), RENAMED, ids=[r[2] for r in RENAMED])
def test_a_field_renamed_in_python_fails_the_javascript_check(copied, old, new, field, renamed, scripts):
    """The contract holds across the languages: with one field of protocol.py renamed, regenerating the types
    makes tsc fail in the script that uses the field, naming it (and only there)."""
    protocol = copied / "hooks" / "codex" / "protocol.py"
    source = protocol.read_text(encoding="utf-8")
    assert source.count(old) == 1, old
    try:
        protocol.write_text(source.replace(old, new), encoding="utf-8")
        errors = _regenerate_and_check(copied)
        assert re.search(rf"^  {renamed}\??: ", (copied / typedefs.OUT).read_text(encoding="utf-8"), re.M)
    finally:
        protocol.write_text(source, encoding="utf-8")
    lines = [line for line in errors.splitlines() if " error TS" in line]
    assert lines, "tsc found nothing after the rename"
    assert all(line.split("(")[0].rsplit("/", 1)[-1] in scripts for line in lines), errors
    assert any(f"/{scripts[0]}(" in line and f"'{field}'" in line for line in lines), errors
