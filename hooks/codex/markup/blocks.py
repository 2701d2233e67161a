"""Markdown's block structure (CommonMark + GitHub's tables, as markdown-it reads them), line by line: fenced and
indented code, HTML blocks, link reference definitions, block quotes, list items, tables; the paragraphs and table
cells it finds are then scanned for inline markup (inline.py), with every definition of the document known."""
from __future__ import annotations

import re
from bisect import bisect_right
from itertools import pairwise
from typing import Literal

from .inline import CLOSE_TAG, OPEN_TAG, container_tags, inline, label
from .spans import Spans, merge
from .tables import table_cells, table_columns

_BLOCK_TRIGGER = re.compile(r"^(?:[ ]{0,3}[>`~<\[*+\-=_#|]|[ ]{0,3}\d{1,9}[.)]|[ ]{4}|[ ]{0,3}\t)", re.M)
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)")
_BULLET = re.compile(r"([-+*])(?=[ \t]|$)|(\d{1,9})([.)])(?=[ \t]|$)")
_THEMATIC = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_SETEXT = re.compile(r"(?:=+|-+)[ \t]*$")
_ATX = re.compile(r"#{1,6}(?:[ \t]|$)")
_DEFINITION = re.compile(r"\[((?:[^\[\]\\]|\\.){1,999})\]:[ \t]*(?:<[^<>\n]*>|[^\s<]\S*)[ \t]*"
                         r"(?:\"[^\"]*\"|'[^']*'|\([^()]*\))?[ \t]*$")
_DEFINITION_ANYWHERE = re.compile(r"^[ \t>*+\-\d.)]*\[((?:[^\[\]\\\n]|\\.){1,999})\]:", re.M)
_HTML_1 = re.compile(r"<(script|pre|style|textarea)(?:[ \t>]|$)", re.I)
_HTML_6 = re.compile(
    r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|"
    r"div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|"
    r"link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|"
    r"th|thead|title|tr|track|ul)(?:[ \t>]|/>|$)", re.I)
_HTML_7 = re.compile(r"(?:" + OPEN_TAG.pattern + "|" + CLOSE_TAG.pattern + r")[ \t]*$")
_HTML_ENDS = {1: None, 2: "-->", 3: "?>", 4: ">", 5: "]]>"}
_INDENTED = re.compile(r"^[ \t>*+\-\d.)]*?(?:[ ]{4}|\t)", re.M)  # a line that may hold indented code
_BLANK_LINES = re.compile(r"\n[ \t]*\n")

Leaf = Literal["", "para", "table", "fence", "code", "html"]  # the open leaf block ("": none)


def markdown_spans(text: str, html_blocks: bool = True, shapes: Spans | None = None, contents: bool = True) -> Spans:
    """Markup spans of a CommonMark (+ GitHub tables and strikethrough) document.

    `html_blocks=False` (plain text that may hold Markdown): a line that starts with a tag is an ordinary
    paragraph (its tags are still markup), not a raw HTML block whose every word is markup.
    `shapes`: where to put what is only kept to be safe (a reference link's shape without its definition);
    by default with the rest. `contents=False`: without the contents of inline <a>, <code>… elements (never
    linked, but still Markdown: "*<a href='x'>*" is emphasis)."""
    if not any(c in text for c in "`~[<") and _INDENTED.search(text) is None:
        return []  # nothing that could be code, HTML or a link
    # Labels that look defined somewhere: links to them are kept whole (shapes); the block phase finds the
    # definitions CommonMark really makes, which alone decide what is a link.
    loose = {label(m.group(1)) for m in _DEFINITION_ANYWHERE.finditer(text)} if "]:" in text else set()
    spans: Spans = []
    code: Spans = []
    if _BLOCK_TRIGGER.search(text) is None:  # no line starts a block: paragraphs between blank lines
        for start, end in _paragraphs(text):
            inline(text, start, end, set(), loose, spans, spans if shapes is None else shapes, code)
    else:
        blocks = _Blocks(text, loose, html_blocks, shapes)
        spans = blocks.run()
        code = blocks.code
    if "<" in text and contents:
        spans += container_tags(text, merge(code))
    return spans


