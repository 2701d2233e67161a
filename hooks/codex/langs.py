"""The glossary's languages, and the interface's: a module of its own so the browser's linker need not import
the glossary's model (its dataclasses cost the reader's start-up time; codex.model re-exports both)."""
from __future__ import annotations

from typing import Literal, get_args

Lang = Literal["en", "ru"]
LANGS: tuple[Lang, ...] = get_args(Lang)  # the YAML's keys (plain strings) are checked against it
