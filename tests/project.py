"""The project as the tests and the benchmarks use it: a throw-away copy to build in, a free port, a static server.

One helper for both (benchmarks/ puts tests/ on sys.path), so a build in a test and a build in a benchmark are
made the same way.
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("mkdocs.yml", "package.json", "docs", "hooks", "overrides")

# Debian's Chromium for the browser tests and benchmarks, driven by Playwright (never `playwright install`), with
# the flags this sandbox needs (no background networking: the machine's closed network refuses it).
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def copy_project(dest: Path, glossary: Path | None = None, home: str | None = None) -> Path:
    """A copy of the project (config, docs, hooks, templates; node_modules linked) to build in.

    `glossary`: a folder of game files to use instead of the real glossary/; `home`: another docs/index.md."""
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, dest / name, ignore=ignore)
        elif source.is_file():
            shutil.copy2(source, dest / name)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    shutil.copytree(glossary if glossary is not None else ROOT / "glossary", dest / "glossary")
    if home is not None:
        (dest / "docs" / "index.md").write_text(home, encoding="utf-8")
    return dest


def mkdocs_env(site_url: str | None = None, *, pdf: bool = False, **extra: str) -> dict[str, str]:
    """The environment MkDocs runs in for a test or a benchmark: this one, without MkDocs' banner about version 2,
    the site at `site_url` when given, no PDFs unless `pdf` (then CODEX_PDF is left as it is), and `extra`."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **extra}
    if not pdf:
        env["CODEX_PDF"] = "false"
    if site_url is not None:
        env["SITE_URL"] = site_url
    return env


def mkdocs_build(base: Path, site_url: str | None = None, *, pdf: bool = False, site_dir: Path | None = None,
                 quiet: bool = False, env: dict[str, str] | None = None,
                 timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` (`-q` if `quiet`, `-d site_dir` when given) in the project at `base`, in
    `mkdocs_env(site_url, pdf=pdf, **env)`, whatever its outcome: a test of a failing build reads its stderr."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", *(["-q"] if quiet else [])]
    if site_dir is not None:
        command += ["-d", str(site_dir)]
    return subprocess.run(command, cwd=base, env=mkdocs_env(site_url, pdf=pdf, **(env or {})),
                          capture_output=True, text=True, timeout=timeout)


def build_site(base: Path, site_url: str | None = None, *, site_dir: Path | None = None, **options: Any) -> Path:
    """A successful `mkdocs_build` (same options; PDFs only when asked) of the project at `base`: its site folder."""
    result = mkdocs_build(base, site_url, site_dir=site_dir, **options)
    assert result.returncode == 0, result.stderr
    return site_dir if site_dir is not None else base / "site"


def mkdocs_serve(base: Path, port: int, *, pdf: bool = False, **popen: Any) -> subprocess.Popen[bytes]:
    """`mkdocs serve` (no live reload) of the project at `base` on 127.0.0.1:port, its site at that address, PDFs
    only when asked, its output discarded, in a session of its own (stop it with os.killpg); `popen`: more options."""
    return subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--no-livereload", "--dev-addr", f"127.0.0.1:{port}"], cwd=base,
        env=mkdocs_env(f"http://127.0.0.1:{port}/", pdf=pdf), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, **popen)


def build_in_process(site_dir: Path, site_url: str) -> Path:
    """The real project (its validated mkdocs.yml; PDFs unless CODEX_PDF=false) built strict in this process."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    build(load_config(config_file=str(ROOT / "mkdocs.yml"), site_dir=str(site_dir), site_url=site_url, strict=True))
    return site_dir


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser closing a connection mid-file (a page left, Lighthouse done) is no error worth a traceback."""

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extra_headers: ClassVar[dict[str, str]] = {}

    def end_headers(self) -> None:
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, *args: object) -> None:  # keep test and benchmark output readable
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A missing page gets the site's 404.html, as Netlify serves it."""
        page = Path(self.directory) / "404.html"
        if code != 404 or self.command != "GET" or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextlib.contextmanager
def serve(site: Path, port: int | None = None, headers: dict[str, str] | None = None) -> Iterator[str]:
    """The built site on http://127.0.0.1:port/ (a free port by default), with `headers` on every response."""
    handler = type("Handler", (_Quiet,), {"extra_headers": dict(headers or {})})
    server = QuietServer(("127.0.0.1", port or free_port()), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
