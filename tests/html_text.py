"""Small helpers to read built HTML pages in tests: visible text (as a reader of each language sees it),
links, ids, meta tags."""
from __future__ import annotations

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.meta: dict[str, str] = {}
        self.scripts: list[str] = []
        self._parts: dict[str | None, list[str]] = {None: [], "en": [], "ru": []}
        self._open: list[tuple[str, str | None]] = []  # (tag, the language it hides for: the other one)
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
        if tag not in VOID:
            l10n = "codex-l10n" in (attrs.get("class") or "").split()
            self._open.append((tag, attrs.get("lang") if l10n else None))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        for i in range(len(self._open) - 1, -1, -1):  # tolerate unclosed elements, as browsers do
            if self._open[i][0] == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        if self._skip:
            return
        self._parts[None].append(data)
        shown_in = {lang for _, lang in self._open if lang}
        for lang in ("en", "ru"):
            if not shown_in or shown_in == {lang}:
                self._parts[lang].append(data)

    @property
    def text(self) -> str:
        """Everything, both languages' interface text included."""
        return " ".join("".join(self._parts[None]).split())

    def text_in(self, lang: str) -> str:
        """What a reader who chose `lang` sees: the other language's interface text (class codex-l10n) left out."""
        return " ".join("".join(self._parts[lang]).split())
