"""ASCII slugs for ids and short links, with Russian transliterated (Эгида -> egida)."""
from __future__ import annotations

import re
import unicodedata

_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "a b v g d e e zh z i y k l m n o p r s t u f kh ts ch sh shch _ y _ e yu ya".split(),
))


def transliterate(text: str) -> str:
    out = []
    for char in text.lower():
        latin = _CYRILLIC.get(char)
        out.append(char if latin is None else latin.strip("_"))
    return "".join(out)


def slugify(text: str) -> str:
    """Lower-case ASCII words joined by '-'; apostrophes vanish (Thorg’s -> thorgs)."""
    text = transliterate(text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"['’]", "", text)
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")
