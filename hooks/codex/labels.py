"""Every interface string in both languages: one source for pages, templates, scripts and PDFs.

Pages carry interface text in both languages, each in an element with `lang` and the class `codex-l10n`;
the stylesheet shows the reader's language only (see `both`). Scripts read the same table from
`assets/codex/labels.js`, generated from `LABELS` by `labels_script`.
"""
from __future__ import annotations

import html
import json

from .model import LANGS as LANGS  # one list of languages (re-exported: pages and scripts take it from here)
from .model import Lang

L10N_CLASS = "codex-l10n"  # the stylesheet hides an element of this class whose lang is not the reader's

LABELS: dict[str, dict[str, str]] = {
    # term pages
    "implies": {"en": "Implies", "ru": "Даёт"},
    "implied_by": {"en": "Implied by", "ru": "Следует из"},
    "cancels": {"en": "Cancels", "ru": "Отменяет"},
    "see_also": {"en": "See also", "ru": "См. также"},
    "related": {"en": "Related", "ru": "Связанные"},  # editorial links (Term.related), not stated by the text
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
    # the site's own chrome (header, footer, titles; Material's parts: codex.chrome, overrides/)
    "site_name": {"en": "Rules Codex", "ru": "Кодекс правил"},
    "site_description": {"en": "A bilingual (Russian/English) rules glossary for board games: Mage Wars, "
                               "D&D Miniatures, KeyForge.",
                         "ru": "Двуязычный (русский/английский) глоссарий правил настольных игр — Mage Wars, "
                               "D&D Miniatures, KeyForge."},
    "copyright": {"en": "Rules texts belong to their rights holders; the English translations and the code, "
                        "to the Rules Codex project.",
                  "ru": "Тексты правил — их правообладателям; английские переводы и код — проекта Rules Codex."},
    "made_with": {"en": "Made with {link}", "ru": "Сделано на {link}"},
    "palette_dark": {"en": "Dark theme", "ru": "Тёмная тема"},  # the toggle shown in the light scheme
    "palette_light": {"en": "Light theme", "ru": "Светлая тема"},
    "progress": {"en": "Loading the page", "ru": "Загрузка страницы"},  # instant navigation's progress bar
    "game_description": {"en": "{game}: the rules glossary in Russian and English, {terms}.",
                         "ru": "{game}: глоссарий правил на русском и английском, {terms}."},
    # the home page (docs/index.md: overrides/partials/home.html, rendered by codex.site_pages.home_page)
    "home_intro": {"en": "A bilingual rules glossary for board games: every term in Russian and English, "
                         "cross-linked to every term its definition mentions.",
                   "ru": "Двуязычный глоссарий правил настольных игр: каждый термин — на русском и на английском, "
                         "с перекрёстными ссылками на все термины, которые упоминает его определение."},
    "home_games": {"en": "Games", "ru": "Игры"},
    "home_linker": {"en": "Term links for forum posts", "ru": "Ссылки на термины для форума"},
    "home_linker_text": {"en": "Paste a forum post and get it back with every term linked (Markdown, BBCode or "
                               "HTML): {link}.",
                         "ru": "Вставьте сообщение для форума — и получите его обратно со ссылкой на каждый термин "
                               "(Markdown, BBCode или HTML): {link}."},
    "home_linker_link": {"en": "open the linker", "ru": "расставить ссылки"},
    "home_offline": {"en": "Offline", "ru": "Офлайн"},
    "home_offline_text": {"en": "Each glossary can be downloaded as a PDF: the link is on its game's page.",
                          "ru": "Каждый глоссарий можно скачать в PDF — ссылка на странице игры."},
    "home_install": {"en": "Install the site on your phone as an app (the browser's menu: Install app, or Add to Home "
                           "Screen): after one visit online, every term, the game indexes and search work without a "
                           "network; the linker too, once you have opened it online.",
                     "ru": "Сайт можно установить на телефон как приложение (меню браузера: «Установить приложение» или "
                           "«На экран „Домой“»): после одного посещения с сетью все термины, указатели игр и поиск "
                           "работают без сети, а связыватель — после того, как вы хоть раз открыли его с сетью."},
    # the 404 page (overrides/404.html)
    "not_found": {"en": "Page not found", "ru": "Страница не найдена"},
    "not_found_text": {"en": "There is no page at this address. It may have moved: try the search, or start again "
                             "from the home page.",
                       "ru": "По этому адресу страницы нет. Возможно, она переехала: воспользуйтесь поиском или "
                             "начните с главной страницы."},
    "not_found_home": {"en": "Go to the home page", "ru": "На главную"},
    # the linker page (docs/linker.md: overrides/partials/linker.html, rendered by codex.site_pages.linker_page)
    "linker_title": {"en": "Term linker", "ru": "Расстановка ссылок на термины"},
    "linker_description": {"en": "Paste a forum post and get it back with a link on every glossary term.",
                           "ru": "Вставьте сообщение с форума — получите его обратно со ссылками на каждый термин "
                                 "глоссария."},
    "linker_intro": {"en": "Paste a forum post and get it back with every glossary term linked to its entry. Choose "
                           "the game and the format (Markdown, BBCode or HTML), copy the result and post it.",
                     "ru": "Вставьте сообщение с форума — и получите его обратно, где каждый термин глоссария стал "
                           "ссылкой на свою статью. Выберите игру и формат (Markdown, BBCode или HTML), скопируйте "
                           "результат и публикуйте."},
    "linker_loading": {"en": "Loading…", "ru": "Загрузка…"},
    "linker_noscript": {"en": "This page needs JavaScript.", "ru": "Для работы страницы нужен JavaScript."},
    "linker_game": {"en": "Game", "ru": "Игра"},
    "linker_format": {"en": "Format", "ru": "Формат"},
    "linker_format_markdown": {"en": "Markdown", "ru": "Markdown"},
    "linker_format_bbcode": {"en": "BBCode (BoardGameGeek, forums)", "ru": "BBCode (BoardGameGeek, форумы)"},
    "linker_format_html": {"en": "HTML", "ru": "HTML"},
    "linker_every": {"en": "link every mention, not only the first",
                     "ru": "ссылка на каждое упоминание, а не только на первое"},
    "linker_input": {"en": "Your text", "ru": "Исходный текст"},
    "linker_input_placeholder": {
        "en": "Paste a forum post here, for example: “Conjuration is Nonliving, so it has Poison Immunity — "
              "is Burn no danger to it?”",
        "ru": "Вставьте сюда сообщение с форума, например: «Conjuration — это Nonliving, так что у неё Poison "
              "Immunity, а Горение ей не страшно?»"},
    "linker_output": {"en": "Linked text", "ru": "Текст со ссылками"},
    "linker_copy": {"en": "Copy", "ru": "Копировать"},
    "linker_preview": {"en": "Preview", "ru": "Предпросмотр"},
    "linker_preview_empty": {"en": "The linked text will appear here.", "ru": "Здесь появится текст со ссылками."},
    "linker_lookup_heading": {"en": "Find a term", "ru": "Найти термин"},
    "linker_lookup_help": {"en": "Type a name in Russian or English, with a typo or a number if you like "
                                 "({examples}).",
                           "ru": "Наберите название по-русски или по-английски, можно с опечаткой или с числом "
                                 "({examples})."},
    "linker_lookup": {"en": "Term name", "ru": "Название термина"},
    "linker_lookup_placeholder": {"en": "for example, Burn or Эгида 2", "ru": "например, Burn или Эгида 2"},
    "linker_traits_heading": {"en": "Traits and what follows from them", "ru": "Черты и их следствия"},
    "linker_traits_help": {"en": "List traits separated by commas: you see every trait that follows from them (with "
                                 "the chain) and the pairs that cancel each other.",
                           "ru": "Перечислите черты через запятую — увидите все черты, которые из них следуют (с "
                                 "цепочкой вывода), и пары, которые друг друга отменяют."},
    "linker_traits": {"en": "Traits, separated by commas", "ru": "Черты через запятую"},
    "linker_traits_placeholder": {"en": "for example, Conjuration, Flying", "ru": "например, Conjuration, Flying"},
    "linker_privacy": {"en": "Everything runs in your browser: Python (Pyodide) and the glossaries load from this "
                             "site, and your text is sent nowhere.",
                       "ru": "Всё работает прямо в браузере: Python (Pyodide) и глоссарии загружаются с этого же "
                             "сайта, а ваш текст никуда не отправляется."},
    # ... and the widget's messages, for linker.js, linker-client.js and linker-worker.js ({name}: a value the script fills in)
    "linker_ready": {"en": "ready", "ru": "готово"},
    "linker_ready_label": {"en": "Ready: Python is running, glossaries loaded ({count}). Paste a text and the "
                                 "links appear at once.",
                           "ru": "Готово: Python запущен, глоссарии загружены ({count}). Вставьте текст — ссылки "
                                 "появятся сразу."},
    "linker_first_start": {"en": "The first start takes a few seconds (Python is loading); after that it comes "
                                 "from the browser's cache.",
                           "ru": "Первый запуск занимает несколько секунд (загружается Python), дальше — из кэша "
                                 "браузера."},
    "linker_starting": {"en": "Starting the background worker…", "ru": "Запуск фонового процесса…"},
    "linker_loading_python": {"en": "Loading Python…", "ru": "Загрузка Python…"},
    "linker_loading_codex": {"en": "Loading the codex module…", "ru": "Загрузка модуля codex…"},
    "linker_preparing": {"en": "Preparing the indexes…", "ru": "Подготовка указателей…"},
    "linker_error": {"en": "Error: {message}", "ru": "Ошибка: {message}"},
    "linker_error_loading": {"en": "Loading failed: {message}", "ru": "Ошибка загрузки: {message}"},
    "linker_error_wasm": {"en": "Error: this browser does not support WebAssembly (or it is turned off), and Python "
                                "cannot run without it. Open the page in a recent Firefox, Chrome, Edge or Safari.",
                          "ru": "Ошибка: этот браузер не поддерживает WebAssembly (или он отключён), а без него "
                                "Python не запустить. Откройте страницу в свежей версии Firefox, Chrome, Edge или "
                                "Safari."},
    "linker_error_workers": {"en": "Error: this browser does not support Web Workers, and the linker cannot work "
                                   "without them.",
                             "ru": "Ошибка: этот браузер не поддерживает Web Workers, без них связыватель не "
                                   "работает."},
    "linker_error_file": {"en": "The linker needs the site from a web server: browsers run no module Web Worker "
                                "from a file on disk (file://). Everything else in this copy works offline.",
                          "ru": "Связывателю нужен сайт с веб-сервера: браузеры не запускают модульные Web Workers "
                                "из файла на диске (file://). Всё остальное в этой копии работает офлайн."},
    "linker_error_worker_start": {"en": "Error: could not start a Web Worker ({message}).",
                                  "ru": "Ошибка: не удалось запустить Web Worker ({message})."},
    "linker_error_worker_failed": {"en": "Error: the background worker did not start{details}. The browser may not "
                                         "support module Web Workers: please update it.",
                                   "ru": "Ошибка: фоновый процесс не запустился{details}. Возможно, браузер не "
                                         "поддерживает модульные Web Workers — обновите его."},
    "linker_error_pyodide": {"en": "could not load Pyodide ({url}): {message}",
                             "ru": "не удалось загрузить Pyodide ({url}): {message}"},
    "linker_error_codex": {"en": "the codex module did not load{details} ({message})",
                           "ru": "модуль codex не загрузился{details} ({message})"},
    "linker_error_fetch": {"en": "could not load {url} ({reason})", "ru": "не удалось загрузить {url} ({reason})"},
    "linker_not_running": {"en": "Python is not running", "ru": "Python не запущен"},
    "linker_nothing_found": {"en": "Nothing found.", "ru": "Ничего не найдено."},
    "linker_parameter": {"en": "parameter: {value}", "ru": "параметр: {value}"},
    "linker_score": {"en": "Match score", "ru": "Степень совпадения"},
    "linker_traits_found": {"en": "Traits (with the chain):", "ru": "Черты (с цепочкой вывода):"},
    "linker_given": {"en": "given", "ru": "задана"},
    "linker_cancel_each_other": {"en": "Cancel each other:", "ru": "Взаимно отменяются:"},
    "linker_unknown": {"en": "Not in the glossary: {names}", "ru": "Не найдены в глоссарии: {names}"},
    "linker_no_traits": {"en": "No traits.", "ru": "Нет черт."},
    "linker_copied": {"en": "Copied", "ru": "Скопировано"},
    # the links made, under the output: one checkbox each, to drop a wrong one (linker.js, renderLinks)
    "linker_links": {"en": "Links", "ru": "Ссылки"},
    "linker_links_help": {"en": "A wrong link? Untick it: the word stays plain text (the term's next mention takes "
                                "the link).",
                          "ru": "Ссылка не к месту? Снимите флажок — слово останется простым текстом (ссылку получит "
                                "следующее упоминание термина)."},
    "linker_links_to": {"en": "links to", "ru": "ссылка на"},
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
    # the linker (CLI messages and the widget)
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
    # shown as linker_error's {message}: "Error: the linker's background process stopped …"
    "linker_worker_failed": {"en": "the linker's background process stopped ({reason}). Restarting it…",
                             "ru": "фоновый процесс связывателя остановился ({reason}). Перезапускаю…"},
    "linker_timeout": {"en": "no answer within {seconds} s", "ru": "нет ответа за {seconds} с"},
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
    # the codex on other sites (codex.webapi: embed.js, the bookmarklet; the /embed/ page: codex.site_pages)
    "embed_open": {"en": "Open", "ru": "Открыть"},
    "bookmarklet_no_box": {"en": "Rules Codex: click into the reply box first",
                           "ru": "Кодекс правил: сначала щёлкните в поле ответа"},
    "embed_title": {"en": "On your forum", "ru": "На вашем форуме"},
    "embed_description": {"en": "Term cards on any forum or blog with one script tag, a JSON API, oEmbed, and "
                                "linking from the phone's share sheet.",
                          "ru": "Карточки терминов на любом форуме или в блоге — одной строкой, JSON API, oEmbed и "
                                "ссылки из меню «Поделиться» телефона."},
    "embed_intro": {"en": "Add one line to your forum, blog or site and every link to a term of this glossary shows "
                          "its card: both names, the game and category, the definition's first paragraph in the "
                          "reader's language, and a parameter from the link's text (Aegis 2: X = 2).",
                    "ru": "Добавьте одну строку на форум, в блог или на сайт — и у каждой ссылки на термин этого "
                          "глоссария появится карточка: оба названия, игра и категория, первый абзац определения на "
                          "языке читателя и параметр из текста ссылки (Aegis 2: X = 2)."},
    "embed_add": {"en": "Add the script", "ru": "Подключение"},
    "embed_add_text": {"en": "Put this line in your page's template (before </body>). It needs no configuration and "
                             "no inline script, so a strict Content-Security-Policy only has to allow this site in "
                             "script-src and connect-src.",
                       "ru": "Вставьте эту строку в шаблон страницы (перед </body>). Настраивать ничего не нужно, "
                             "встроенных скриптов нет: строгой Content-Security-Policy достаточно разрешить этот сайт "
                             "в script-src и connect-src."},
    "embed_lang_text": {"en": "The card follows the page's lang attribute, then the link's #en or #ru, then the "
                              "browser's language; data-lang=\"en\" or data-lang=\"ru\" on the tag fixes it.",
                        "ru": "Язык карточки — из атрибута lang страницы, затем из #ru или #en в ссылке, затем из "
                              "языка браузера; data-lang=\"ru\" или data-lang=\"en\" на теге задаёт его явно."},
    "embed_how": {"en": "How readers use it", "ru": "Как это работает"},
    "embed_how_text": {"en": "Mouse: rest on a link, the card appears; move onto it to use Open. Keyboard: focus a "
                             "link, the card appears and is read out; Escape closes it. Touch: the first tap shows "
                             "the card, a second tap or Open opens the page, a tap elsewhere closes it. Links added "
                             "later (new posts) work too.",
                       "ru": "Мышь: задержите указатель на ссылке — появится карточка; наведите на неё, чтобы нажать "
                             "«Открыть». Клавиатура: фокус на ссылке показывает карточку и зачитывает её; Escape "
                             "закрывает. Касание: первое касание показывает карточку, второе или «Открыть» — "
                             "открывает страницу, касание в другом месте закрывает. Ссылки, добавленные позже (новые "
                             "сообщения), тоже работают."},
    "embed_safe_text": {"en": "The card lives in its own shadow root (your styles stay yours), follows light and dark "
                              "mode, loads no fonts or images, and reads nothing from your page but the links. It "
                              "fetches one small file per game, once.",
                        "ru": "Карточка живёт в собственном shadow root (стили вашей страницы не меняются), следует "
                              "светлой и тёмной теме, не загружает шрифтов и картинок и не читает со страницы ничего, "
                              "кроме ссылок. Она загружает по одному небольшому файлу на игру, один раз."},
    "embed_example": {"en": "Try it", "ru": "Попробуйте"},
    "embed_example_text": {"en": "This paragraph is a forum post: its links have cards.",
                           "ru": "Этот абзац — сообщение на форуме: у его ссылок есть карточки."},
    "embed_api": {"en": "JSON API and oEmbed", "ru": "JSON API и oEmbed"},
    "embed_api_text": {"en": "Bots and other tools can read the glossary as static JSON, open to any origin: {games} "
                             "lists the games; each game's file has every term with both names, aliases, category, "
                             "URLs, short links, both texts and relations; {schema} describes them. Every term page "
                             "advertises an oEmbed document, so forums that build link previews from oEmbed show "
                             "both names.",
                       "ru": "Боты и другие программы могут читать глоссарий как статический JSON, доступный с любого "
                             "сайта: {games} — список игр; файл каждой игры содержит все термины с обоими названиями, "
                             "синонимами, категорией, адресами, короткими ссылками, обоими текстами и связями; {schema} "
                             "описывает их. Каждая страница термина объявляет документ oEmbed, поэтому форумы, "
                             "строящие превью ссылок по oEmbed, покажут оба названия."},
    "embed_share": {"en": "Linking while you write", "ru": "Ссылки прямо при написании"},
    "embed_share_text": {"en": "On a phone, install this site as an app, select text anywhere and share it to Rules "
                               "Codex: the linker opens with it, links it and offers Copy. On a computer, drag this "
                               "bookmarklet to your bookmarks bar; while writing a reply, click it: the linker opens "
                               "with the reply's text, and its Copy button puts the linked text back into the reply box.",
                         "ru": "На телефоне установите сайт как приложение, выделите текст где угодно и отправьте его "
                               "через «Поделиться» в «Кодекс»: откроется расстановка ссылок с этим текстом, готовым к "
                               "копированию. На компьютере перетащите эту закладку на панель закладок; когда пишете "
                               "ответ, нажмите её: откроется расстановка ссылок с текстом ответа, а кнопка "
                               "«Копировать» вернёт текст со ссылками в поле ответа."},
    "embed_bookmarklet": {"en": "Link terms (Rules Codex)", "ru": "Ссылки на термины (Кодекс)"},
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


def label(key: str, lang: Lang) -> str:
    return LABELS[key][lang]


def other(lang: Lang) -> Lang:
    return "en" if lang == "ru" else "ru"


def count(number: int, key: str, lang: Lang) -> str:
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


def fill(key: str, lang: Lang, **parts: str) -> str:
    """A label as HTML with its `{name}` places filled: the label's text escaped, each part inserted as given."""
    return html.escape(LABELS[key][lang], quote=False).format_map(parts)


def l10n_attrs(attrs: dict[str, dict[str, str]], lang: Lang) -> str:
    """Attributes in both languages (an attribute holds one): the value in `lang`, both kept for i18n.js.

    `{"placeholder": {"en": ..., "ru": ...}}` gives ` placeholder="…" data-codex-placeholder-en="…"
    data-codex-placeholder-ru="…" data-codex-l10n="placeholder"`; the name "text" stands for the element's text
    (a <title>, an <option>), which the caller writes itself.
    """
    out = []
    for name, texts in attrs.items():
        if name != "text":
            out.append(f'{name}="{html.escape(texts[lang])}"')
        out += [f'data-codex-{name}-{each}="{html.escape(texts[each])}"' for each in LANGS]
    out.append(f'data-codex-l10n="{" ".join(attrs)}"')
    return " " + " ".join(out)


def labels_script(extra: dict[str, dict[str, str]] | None = None, chrome: list[tuple[str, str, str]] | None = None) -> str:
    """`assets/codex/labels.js`: the same table for the site's scripts, as `window.codexLabels`, and the rules
    that put Material's own chrome in the reader's language (codex.chrome) as `window.codexChrome`."""
    table = {**LABELS, **(extra or {})}
    script = "window.codexLabels = " + _compact(table) + ";\n"
    if chrome is not None:
        script += "window.codexChrome = " + _compact([list(rule) for rule in chrome]) + ";\n"
    return script


def _compact(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
