"""Names given in quotes to a club, a team or an event, and a forum rank under a poster's name: never a term
(«клуба «Третий ключ»», team "Three Keys in a Trenchcoat", «Турнир по KeyForge «Зимний ключ»», "Sr. Mage")."""
from __future__ import annotations

import re
from itertools import compress
from operator import itemgetter

from .components import trie_pattern
from .markup import Spans
from .mention import Mention

# Issue 20, round 13: a KeyForge club, team or tournament named in quotes after the word for it held a Key in three
# sets (four false links) and never a gold mention; a quoted card text or rules word after any other word stays a
# mention («способностью «Бой: лечит 2 урона»», «называется «Ожог»»). One pass finds the words for named things
# right before an opening quote (or before "по KeyForge «", "of Ghent \""); the quote starts a name
# when it closes on the same line within NAME_CHARS: each costs a bounded look (linear).
_WORDS = "клуб турнир команд лиг кафе club team tournament league cafe café".split()
# Literal alternatives (each word as written, capitalised and in capitals) so the regex engine skips ahead by their
# first letters; re.IGNORECASE would have it try every position (1.5 ms for a 10 KB post, against 0.1 ms).
_NAMERS = re.compile("(?:" + "|".join(sorted({re.escape(v) for w in _WORDS for v in (w, w.capitalize(), w.upper())},
                                             key=len, reverse=True)) + ")"
                     r"\w{0,3}(?:[ \t]+(?:по|of|at)[ \t]+[^\s«\"“]{1,30})?[ \t]+(?=[«\"“])")
_CLOSERS = {"«": "»", '"': '"', "“": "”"}
NAME_CHARS = 60
# Round 15: a forum rank abbreviated under a poster's name ("Jr. Mage", "Sr. Mage" on the publisher's forum: 5 false
# links in real21 and real24, none of the corpora's Jr./Sr. a gold mention). Spelled-out ranks ("Senior Mage") are
# the glossary's not-mentions; an abbreviation's full stop breaks a phrase, so this one is found here. Literal-led.
_RANK = re.compile(r"(?:Jr|Sr|JR|SR)\.[ \t]*[A-Z][\w'’-]*")
# Round 16: the forum's first rank, "New Mage", on its own line under a poster's name (real25, real27: 2 false links);
# a not-mention could not hold it, as it would swallow "a shiny new mage" (real8, a gold Mage). Literal-led.
_NEW_RANK = re.compile(r"New Mage(?=[ \t]*(?:\n|\Z))")
_LINE_LEAD = frozenset(" \t•*·-")  # what may stand before a rank on its line: a list's bullet
# Round 16: a talk's slide heading in its speaker notes ("SLIDE 4 — Moving.", "Slide 3: One round": real17, real18 —
# 8 false links of D&D's Slide in one passage); a slide of a figure is never numbered at a line's start. Literal-led.
_SLIDE = re.compile(r"(?:SLIDE|Slide)[ \t]+\d+(?=[ \t]*[—–:.-])")
# Round 19: a sale listing's "Condition:" field at a line's start ("Condition: Used — like new", "Condition: Very
# Good"): 14 such lines in the read sets, none a gold mention (the gold "one stack per condition: burn, corrode" is
# lower case in mid-sentence); Mage Wars' conditions are its game's. Literal-led.
_CONDITION_FIELD = re.compile(r"Condition(?=[ \t]*:)")
# Labels that stand alone at a line's start, each with the literals it cannot match without (a C-speed check first)
_LINE_LABELS = ((("New Mage",), _NEW_RANK), (("SLIDE", "Slide"), _SLIDE), (("Condition",), _CONDITION_FIELD))


def _alone_on_its_line(text: str, start: int) -> bool:
    """Only a bullet or spaces stand between the line's start and `start` (a bounded look back)."""
    line_start = text.rfind("\n", max(0, start - 8), start) + 1
    return (line_start > 0 or start < 8) and all(c in _LINE_LEAD for c in text[line_start:start])


