"""GitHub's tables as markdown-it reads them: a header line with a pipe, then a delimiter row of as many cells."""
from __future__ import annotations

import re

_DELIMITER_ROW = re.compile(r"[|:-](?:[|:\-]|(?<![-]) |(?<![-])\t)[|:\- \t]*")
_DELIMITER_CELL = re.compile(r":?-+:?")
_CELL_SPACE = " \t"


def table_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A table row's cells as (start, end) in text, whitespace trimmed: split at each pipe not after a backslash,
    without the empty cell before a leading or after a trailing pipe."""
    while start < end and text[start] in _CELL_SPACE:
        start += 1
    while end > start and text[end - 1] in _CELL_SPACE:
        end -= 1
    cells, cell = [], start
    pipe = text.find("|", start, end)
    while pipe >= 0:
        if pipe == start or text[pipe - 1] != "\\":
            cells.append((cell, pipe))
            cell = pipe + 1
        pipe = text.find("|", pipe + 1, end)
    cells.append((cell, end))
    if cells and cells[0][0] == cells[0][1]:
        cells.pop(0)
    if cells and cells[-1][0] == cells[-1][1]:
        cells.pop()
    trimmed = []
    for a, b in cells:
        while a < b and text[a] in _CELL_SPACE:
            a += 1
        while b > a and text[b - 1] in _CELL_SPACE:
            b -= 1
        trimmed.append((a, b))
    return trimmed


def table_columns(header: str, delimiter: str) -> int:
    """The table's column count when `header` and `delimiter` (lines without their indentation) start one, else 0."""
    if "|" not in header or not _DELIMITER_ROW.fullmatch(delimiter):
        return 0
    cells = delimiter.split("|")
    aligns = 0
    for i, cell in enumerate(cells):
        cell = cell.strip()
        if not cell:
            if i in (0, len(cells) - 1):
                continue
            return 0
        if not _DELIMITER_CELL.fullmatch(cell):
            return 0
        aligns += 1
    columns = len(table_cells(header, 0, len(header)))
    return columns if columns and columns == aligns else 0
