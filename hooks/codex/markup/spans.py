"""What every scanner shares: spans, merging them, and a memo for repeated searches (so each scan stays linear)."""
from __future__ import annotations

import re

Spans = list[tuple[int, int]]


def merge(spans: Spans) -> Spans:
    """Sorted, without empty spans, overlapping or touching spans joined."""
    spans = sorted(spans)
    out: Spans = []
    last_start, last_end = -1, -1
    for start, end in spans:
        if start <= last_end:
            if end > last_end:
                last_end = end
        else:
            if last_end > last_start:
                out.append((last_start, last_end))
            last_start, last_end = start, end
    if last_end > last_start:
        out.append((last_start, last_end))
    return out


class Finder:
    """`str.find` (or a case-insensitive regex search) for one needle with a memory: queries from increasing
    positions cost O(n) in total."""

    def __init__(self, text: str, needle: str, end: int, ignore_case: bool = False):
        self.text, self.needle, self.end = text, needle, end
        self.pattern = re.compile(re.escape(needle), re.I) if ignore_case else None
        self.asked, self.found = -1, -1

    def __call__(self, position: int) -> int:
        if 0 <= self.asked <= position and (self.found < 0 or position <= self.found):
            return self.found  # the last search covered this position: same answer, no second scan
        self.asked = position
        if self.pattern is None:
            self.found = self.text.find(self.needle, position, self.end)
        else:
            m = self.pattern.search(self.text, position, self.end)
            self.found = m.start() if m else -1
        return self.found
