"""Every interface string in both languages: one source for pages, templates, scripts and PDFs.

Pages carry interface text in both languages, each in an element with `lang` and the class `codex-l10n`;
the stylesheet shows the reader's language only (see `both`). Scripts read the same table from
`assets/codex/labels.js`, generated from `LABELS` by `labels_script`.
"""
from __future__ import annotations

import html
import json

LANGS = ("en", "ru")
L10N_CLASS = "codex-l10n"  # the stylesheet hides an element of this class whose lang is not the reader's

LABELS: dict[str, dict[str, str]] = {
    # term pages
    "implies": {"en": "Implies", "ru": "Даёт"},
    "implied_by": {"en": "Implied by", "ru": "Следует из"},
    "cancels": {"en": "Cancels", "ru": "Отменяет"},
    "see_also": {"en": "See also", "ru": "См. также"},
    "related": {"en": "Related", "ru": "Связанные"},
    "referenced_by": {"en": "Referenced by", "ru": "Упоминается в"},
    "source": {"en": "Source", "ru": "Источник"},
    "aliases": {"en": "Also called", "ru": "Другие названия"},
    "page": {"en": "p.", "ru": "стр."},
    "definition": {"en": "Definition", "ru": "Определение"},
    "lang_name_en": {"en": "English", "ru": "английский"},
    "lang_name_ru": {"en": "Russian", "ru": "русский"},
    "via": {"en": "through", "ru": "через"},
    "supplied": {"en": "name supplied by the project: the source gives none",
                 "ru": "название дано проектом: в источнике его нет"},
    # the share block
    "share": {"en": "Share", "ru": "Поделиться"},
    "share_link": {"en": "Link", "ru": "Ссылка"},
    "share_copied": {"en": "Copied", "ru": "Скопировано"},
    # game indexes and the home page
    "by_en": {"en": "A–Z (English names)", "ru": "A–Z (английские названия)"},
    "by_ru": {"en": "А–Я (Russian names)", "ru": "А–Я (русские названия)"},
    "by_category": {"en": "By category", "ru": "По категориям"},
    "terms": {"en": "term terms", "ru": "термин термина терминов"},  # plural forms, see count()
    "download_pdf": {"en": "Download this glossary as PDF", "ru": "Скачать глоссарий в PDF"},
    # a short link that several terms share (homonyms)
    "shared_name": {"en": "Several terms share this name", "ru": "Это название носят несколько терминов"},
    # the language switch
    "language": {"en": "Language", "ru": "Язык"},
    # the printable (PDF) glossary
    "rules_glossary": {"en": "Rules glossary", "ru": "Глоссарий правил"},
    "contents": {"en": "Contents", "ru": "Содержание"},
    "sources": {"en": "Sources", "ru": "Источники"},
    "categories": {"en": "Categories", "ru": "Категории"},
    "category": {"en": "Category", "ru": "Категория"},
    "lang_ru": {"en": "Russian", "ru": "Русский"},
    "lang_en": {"en": "English", "ru": "Английский"},
    "print_note": {"en": "Terms are ordered A–Z by English name; underlined words link to their terms.",
                   "ru": "Термины упорядочены по английским названиям (A–Z); подчёркнутые слова — ссылки на термины."},
    # reading offline (the service worker; docs/assets/javascripts/offline.js fills in the {placeholders})
    "offline_app_short_name": {"en": "Rules Codex", "ru": "Кодекс"},  # the home-screen name (web app manifest)
    "offline_update": {"en": "A new version of this site is available.", "ru": "Доступна новая версия сайта."},
    "offline_reload": {"en": "Reload", "ru": "Обновить"},
    "offline_saved": {"en": "This game is saved on this device: its pages open without a network.",
                      "ru": "Эта игра сохранена на устройстве: её страницы открываются без сети."},
    "offline_keep": {"en": "Keep this game offline", "ru": "Сохранить игру для работы без сети"},
    "offline_keep_note": {"en": "Downloads {size} once. Without it, this game's pages open only online.",
                          "ru": "Один раз загрузит {size}. Без этого страницы игры открываются только при наличии сети."},
    "offline_saving": {"en": "Saving for offline use… {done} / {total}",
                       "ru": "Сохранение для работы без сети… {done} / {total}"},
    "offline_kept": {"en": "This game is kept on this device for reading offline.",
                     "ru": "Игра сохранена на этом устройстве для чтения без сети."},
    "offline_forget": {"en": "Remove it from this device", "ru": "Удалить с устройства"},
    "offline_failed": {"en": "Could not save the game ({error}). Try again when online.",
                       "ru": "Не удалось сохранить игру ({error}). Попробуйте ещё раз, когда будет сеть."},
    "offline_megabytes": {"en": "{n} MB", "ru": "{n} МБ"},
}

# Material's own interface strings that this site shows (its header, search, navigation, footer, code blocks):
# taken from the theme's language files at build time (hooks/glossary.py) as "material:<key>" in labels.js.
MATERIAL_KEYS = (
    "action.skip", "clipboard.copy", "clipboard.copied", "footer", "footer.next", "footer.previous", "header",
    "nav", "search", "search.placeholder", "search.reset", "search.share", "search.result.initializer",
    "search.result.placeholder", "search.result.none", "search.result.one", "search.result.other",
    "search.result.more.one", "search.result.more.other", "search.result.term.missing", "select.language", "toc",
    "top",
)

LOCALES = {"en": "en_US", "ru": "ru_RU"}
RELATION_SECTIONS = ("implies", "implied_by", "cancels", "see_also", "related", "referenced_by")


def label(key: str, lang: str) -> str:
    return LABELS[key][lang]


def other(lang: str) -> str:
    return "en" if lang == "ru" else "ru"


def count(number: int, key: str, lang: str) -> str:
    """"162 термина", "17 терминов", "1 term": the label's plural forms chosen by the language's rule."""
    forms = LABELS[key][lang].split()
    if lang == "ru":
        tens, ones = number % 100, number % 10
        form = forms[2] if 11 <= tens <= 14 else forms[0] if ones == 1 else forms[1] if 2 <= ones <= 4 else forms[2]
    else:
        form = forms[0] if number == 1 else forms[1]
    return f"{number} {form}"


def both(texts: dict[str, str], tag: str = "span", escape: bool = True) -> str:
    """Interface text in both languages, each in its own `lang` element; the stylesheet shows the reader's.

    `texts` is a {en, ru} mapping (a LABELS entry, or text composed per language); with `escape=False` it is HTML.
    """
    shown = {lang: html.escape(texts[lang]) if escape else texts[lang] for lang in LANGS}
    if shown["en"] == shown["ru"]:  # the same in both ("Mage Wars", "Markdown"): once, in the page's language
        return shown["en"]
    return "".join(f'<{tag} class="{L10N_CLASS}" lang="{lang}">{shown[lang]}</{tag}>' for lang in LANGS)


def both_label(key: str, tag: str = "span") -> str:
    return both(LABELS[key], tag)


def labels_script(extra: dict[str, dict[str, str]] | None = None) -> str:
    """`assets/codex/labels.js`: the same table for the site's scripts, as `window.codexLabels`."""
    table = {**LABELS, **(extra or {})}
    return "window.codexLabels = " + json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + ";\n"
