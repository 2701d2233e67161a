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


from project import copy_project, free_port, serve  # noqa: E402,F401  (one helper with the benchmarks)

_free_port = free_port  # the older name some tests import


# --- the built site --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def site_port() -> int:
    return free_port()


@pytest.fixture(scope="session")
def site_url(site_port) -> str:
    return f"http://127.0.0.1:{site_port}/"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, site_url) -> Path:
    """The real site, built once with the real validated mkdocs.yml into a temporary directory (strict)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site_dir = tmp_path_factory.mktemp("site")
    config = load_config(config_file=str(ROOT / "mkdocs.yml"), site_dir=str(site_dir), site_url=site_url, strict=True)
    build(config)
    return site_dir


@pytest.fixture(scope="session")
def site_server(built_site, site_port, site_url):
    """The built site served on 127.0.0.1 (the same address its site_url names)."""
    with serve(built_site, site_port) as url:
        assert url == site_url
        yield url


from project import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (Debian's Chromium and its flags)


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium for one test module (a module's own sync_playwright() may run after it has closed)."""
    import os

    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists() and not os.environ.get("CI"):  # `make test` installs it; CI must not skip
        pytest.skip(f"{CHROMIUM} is not installed")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


def search_until_found(page, query: str, found, timeout: int = 3_000, attempts: int = 10) -> None:
    """Type `query` into the header search box until `found` (a locator) shows: the index loads in the background,
    and a query sent before it is ready finds nothing. End is a real key event (Playwright inserts Cyrillic
    without any, and Material searches on keyup)."""
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
