"""Look-alike letters: a Cyrillic letter in English text, or a word that mixes Cyrillic and Latin letters.

Both scripts share shapes (Latin X and Cyrillic Х, Latin C and Cyrillic С), so a name typed on the wrong keyboard
looks right and yet is not found by search, does not link and gets a different short link. Russian text may quote
English names in Latin script ("Creature", "Aegis"): only a single word that mixes both scripts is suspect there.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# Letters that print alike in the two scripts, for the suggestion in the message.
_LATIN, _CYRILLIC = "ABCEHKMOPTXYaceopxy", "АВСЕНКМОРТХУасеорху"
CYRILLIC_FOR: dict[str, str] = dict(zip(_LATIN, _CYRILLIC))
LATIN_FOR: dict[str, str] = {**dict(zip(_CYRILLIC, _LATIN)), **dict(zip("іІјЈѕЅԁһҺ", "iIjJsSdhH"))}


# The two scripts by code point range: the letters a glossary can meet (no fullwidth or mathematical forms).
_CYRILLIC_RANGE = "\u0400-\u052f\u1c80-\u1c8f\u2de0-\u2dff\ua640-\ua69f"
_LATIN_RANGE = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
_CYRILLIC_CHAR = re.compile(f"[{_CYRILLIC_RANGE}]")
_LATIN_CHAR = re.compile(f"[{_LATIN_RANGE}]")
# A word mixing the scripts has a Latin letter next to a Cyrillic one: one C-speed search rules out almost all text.
_SCRIPTS_MEET = re.compile(f"[{_CYRILLIC_RANGE}][{_LATIN_RANGE}]|[{_LATIN_RANGE}][{_CYRILLIC_RANGE}]")


@dataclass(frozen=True)
class Lookalike:
    """One suspect letter: where it is in the text, the word around it, and what to do about it."""

    index: int
    word: str
    message: str  # "has the Cyrillic letter 'Х' (U+0425): use the Latin 'X'"


def script(char: str) -> str:
    """'cyrillic', 'latin' or '' for one character (letters only)."""
    if not char.isalpha():
        return ""
    return "cyrillic" if _CYRILLIC_CHAR.match(char) else "latin" if _LATIN_CHAR.match(char) else ""


def _words(text: str) -> Iterator[tuple[int, str]]:
    """(start, word) for each run of letters; one linear pass."""
    start = -1
    for i, char in enumerate(text):
        if char.isalpha():
            if start < 0:
                start = i
        elif start >= 0:
            yield start, text[start:i]
            start = -1
    if start >= 0:
        yield start, text[start:]


def _letter(char: str, kind: str) -> str:
    return f"the {kind} letter '{char}' (U+{ord(char):04X})"


def in_english(text: str) -> list[Lookalike]:
    """Every Cyrillic letter in English text."""
    if not _CYRILLIC_CHAR.search(text):
        return []
    found = []
    for start, word in _words(text):
        for offset, char in enumerate(word):
            if script(char) != "cyrillic":
                continue
            latin = LATIN_FOR.get(char)
            advice = f"use the Latin '{latin}'" if latin else "English text is written in Latin letters"
            found.append(Lookalike(start + offset, word, f"has {_letter(char, 'Cyrillic')}: {advice}"))
    return found


def in_russian(text: str, allowed: frozenset[str] = frozenset()) -> list[Lookalike]:
    """The intruding letters of each word that mixes scripts: Latin letters in a mostly Cyrillic word, Cyrillic
    letters in a mostly Latin one (an English name quoted in Russian text). Words in `allowed` are skipped."""
    if not _SCRIPTS_MEET.search(text):
        return []
    found = []
    for start, word in _words(text):
        scripts = [script(char) for char in word]
        cyrillic, latin = scripts.count("cyrillic"), scripts.count("latin")
        if not cyrillic or not latin or word in allowed:
            continue
        intruder = "latin" if cyrillic >= latin else "cyrillic"
        for offset, char in enumerate(word):
            if scripts[offset] != intruder:
                continue
            if intruder == "latin":
                other = CYRILLIC_FOR.get(char)
                advice = f"use the Cyrillic '{other}'" if other else "retype the word in Cyrillic"
                message = f"has {_letter(char, 'Latin')} inside a Russian word: {advice}"
            else:
                other = LATIN_FOR.get(char)
                advice = f"use the Latin '{other}'" if other else "retype the word in Latin letters"
                message = f"has {_letter(char, 'Cyrillic')} inside a Latin word: {advice}"
            found.append(Lookalike(start + offset, word, message))
    return found


def mixed_words(text: str) -> set[str]:
    """The words of a text that mix Cyrillic and Latin letters."""
    if not _SCRIPTS_MEET.search(text):
        return set()
    return {word for _, word in _words(text) if len({script(c) for c in word} - {""}) == 2}
