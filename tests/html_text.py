"""Small helpers to read built HTML pages in tests: visible text, links, ids, meta tags."""
from __future__ import annotations

from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.meta: dict[str, str] = {}
        self.text_parts: list[str] = []
        self.scripts: list[str] = []
        self._skip = 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href") is not None:
            self.links.append(attrs["href"])
        if tag in ("link",) and attrs.get("href") and attrs.get("rel") in ("stylesheet",):
            self.links.append(attrs["href"])
        if tag == "meta":
            key = attrs.get("property") or attrs.get("name")
            if key:
                self.meta[key] = attrs.get("content", "")
        if tag == "script" and attrs.get("src"):
            self.scripts.append(attrs["src"])
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join("".join(self.text_parts).split())
