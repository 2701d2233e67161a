"""Where the project is, and the site URL that term links point to (mkdocs.yml's site_url, SITE_URL first)."""
from __future__ import annotations

import os
import re
from pathlib import Path

DEFAULT_SITE_URL = "https://rules-codex.netlify.app/"


def project_root() -> Path:
    """The nearest folder holding mkdocs.yml and glossary/, from the working directory up, else this package's."""
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        for folder in (start, *start.parents):
            if (folder / "mkdocs.yml").is_file() and (folder / "glossary").is_dir():
                return folder
    return Path.cwd()


def site_url(root: Path) -> str:
    """mkdocs.yml's `site_url: !ENV [SITE_URL, "default"]`, resolved the way MkDocs resolves it."""
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8") if config.is_file() else ""
    match = re.search(r"^site_url:\s*(.+)$", text, re.M)
    if not match:
        return os.environ.get("SITE_URL", DEFAULT_SITE_URL)
    value = match.group(1).split(" #")[0].strip()
    env = re.match(r"!ENV\s*\[\s*([A-Z_][A-Z0-9_]*)\s*,\s*[\"']?([^\"'\]]*)[\"']?\s*\]", value)
    if env:
        return os.environ.get(env.group(1)) or env.group(2)
    env_single = re.match(r"!ENV\s+([A-Z_][A-Z0-9_]*)", value)
    if env_single:
        return os.environ.get(env_single.group(1), DEFAULT_SITE_URL)
    return value.strip("\"'")


def site_language(root: Path, default: str = "ru") -> str:
    """mkdocs.yml's `theme.language` when it is one of the glossary's languages (en, ru), else `default`."""
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8") if config.is_file() else ""
    theme = re.search(r"^theme:[ \t]*\n((?:[ \t]+.*\n|[ \t]*\n)*)", text + "\n", re.M)
    language = re.search(r"^[ \t]+language:[ \t]*[\"']?(\w+)", theme.group(1), re.M) if theme else None
    value = language.group(1) if language else default
    return value if value in ("en", "ru") else default
