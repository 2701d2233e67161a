"""What in a post is already markup or machine text: the spans the linker never touches, found in linear time.

One scanner per input markup, each a single left-to-right pass that remembers its failed searches (an opener
whose closer is missing never sends a second search to the end of the text):
- `markdown`: CommonMark's block structure (fenced code with backticks or tildes, indented code — which cannot
  interrupt a paragraph and is measured from a list item's content column —, HTML blocks, link reference
  definitions, block quotes, list items and GitHub's tables as markdown-it reads them) and, inside paragraphs and
  table cells, code spans, autolinks, raw HTML (with the contents of a, code, pre, script, style, textarea),
  inline links and images, full, collapsed and shortcut reference links;
- `bbcode`: the tags phpBB and the `bbcode` package recognise, tokenised as the package does, with the contents
  of [code], [url], [img], [email] (to their closing tag, or to the end when it is missing);
- every markup: URLs (with a scheme, `www.`, or a host with a dotted name: "example.org/x", "Aegis.So") and
  e-mail addresses, to the next whitespace, which covers GitHub's, linkify's and the `bbcode` package's autolinks;
- `any` (the default, for plain text and HTML output): the union of all of the above plus any `<...>` tag.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import Callable

Spans = list[tuple[int, int]]
MARKUPS = ("any", "markdown", "bbcode")


def protected(text: str, markup: str = "any") -> Spans:
    """Sorted, merged spans of `text` that are markup (never linked) for the given input markup."""
    if markup not in MARKUPS:
        raise ValueError(f"unknown markup '{markup}' (use {', '.join(MARKUPS)})")
    spans = url_spans(text)
    if markup in ("any", "markdown"):
        spans += markdown_spans(text, html_blocks=markup == "markdown")
    if markup in ("any", "bbcode"):
        spans += bbcode_spans(text)
    if markup == "any" and "<" in text:
        spans += [m.span() for m in _ANY_TAG.finditer(text)]
    return merge(spans)


def merge(spans: Spans) -> Spans:
    """Sorted, without empty spans, overlapping or touching spans joined."""
    spans = sorted(spans)
    out: Spans = []
    last_start, last_end = -1, -1
    for start, end in spans:
        if start <= last_end:
            if end > last_end:
                last_end = end
        else:
            if last_end > last_start:
                out.append((last_start, last_end))
            last_start, last_end = start, end
    if last_end > last_start:
        out.append((last_start, last_end))
    return out


_ANY_TAG = re.compile(r"<[^<>\n]*>")


class _Finder:
    """`str.find` (or a case-insensitive regex search) for one needle with a memory: queries from increasing
    positions cost O(n) in total."""

    def __init__(self, text: str, needle: str, end: int, ignore_case: bool = False):
        self.text, self.needle, self.end = text, needle, end
        self.pattern = re.compile(re.escape(needle), re.I) if ignore_case else None
        self.asked, self.found = -1, -1

    def __call__(self, position: int) -> int:
        if 0 <= self.asked <= position and (self.found < 0 or position <= self.found):
            return self.found  # the last search covered this position: same answer, no second scan
        self.asked = position
        if self.pattern is None:
            self.found = self.text.find(self.needle, position, self.end)
        else:
            m = self.pattern.search(self.text, position, self.end)
            self.found = m.start() if m else -1
        return self.found


# --- URLs and e-mail addresses (every markup) ----------------------------------------------------

# A run of non-space characters is a URL for some renderer when it holds a scheme, "www.", a dotted host name
# (a character a host name may hold, a dot and two ASCII letters, or ".рф"; or a dot, 2-4 letters and "/", the
# bbcode package's bare-URL rule) or an e-mail address: the whole run is kept. A host name may hold what
# linkify-it counts as a letter: anything but space, control characters, punctuation and <, >, ｜ — so ASCII's
# symbols $ + = ^ ` | ~ too ("Aegis`.So" is a link there); every non-ASCII character counts, which at worst keeps
# a run with «», — or … unlinked. The trigger's first character is one of five, so the search skips the rest of
# the text at C speed; the run around it is then found from the end of the previous run, so no character is
# looked at twice.
_HOST_CHAR = r"[^\s\x00-\x1f\x7f!\"#%&'()*,\-./:;?@\[\\\]_{}<>]"
_URL_TRIGGER = re.compile(r"[:.@Ww](?:(?<=:)//|(?<=[Ww])[Ww][Ww]\d{0,3}\.|(?<=" + _HOST_CHAR + r"\.)(?:[A-Za-z]{2}|рф)"
                          r"|(?<=\.)[A-Za-z]{2,4}/|(?<=@)[\w-]+\.)")  # "Burn...and" is no host; "x..ab/" is one
_RUN_END = re.compile(r"\S*")
_OTHER_SPACE = re.compile(r"[^\S \n]")


def url_spans(text: str) -> Spans:
    """Each whitespace-free run that holds a URL, a host name or an e-mail address, whole."""
    spans: Spans = []
    lower = position = 0  # lower: the end of the last run (runs never overlap)
    while True:
        m = _URL_TRIGGER.search(text, position)
        if m is None:
            return spans
        at = m.start()
        start = max(text.rfind(" ", lower, at), text.rfind("\n", lower, at), lower - 1) + 1
        for other in _OTHER_SPACE.finditer(text, start, at):  # tabs, no-break spaces…: rare, and short to scan
            start = other.end()
        end = _RUN_END.match(text, at).end()  # type: ignore[union-attr]
        spans.append((start, end))
        lower = position = max(end, at + 1)


# --- Markdown ------------------------------------------------------------------------------------

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
_ATTRIBUTE = r"(?:[ \t\n]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t\n]*=[ \t\n]*(?:[^ \t\n\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)"
_OPEN_TAG = re.compile(r"<[A-Za-z][A-Za-z0-9-]*" + _ATTRIBUTE + r"*[ \t\n]*/?>")
_CLOSE_TAG = re.compile(r"</[A-Za-z][A-Za-z0-9-]*[ \t\n]*>")
_HTML_7 = re.compile(r"(?:" + _OPEN_TAG.pattern + "|" + _CLOSE_TAG.pattern + r")[ \t]*$")
_HTML_ENDS = {1: None, 2: "-->", 3: "?>", 4: ">", 5: "]]>"}


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


def _label(text: str) -> str:
    """A reference label as CommonMark compares them: case-folded, inner whitespace collapsed."""
    return " ".join(text.split()).casefold()


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
    loose = {_label(m.group(1)) for m in _DEFINITION_ANYWHERE.finditer(text)} if "]:" in text else set()
    spans: Spans = []
    code: Spans = []
    if _BLOCK_TRIGGER.search(text) is None:  # no line starts a block: paragraphs between blank lines
        for start, end in _paragraphs(text):
            _inline(text, start, end, set(), loose, spans, spans if shapes is None else shapes, code)
    else:
        blocks = _Blocks(text, loose, html_blocks, shapes)
        spans = blocks.run()
        code = blocks.code
    if "<" in text and contents:
        spans += _container_tags(text, merge(code))
    return spans


_CONTAINER_TAG = re.compile(r"<(/?)(a|code|pre|script|style|textarea)(?=[\s/>])", re.I)
_RAW_TEXT = ("script", "style", "textarea")  # nothing inside them is a tag, up to their own closing tag
_RAW_TEXT_END = {name: re.compile("</" + name + r"[ \t\n]*>", re.I) for name in _RAW_TEXT}


def _container_tags(text: str, code: Spans) -> Spans:
    """Where an <a>, <code>, <pre>, <script>, <style> or <textarea> element is open: from its tag to the closing
    tag that leaves no such element open, or to the document's end. An element left open keeps it open over
    whatever follows, paragraphs included, and one opened inside another stays open past the other's closing tag
    (HTML reopens it: "<a><code></a>x" has x in code), so the open elements are counted by name, one tag at a
    time: one pass. A tag inside code (`code` spans, sorted) is text: it neither opens nor closes anything."""
    code_starts = [start for start, _ in code]

    def in_code(position: int) -> bool:
        i = bisect_right(code_starts, position) - 1
        return i >= 0 and position < code[i][1]

    spans: Spans = []
    counts: dict[str, int] = {}
    open_elements, region = 0, 0
    finders: dict[str, _Finder] = {}
    position = 0
    while True:
        m = _CONTAINER_TAG.search(text, position)
        if m is None:
            break
        position = m.end()
        name = m.group(2).lower()
        if in_code(m.start()):
            continue
        if m.group(1):  # a closing tag
            closing = _CLOSE_TAG.match(text, m.start())
            if closing is None or _escaped(text, m.start()) or not counts.get(name):  # "\\</a>" is text
                continue
            counts[name] -= 1
            open_elements -= 1
            if not open_elements:
                spans.append((region, closing.end()))
            continue
        tag = _OPEN_TAG.match(text, m.start())
        if tag is None or tag.group().endswith("/>"):
            continue
        if not open_elements:
            region = m.start()
        if name in _RAW_TEXT:
            closes = finders.setdefault(name, _Finder(text, "</" + name, len(text), ignore_case=True))
            close, end = closes(tag.end()), len(text)
            while close >= 0:
                closing = _RAW_TEXT_END[name].match(text, close)
                if closing is not None:
                    end = closing.end()
                    break
                close = closes(close + 1)
            if end == len(text):
                open_elements += 1  # never closed: open to the end
                break
            position = end
            if not open_elements:
                spans.append((region, end))
            continue
        counts[name] = counts.get(name, 0) + 1
        open_elements += 1
    if open_elements:
        spans.append((region, len(text)))
    return spans


def _escaped(text: str, position: int) -> bool:
    """Whether text[position] follows an odd run of backslashes (each run is read once: its closer is after it)."""
    start = position
    while start > 0 and text[start - 1] == "\\":
        start -= 1
    return (position - start) % 2 == 1


_INDENTED = re.compile(r"^[ \t>*+\-\d.)]*?(?:[ ]{4}|\t)", re.M)  # a line that may hold indented code
_BLANK_LINES = re.compile(r"\n[ \t]*\n")


def _paragraphs(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for m in _BLANK_LINES.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


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
        self.leaf = ""  # "", "para", "table", "fence", "code", "html"
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
            self.inline(lines)
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
                cells = _table_cells(self.text, start, end)
                for k, (cell_start, cell_end) in enumerate(cells):
                    if k >= self.columns:
                        self.protect(cell_start, cell_end)  # the renderer drops it
                    elif cell_end > cell_start:
                        self.paragraphs.append([(cell_start, cell_end)])
                for (_, a), (b, _) in zip(cells, cells[1:]):  # the pipes between cells: no name reaches across
                    self.protect(a, b)
            self.rows = []
        if self.leaf in ("para", "table"):
            self.leaf = ""

    def inline(self, lines: list[tuple[int, int]]) -> None:
        """One paragraph's inline markup, with every definition of the document known."""
        if all(lines[i][0] == lines[i - 1][1] + 1 for i in range(1, len(lines))):
            _inline(self.text, lines[0][0], lines[-1][1], self.labels, self.loose, self.spans,
                    self.spans if self.shapes is None else self.shapes, self.code)
        else:  # container prefixes between the lines: scan the paragraph's content, map spans back
            content = "\n".join(self.text[s:e] for s, e in lines)
            starts, pos = [], 0
            for s, e in lines:
                starts.append(pos)
                pos += e - s + 1
            found: Spans = []
            shaped: Spans = []
            coded: Spans = []
            _inline(content, 0, len(content), self.labels, self.loose, found, shaped, coded)

            def raw(x: int) -> int:
                i = bisect_right(starts, x) - 1
                return lines[i][0] + min(x - starts[i], lines[i][1] - lines[i][0])

            self.spans += [(raw(s), raw(e)) for s, e in found]
            self.code += [(raw(s), raw(e)) for s, e in coded]
            (self.spans if self.shapes is None else self.shapes).extend((raw(s), raw(e)) for s, e in shaped)

    def line(self, line: str, offset: int) -> None:
        pos, matched, n = 0, 0, len(line)
        for container in self.stack:  # 1. the open containers this line continues
            if container < 0:
                cols, p = _indent(line, pos)
                if cols <= 3 and p < n and line[p] == ">":
                    pos = p + 1
                    if pos < n and line[pos] in " \t":
                        pos += 1
                    matched += 1
                    continue
                break
            cols, p = _indent(line, pos)
            if p >= n:
                matched += 1
                continue
            if cols >= container:
                pos = _skip_columns(line, pos, container)
                matched += 1
                continue
            break
        rest = line[pos:]
        blank = not rest.strip()
        all_matched = matched == len(self.stack)
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
                return
            self.leaf = ""
        elif self.leaf == "html":
            if all_matched and not (blank and self.html_kind >= 6):
                self.protect(offset, offset + n)
                if self.html_kind < 6 and _html_ends(self.html_kind, rest):
                    self.leaf = ""
                return
            self.leaf = ""
        elif self.leaf == "code":
            cols, _ = _indent(line, pos)
            if all_matched and (blank or cols >= 4):
                self.protect(offset + pos, offset + n)
                self.code.append((offset + pos, offset + n))
                return
            self.leaf = ""
        if not all_matched:
            if self.leaf == "para" and not blank and not self._interrupts(rest):
                self.para.append((offset + pos, offset + n))  # a lazy continuation line
                self.para_cols = 4  # never a table's header
                return
            self.close_paragraph()
            del self.stack[matched:]
        self.protect(offset, offset + pos)  # container markers are markup
        # 2. new containers
        while True:
            cols, p = _indent(line, pos)
            if cols >= 4 or p >= n:
                break
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
                break
            after = bullet.end()
            content_cols, q = _indent(line, after)
            empty = q >= n
            if self.leaf == "para" and (empty or (bullet.group(2) is not None and bullet.group(2) != "1")):
                break  # cannot interrupt a paragraph
            width = (bullet.end() - p) + cols + (1 if empty or content_cols >= 5 else content_cols)
            self.close_paragraph()
            self.stack.append(width)
            pos = after if empty else (_skip_columns(line, after, 1) if content_cols >= 5 else q)
            self.protect(offset, offset + pos)
        # 3. the leaf block
        rest = line[pos:]
        cols, p = _indent(line, pos)
        if p >= n:
            self.close_paragraph()
            return
        body = line[p:]
        if self.leaf == "table":
            if cols < 4 and not self._interrupts(rest, table=True):
                self.rows.append((offset + p, offset + n))
                return
            self.close_paragraph()  # the table ends here; the line starts what it starts (indented: code)
        if cols >= 4 and self.leaf != "para":
            self.leaf = "code"
            self.protect(offset + pos, offset + n)
            self.code.append((offset + pos, offset + n))
            return
        if cols < 4:
            fence = _FENCE.match(body)
            if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
                self.close_paragraph()
                self.leaf, self.fence = "fence", (fence.group(1)[0], len(fence.group(1)))
                self.protect(offset, offset + n)
                return
            kind = _html_start(body) if self.html_blocks else 0
            if kind and not (kind == 7 and self.leaf == "para"):
                self.close_paragraph()
                self.protect(offset, offset + n)
                if not (kind < 6 and _html_ends(kind, body[1:] if kind == 4 else body[4:] if kind == 2 else body)):
                    self.leaf, self.html_kind = "html", kind
                return
            if self.leaf == "para" and self.para_cols < 4:
                columns = _table_columns(self.text[self.para[-1][0]:self.para[-1][1]], body)
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
            definition = _DEFINITION.match(body) if self.leaf != "para" else None
            if definition:
                self.labels.add(_label(definition.group(1)))
                self.protect(offset, offset + n)  # a link reference definition (its title may follow)
                self.leaf = ""
                return
            if self.leaf != "para" and body[:1] in "\"'(" and self.spans and self.spans[-1][1] == offset - 1:
                self.protect(offset, offset + n)  # a definition's title on its own line
                return
        self.leaf = "para"
        self.para.append((offset + p, offset + n))
        self.para_cols = cols

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


