"""Program code pasted without a code fence: its lines are code, never a term ("def expected(dice, armor):")."""
from __future__ import annotations

import re

from .spans import Spans

# A line that only code begins so: a definition ("def expected(dice, armor, piercing=0):", "class Card:"), an import,
# a loop header over a name or a call, the line ending at its colon ("for armor in range(4):"), a print call, an
# augmented assignment ("total += max(0, armor - piercing)"). Issue 20, round 12: a notebook pasted into a post gave 8
# false links in one set; every line of this shape in the eighteen annotated sets is code, none holds a gold mention.
# Prose that merely starts so ("return the creature", "if Burn is on:", "for creatures in play: Armor 2") is not
# matched. The pattern begins with the line break (searched for at C speed; the text gets one in front) and its runs
# are possessive: each line is read a bounded number of times.
_CODE_LINE = re.compile(
    r"\n[ \t]*+(?:def[ \t]++\w++[ \t]*+\(|class[ \t]++\w++[ \t]*+[(:]"
    r"|import[ \t]++[\w.]++(?:[ \t]*+,[ \t]*+[\w.]++)*+[ \t]*+(?=\n|\Z)|from[ \t]++[\w.]++[ \t]++import[ \t]"
    r"|for[ \t]++\w++(?:[ \t]*+,[ \t]*+\w++)*+[ \t]++in[ \t]++[\w.]++(?:\([^\n]*\))?:[ \t]*+(?:#[^\n]*+)?(?=\n|\Z)"
    r"|print\(|\w++(?:\.\w++)*+[ \t]*+[-+*/]=[ \t])[^\n]*+")


def code_line_spans(text: str) -> Spans:
    """Each line of pasted program code, whole."""
    if "(" not in text and "=" not in text and "import" not in text and "class" not in text:
        return []
    return [(m.start(), m.end() - 1) for m in _CODE_LINE.finditer("\n" + text)]