def named_spans(text: str) -> Spans:
    """Each quoted name right after the word for a club, a team or an event, with its quotes; each abbreviated
    rank ("Sr. Mage"), each "New Mage" alone on its line, each numbered slide heading and each listing's
    "Condition:" field at a line's start."""
    ranks = [m.span() for m in _RANK.finditer(text) if m.start() == 0 or not text[m.start() - 1].isalnum()]
    for literals, label in _LINE_LABELS:
        if any(literal in text for literal in literals):
            ranks.extend(m.span() for m in label.finditer(text) if _alone_on_its_line(text, m.start()))
    ranks.sort()
    if "«" not in text and '"' not in text and "“" not in text:
        return ranks
    spans: Spans = []
    for m in _NAMERS.finditer(text):  # each ends right before an opening quote (the look-ahead)
        at = m.end()
        if (m.start() > 0 and text[m.start() - 1].isalnum()) or (spans and at < spans[-1][1]):
            continue  # the word's tail ("steam"), or inside the name just taken
        opener = text[at]
        close = text.find(_CLOSERS[opener], at + 1, at + 2 + NAME_CHARS)
        if close > 0 and text[at + 1:at + 2].isupper() and "\n" not in text[at:close]:
            spans.append((at, close + 1))
    return sorted(spans + ranks) if ranks else spans


# Round 17: a Russian word capitalised after another capitalised word in mid-sentence is a name's, not a term's: a
# KeyForge deck's name translated word by word («Гардиан Пятый, Кузнец Ржавых Ключей», «Хранитель Чужих Ключей»:
# 2 false links in real24 and real31; in every corpus no gold Russian mention stands so). Russian capitalises a
# title's first word only, so the second capital marks a proper name.
_CAPITAL_WORD_BEFORE = re.compile(r"(?<![\w'’-])([А-ЯЁ][\w'’-]*)[ \t]+\Z")
_SENTENCE_OPENERS = frozenset(".!?:;«\"“(—–-\n")
_CYRILLIC_CAPITALS = frozenset("АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ")


# Round 18: KeyForge's "Key", capitalised in mid-sentence beside another capitalised word, is a name's word too — a
# deck's, a team's, a newsletter's, a card's as players bend it ("the Unforgiven Key", "Three Keys Short", "**Second
# Key**", "got Key Hammered", "one Key Abdution": 6 false links in five sets, and no gold "Key" stood so). English
# capitalises every word of a title, so only this word, the game's commonest, is read so (round 17:
# title case as such cost 21 gold links for 6 false ones).
_KEY_TERMS = frozenset({"keys"})
_CAPITAL_WORD_AFTER = re.compile(r"[ \t]+([A-Z][\w'’-]*)")
_LATIN_CAPITAL_WORD_BEFORE = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*[ \t]+\Z")


# Round 19: any capitalised English mention beside a word that names an event, a group or a series ("Tuesday Night
# Skirmish", "DDM Classic Skirmish", "Classic Skirmish Society", "Skirmish Basics #4", "Iron Hearth Winter Melee",
# "The Forge Collective", "Tuesday Forge Night": 11 false links in ten sets; no gold mention of any corpus stands beside
# one). A closed list, unlike title case as such (round 17), which met a card's name beside every term.
_EVENT_WORDS = frozenset("""
    Night Nights Society Group Club League Collective Basics Classic Cup Championship Championships Series Podcast
    Meetup Monthly Weekly Tournament Winter Summer Autumn Minis Miniatures
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday
    """.split())
_LATIN_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
# One C-speed scan finds the event words (a trie of literals); only the few found are looked at, each with a bounded
# look at the spaces beside it: mention-dense text with no event word pays one scan.
_EVENT_WORD = re.compile(trie_pattern((), sorted(_EVENT_WORDS)))
_NAME_JOINERS = frozenset("'’-&")
EVENT_GAP = 8  # spaces or tabs that may stand between a mention and the event word beside it


