"""Reading offline across deploys and per game, in a real browser: a game kept offline on request, and an update
that shows the notice, reloads into the new version and leaves no cache of the old one.

Two builds of a copy of the project (without PDFs), both for the port they are served from, with a game limit of
0.5 MB so that two of today's games are offered per game (Mage Wars and D&D) and KeyForge is saved automatically.
The second build changes a KeyForge definition (saved automatically), a D&D one (a game kept on request) and adds
an alias (so the linker's index, and its cache's name, change too).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, need, skip_unless_ci
from project import build_site, copy_project, mkdocs_serve
from site_server import CACHES, CONTROLLED, SiteServer, accessibility_violations, build_data, free_port


def need_chromium() -> None:
    """These tests launch their own browser (a service worker per context): skip without Chromium, fail in CI."""
    if not CHROMIUM.exists():  # `make test` installs it
        skip_unless_ci(f"{CHROMIUM} is not installed")

pytestmark = [pytest.mark.browser, pytest.mark.slow]
playwright_sync = need("playwright.sync_api")
expect = playwright_sync.expect

GAME_LIMIT_MB = 0.5
OLD_KEYS = "The first player to forge three keys immediately ends the game"
NEW_KEYS = "Whoever forges three keys first ends the game at once"
OLD_WARBAND = "A spell or ability with this range affects all creatures of your warband"
NEW_WARBAND = "Any spell or ability with this range reaches every creature of your warband"
UPDATE_TIMEOUT = 60_000  # ms: the new version installs (what changed, and the kept game) before the notice


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """(v1, v2, port): the two deploys, built for http://127.0.0.1:<port>/."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    tmp = tmp_path_factory.mktemp("offline-update")
    project = tmp / "project"
    project.mkdir()
    copy_project(project, glossary=ROOT / "glossary")
    _edit(project / "mkdocs.yml", "    pdf: !ENV [CODEX_PDF, true]",
          f"    offline_game_mb: {GAME_LIMIT_MB}\n    pdf: !ENV [CODEX_PDF, true]")
    v1 = build_site(project, url, site_dir=tmp / "v1", quiet=True)
    _edit(project / "glossary" / "keyforge.yml", OLD_KEYS, NEW_KEYS)
    _edit(project / "glossary" / "keyforge.yml", "      ru: Ключи\n    category: game-term\n",
          "      ru: Ключи\n    category: game-term\n    aliases:\n      en: [Keys of victory]\n")
    _edit(project / "glossary" / "dnd-miniatures.yml", OLD_WARBAND, NEW_WARBAND)
    v2 = build_site(project, url, site_dir=tmp / "v2", quiet=True)
    shutil.rmtree(project)
    return v1, v2, port


@pytest.fixture(scope="module")
def host(builds):
    v1, _, port = builds
    with SiteServer(v1, port) as server:
        yield server


@pytest.fixture
def reader(host, builds):
    """A new reader (a fresh browser profile) of the first deploy, with the network on."""
    need_chromium()
    host.serve(builds[0])
    host.down = False
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        context.on("weberror", lambda error: errors.append(str(error.error)))
        try:
            yield context
        finally:
            context.close()
            host.down = False
            host.serve(builds[0])
    assert errors == []


def _offline(host: SiteServer, context, on: bool) -> None:
    host.down = on
    context.set_offline(on)


def test_the_limit_makes_two_games_optional(builds):
    v1, v2, _ = builds
    for site in (v1, v2):
        games = build_data(site)["games"]
        assert [g for g, info in games.items() if info["automatic"]] == ["keyforge"]
        assert {g for g, info in games.items() if not info["automatic"]} == {"mage-wars", "dnd-miniatures"}
        assert all(games[g]["bytes"] > GAME_LIMIT_MB * 1024 * 1024 for g in ("mage-wars", "dnd-miniatures"))


