"""Every interface string in both languages: one source for pages, templates, scripts and PDFs."""
from __future__ import annotations

LABELS = {
    "implies": {"en": "Implies", "ru": "Даёт"},
    "implied_by": {"en": "Implied by", "ru": "Следует из"},
    "cancels": {"en": "Cancels", "ru": "Отменяет"},
    "see_also": {"en": "See also", "ru": "См. также"},
    "referenced_by": {"en": "Referenced by", "ru": "Упоминается в"},
    "source": {"en": "Source", "ru": "Источник"},
    "aliases": {"en": "Also called", "ru": "Другие названия"},
    "page": {"en": "page", "ru": "стр."},
    "by_en": {"en": "A–Z (English names)", "ru": "A–Z (английские названия)"},
    "by_ru": {"en": "А–Я (Russian names)", "ru": "А–Я (русские названия)"},
    "by_category": {"en": "By category", "ru": "По категориям"},
    "terms": {"en": "term terms", "ru": "термин термина терминов"},  # plural forms, see count()
    "supplied": {"en": "name supplied by the project: the source gives none",
                 "ru": "название дано проектом: в источнике его нет"},
    "download_pdf": {"en": "Download this glossary as PDF", "ru": "Скачать глоссарий в PDF"},
    "share": {"en": "Share", "ru": "Поделиться"},
    "copy_link": {"en": "Link", "ru": "Ссылка"},
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
    # the linker (CLI messages and the widget; the widget still has its own Russian copies until the bilingual pass)
    "linker_auto": {"en": "Auto", "ru": "Авто"},
    "linker_auto_detected": {"en": "Auto: {game}", "ru": "Авто: {game}"},
    "linker_auto_none": {"en": "Auto: no game recognised", "ru": "Авто: игра не распознана"},
    "linker_no_game": {"en": "no game recognised in the text (no term of any game, or a tie): nothing linked; "
                             "choose one with --game",
                       "ru": "игра не распознана (нет терминов ни одной игры или ничья): ссылки не добавлены; "
                             "укажите её через --game"},
    "linker_traits_no_game": {"en": "no game recognised from these traits; choose one with --game",
                              "ru": "по этим чертам игра не распознана; укажите её через --game"},
    "linker_all_cancelled": {"en": "every trait is cancelled", "ru": "все черты взаимно отменяются"},
    "linker_cancelled": {"en": "cancelled: {term} (by {by})", "ru": "отменена: {term} (её отменяет {by})"},
    "linker_worker_failed": {"en": "Error: the linker's background process stopped ({reason}). Restarting it…",
                             "ru": "Ошибка: фоновый процесс связывателя остановился ({reason}). Перезапускаю…"},
    "linker_timeout": {"en": "no answer within {seconds} s", "ru": "нет ответа за {seconds} с"},
}

LOCALES = {"en": "en_US", "ru": "ru_RU"}
RELATION_SECTIONS = ("implies", "implied_by", "cancels", "see_also", "referenced_by")


def label(key: str, lang: str) -> str:
    return LABELS[key][lang]


def count(number: int, key: str, lang: str) -> str:
    """"162 термина", "17 терминов", "1 term": the label's plural forms chosen by the language's rule."""
    forms = LABELS[key][lang].split()
    if lang == "ru":
        tens, ones = number % 100, number % 10
        form = forms[2] if 11 <= tens <= 14 else forms[0] if ones == 1 else forms[1] if 2 <= ones <= 4 else forms[2]
    else:
        form = forms[0] if number == 1 else forms[1]
    return f"{number} {form}"


