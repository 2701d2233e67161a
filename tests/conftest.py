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


def copy_project(dest: Path, glossary: Path | None = None, home: str | None = None) -> Path:
    """A throw-away copy of the project (config, docs, hooks, templates; node_modules linked) to build in."""
    import shutil

    for name in ("mkdocs.yml", "docs", "hooks", "overrides", "package.json"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, dest / name)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    if glossary is not None:
        shutil.copytree(glossary, dest / "glossary")
    if home is not None:
        (dest / "docs" / "index.md").write_text(home, encoding="utf-8")
    return dest


# --- the built site --------------------------------------------------------------------------
import functools
import http.server
import socket
import threading


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def site_port() -> int:
    return _free_port()


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


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output readable
        pass

    def send_error(self, code, message=None, explain=None):
        """A missing page gets the site's 404.html, as Netlify serves it (netlify.toml)."""
        page = Path(self.directory) / "404.html"
        if code != 404 or self.command != "GET" or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="session")
def site_server(built_site, site_port, site_url):
    """The built site served on 127.0.0.1 (the same address its site_url names)."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", site_port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield site_url
    server.shutdown()
    server.server_close()


# Debian's Chromium, driven by Playwright (never `playwright install`), with the flags this sandbox needs:
# the same ones the PDF printer uses.
from codex.pdf import CHROMIUM_ARGS, DEBIAN_CHROMIUM as CHROMIUM  # noqa: E402
