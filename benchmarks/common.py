"""Small things every benchmark section shares: statistics, formatting, the Markdown report with its JSON twin."""
from __future__ import annotations

import gzip
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

# The aims the README states; a section reports each figure against its aim, never fails on it.
AIMS = {
    "link_vs_tokenise": 10.0,      # linking a post costs at most 10x tokenising it
    "per_kb_large_vs_real": 2.0,   # a 30x larger glossary costs at most 2x per KB of text
    "build_growth_10k_1k": 11.0,   # 10x the terms, at most 11x the build time
    "build_vs_plain": 2.0,         # without PDFs, at most 2x a plain Material site with the same pages' text
    "pdf_extra": 1.5,              # PDFs printed on their thread add at most 50%
    "precision": 0.95,             # the corpus tests' thresholds
    "recall": 0.90,
}


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 6, mtime=0))


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def fmt_s(seconds: float) -> str:
    if seconds != seconds:  # NaN
        return "–"
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s" if seconds < 100 else f"{seconds:.0f} s"


def fmt_b(n: float) -> str:
    if n < 1024:
        return f"{n:.0f} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / 1024 / 1024:.1f} MB"


def fmt_x(x: float) -> str:
    return "–" if x != x else f"{x:.1f}×" if x < 100 else f"{x:.0f}×"


def aim(value: float, limit: float, higher_is_better: bool = False) -> str:
    if value != value:
        return "–"
    ok = value >= limit if higher_is_better else value <= limit
    return "met" if ok else "**not met**"


def table(headers: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class Report:
    """Markdown printed as each section finishes, and the same figures as JSON."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.data: dict[str, Any] = {}
        self.aims: list[tuple[str, str, str, str]] = []  # what, value, aim, verdict
        self.errors: list[str] = []

    def section(self, title: str) -> None:
        self.emit(f"\n## {title}\n")

    def emit(self, text: str) -> None:
        self.parts.append(text)
        print(text, flush=True)

    def aim(self, what: str, value: str, target: str, verdict: str) -> None:
        self.aims.append((what, value, target, verdict))


def profile_text(fn: Callable[[], Any], limit: int) -> str:
    """A cProfile listing of one call, top functions by own time."""
    import cProfile
    import io
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(limit)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    head = next((line.strip() for line in lines if "function calls" in line), "")
    return "\n".join([head] + lines[start:])