# GitHub's tables, as markdown-it reads them: a header line with a pipe, then a delimiter row of as many cells.
_DELIMITER_ROW = re.compile(r"[|:-](?:[|:\-]|(?<![-]) |(?<![-])\t)[|:\- \t]*")
_DELIMITER_CELL = re.compile(r":?-+:?")
_CELL_SPACE = " \t"


def _table_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
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


def _table_columns(header: str, delimiter: str) -> int:
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
    columns = len(_table_cells(header, 0, len(header)))
    return columns if columns and columns == aligns else 0


# Inline: the characters that can start something protected, and backslash escapes.
_INLINE = re.compile(r"[`<\[\]\\]")
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_BACKTICKS = re.compile(r"`+")
_AUTOLINK = re.compile(r"<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>|<[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>")
_DEST_PLAIN = re.compile(r"[^\s()\\\x00-\x1f]+")
_WHITESPACE = re.compile(r"[ \t\n]*")
MAX_PAREN_DEPTH = 32  # CommonMark renderers (cmark, markdown-it) give up on deeper link destinations


def _inline(s: str, start: int, end: int, labels: set[str], loose: set[str], spans: Spans, shapes: Spans,
            code: Spans | None = None) -> None:
    """Protected spans of one paragraph's inline content s[start:end], appended to `spans`."""
    if not any(c in s[start:end] for c in "`<[\\"):
        return
    finders: dict[str, _Finder] = {}
    runs: dict[int, list[int]] | None = None
    openers: list[tuple[int, int, bool]] = []  # (position of "[" or "![", sequence number, image)
    inactive_below = 0  # openers with a smaller sequence number are inside a link: never links themselves
    sequence = 0

    def find(needle: str, position: int) -> int:
        finder = finders.get(needle)
        if finder is None:
            finder = finders[needle] = _Finder(s, needle, end)
        return finder(position)

    pos = start
    while True:
        m = _INLINE.search(s, pos, end)
        if m is None:
            return
        p = m.start()
        c = s[p]
        if c == "\\":
            pos = p + 2 if p + 1 < end and s[p + 1] in _ASCII_PUNCT else p + 1
            continue
        if c == "`":
            length = _BACKTICKS.match(s, p, end).end() - p  # type: ignore[union-attr]
            if runs is None:
                runs = {}
                for run in _BACKTICKS.finditer(s, start, end):
                    runs.setdefault(run.end() - run.start(), []).append(run.start())
            candidates = runs.get(length, [])
            k = bisect_left(candidates, p + length)
            if k < len(candidates):
                spans.append((p, candidates[k] + length))
                if code is not None:
                    code.append((p, candidates[k] + length))
                pos = candidates[k] + length
            else:
                pos = p + length
            continue
        if c == "<":
            auto = _AUTOLINK.match(s, p, end)
            if auto:
                spans.append(auto.span())
                pos = auto.end()
                continue
            done = _raw_html(s, p, end, find)
            if done > p:
                spans.append((p, done))
                pos = done
            else:
                pos = p + 1
            continue
        if c == "[":
            image = p > start and s[p - 1] == "!" and not (p - 1 > start and s[p - 2] == "\\")
            sequence += 1
            openers.append((p - 1 if image else p, sequence, image))
            pos = p + 1
            continue
        # "]"
        pos = p + 1
        if not openers:
            continue
        opener, number, image = openers.pop()
        if number < inactive_below:
            continue
        text_start = opener + (2 if image else 1)
        link_end = _link_tail(s, p + 1, end, find)
        if link_end < 0:
            label_end = -1
            if p + 1 < end and s[p + 1] == "[":
                close = s.find("]", p + 2, min(end, p + 1002))
                if close > 0 and "[" not in s[p + 2:close]:
                    label = s[p + 2:close] if close > p + 2 else s[text_start:p]
                    if _label(label) in labels:
                        label_end = close + 1
                    else:  # the shape of a reference link: kept whole even when its definition is elsewhere
                        shapes.append((opener, close + 1))
            if label_end < 0:
                shortcut = _label(s[text_start:p])
                if shortcut in labels:
                    label_end = p + 1
                elif shortcut in loose:
                    shapes.append((opener, p + 1))
            link_end = label_end
        if link_end > 0:
            spans.append((opener, link_end))
            pos = link_end
            if not image:
                inactive_below = sequence + 1


