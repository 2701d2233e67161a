"""Where the project is: the folder holding mkdocs.yml and glossary/ (its settings: codex.settings)."""
from __future__ import annotations

from pathlib import Path


def project_root() -> Path:
    """The nearest folder holding mkdocs.yml and glossary/, from the working directory up, else this package's."""
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        for folder in (start, *start.parents):
            if (folder / "mkdocs.yml").is_file() and (folder / "glossary").is_dir():
                return folder
    return Path.cwd()