def _paragraphs(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for m in _BLANK_LINES.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


def _indent(line: str, position: int) -> tuple[int, int]:
    """(columns of leading whitespace from `position`, position after it); a tab reaches the next multiple of 4."""
    columns, i, n = 0, position, len(line)
    while i < n:
        c = line[i]
        if c == " ":
            columns += 1
        elif c == "\t":
            columns += 4 - columns % 4
        else:
            break
        i += 1
    return columns, i


def _skip_columns(line: str, position: int, columns: int) -> int:
    """The position after `columns` columns of indentation (a tab counts whole)."""
    done, i = 0, position
    while i < len(line) and done < columns and line[i] in " \t":
        done += 1 if line[i] == " " else 4 - done % 4
        i += 1
    return i


def _html_start(rest: str) -> int:
    """The CommonMark HTML block type (1-7) a line starts, or 0."""
    if not rest.startswith("<"):
        return 0
    if _HTML_1.match(rest):
        return 1
    if rest.startswith("<!--"):
        return 2
    if rest.startswith("<?"):
        return 3
    if rest.startswith("<![CDATA["):
        return 5
    if re.match(r"<![A-Za-z]", rest):
        return 4
    if _HTML_6.match(rest):
        return 6
    if _HTML_7.match(rest):
        return 7
    return 0


def _html_ends(kind: int, rest: str) -> bool:
    if kind == 1:
        return re.search(r"</(?:script|pre|style|textarea)>", rest, re.I) is not None
    marker = _HTML_ENDS.get(kind)
    return marker is not None and marker in rest


class _Blocks:
    """CommonMark's block phase, line by line: containers (quotes, list items) and leaf blocks."""

    def __init__(self, text: str, loose: set[str], html_blocks: bool = True, shapes: Spans | None = None):
        self.text, self.loose, self.html_blocks = text, loose, html_blocks
        self.labels: set[str] = set()  # the link reference definitions found
        self.paragraphs: list[list[tuple[int, int]]] = []  # scanned once every definition is known
        self.code: Spans = []  # code blocks and code spans: a tag written there is text
        self.shapes = shapes
        self.spans: Spans = []
        self.stack: list[int] = []  # open containers: -1 a block quote, n >= 0 a list item with content column n
        self.leaf: Leaf = ""
        self.fence = ("", 0)
        self.html_kind = 0
        self.para: list[tuple[int, int]] = []  # the open paragraph's lines (raw start, raw end)
        self.para_cols = 0  # the indentation of the paragraph's last line (a table's header is under 4)
        self.rows: list[tuple[int, int]] = []  # the open table's rows (header first), each its raw line
        self.columns = 0  # the open table's header cells: cells past them are not shown

    def run(self) -> Spans:
        text, offset = self.text, 0
        for line in text.split("\n"):
            self.line(line, offset)
            offset += len(line) + 1
        self.close_paragraph()
        for lines in self.paragraphs:
            self.scan_paragraph(lines)
        return self.spans

    def protect(self, start: int, end: int) -> None:
        if end > start:
            self.spans.append((start, end))

    def close_paragraph(self) -> None:
        """Ends the open paragraph or table (a table's cells are inline contexts of their own)."""
        if self.para:
            self.paragraphs.append(self.para)
            self.para = []
        if self.leaf == "table":
            for start, end in self.rows:
                cells = table_cells(self.text, start, end)
                for k, (cell_start, cell_end) in enumerate(cells):
                    if k >= self.columns:
                        self.protect(cell_start, cell_end)  # the renderer drops it
                    elif cell_end > cell_start:
                        self.paragraphs.append([(cell_start, cell_end)])
                for (_, a), (b, _) in pairwise(cells):  # the pipes between cells: no name reaches across
                    self.protect(a, b)
            self.rows = []
        if self.leaf in ("para", "table"):
            self.leaf = ""

    def scan_paragraph(self, lines: list[tuple[int, int]]) -> None:
        """One paragraph's inline markup, with every definition of the document known."""
        shapes = self.spans if self.shapes is None else self.shapes
        if all(lines[i][0] == lines[i - 1][1] + 1 for i in range(1, len(lines))):
            inline(self.text, lines[0][0], lines[-1][1], self.labels, self.loose, self.spans, shapes, self.code)
            return
        # container prefixes between the lines: scan the paragraph's content, map spans back
        content = "\n".join(self.text[s:e] for s, e in lines)
        starts, pos = [], 0
        for s, e in lines:
            starts.append(pos)
            pos += e - s + 1
        found: Spans = []
        shaped: Spans = []
        coded: Spans = []
        inline(content, 0, len(content), self.labels, self.loose, found, shaped, coded)

        def raw(x: int) -> int:
            i = bisect_right(starts, x) - 1
            return lines[i][0] + min(x - starts[i], lines[i][1] - lines[i][0])

        self.spans += [(raw(s), raw(e)) for s, e in found]
        self.code += [(raw(s), raw(e)) for s, e in coded]
        shapes.extend((raw(s), raw(e)) for s, e in shaped)

    def line(self, line: str, offset: int) -> None:
        """One line: the containers it continues, the open leaf it continues, new containers, its leaf block."""
        pos, matched = self.continued_containers(line) if self.stack else (0, 0)
        all_matched = matched == len(self.stack)
        if self.leaf in ("fence", "html", "code") and self.continue_literal(line, offset, pos, all_matched):
            return
        if not all_matched:
            rest = line[pos:]
            if self.leaf == "para" and rest.strip() and not self._interrupts(rest):
                self.para.append((offset + pos, offset + len(line)))  # a lazy continuation line
                self.para_cols = 4  # never a table's header
                return
            self.close_paragraph()
            del self.stack[matched:]
        self.protect(offset, offset + pos)  # container markers are markup
        pos = self.open_containers(line, offset, pos)
        self.leaf_block(line, offset, pos)

    def continued_containers(self, line: str) -> tuple[int, int]:
        """(the position after the markers of the open containers this line continues, how many it continues)."""
        pos, matched, n = 0, 0, len(line)
        for container in self.stack:
            cols, p = _indent(line, pos)
            if container < 0:  # a block quote: its ">"
                if cols <= 3 and p < n and line[p] == ">":
                    pos = p + 1
                    if pos < n and line[pos] in " \t":
                        pos += 1
                    matched += 1
                    continue
                break
            if p >= n:  # a blank line continues a list item
                matched += 1
                continue
            if cols >= container:
                pos = _skip_columns(line, pos, container)
                matched += 1
                continue
            break
        return pos, matched

    def continue_literal(self, line: str, offset: int, pos: int, all_matched: bool) -> bool:
        """Whether the line belongs to the open fenced code, HTML block or indented code (protected then); the
        block ends otherwise (or at a fence's closer, or an HTML block's end marker)."""
        n = len(line)
        if self.leaf == "fence":
            if all_matched:
                self.protect(offset, offset + n)
                self.code.append((offset, offset + n))
                cols, p = _indent(line, pos)
                char, length = self.fence
                body = line[p:]
                run = len(body) - len(body.lstrip(char))
                if cols <= 3 and run >= length and not body[run:].strip():
                    self.leaf = ""
                return True
        elif self.leaf == "html":
            rest = line[pos:]
            if all_matched and not (not rest.strip() and self.html_kind >= 6):
                self.protect(offset, offset + n)
                if self.html_kind < 6 and _html_ends(self.html_kind, rest):
                    self.leaf = ""
                return True
        else:  # indented code
            cols, _ = _indent(line, pos)
            if all_matched and (not line[pos:].strip() or cols >= 4):
                self.protect(offset + pos, offset + n)
                self.code.append((offset + pos, offset + n))
                return True
        self.leaf = ""
        return False

    def open_containers(self, line: str, offset: int, pos: int) -> int:
        """The block quotes and list items the line opens (their markers protected): the position after them."""
        n = len(line)
        while True:
            cols, p = _indent(line, pos)
            if cols >= 4 or p >= n:
                return pos
            if line[p] == ">":
                self.close_paragraph()
                self.stack.append(-1)
                pos = p + 1
                if pos < n and line[pos] in " \t":
                    pos += 1
                self.protect(offset, offset + pos)
                continue
            bullet = _BULLET.match(line, p)
            if bullet is None or _THEMATIC.match(line, p):
                return pos
            after = bullet.end()
            content_cols, q = _indent(line, after)
            empty = q >= n
            if self.leaf == "para" and (empty or (bullet.group(2) is not None and bullet.group(2) != "1")):
                return pos  # cannot interrupt a paragraph
            width = (bullet.end() - p) + cols + (1 if empty or content_cols >= 5 else content_cols)
            self.close_paragraph()
            self.stack.append(width)
            pos = after if empty else (_skip_columns(line, after, 1) if content_cols >= 5 else q)
            self.protect(offset, offset + pos)

    def leaf_block(self, line: str, offset: int, pos: int) -> None:
        """The line's content after its containers: a table row, indented code, a fence, an HTML block, or
        what a paragraph line may be (paragraph-line)."""
        n = len(line)
        cols, p = _indent(line, pos)
        if p >= n:
            self.close_paragraph()
            return
        if self.leaf == "table":
            if cols < 4 and not self._interrupts(line[pos:], table=True):
                self.rows.append((offset + p, offset + n))
                return
            self.close_paragraph()  # the table ends here; the line starts what it starts (indented: code)
        if cols >= 4 and self.leaf != "para":
            self.leaf = "code"
            self.protect(offset + pos, offset + n)
            self.code.append((offset + pos, offset + n))
            return
        if cols >= 4 or not self.literal_start(line[p:], offset, n):
            self.text_line(line[p:], offset, p, n, cols)

    def literal_start(self, body: str, offset: int, n: int) -> bool:
        """Whether the line (its content `body`) opens a fenced code or an HTML block."""
        fence = _FENCE.match(body)
        if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
            self.close_paragraph()
            self.leaf, self.fence = "fence", (fence.group(1)[0], len(fence.group(1)))
            self.protect(offset, offset + n)
            return True
        kind = _html_start(body) if self.html_blocks else 0
        if kind and not (kind == 7 and self.leaf == "para"):
            self.close_paragraph()
            self.protect(offset, offset + n)
            if not (kind < 6 and _html_ends(kind, body[1:] if kind == 4 else body[4:] if kind == 2 else body)):
                self.leaf, self.html_kind = "html", kind
            return True
        return False

    def text_line(self, body: str, offset: int, p: int, n: int, cols: int) -> None:
        """A line that is no literal block: a table's delimiter row, a setext underline, a thematic break, an ATX
        heading, a link reference definition (or its title), or a paragraph's line."""
        if cols < 4:
            if self.leaf == "para" and self.para_cols < 4:
                columns = table_columns(self.text[self.para[-1][0]:self.para[-1][1]], body)
                if columns:  # the paragraph's last line is a table's header: the paragraph ends before it
                    header = self.para.pop()
                    self.close_paragraph()
                    self.leaf, self.columns, self.rows = "table", columns, [header]
                    self.protect(offset + p, offset + n)  # the delimiter row
                    return
            if self.leaf == "para" and _SETEXT.match(body):
                self.para.append((offset + p, offset + n))
                self.close_paragraph()
                return
            if _THEMATIC.match(body):
                self.close_paragraph()
                self.protect(offset, offset + n)
                return
            if _ATX.match(body):
                self.close_paragraph()
                self.para.append((offset + p, offset + n))
                self.close_paragraph()
                return
            if self.leaf != "para" and self.definition(body, offset, n):
                return
        self.leaf = "para"
        self.para.append((offset + p, offset + n))
        self.para_cols = cols

    def definition(self, body: str, offset: int, n: int) -> bool:
        """Whether the line (outside a paragraph) is a link reference definition or the title of the one before."""
        definition = _DEFINITION.match(body)
        if definition:
            self.labels.add(label(definition.group(1)))
            self.protect(offset, offset + n)  # a link reference definition (its title may follow)
            self.leaf = ""
            return True
        if body[:1] in "\"'(" and self.spans and self.spans[-1][1] == offset - 1:
            self.protect(offset, offset + n)  # a definition's title on its own line
            return True
        return False

    def _interrupts(self, rest: str, table: bool = False) -> bool:
        """Whether a line would start a block that interrupts a paragraph (so it is no lazy continuation), or
        with `table`, that ends a table (any list item does)."""
        cols, p = _indent(rest, 0)
        if cols >= 4:
            return False
        body = rest[p:]
        if body.startswith(">") or _THEMATIC.match(body) or _ATX.match(body) or _FENCE.match(body):
            return True
        kind = _html_start(body) if self.html_blocks else 0
        if kind and kind != 7:
            return True
        bullet = _BULLET.match(body)
        if table:
            return bullet is not None
        return bool(bullet and body[bullet.end():].strip() and bullet.group(2) in (None, "1"))
