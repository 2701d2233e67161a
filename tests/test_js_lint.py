"""The site's scripts type-check (TypeScript over their JSDoc: tsconfig.json for the pages, tsconfig.workers.json
for the workers) and pass ESLint (eslint.config.mjs): both run with the suite, from the pinned npm packages."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "node_modules" / ".bin"
SCRIPTS = sorted([*(ROOT / "docs" / "assets" / "javascripts").glob("*.js"), ROOT / "docs" / "sw.js"])


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    tool = BIN / command[0]
    assert tool.exists(), f"{tool} is missing: run `make setup` (npm ci)"
    return subprocess.run([str(tool), *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("project", ["tsconfig.json", "tsconfig.workers.json"])
def test_typescript_finds_no_error(project):
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


def test_the_page_settings_catch_a_null_and_an_untyped_parameter(tmp_path):
    """The checks can fail: with the page project's settings, a possibly-null element and an untyped parameter
    are errors (strict null checks and noImplicitAny are on), and so is an undeclared global."""
    import json
    import re

    settings = json.loads(re.sub(r"^\s*//.*$", "", (ROOT / "tsconfig.json").read_text(encoding="utf-8"), flags=re.M))
    bad = tmp_path / "bad.js"
    bad.write_text('// @ts-check\nfunction f(x) { return x; }\ndocument.getElementById("a").hidden = true;\n'
                   "window.codexNothing = f(1);\n", encoding="utf-8")
    (tmp_path / "tsconfig.json").write_text(json.dumps({**settings, "files": [str(bad)]}), encoding="utf-8")
    result = subprocess.run([str(BIN / "tsc"), "-p", str(tmp_path), "--pretty", "false"], capture_output=True,
                            text=True, timeout=600)
    codes = set(re.findall(r"error (TS\d+)", result.stdout))
    assert result.returncode != 0
    assert {"TS7006", "TS2531", "TS2339"} <= codes, result.stdout
