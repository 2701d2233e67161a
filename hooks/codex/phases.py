"""The round's phases named in order: "Reset, Channeling, Upkeep, Planning", «Initiative → Reset → Channeling →
Upkeep» name Mage Wars' Channeling Phase and Upkeep Phase (the glossary's not-mentions), not the Channeling and Upkeep
traits a creature or a mage has."""
from __future__ import annotations

import re

from .mention import Mention

# Round 16: three teaching notes in the read sets list the round this way (real9, real17, real18: 6 false links, none
# gold); no gold Channeling or Upkeep stood next to another phase's name across a list's separator.
PHASE_TERMS = frozenset({"channeling", "upkeep"})  # Mage Wars' traits named like a phase
PHASE_WORDS = frozenset("initiative reset channeling upkeep planning deployment quickcast actions action".split())
_SEPARATOR = r"[ \t]*(?:,|→|->|=>|>|—|–|-|\|)[ \t]*"
_NOTE = r"(?:[ \t]*\([^()\n]{0,60}\))?"  # a phase's note in brackets: «Channeling (маг получает ману) → Upkeep»
_BEFORE = re.compile(r"(\w+)" + _NOTE + _SEPARATOR + r"\Z")  # the phase before, read back over a short slice
_AFTER = re.compile(_NOTE + _SEPARATOR + r"(\w+)")
PHASE_CHARS = 80


def unphased(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less each Channeling or Upkeep named beside another phase of the round, across a list's
    separator. Two bounded looks per such mention: linear."""
    if not any(m.term in PHASE_TERMS for m in found):
        return found
    return [m for m in found if m.term not in PHASE_TERMS or not _in_phase_list(text, m)]


def _in_phase_list(text: str, m: Mention) -> bool:
    before = _BEFORE.search(text, max(0, m.start - PHASE_CHARS), m.start)
    after = _AFTER.match(text, m.end, m.end + PHASE_CHARS)
    return any(hit is not None and hit.group(1).lower() in PHASE_WORDS and hit.group(1).lower() != m.text.lower()
               for hit in (before, after))