def _link_tail(s: str, q: int, end: int, find: Callable[[str, int], int]) -> int:
    """The end of an inline link's `(destination "title")` starting at s[q] == "(", or -1."""
    if q >= end or s[q] != "(":
        return -1
    i = _WHITESPACE.match(s, q + 1, end).end()  # type: ignore[union-attr]
    if i < end and s[i] == "<":
        close = s.find(">", i + 1, end)
        if close < 0 or "\n" in s[i:close] or "<" in s[i + 1:close]:
            return -1
        i = close + 1
    else:
        depth = 0
        while i < end:
            plain = _DEST_PLAIN.match(s, i, end)
            if plain:
                i = plain.end()
                if i >= end:
                    break
            c = s[i]
            if c == "\\":
                i += 2 if i + 1 < end and s[i + 1] in _ASCII_PUNCT else 1
            elif c == "(":
                depth += 1
                if depth > MAX_PAREN_DEPTH:
                    return -1
                i += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
                i += 1
            else:  # whitespace or a control character ends the destination
                break
        if depth:
            return -1
    j = _WHITESPACE.match(s, i, end).end()  # type: ignore[union-attr]
    if j < end and s[j] in "\"'(" and j > i:
        closer = ")" if s[j] == "(" else s[j]
        k = j + 1
        while True:
            k = find(closer, k)
            if k < 0:
                return -1
            backslashes = 0
            while s[k - 1 - backslashes] == "\\":
                backslashes += 1
            if backslashes % 2 == 0:
                break
            k += 1
        if s[j] == "(" and "(" in s[j + 1:k]:
            return -1
        if "\n\n" in s[j:k]:
            return -1
        j = _WHITESPACE.match(s, k + 1, end).end()  # type: ignore[union-attr]
    if j < end and s[j] == ")":
        return j + 1
    return -1