def _event_words(text: str) -> list[tuple[int, int]]:
    """Where each event word stands as a word of its own (not inside "D&D-Night" or "Tuesday's")."""
    return [hit.span() for hit in _EVENT_WORD.finditer(text)
            if not (hit.start() and (text[hit.start() - 1].isalnum() or text[hit.start() - 1] in _NAME_JOINERS))
            and text[hit.end():hit.end() + 1] not in _NAME_JOINERS]


def _beside_event_words(text: str, found: list[Mention], latin: list[int], hits: list[tuple[int, int]],
                        starts: set[int]) -> set[int]:
    """The capitalised mentions (indices in `latin`) right before or after an event word (`hits`) that is no mention
    itself (`starts`: every mention's start)."""
    ending_at = {found[i].end: i for i in latin}
    starting_at = {found[i].start: i for i in latin}
    out = set()
    for start, end in hits:
        if start in starts:
            continue  # the word is a mention of its own
        before = start
        while before > max(0, start - EVENT_GAP) and text[before - 1] in " \t":
            before -= 1
        if before < start and before in ending_at:
            out.add(ending_at[before])
        after = end
        while after < min(len(text), end + EVENT_GAP) and text[after] in " \t":
            after += 1
        if after > end and after in starting_at:
            out.add(starting_at[after])
    return out


def _mid_sentence(text: str, start: int) -> bool:
    """The word at `start` neither opens the text, a line nor a sentence (a bounded look back)."""
    opener = text[max(0, start - 16):start].rstrip(" \t")[-1:]
    return bool(opener) and opener not in _SENTENCE_OPENERS


def untitled(text: str, found: list[Mention]) -> list[Mention]:
    """The mentions less a capitalised Russian word after a capitalised word that does not open a sentence ("Кузнец
    Ржавых Ключей"), a capitalised KeyForge "Key" beside one in mid-sentence ("the Unforgiven Key") and any
    capitalised English mention beside an event's or a group's word ("Tuesday Night Skirmish"): a name's words. A
    C-speed pass picks the capitalised mentions; a bounded look around each (or each event word): linear."""
    firsts = list(map(itemgetter(0), map(itemgetter(2), found)))
    capitalised = compress(range(len(found)), map(_CYRILLIC_CAPITALS.__contains__, firsts))
    names = set()
    for i in capitalised:
        m = found[i]
        before = _CAPITAL_WORD_BEFORE.search(text, max(0, m.start - 32), m.start)
        if before is not None and _mid_sentence(text, before.start()):  # not a line's or a sentence's first word
            names.add(i)
    keys = [i for i in compress(range(len(found)), map("K".__eq__, firsts)) if found[i].term in _KEY_TERMS]
    events = _event_words(text)  # one C-speed scan; most texts have none, and then nothing below is built
    if keys or events:
        starts = set(map(itemgetter(0), found))
        names.update(i for i in keys if _keys_in_a_title(text, found[i], starts))
        if events:
            latin = list(compress(range(len(found)), map(_LATIN_CAPITALS.__contains__, firsts)))
            names.update(_beside_event_words(text, found, latin, events, starts))
    return [m for i, m in enumerate(found) if i not in names] if names else found


def _keys_in_a_title(text: str, m: Mention, starts: set[int]) -> bool:
    """"Key" beside a capitalised word that is no mention of its own, the pair in mid-sentence (bounded looks)."""
    before = _LATIN_CAPITAL_WORD_BEFORE.search(text, max(0, m.start - 32), m.start)
    if before is not None and before.start() not in starts and _mid_sentence(text, before.start()):
        return True
    after = _CAPITAL_WORD_AFTER.match(text, m.end, m.end + 32)
    return after is not None and after.start(1) not in starts and _mid_sentence(text, m.start)
