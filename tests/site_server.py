"""A static host for browser tests of reading offline: serves a built site with the headers its generated
`_headers` gives each path (as Netlify would: the CSP, the worker's Cache-Control), can switch to another build
(a new deploy), can go down (the network is gone: every connection is closed unanswered), and logs what it served.
Also what those tests ask a page and read from a build.
"""
from __future__ import annotations

import contextlib
import http.server
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from project import QuietServer, build_site, copy_project, free_port


def parse_headers(text: str) -> list[tuple[re.Pattern[str], dict[str, str]]]:
    """Netlify's `_headers`: a path pattern (`*` matches anything), then indented `Name: value` lines."""
    rules: list[tuple[re.Pattern[str], dict[str, str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            pattern = re.compile("^" + ".*".join(re.escape(part) for part in line.strip().split("*")) + "$")
            rules.append((pattern, {}))
        else:
            name, _, value = line.strip().partition(":")
            rules[-1][1][name.strip()] = value.strip()
    return rules


class SiteServer:
    """One built site on 127.0.0.1:<port>; `serve(dir)` switches builds, `down` drops every connection."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.directory = directory
        self.down = False
        self.served: list[str] = []  # paths answered (or refused while down), in order
        self.status_for: dict[str, int] = {}  # path -> status to answer instead of the file (error responses)
        owner = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):  # the directory is read per request: serve() switches builds
                super().__init__(*args, directory=str(owner.directory), **kwargs)

            def handle_one_request(self):
                if owner.down:  # read the request line, then hang up: what a dead network looks like
                    self.raw_requestline = self.rfile.readline(65537)
                    owner.served.append("DOWN " + self.raw_requestline.decode("latin-1").strip())
                    self.close_connection = True
                    return
                super().handle_one_request()

            def send_head(self):
                path = urlsplit(self.path).path
                owner.served.append(path)
                if path in owner.status_for:
                    self.send_error(owner.status_for[path])
                    return None
                return super().send_head()

            def _rules(self) -> dict[str, str]:
                path = unquote(urlsplit(self.path).path)
                merged: dict[str, str] = {}
                for pattern, values in owner.rules():
                    if pattern.match(path):
                        merged.update(values)
                return merged

            def send_header(self, keyword, value):  # a rule's header replaces the handler's own (Content-Type)
                if keyword.lower() not in {name.lower() for name in self._rules()}:
                    super().send_header(keyword, value)

            def end_headers(self):
                for name, value in self._rules().items():
                    super().send_header(name, value)
                super().end_headers()

            def log_message(self, *args):
                pass

        self._server = QuietServer(("127.0.0.1", port or 0), Handler)
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def rules(self) -> list[tuple[re.Pattern[str], dict[str, str]]]:
        headers = self.directory / "_headers"
        return parse_headers(headers.read_text(encoding="utf-8")) if headers.is_file() else []

    def serve(self, directory: Path) -> None:
        self.directory = directory

    def __enter__(self) -> SiteServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextlib.contextmanager
def served_copy(dest: Path, **build: Any) -> Iterator[SiteServer]:
    """A copy of the project (at `dest`) built for a free port on 127.0.0.1 (`build`: build_site's options) and
    served there with its own `_headers`."""
    port = free_port()
    site = build_site(copy_project(dest), f"http://127.0.0.1:{port}/", **build)
    with SiteServer(site, port) as server:
        yield server


# --- what the offline tests ask a page, and read from a build ---------------------------------------------------

CONTROLLED = """async () => {
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, {once: true}));
  }
  return navigator.serviceWorker.controller.scriptURL;
}"""
CACHES = """async () => {
  const out = {};
  for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
  return out;
}"""


def build_data(site: Path) -> dict:
    """The worker's build data, as the build wrote it into sw.js."""
    script = (site / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const BUILD = (\{.*?\});\n", script).group(1))


AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"


def accessibility_violations(page, selector: str) -> list[str]:
    """axe-core's WCAG 2.1 A/AA violations inside `selector` (evaluated, not injected: the site's CSP stays on)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async (selector) => (await axe.run({include: [selector]}, {runOnly: {type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})).violations.map((v) => v.id + ": " +
        v.nodes.map((n) => n.html).join(" | "))""", selector)
    return list(found)