def _raw_html(s: str, p: int, end: int, find: Callable[[str, int], int]) -> int:
    """The end of the raw HTML starting at s[p] == "<" (a tag, comment, instruction, declaration), or p.

    An `<a>`, `<code>`, `<pre>`, `<script>`, `<style>` or `<textarea>` tag takes its contents up to its
    closing tag (or the paragraph's end)."""
    nxt = s[p + 1:p + 2]
    if nxt == "!":
        if s.startswith("<!--", p):
            if s.startswith("<!-->", p) or s.startswith("<!--->", p):
                return p + (5 if s.startswith("<!-->", p) else 6)
            close = find("-->", p + 4)
            return close + 3 if close >= 0 else p
        if s.startswith("<![CDATA[", p):
            close = find("]]>", p + 9)
            return close + 3 if close >= 0 else p
        if p + 2 < end and s[p + 2].isalpha():
            close = find(">", p + 2)
            return close + 1 if close >= 0 else p
        return p
    if nxt == "?":
        close = find("?>", p + 2)
        return close + 2 if close >= 0 else p
    if nxt == "/":
        tag = _CLOSE_TAG.match(s, p, end)
        return tag.end() if tag else p
    tag = _OPEN_TAG.match(s, p, end) if nxt.isalpha() else None
    if tag is None:
        return p
    return tag.end()  # an element's contents (<a>…</a>, <code>…</code>) are the document's pass: _container_tags


