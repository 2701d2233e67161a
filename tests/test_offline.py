"""The offline copy (`make offline`) works from file://, search included."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import search_until_found
from project import build_site

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def offline_site(tmp_path_factory, root) -> Path:
    """`make offline`'s build of the project itself (PDFs included), into a temporary folder."""
    return build_site(root, site_dir=tmp_path_factory.mktemp("offline") / "site", pdf=True,
                      env={"OFFLINE": "true", "DIRECTORY_URLS": "false"})


def test_pages_link_to_files(offline_site):
    html = (offline_site / "mage-wars" / "conjuration.html").read_text(encoding="utf-8")
    assert 'href="nonliving.html"' in html
    assert not (offline_site / "t").exists()  # short links are for sharing online


def test_no_service_worker_or_app_manifest_in_the_copy(offline_site):
    """file:// runs no service worker: the copy carries neither the worker nor the manifest link (which would
    only fail there); offline.js stays and does nothing."""
    assert not (offline_site / "sw.js").exists() and not (offline_site / "manifest.webmanifest").exists()
    assert not (offline_site / "assets" / "workbox").exists()
    html = (offline_site / "mage-wars" / "conjuration.html").read_text(encoding="utf-8")
    assert 'rel="manifest"' not in html and "offline.js" in html


def test_the_search_index_is_inline_before_the_offline_plugin_copies_it(offline_site):
    index = json.loads((offline_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    script = (offline_site / "search" / "search_index.js").read_text(encoding="utf-8")
    assert "inline" in index["config"]["codex"]
    assert script.startswith("var __index = ") and json.loads(script[len("var __index = "):]) == index
    assert not (offline_site / "search" / "codex").exists()  # nothing to fetch


def test_search_works_from_the_local_disk(offline_site, browser):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((offline_site / "index.html").as_uri())
    # Another form of the Russian name finds the term: the whole index came inline (fetch does not work from
    # file://).
    found = page.locator(".md-search-result__item").filter(has_text="Incorporeal")
    search_until_found(page, "бесплотного", found)
    found.first.locator("a").first.click()
    page.wait_for_load_state()
    assert urlsplit(page.url).scheme == "file"
    assert urlsplit(page.url).path.endswith("/mage-wars/incorporeal.html")
    assert page.evaluate("() => navigator.serviceWorker.controller") is None
    page.close()
    assert errors == []


def test_the_page_scripts_run_from_the_local_disk(offline_site, browser):
    """From file:// Chromium runs classic scripts only, and Material's document$ never emits there: the scripts
    still mount (codex.onPage runs them at load), so the term page's tabs work and the linker says why Python
    cannot start from a file (a module worker) instead of sitting at "loading" with a script error."""
    from playwright.sync_api import expect

    from codex.labels import LABELS

    page = browser.new_page(locale="en-US")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((offline_site / "mage-wars" / "conjuration.html").as_uri())
    expect(page.locator("[data-codex-tabs]")).to_have_attribute("data-codex-mounted", "1")
    page.goto((offline_site / "linker.html").as_uri())
    expect(page.locator("#linker-input")).to_have_attribute("data-codex-mounted", "1")
    expect(page.locator("#linker-widget")).to_have_attribute("data-state", "failed")
    expect(page.locator("#linker-status")).to_have_text(LABELS["linker_error_file"]["en"])
    page.close()
    assert errors == []