def test_keep_a_game_offline_then_remove_it(reader, host):
    page = reader.new_page()
    page.goto(host.url + "dnd-miniatures/")
    page.evaluate(CONTROLLED)
    box = page.locator(".codex-offline")
    expect(box).to_have_attribute("data-state", "available")
    expect(box.locator("button")).to_have_text("Keep this game offline", use_inner_text=True)  # the reader's language
    expect(box).to_contain_text("MB")  # the size to download
    assert accessibility_violations(page, ".codex-offline") == []
    _offline(host, reader, True)  # not kept yet: its pages need the network (the site's 404 page says so)
    page.goto(host.url + "dnd-miniatures/wild/")
    expect(page.locator("article h1#not-found")).to_be_visible()  # the site's own 404 page
    _offline(host, reader, False)

    page.goto(host.url + "dnd-miniatures/")
    page.locator(".codex-offline button").click()
    expect(box).to_have_attribute("data-state", "kept", timeout=60_000)
    expect(box).to_contain_text("kept on this device")

    _offline(host, reader, True)
    host.served.clear()
    for path, heading in (("dnd-miniatures/wild/", "Wild"), ("dnd-miniatures/your-warband/", "your warband"),
                          ("t/dnd-miniatures/wild/", "Wild")):
        page.goto(host.url + path)
        expect(page.locator("article h1").first).to_contain_text(heading)
    page.goto(host.url + "mage-wars/aegis/")  # the other optional game was not kept
    expect(page.locator("article h1#not-found")).to_be_visible()  # the site's own 404 page
    assert not [p for p in host.served if "/sw.js" not in p]
    _offline(host, reader, False)

    page.goto(host.url + "dnd-miniatures/")
    page.locator(".codex-offline button").click()  # "Remove it from this device"
    expect(box).to_have_attribute("data-state", "available")
    assert not [name for name in page.evaluate(CACHES) if name.startswith("codex-game-")]


def test_an_update_shows_the_notice_and_its_reload_brings_the_new_version_only(reader, host, builds):
    v1, v2, _ = builds
    page = reader.new_page()
    page.goto(host.url + "keyforge/keys/")
    page.evaluate(CONTROLLED)
    expect(page.locator("article")).to_contain_text(OLD_KEYS)
    page.goto(host.url + "dnd-miniatures/")
    page.locator(".codex-offline button").click()
    expect(page.locator(".codex-offline")).to_have_attribute("data-state", "kept", timeout=60_000)
    assert page.evaluate("async (url) => (await fetch(url)).ok", host.url + "assets/codex/manifest.json")  # linker
    before = page.evaluate(CACHES)
    old = build_data(v1)
    old_linker = next(f"codex-{r['cache']}-{host.url}" for r in old["runtime"] if r["prefix"] == "assets/codex/")
    old_game = f"codex-{old['games']['dnd-miniatures']['cache']}-{host.url}"
    assert old_linker in before and old_game in before

    host.serve(v2)  # the new deploy
    page.goto(host.url + "keyforge/keys/")
    notice = page.locator("#codex-update")
    expect(notice).to_be_visible(timeout=UPDATE_TIMEOUT)
    expect(notice).to_contain_text("A new version of this site is available.")
    assert accessibility_violations(page, "#codex-update") == []
    expect(page.locator("article")).to_contain_text(OLD_KEYS)  # nothing changed under the reader yet...
    page.goto(host.url + "dnd-miniatures/your-warband/")
    expect(page.locator("article")).to_contain_text(OLD_WARBAND)  # ...on any page, until they reload
    expect(notice).to_be_visible(timeout=UPDATE_TIMEOUT)

    page.goto(host.url + "keyforge/keys/")
    expect(notice).to_be_visible(timeout=UPDATE_TIMEOUT)
    notice.locator("button").click()  # "Reload"
    expect(page.locator("article")).to_contain_text(NEW_KEYS, timeout=30_000)
    expect(page.locator("#codex-update")).to_have_count(0)

    new = build_data(v2)
    after = page.evaluate(CACHES)
    precache = after.pop(f"codex-precache-{host.url}")
    assert set(precache) == {f"{host.url}{e['url'].removeprefix('./')}?__WB_REVISION__={e['revision']}"
                             for e in new["precache"]}  # the new version's entries, no old revision left
    new_game = f"codex-{new['games']['dnd-miniatures']['cache']}-{host.url}"
    assert new_game != old_game and new_game in after  # the kept game came along, as the new version
    assert any(url.endswith(new["games"]["dnd-miniatures"]["list"]) for url in after[new_game])
    current = {new_game, *(f"codex-{r['cache']}-{host.url}" for r in new["runtime"])}
    assert set(after) <= current, f"old caches remain: {sorted(set(after) - current)}"
    assert old_linker not in after and old_game not in after

    _offline(host, reader, True)
    page.goto(host.url + "dnd-miniatures/your-warband/")
    expect(page.locator("article")).to_contain_text(NEW_WARBAND)
    page.goto(host.url + "keyforge/keys/")
    expect(page.locator("article")).to_contain_text(NEW_KEYS)