# --- BBCode --------------------------------------------------------------------------------------

# phpBB's tags and the `bbcode` package's defaults: anything else in brackets is text.
BB_TAGS = frozenset("""
    b i u s strike sub sup hr list * quote code center color url img email spoiler size font left right align
    justify youtube media flash attachment
    """.split())
_BB_RAW = frozenset(("code", "url", "img", "email"))  # their contents are markup too
_BB_STOP = re.compile(r"[\[\]=\"']")
_BB_NAME = re.compile(r"\s*(/?)\s*(\*|[A-Za-z]+)")


def bbcode_spans(text: str) -> Spans:
    """Tags (tokenised like the `bbcode` package) and the contents of [code], [url], [img] and [email]."""
    if "[" not in text:
        return []
    tags = _bb_tokens(text)
    spans: Spans = []
    i = 0
    while i < len(tags):
        start, end, name, closing, quoted = tags[i]
        if name is None:  # a bracketed extent with quotes that is no tag: the package keeps it whole
            if quoted:
                spans.append((start, end))
            i += 1
            continue
        spans.append((start, end))
        if closing or name not in _BB_RAW:
            i += 1
            continue
        depth, j = 0, i + 1
        while j < len(tags):
            _, _, other, other_closing, _ = tags[j]
            if other == name:
                if not other_closing and name != "code":
                    depth += 1
                elif other_closing:
                    if depth == 0:
                        break
                    depth -= 1
            j += 1
        stop = tags[j][1] if j < len(tags) else len(text)
        spans.append((start, stop))
        i = j + 1
    return spans


