"""Stand-ins for codex.pdf._print_game, run in the printing children (spawned: they import this module by name,
so they live here, not as lambdas in a test)."""
from __future__ import annotations

import os
import time
from typing import Any


def report_pid(game: Any, lang: str, mentions: Any, known: frozenset[str], template: str) -> tuple[str, bytes]:
    return game.id, str(os.getpid()).encode()


def die(*args: Any) -> tuple[str, bytes]:
    os._exit(9)


def divide_by_zero(*args: Any) -> tuple[str, bytes]:
    return "key", bytes(1 // 0)


def sleep_long(*args: Any) -> tuple[str, bytes]:
    time.sleep(600)
    return "key", b""