def test_the_app_works_under_a_sub_path(builds, tmp_path):
    """The same build served from /rules/ (a host's sub-path): the worker's scope, its precache and the manifest's
    start_url and scope follow the folder, and a page never opened reads offline."""
    v1, _, _ = builds
    (tmp_path / "rules").symlink_to(v1, target_is_directory=True)
    need_chromium()
    with SiteServer(tmp_path) as host, playwright_sync.sync_playwright() as pw:
        base = host.url + "rules/"
        context = pw.chromium.launch_persistent_context(  # a profile of its own: installability is checked too
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            page = context.new_page()
            page.goto(base + "keyforge/")
            assert page.evaluate(CONTROLLED) == base + "sw.js"
            assert page.evaluate("async () => (await navigator.serviceWorker.ready).scope") == base
            cdp = context.new_cdp_session(page)
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["url"] == base + "manifest.webmanifest" and manifest.get("errors") == []
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            assert cdp.send("Page.getAppId")["appId"] == base  # one app per folder, not one per origin
            saved = page.evaluate(CACHES)
            assert list(saved) == [f"codex-precache-{base}"]
            assert all(url.startswith(base) for url in saved[f"codex-precache-{base}"])
            _offline(host, context, True)
            page.goto(base + "keyforge/keys/")
            expect(page.locator("article h1").first).to_contain_text("Keys")
        finally:
            context.close()


def open_under_serve(page, url: str, deadline: float) -> None:
    """Loads `url` from `mkdocs serve`, trying again until `deadline` (time.monotonic()): on a loaded machine one
    navigation can outlast any single timeout while serve rebuilds, and the test waits for the page, not a clock."""
    import time

    while True:
        try:
            page.goto(url, timeout=max(1.0, deadline - time.monotonic()) * 1000)
            return
        except playwright_sync.TimeoutError:
            if time.monotonic() >= deadline:
                raise


def registrations(page) -> int | None:
    """The page's service-worker registrations; None while the retiring worker reloads the page under the question
    (its execution context destroyed mid-call), the very change the caller is waiting for."""
    try:
        return page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length")
    except playwright_sync.Error as error:
        if "Execution context was destroyed" not in str(error):
            raise
        return None


def test_mkdocs_serve_is_no_app_and_removes_a_worker_an_earlier_build_left(builds, tmp_path):
    """While pages are edited under `mkdocs serve` a worker would show saved copies: serve links no manifest,
    registers nothing, and its sw.js retires a worker a real build installed on the same address."""
    import signal
    import time
    import urllib.request

    need_chromium()
    v1, _, _ = builds
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    project = tmp_path / "project"
    project.mkdir()
    copy_project(project, glossary=ROOT / "glossary")
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context()
        context.set_default_navigation_timeout(180_000)  # an upper bound for one page load on a loaded machine
        page = context.new_page()
        with SiteServer(v1, port):  # a real build on this address first: its worker installs
            page.goto(url + "keyforge/")
            page.evaluate(CONTROLLED)
            assert page.evaluate(CACHES)
        serve = mkdocs_serve(project, port)
        try:
            deadline = time.monotonic() + 600  # the first build, then it listens
            while time.monotonic() < deadline:
                try:
                    urllib.request.urlopen(url + "sw.js", timeout=60).read()
                    break
                except OSError:
                    time.sleep(0.5)  # polling for the state, under the deadline above
            worker = urllib.request.urlopen(url + "sw.js", timeout=60).read().decode()
            assert "unregister" in worker and "precache" not in worker
            # `mkdocs serve` answers slowly on a loaded machine (a fresh clone beside two CPU-bound processes and a
            # test run once passed a single 180 s navigation timeout): every page load below shares one deadline
            deadline = time.monotonic() + 600
            open_under_serve(page, url + "keyforge/", deadline)  # the old worker answers; sw.js is the retired one
            while time.monotonic() < deadline and registrations(page) != 0:
                time.sleep(0.5)  # polling for the state, under the deadline above
            open_under_serve(page, url + "keyforge/", deadline)
            assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
            assert page.evaluate("() => navigator.serviceWorker.controller") is None
            assert not [name for name in page.evaluate(CACHES) if name.startswith("codex-")]
            expect(page.locator('link[rel="manifest"]')).to_have_count(0)
            # offline.js decides as it runs, before the load event: without the manifest link it registers nothing
            page.wait_for_function("() => document.readyState === 'complete'", timeout=60_000)
            assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
        finally:
            os.killpg(serve.pid, signal.SIGTERM)
            serve.wait(timeout=30)
            context.close()
            browser.close()