def _bb_tokens(text: str) -> list[tuple[int, int, str | None, bool, bool]]:
    """Every `[...]` extent as the `bbcode` package finds them: (start, end, tag name or None, closing, quoted).

    An extent ends at the first `]` outside quotes (a quote counts after an `=`); a `[` before it means this
    `[` was text. The scan never goes back, so it is linear.
    """
    out: list[tuple[int, int, str | None, bool, bool]] = []
    n = len(text)
    pos = text.find("[")
    while 0 <= pos < n:
        i, quotable, quote, quoted = pos + 1, False, "", False
        end = -1
        while True:
            m = _BB_STOP.search(text, i)
            if m is None:
                break
            c, i = m.group(), m.start()
            if quote:
                if c == quote:
                    quote, quotable = "", False
            elif c == "=":
                quotable = True
            elif c in "\"'":
                if quotable:
                    quote, quoted = c, True
            elif c == "[":
                break
            else:
                end = i + 1
                break
            i += 1
        if end < 0:
            if quote:  # an unclosed quote: the package takes the rest of the text as text
                out.append((pos, n, None, False, True))
                return out
            pos = text.find("[", i if i > pos else pos + 1)
            continue
        inside = text[pos + 1:end - 1]
        name_match = _BB_NAME.match(inside)
        name = None
        closing = False
        if name_match and "\n" not in inside and "\r" not in inside:
            candidate = name_match.group(2).lower()
            rest = inside[name_match.end():]
            closing = bool(name_match.group(1))
            if candidate in BB_TAGS and (not rest.strip() or (not closing and rest[0] in "= ")):
                name = candidate
            else:
                closing = False
        out.append((pos, end, name, closing, quoted))
        pos = text.find("[", end)
    return out
