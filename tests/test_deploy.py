"""Deploy: netlify.toml, the generated _headers and _redirects, short links, former ids, share blocks."""
from __future__ import annotations

import re
import tomllib
from html.parser import HTMLParser

import pytest

from codex.deploy import redirect_pages, redirect_rules
from codex.links import short_links
from codex.slugs import slugify

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def netlify(root) -> dict:
    return tomllib.loads((root / "netlify.toml").read_text(encoding="utf-8"))


def test_netlify_build_is_the_readme_build(root, netlify):
    command = netlify["build"]["command"]
    assert command == "make build"
    assert f"`{command}`" in (root / "README.md").read_text(encoding="utf-8")
    assert netlify["build"]["publish"] == "site"
    assert netlify["build"]["environment"]["PYTHON_VERSION"].startswith("3.11")
    assert netlify["build"]["environment"]["NODE_VERSION"]


def test_headers_and_redirects_have_one_source(netlify, built_site):
    """netlify.toml holds the build only: headers and redirects are generated into site/ from codex.deploy."""
    assert set(netlify) == {"build"}
    assert (built_site / "_headers").is_file() and (built_site / "_redirects").is_file()
    assert (built_site / "404.html").is_file()  # Netlify serves it for any missing path


def parse_headers(text: str) -> dict[str, dict[str, str]]:
    rules: dict[str, dict[str, str]] = {}
    current = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not line.startswith(" "):
            current = rules.setdefault(line.strip(), {})
        else:
            key, value = line.strip().split(":", 1)
            current[key] = value.strip()
    return rules


def test_generated_headers(built_site):
    rules = parse_headers((built_site / "_headers").read_text(encoding="utf-8"))
    every = rules["/*"]
    assert every["X-Content-Type-Options"] == "nosniff"
    assert every["Referrer-Policy"]
    csp = dict(part.strip().split(" ", 1) for part in every["Content-Security-Policy"].split(";"))
    assert csp["default-src"] == "'self'"
    scripts = csp["script-src"].split()
    assert scripts[:2] == ["'self'", "'wasm-unsafe-eval'"] and "'unsafe-inline'" not in scripts
    assert "http" not in every["Content-Security-Policy"]  # nothing from other hosts
    assert rules["/*.wasm"]["Content-Type"] == "application/wasm"
    assert "immutable" in rules["/assets/pyodide/*"]["Cache-Control"]


class _InlineScripts(HTMLParser):
    """The bodies of a page's inline scripts as a browser reads them (not the build's own pattern)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.bodies: list[str] = []
        self._current: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        data_block = (attrs.get("type") or "").lower() in ("application/json", "application/ld+json")
        if tag == "script" and "src" not in attrs and not data_block:
            self._current = []

    def handle_data(self, data):
        if self._current is not None:
            self._current.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._current is not None:
            self.bodies.append("".join(self._current))
            self._current = None


def test_every_inline_script_is_allowed_by_its_hash(built_site):
    import base64
    import hashlib

    csp = parse_headers((built_site / "_headers").read_text(encoding="utf-8"))["/*"]["Content-Security-Policy"]
    allowed = set(re.findall(r"'sha256-[^']+'", csp))
    seen = 0
    for page in built_site.rglob("*.html"):
        parser = _InlineScripts()
        parser.feed(page.read_text(encoding="utf-8"))
        for body in parser.bodies:
            seen += 1
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in allowed, page
    assert seen > 0


def test_pyodide_is_vendored_in_a_versioned_folder(built_site, root):
    import json

    version = json.loads((root / "node_modules/pyodide/package.json").read_text())["version"]
    folder = built_site / "assets/pyodide" / version
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        assert (folder / name).is_file(), name
    manifest = json.loads((built_site / "assets/codex/manifest.json").read_text())
    assert manifest["pyodide"] == f"../pyodide/{version}/"


def test_every_name_and_alias_has_a_short_link_to_an_existing_page(glossary, built_site):
    rules = (built_site / "_redirects").read_text(encoding="utf-8").splitlines()
    targets = {line.split()[0]: line.split()[1] for line in rules if line and not line.startswith("#")}
    for game in glossary.games.values():
        for term in game.terms.values():
            for lang in ("en", "ru"):
                for name in term.names(lang):
                    source = f"/t/{game.id}/{slugify(name)}/"
                    page = built_site / source.strip("/") / "index.html"
                    assert page.is_file(), source
                    if source in targets:  # homonyms get a list page instead of a redirect
                        assert (built_site / targets[source].strip("/") / "index.html").is_file()


def test_russian_short_link(built_site):
    rules = (built_site / "_redirects").read_text(encoding="utf-8")
    assert "/t/mage-wars/egida/ /mage-wars/aegis/ 301" in rules
    page = (built_site / "t/mage-wars/egida/index.html").read_text(encoding="utf-8")
    assert 'content="0; url=../../../mage-wars/aegis/"' in page


def test_homonyms_get_a_list_not_a_guess(built_site):
    page = (built_site / "t/mage-wars/ryvok/index.html").read_text(encoding="utf-8")
    assert "../../../mage-wars/charge/" in page and "../../../mage-wars/snatch/" in page
    assert '<h1 lang="en">Several terms share this name</h1>' in page  # in both languages
    assert '<h1 lang="ru">Это название носят несколько терминов</h1>' in page


def test_former_ids_redirect(glossary):
    import copy

    game = copy.deepcopy(glossary.game("keyforge"))
    game.terms["keys"].former_ids = ["key"]
    rules = redirect_rules(type(glossary)({"keyforge": game}))
    assert "/keyforge/key/ /keyforge/keys/ 301" in rules
    pages = redirect_pages(type(glossary)({"keyforge": game}))
    assert 'url=../keys/' in pages["keyforge/key/index.html"]


def test_the_former_linker_address_redirects_with_its_query(built_site):
    """/resolver/ moved to /linker/: a rule for Netlify (which passes the query string on) and a page for hosts
    without rules, whose script carries the query string and fragment over (the browser test follows it)."""
    rules = (built_site / "_redirects").read_text(encoding="utf-8").splitlines()
    assert "/resolver/ /linker/ 301" in rules and "/resolver /linker/ 301" in rules
    page = (built_site / "resolver/index.html").read_text(encoding="utf-8")
    assert '<script>location.replace("../linker/"+location.search+location.hash)</script>' in page
    assert 'content="0; url=../linker/"' in page and (built_site / "linker/index.html").is_file()


def test_short_links_never_collide(glossary):
    for game in glossary.games.values():
        for slug, terms in short_links(game).items():
            if len(terms) > 1:  # only homonyms, whose name is printed the same
                assert len({t.name["ru"] for t in terms}) == 1 or len({t.name["en"] for t in terms}) == 1, slug


def test_share_block_on_every_term_page(glossary, built_site, site_url):
    """Each term page carries the share strings for both languages, made by the one link formatter."""
    import html as html_module

    from codex.linkify import link

    for game in glossary.games.values():
        for term in list(game.terms.values())[::10]:
            page = (built_site / game.id / term.id / "index.html").read_text(encoding="utf-8")
            for lang in ("en", "ru"):
                url = f"{site_url}{game.id}/{term.id}/#{lang}"
                assert f'data-url-{lang}="{url}"' in page
                bbcode = link(url, term.name[lang].replace("[", "(").replace("]", ")"), "bbcode")
                assert f'data-bbcode-{lang}="{html_module.escape(bbcode)}"' in page
            assert 'data-share="markdown"' in page and 'data-share="bbcode"' in page
