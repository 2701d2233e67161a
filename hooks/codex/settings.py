"""The project's settings: mkdocs.yml's `extra: codex:` block and the site options codex uses, read and validated
by MkDocs' own config machinery — the one place the build and the command line learn them (build time only)."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c

from .model import LANGS, Lang
from .offline import GAME_LIMIT, MB, TOTAL_LIMIT


class CodexOptions(base.Config):  # type: ignore[no-untyped-call]  # MkDocs' own class machinery
    """`extra: codex:` in mkdocs.yml."""

    glossary = c.Type(str, default="glossary")  # the glossary folder, relative to mkdocs.yml
    pdf = c.Type(bool, default=True)  # print each game's PDF (`CODEX_PDF=false` in mkdocs.yml's !ENV: previews)
    # Reading offline: a game larger than this (MB, gzip) is kept per game on request instead of saved for all;
    # past the total, the largest games are too.
    offline_game_mb = c.Type((int, float), default=GAME_LIMIT / MB)
    offline_total_mb = c.Type((int, float), default=TOTAL_LIMIT / MB)


@dataclass(frozen=True)
class Settings:
    """What codex needs from the validated MkDocs config."""

    root: Path  # the folder of mkdocs.yml
    glossary_dir: Path
    pdf: bool
    site_url: str  # always ends with "/"
    language: Lang  # the default interface language (theme.language): before a script picks the reader's
    directory_urls: bool
    offline_game_bytes: int = GAME_LIMIT
    offline_total_bytes: int = TOTAL_LIMIT


class SettingsError(ValueError):
    """A one-line reason the settings cannot be used (the hooks raise it as a PluginError)."""


def from_config(config: Any) -> Settings:
    """Settings from a loaded MkDocs config: `extra.codex` validated, theme.language one of the glossary's."""
    options = CodexOptions(config_file_path=config.config_file_path)
    options.load_dict(dict(config.extra.get("codex") or {}))
    failed, _warnings = options.validate()
    if failed:
        key, reason = failed[0]
        raise SettingsError(f"mkdocs.yml: extra.codex.{key}: {reason}")
    language = config.theme["language"]
    if language not in LANGS:
        raise SettingsError(f"mkdocs.yml: theme.language '{language}' must be one of the glossary's: {', '.join(LANGS)}")
    root = Path(config.config_file_path).resolve().parent
    return Settings(
        root=root, glossary_dir=root / options.glossary, pdf=options.pdf,
        site_url=(config.site_url or "/").rstrip("/") + "/", language=language,
        directory_urls=config.use_directory_urls,
        offline_game_bytes=round(options.offline_game_mb * MB), offline_total_bytes=round(options.offline_total_mb * MB),
    )


def load(root: Path) -> Settings:
    """The command line's settings: root/mkdocs.yml loaded and validated as `mkdocs build` does (SITE_URL too)."""
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.exceptions import ConfigurationError

    path = root / "mkdocs.yml"
    logging.getLogger("mkdocs").setLevel(logging.ERROR)  # the CLI's output is the result, not MkDocs' notes
    config = MkDocsConfig(config_file_path=str(path))
    try:
        with path.open("rb") as file:
            config.load_file(file)
    except OSError as error:
        raise SettingsError(f"{path}: {error.strerror}") from None
    except ConfigurationError as error:  # YAML and !ENV errors: the CLI's one-line message
        raise SettingsError(f"{path}: {str(error).strip().splitlines()[0]}") from None
    failed, _warnings = config.validate()
    if failed:
        key, reason = failed[0]
        raise SettingsError(f"{path}: {key}: {reason}")
    return from_config(config)
