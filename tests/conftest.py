"""Shared fixtures: the project root, the real glossary and its resolvers, loaded once per session."""
from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"


def in_ci() -> bool:
    """CI (the CI variable set) has every test requirement: there a missing one fails instead of skipping."""
    return bool(os.environ.get("CI"))


def need(module: str) -> Any:
    """pytest.importorskip, except in CI, where a test requirement that will not import is a failure."""
    return importlib.import_module(module) if in_ci() else pytest.importorskip(module)


def skip_unless_ci(reason: str) -> None:
    """Skip for want of something `make test` installs; in CI, fail (a skip there would pass by omission)."""
    if in_ci():
        pytest.fail(f"{reason} (in CI everything `make test` installs must be there)")
    pytest.skip(reason)


GLOSSARY_FIXTURE = ROOT / "tests" / "fixtures" / "glossary"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the fixture glossary laid out like the project (root/glossary/*.yml), for a test to edit."""
    shutil.copytree(GLOSSARY_FIXTURE, tmp_path / "glossary")
    return tmp_path


def with_block(project: Path, block: str) -> list[str]:
    """The validator's messages once `block` stands in the fixture game alpha's header (before its terms)."""
    from codex.check import collect

    path = project / "glossary" / "alpha.yml"
    path.write_text(path.read_text(encoding="utf-8").replace("terms:\n", block + "terms:\n", 1), encoding="utf-8")
    return [str(p) for p in collect(project / "glossary", project)[1]]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


ARMOR_AT = "    category: trait\n    definition:\n      ru: Броня"  # in the fixture game alpha's file: Armor's fields


def armor_with(text: str, field: str) -> str:
    """The fixture game alpha's file `text` with one more field (a YAML line, say `derived: {ru: [бронировать]}`)
    on its Armor term."""
    assert ARMOR_AT in text, f"the fixture no longer contains {ARMOR_AT!r}"
    return text.replace(ARMOR_AT, f"    category: trait\n    {field}\n    definition:\n      ru: Броня", 1)


def cli_link(site_url: str, text: str, *args: str, timeout: int = 300) -> str:
    """What `python -m codex link ARGS` prints for the text, its term URLs on `site_url`: the contract the linker page
    is held to. The CLI's own message is the failure if it fails."""
    env = {**os.environ, "SITE_URL": site_url, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT / "hooks")}
    run = subprocess.run([sys.executable, "-m", "codex", "link", *args], input=text.encode("utf-8"),
                         capture_output=True, cwd=ROOT, env=env, timeout=timeout)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    return run.stdout.decode("utf-8")


@pytest.fixture(scope="session")
def glossary():
    from codex.check import load

    return load(ROOT / "glossary", ROOT)


@pytest.fixture(scope="session")
def codex_api(glossary):
    from codex.api import Codex

    return Codex.from_glossary(glossary, "https://example.org/")


from project import build_in_process, copy_project, free_port, serve  # noqa: E402,F401  (one helper with the benchmarks)

_free_port = free_port  # the older name some tests import


# --- the built site --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def site_port() -> int:
    return free_port()


@pytest.fixture(scope="session")
def site_url(site_port) -> str:
    return f"http://127.0.0.1:{site_port}/"


@pytest.fixture(scope="session")
def codex(glossary, site_url):
    """The Python API with the URLs the test site is built with: what the browser's linker must reproduce exactly."""
    from codex.api import Codex

    return Codex.from_glossary(glossary, site_url)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, site_url) -> Path:
    """The real site, built once with the real validated mkdocs.yml into a temporary directory (strict)."""
    return build_in_process(tmp_path_factory.mktemp("site"), site_url)


@pytest.fixture(scope="session")
def site_server(built_site, site_port, site_url):
    """The built site served on 127.0.0.1 (the same address its site_url names)."""
    with serve(built_site, site_port) as url:
        assert url == site_url
        yield url


from project import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (Debian's Chromium and its flags)

# One generous timeout for every browser expectation that names none (Playwright's own is 5 s): a test waits for a
# state, and on a loaded machine a state can take a while; a failing one still fails, only later.
EXPECT_TIMEOUT = 60_000  # ms
try:
    from playwright.sync_api import expect as _expect

    _expect.set_options(timeout=EXPECT_TIMEOUT)
except ImportError:  # no Playwright: the browser tests skip (or, in CI, fail) on their own
    pass


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium for one test module (a module's own sync_playwright() may run after it has closed)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():  # `make test` installs it
        skip_unless_ci(f"{CHROMIUM} is not installed")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


def search_until_found(page, query: str, found, timeout: int = 6_000, attempts: int = 20) -> None:
    """Type `query` into the header search box until `found` (a locator) shows: the index loads in the background,
    and a query sent before it is ready finds nothing, so the query is typed again (each attempt waits `timeout`;
    all of them, two minutes). End is a real key event (Playwright inserts Cyrillic without any, and Material
    searches on keyup)."""
    from playwright.sync_api import expect

    box = page.locator("input.md-search__input")
    for _ in range(attempts):
        box.click()
        box.fill(query)
        box.press("End")
        try:
            expect(found.first).to_be_visible(timeout=timeout)
            return
        except AssertionError:
            continue
    expect(found.first).to_be_visible(timeout=timeout)


def png_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's width and height from its header (None: not a PNG)."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
