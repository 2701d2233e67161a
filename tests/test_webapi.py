"""The codex for other sites, as built: the static JSON API validated against its schema, oEmbed discovery, the
headers other origins need, the share target, and embed.js filled and small (codex.webapi)."""
from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path
from urllib.parse import unquote

import jsonschema
import pytest

from project import build_site, copy_project
from site_server import parse_headers

SITE_URL = "https://codex.example/"  # the canonical address the API's URLs are built from
EMBED_BUDGET = 8 * 1024  # gzip bytes: the one script every host page loads


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(copy_project(tmp_path_factory.mktemp("webapi")), SITE_URL)


@pytest.fixture(scope="module")
def schema(site) -> dict:
    data = json.loads((site / "api/v1/schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(data)
    return data


def validator(schema: dict, kind: str) -> jsonschema.Draft202012Validator:
    """The schema narrowed to one document kind (stricter than its oneOf)."""
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{kind}"})


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def kind_of(relative: str) -> str:
    if relative == "games.json":
        return "index"
    if relative.startswith("data/"):
        return "cards"
    if relative.startswith("oembed/"):
        return "oembed"
    return "game"


def test_every_api_file_validates_against_the_schema(site, schema, glossary):
    whole = jsonschema.Draft202012Validator(schema)
    checked: dict[str, int] = {}
    for path in sorted((site / "api/v1").rglob("*.json")):
        relative = path.relative_to(site / "api/v1").as_posix()
        if relative == "schema.json":
            continue
        document = load(path)
        kind = kind_of(relative)
        validator(schema, kind).validate(document)
        whole.validate(document)
        checked[kind] = checked.get(kind, 0) + 1
    terms = sum(len(game.terms) for game in glossary.games.values())
    assert checked == {"index": 1, "game": len(glossary.games), "cards": len(glossary.games), "oembed": terms}


def test_the_schema_rejects_a_broken_document(site, schema):
    game = load(site / "api/v1/mage-wars.json")
    del game["terms"][0]["name"]["ru"]
    with pytest.raises(jsonschema.ValidationError):
        validator(schema, "game").validate(game)
    cards = load(next((site / "api/v1/data").glob("mage-wars.*.json")))
    cards["terms"]["aegis"]["summary"]["en"] = 3
    with pytest.raises(jsonschema.ValidationError):
        validator(schema, "cards").validate(cards)


def test_games_index_names_every_file(site, glossary):
    index = load(site / "api/v1/games.json")
    assert index["site_url"] == SITE_URL and index["schema"] == SITE_URL + "api/v1/schema.json"
    assert [g["id"] for g in index["games"]] == list(glossary.games)
    for entry in index["games"]:
        assert entry["terms"] == len(glossary.games[entry["id"]].terms)
        for key in ("api", "cards"):
            assert entry[key].startswith(SITE_URL) and (site / entry[key][len(SITE_URL):]).is_file(), entry[key]
        cards = site / entry["cards"][len(SITE_URL):]
        digest = re.search(r"\.([0-9a-f]{12})\.json$", cards.name).group(1)
        assert hashlib.sha256(cards.read_bytes()).hexdigest()[:12] == digest  # named by its content


def test_a_term_in_the_api(site, glossary):
    game = load(site / "api/v1/mage-wars.json")
    aegis = next(t for t in game["terms"] if t["id"] == "aegis")
    source = glossary.games["mage-wars"].terms["aegis"]
    assert aegis["name"] == {"en": "Aegis X", "ru": "Эгида"}
    assert aegis["definition"] == source.definition
    assert aegis["params"] == [{"en": "X", "ru": None, "kind": "number"}]
    assert aegis["url"] == SITE_URL + "mage-wars/aegis/"
    assert SITE_URL + "t/mage-wars/egida/" in aegis["short_links"]
    for url in aegis["short_links"]:  # each short link is a page of the site (a redirect to the term)
        assert (site / url[len(SITE_URL):] / "index.html").is_file(), url
    two = next(t for t in game["terms"] if "\n\n" in t["definition"]["en"])
    assert two["summary"]["en"] == " ".join(two["definition"]["en"].split("\n\n")[0].split())


def test_every_term_page_advertises_its_oembed_document(site, glossary):
    link = re.compile(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)" title="([^"]+)">')
    for game in glossary.games.values():
        for term in game.terms.values():
            page = (site / game.id / term.id / "index.html").read_text(encoding="utf-8")
            found = link.search(page)
            assert found, f"{game.id}/{term.id}"
            href = found.group(1)
            assert href == f"{SITE_URL}api/v1/oembed/{game.id}/{term.id}.json"
            document = load(site / href[len(SITE_URL):])
            assert document["type"] == "link" and document["version"] == "1.0"
            assert term.name["en"] in document["title"] and term.name["ru"] in document["title"]
            assert document["provider_url"] == SITE_URL
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "json+oembed" not in home  # only term pages have one
    assert '<meta property="og:title"' in (site / "mage-wars/aegis/index.html").read_text(encoding="utf-8")


def rules_for(site: Path, path: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for pattern, values in parse_headers((site / "_headers").read_text(encoding="utf-8")):
        if pattern.match(path):
            merged.update(values)
    return merged


def test_headers_open_the_api_to_every_origin(site):
    cards = next((site / "api/v1/data").glob("*.json")).relative_to(site).as_posix()
    for path in ("/api/v1/games.json", "/api/v1/mage-wars.json", "/" + cards, "/embed.js"):
        assert rules_for(site, path).get("Access-Control-Allow-Origin") == "*", path
    assert "immutable" in rules_for(site, "/" + cards)["Cache-Control"]
    assert "immutable" not in rules_for(site, "/embed.js")["Cache-Control"]  # a fix reaches hosts within an hour
    assert "Access-Control-Allow-Origin" not in rules_for(site, "/mage-wars/aegis/")


def test_the_manifest_shares_text_to_the_linker(site):
    manifest = load(site / "manifest.webmanifest")
    target = manifest["share_target"]
    assert target["method"] == "GET" and target["params"]["text"] == "text"
    assert (site / target["action"] / "index.html").is_file()  # linker/, relative to the manifest at the root


def test_embed_script_is_filled_and_small(site):
    script = (site / "embed.js").read_text(encoding="utf-8")
    assert "codex:embed-build" not in script
    build = json.loads(re.search(r"const BUILD = /\*\* @type \{Build\} \*/ \((\{.*?\})\);\n", script).group(1))
    assert build["site"] == SITE_URL
    for game_id, path in build["games"].items():
        assert (site / path).is_file() and path.startswith(f"api/v1/data/{game_id}.")
    assert build["labels"]["embed_open"] == {"en": "Open", "ru": "Открыть"}
    assert len(gzip.compress(script.encode(), 9)) <= EMBED_BUDGET
    assert not (site / "assets/javascripts/embed.js").exists()  # the unfilled source is not served


def test_the_api_is_not_saved_for_reading_offline(site):
    worker = (site / "sw.js").read_text(encoding="utf-8")
    assert "api/v1/" not in worker and "mage-wars/aegis/" in worker  # the pages are, the API files are not


def test_a_lost_build_line_is_a_clear_error():
    from codex.webapi import EmbedSourceError, fill_embed

    with pytest.raises(EmbedSourceError, match=re.escape("embed.js: the line 'const BUILD = ")):
        fill_embed("const BUILD = {};\n", {})


def test_bookmarklet_is_one_javascript_url(site):
    from codex.webapi import bookmarklet

    url = bookmarklet(SITE_URL + "linker/")
    assert url.startswith("javascript:") and " " not in url and '"' not in url
    code = unquote(url[len("javascript:"):])
    assert f'"{SITE_URL}linker/"' in code and "?text=" in code and "e.origin===o" in code
    assert '"https://codex.example"' in code  # only the linker's origin may send the text back
