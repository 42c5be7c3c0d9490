"""A Markdown block scanner: one pass over the lines, each block with its exact span in the source.

Why write one instead of using a CommonMark library? Speed and spans. A line scanner runs an
order of magnitude faster than a full parser, and chunking needs only the top-level blocks and
where each one sits in the text. It follows CommonMark (plus GFM pipe tables) for the block
structure at the top level and is tested against markdown-it-py as the oracle
(tests/test_markdown_oracle.py lists every deliberate disagreement with its reason).

Block kinds: heading (ATX `#` and setext underlines), paragraph, list, table, code (fenced or
indented), quote, html, rule (thematic break), reference (link reference definitions, kept as text),
front_matter (YAML at the very top: metadata, never a heading or a paragraph).

Only "\\n" ends a line; a "\\r" before it is ignored when a line is classified.
"""

from __future__ import annotations

import re
from array import array
from itertools import accumulate
from typing import NamedTuple

# --- line patterns (applied to a line without its newline) -----------------------------------

ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+|$)(.*)")
ATX_CLOSING = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
FENCE_OPEN = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")
# Possessive quantifiers: giving back a space or a marker can never make a rule match, and without
# them a long line of markers that ends in text ("- - - … x") backtracks through every marker.
RULE = re.compile(r" {0,3}(?:(?:\*[ \t]*+){3,}+|(?:-[ \t]*+){3,}+|(?:_[ \t]*+){3,}+)")
SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*")
QUOTE = re.compile(r" {0,3}>")
LIST_ITEM = re.compile(r"( {0,3})([-+*]|(\d{1,9})[.)])([ \t]+|$)")
# Possessive (`++`): the label can give back nothing that would let "]:" match, so backtracking
# only costs time, quadratic-like on a line of "[" characters.
REFERENCE = re.compile(r" {0,3}\[(?:[^\]\\]|\\.)++\]:[ \t]*\S")
HTML_RAW = re.compile(r" {0,3}<(script|pre|style|textarea)(?:[ \t>]|$)", re.I)
HTML_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
    "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|"
    "h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|"
    "option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"
)
HTML_BLOCK = re.compile(rf" {{0,3}}</?(?:{HTML_BLOCK_TAGS})(?:[ \t]|/?>|$)", re.I)
_ATTRIBUTE = r"""(?:[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)"""
HTML_OTHER = re.compile(
    rf" {{0,3}}(?:<[A-Za-z][A-Za-z0-9-]*{_ATTRIBUTE}*[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"
)
# (start pattern, end marker) of the HTML blocks that end at a marker rather than a blank line
HTML_UNTIL = [
    (HTML_RAW, re.compile(r"</(?:script|pre|style|textarea)>", re.I)),
    (re.compile(r" {0,3}<!--"), re.compile(r"-->")),
    (re.compile(r" {0,3}<\?"), re.compile(r"\?>")),
    (re.compile(r" {0,3}<![A-Za-z]"), re.compile(r">")),
    (re.compile(r" {0,3}<!\[CDATA\["), re.compile(r"\]\]>")),
]
TABLE_DELIMITER_CELL = re.compile(r":?-+:?")

# A line whose first non-blank character is none of these can only be paragraph text (or, if it
# contains a pipe, a table header): the fast path of the scanner.
_SPECIAL_FIRST = set("#`~>-*+_|<=[0123456789")
_LIST_FIRST = set("-+*0123456789")
# First characters of the blocks that end a table or a quote's lazy line (after up to 3 spaces).
_TERMINATOR_FIRST = set("`~>*-_#<+0123456789")


class Block(NamedTuple):
    """A top-level block: its kind, its span in characters and in lines, and for headings the level.

    A named tuple rather than a dataclass: a document has thousands of blocks, and a tuple is the
    cheapest immutable record Python builds.
    """

    kind: str
    start: int  # offset of the block's first character
    end: int  # offset just past its last character (its last line's newline excluded)
    first_line: int  # 0-based
    last_line: int  # 0-based, inclusive
    level: int = 0  # 1..6 for headings
    title: str = ""  # heading text without its markers
    title_at: int = -1  # where an ATX heading's title starts in the source (else -1)

    def text(self, source: str) -> str:
        return source[self.start : self.end]


_new = tuple.__new__  # _new(Block, (...)) builds Block(...) without its Python-level constructor


# --- helpers on single lines ------------------------------------------------------------------


def _indent(line: str) -> int:
    """Columns of leading whitespace, tabs advancing to the next multiple of 4."""
    if line[:1] not in (" ", "\t"):
        return 0
    rest = line.lstrip(" ")
    if rest[:1] != "\t":
        return len(line) - len(rest)  # spaces only
    col = 0
    for ch in line:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            break
    return col


def _blank(line: str) -> bool:
    return not line.strip(" \t\r")


def split_cells(row: str) -> list[str]:
    """Cells of a pipe-table row; `\\|` is an escaped pipe, not a boundary; outer pipes are optional."""
    row = row.strip()
    if "\\" not in row:  # no escapes, the common case: every pipe is a boundary
        cells = row.split("|")
    else:
        cells = _split_escaped(row)
    if cells and not cells[0].strip():
        cells.pop(0)
    if cells and not cells[-1].strip() and row.endswith("|") and not row.endswith("\\|"):
        cells.pop()
    return [c.strip() for c in cells]


def _split_escaped(row: str) -> list[str]:
    """`row` split at its pipes, except escaped ones (`\\|`)."""
    cells, current, i = [], [], 0
    while i < len(row):
        ch = row[i]
        if ch == "\\" and i + 1 < len(row) and row[i + 1] == "|":
            current.append("\\|")
            i += 2
            continue
        if ch == "|":
            cells.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    cells.append("".join(current))
    return cells


def delimiter_columns(line: str) -> int:
    """Columns of a table delimiter row like `|---|:--:|`, or 0 if the line is not one."""
    stripped = line.strip()
    if not stripped or _indent(line) >= 4 or stripped[0] not in "|-:":
        return 0
    if any(ch not in "|-: \t" for ch in stripped):
        return 0
    if stripped[0] == "-" and len(stripped) > 1 and stripped[1] in " \t":
        return 0  # "- ---" is a list item, not a delimiter row
    parts = stripped.split("|")
    count = 0
    for i, part in enumerate(parts):
        part = part.strip()
        if not part:
            if i in (0, len(parts) - 1):
                continue
            return 0
        if not TABLE_DELIMITER_CELL.fullmatch(part):
            return 0
        count += 1
    return count


def _table_starts(lines: list[str], i: int) -> bool:
    """Line i is a table header: it has a pipe, and line i+1 is a delimiter row of as many columns."""
    if i + 1 >= len(lines) or "|" not in lines[i] or _indent(lines[i]) >= 4:
        return False
    columns = delimiter_columns(lines[i + 1])
    return columns > 0 and columns == len(split_cells(lines[i]))


def _fence(line: str) -> tuple[str, int] | None:
    """(fence character, run length) if the line opens a code fence."""
    m = FENCE_OPEN.match(line)
    if not m:
        return None
    run = m.group(2)
    if run[0] == "`" and "`" in m.group(3):
        return None  # a backtick fence's info string may not contain backticks
    return run[0], len(run)


def _closes_fence(line: str, char: str, length: int) -> bool:
    stripped = line.strip(" \t\r")
    return _indent(line) < 4 and len(stripped) >= length and stripped == char * len(stripped)


def _list_marker(line: str) -> tuple[str, int, bool, bool, int] | None:
    """(list type, content indent, item is empty, ordered list starts at 1, where its content
    starts in the line) for a list item line, else None."""
    if line.lstrip(" ")[:1] not in _LIST_FIRST:
        return None
    m = LIST_ITEM.match(line)
    if not m:
        return None
    lead, marker, number, gap = m.groups()
    if marker in "-*" and RULE.fullmatch(line.rstrip("\r")):
        return None  # "- - -" and "* * *" are thematic breaks
    kind = marker if marker in "-+*" else marker[-1]  # bullets by character, ordered by delimiter
    empty = not line[m.end() :].strip(" \t\r")
    spaces = _indent(gap) if "\t" in gap else len(gap)
    width = len(lead) + len(marker)
    content = width + 1 if empty or spaces > 4 else width + spaces
    starts_at_one = number is not None and int(number) == 1
    return kind, content, empty, starts_at_one, m.end()


def _html_start(line: str, interrupting: bool) -> re.Pattern | None | bool:
    """The end marker of an HTML block starting here, True for one ending at a blank line, else None."""
    if line.lstrip(" ")[:1] != "<":
        return None
    for start, end in HTML_UNTIL:
        if start.match(line):
            return end
    if HTML_BLOCK.match(line):
        return True
    if not interrupting and HTML_OTHER.match(line.rstrip("\r")):
        return True  # a lone tag may start a block, but may not interrupt a paragraph
    return None


def _interrupts_paragraph(lines: list[str], i: int, lazy: bool = False) -> bool:
    """Does line i start a block that ends a paragraph running above it?

    `lazy`: the paragraph is inside a list item and line i is not indented to the item's content.
    A table cannot start there (CommonMark's table rule needs the item's indentation), so such a
    line is lazy paragraph text, pipes and all.
    """
    line = lines[i]
    first = line.lstrip(" \t")[:1]
    if first not in _SPECIAL_FIRST and "|" not in line:
        return False  # the common case: a line of text can start nothing
    if _indent(line) >= 4:
        return False
    if (
        (not lazy and _table_starts(lines, i))
        or _fence(line)
        or QUOTE.match(line)
        or ATX.match(line)
    ):
        return True
    if RULE.fullmatch(line.rstrip("\r")):
        return True
    item = _list_marker(line)
    if item:
        # At the paragraph's own indentation an item must have content, and an ordered one must
        # start at 1; a lazy line is ended by any item at all (markdown-it's rule, too).
        kind, _, empty, starts_at_one, _ = item
        return lazy or (not empty and (kind in "-+*" or starts_at_one))
    return _html_start(line, interrupting=True) is not None


# --- the scanner ------------------------------------------------------------------------------


def split_lines(source: str) -> tuple[list[str], array]:
    """(the lines of `source`, where each starts; one more entry for the end, len(source) + 1).

    Not cached: for a long document the line strings take about as much memory as the text
    itself, so they live only while the scanner runs. Where they start is a typed array, not a
    tuple of ints: the blocks keep a few of those ints, which would pin the memory of all of
    them. A token budget keeps only where lines start (`chunklab.tokens.budget.line_starts`).
    """
    lines = source.split("\n")
    return lines, array("q", accumulate((len(line) + 1 for line in lines), initial=0))


def parse_blocks(source: str) -> list[Block]:
    """Top-level blocks of a Markdown document, in order, each with its exact span.

    One look at a line's first non-blank character decides which block rules can apply to it:
    most lines start with a letter and can only be paragraph text, so they are settled at once.
    The rules are tried in CommonMark's (and markdown-it's) order, table first.
    """
    lines, offsets = split_lines(source)

    def block(
        kind: str, first: int, last: int, level: int = 0, title: str = "", title_at: int = -1
    ) -> Block:
        end = offsets[last] + len(lines[last].rstrip("\r"))
        return _new(
            Block, (kind, offsets[first], end, first, last, level, title, title_at)
        )  # = Block(...), faster

    blocks: list[Block] = []
    n = len(lines)
    i = _front_matter_end(lines)
    if i:
        blocks.append(block("front_matter", 0, i - 1))
    while i < n:
        line = lines[i]
        stripped = line.lstrip(" \t")
        if not stripped.strip(" \t\r"):
            i += 1  # a blank line
            continue
        first = stripped[0]
        indent = _indent(line) if line[0] in " \t" else 0
        pipe = "|" in line
        if first not in _SPECIAL_FIRST and not pipe and indent < 4:
            i = _paragraph(lines, i, blocks, block)  # the common case, settled first
            continue
        if pipe and _table_starts(lines, i):
            i = _table(lines, i, blocks, block)
            continue
        if indent >= 4:
            last = j = i
            while j < n and (_blank(lines[j]) or _indent(lines[j]) >= 4):
                if not _blank(lines[j]):
                    last = j
                j += 1
            blocks.append(block("code", i, last))
            i = last + 1
            continue
        # From here on the line has at most 3 spaces of indentation: `first` follows them.
        if first in "`~" and (fence := _fence(line)):
            char, length = fence
            j = i + 1
            while j < n and not (char in lines[j] and _closes_fence(lines[j], char, length)):
                j += 1
            last = j
            if j >= n:  # an unclosed fence runs to the end: to its last non-blank line
                last = n - 1
                while last > i and _blank(lines[last]):
                    last -= 1
            blocks.append(block("code", i, last))
            i = last + 1
            continue
        if first == ">":
            i = _quote(lines, i, blocks, block)
            continue
        if first in "*-_" and RULE.fullmatch(line.rstrip("\r")):
            blocks.append(block("rule", i, i))
            i += 1
            continue
        if first in _LIST_FIRST and _list_marker(line):
            i = _list(lines, i, blocks, block)
            continue
        if first == "[" and REFERENCE.match(line):
            j = i
            while j + 1 < n and REFERENCE.match(lines[j + 1]):
                j += 1
            blocks.append(block("reference", i, j))
            i = j + 1
            continue
        if first == "<" and (html_end := _html_start(line, interrupting=False)) is not None:
            j = i
            if html_end is True:
                while j + 1 < n and not _blank(lines[j + 1]):
                    j += 1
            else:
                while j < n - 1 and not html_end.search(lines[j]):
                    j += 1
            blocks.append(block("html", i, j))
            i = j + 1
            continue
        if first == "#" and (heading := ATX.match(line)):
            rest = heading.group(2)
            title = ATX_CLOSING.sub("", rest.rstrip("\r")).strip()
            title_at = offsets[i] + heading.start(2) + len(rest) - len(rest.lstrip())
            blocks.append(
                block("heading", i, i, len(heading.group(1)), title, title_at if title else -1)
            )
            i += 1
            continue
        i = _paragraph(lines, i, blocks, block)
    return blocks


def split_front_matter(source: str) -> tuple[str, str]:
    """(the YAML between the `---` fences at the very top, the rest); ("", source) if none."""
    if not source.startswith("---"):
        return "", source
    lines = source.split("\n")
    end = _front_matter_end(lines)
    if not end:
        return "", source
    return "\n".join(lines[1 : end - 1]), "\n".join(lines[end:])


# A heading made only of template tags (ERB `<%= … %>`, Liquid/Jinja `{{ … }}` and `{% … %}`) is
# filled in by a site generator; the source holds no title there. Breadcrumbs use the document's.
TEMPLATE_ONLY = re.compile(r"\s*(?:(?:<%.*?%>|\{\{.*?\}\}|\{%.*?%\})\s*)+")


def is_template_expression(text: str) -> bool:
    """True when `text` is nothing but template tags, e.g. `<%= current_page.data.title %>`."""
    return bool(TEMPLATE_ONLY.fullmatch(text))


def _front_matter_end(lines: list[str]) -> int:
    """Index of the first line after a YAML front matter block at the top, or 0 if there is none."""
    if not lines or lines[0].rstrip("\r") != "---":
        return 0
    for j in range(1, len(lines)):
        if lines[j].rstrip("\r") in ("---", "..."):
            return j + 1
    return 0


def _paragraph(lines, i, blocks, block) -> int:
    """A paragraph from line i; it may turn out to be a setext heading."""
    n = len(lines)
    j = i + 1
    while j < n:
        line = lines[j]
        if _blank(line):
            break
        if (
            line.lstrip(" ")[:1] in "=-"
            and _indent(line) < 4
            and SETEXT.fullmatch(line.rstrip("\r"))
        ):
            level = 1 if line.strip()[0] == "=" else 2
            title = " ".join(lines[k].strip() for k in range(i, j))
            blocks.append(block("heading", i, j, level, title))
            return j + 1
        if _interrupts_paragraph(lines, j):
            break
        j += 1
    blocks.append(block("paragraph", i, j - 1))
    return j


def _table(lines, i, blocks, block) -> int:
    """A pipe table: header, delimiter, then rows until a blank line or another block starts."""
    n = len(lines)
    j = i + 2
    while j < n:
        line = lines[j]
        if _blank(line) or _indent(line) >= 4 or _starts_container_terminator(line):
            break
        j += 1
    blocks.append(block("table", i, j - 1))
    return j


def _starts_container_terminator(line: str) -> bool:
    """Does the line start a block that ends a table, or a lazy line of a quote?

    The same set for both (markdown-it's "blockquote" terminators): a fence, a quote, a rule,
    a list item, an HTML block that may interrupt a paragraph, an ATX heading.
    """
    if line.lstrip(" ")[:1] not in _TERMINATOR_FIRST:
        return False  # a table row or a line of text: none of these blocks can start with it
    return bool(
        _fence(line)
        or QUOTE.match(line)
        or RULE.fullmatch(line.rstrip("\r"))
        or ATX.match(line)
        or _list_marker(line)
        or _html_start(line, interrupting=True) is not None
    )


def _quote(lines, i, blocks, block) -> int:
    """A block quote: `>` lines, and lazy continuation lines of a paragraph inside it."""
    n = len(lines)
    last = i
    empty_marker_line = _blank(lines[i][lines[i].index(">") + 1 :])  # "> " alone ends a paragraph
    paragraph_open: bool | None = None  # known only once a lazy line asks; lazy lines keep it
    lazy: set[int] = set()
    j = i + 1
    while j < n:
        line = lines[j]
        if QUOTE.match(line):
            last = j
            empty_marker_line = _blank(line[line.index(">") + 1 :])
            paragraph_open = None
        elif _blank(line) or empty_marker_line:
            break
        elif _indent(line) < 4 and _starts_container_terminator(line):
            break
        else:
            if paragraph_open is None:
                # Lines taken as lazy are paragraph text: a neutral word stands in for them, so
                # that re-scanning cannot read them as, say, a table header.
                inner = ["lazy" if k in lazy else lines[k] for k in range(i, last + 1)]
                paragraph_open = _ends_in_paragraph(inner)
            if not paragraph_open:
                break
            last = j  # lazy continuation of the paragraph inside the quote
            lazy.add(j)
        j += 1
    blocks.append(block("quote", i, last))
    return last + 1


def _rule_suffix_start(line: str) -> int:
    """Where the longest suffix of `line` made only of one rule character (`*`, `-` or `_`),
    spaces and tabs begins. A thematic break can only start at or after it: a check that every
    nested item's content needs, in one pass instead of one regex scan per item."""
    k, kind = len(line.rstrip("\r")), ""
    while k > 0:
        ch = line[k - 1]
        if ch in " \t" or ch == kind:
            k -= 1
        elif not kind and ch in "*-_":
            kind = ch
            k -= 1
        else:
            break
    return k


def _opens_paragraph(content: str) -> bool:
    """Does a block starting with this text (a list item's or a quote's content) open a paragraph?

    Lazy continuation lines only continue paragraphs: an item holding `<br>` alone (an HTML
    block), a heading, a fence, a rule or nothing at all takes no lazy line. Nested items
    (`- - - x`) are stepped through by position, so a line of n markers costs O(n), not O(n²).
    """
    content = content.rstrip("\r")
    rule_from = _rule_suffix_start(content)
    pos = 0
    while True:
        if pos >= rule_from and RULE.fullmatch(content, pos):
            return False  # only ever tried on the rule-like tail: a bounded number of times
        m = LIST_ITEM.match(content, pos)
        if not m:
            break
        pos = m.end()  # a nested item: look at its content
    rest = content[pos:]
    if _blank(rest) or _fence(rest) or ATX.match(rest):
        return False
    return not (_indent(rest) < 4 and _html_start(rest, interrupting=False) is not None)


QUOTE_MARKER = re.compile(r" {0,3}> ?")  # one level of quoting, with the one space it absorbs


def _unquote(line: str, levels: int) -> str:
    """`line` without its first `levels` quote markers (a line without one loses a leading space)."""
    pos = 0
    for _ in range(levels):
        m = QUOTE_MARKER.match(line, pos)
        if not m:
            return line[pos + 1 :] if line.startswith(" ", pos) else line[pos:]
        pos = m.end()
    return line[pos:]


def _quote_depth(line: str) -> int:
    depth, pos = 0, 0
    while m := QUOTE_MARKER.match(line, pos):
        depth, pos = depth + 1, m.end()
    return depth


def _ends_in_paragraph(quote_lines: list[str]) -> bool:
    """Is the block left open at the end of these quote lines a paragraph (or a list or quote)?

    Only then may a line without `>` continue the quote. Found by scanning the quote's inner text
    with this same scanner, one level down at a time while the last block is itself a quote: a
    loop, not recursion, so no nesting depth can overflow the stack. While every line is quoted
    at least d levels deep, those d levels are one quote inside another for certain, and are
    stripped in one step (`> > > … x` costs O(n), not O(n²)).
    """
    lines = list(quote_lines)
    while True:
        levels = min(_quote_depth(line) for line in lines) if lines else 0
        inner = [_unquote(line, max(1, levels)) for line in lines]
        blocks = parse_blocks("\n".join(inner))
        if not blocks or blocks[-1].last_line != len(inner) - 1:
            return False
        last = blocks[-1]
        if last.kind == "paragraph":
            return True
        if last.kind == "list":
            return _scan_list(inner, last.first_line)[1]
        if last.kind != "quote":
            return False
        lines = inner[last.first_line :]


def _list(lines, i, blocks, block) -> int:
    """A list: items of one type, with their indented continuation, nested lists and lazy lines."""
    last, _ = _scan_list(lines, i)
    blocks.append(block("list", i, last))
    return last + 1


def _scan_list(lines: list[str], i: int) -> tuple[int, bool]:
    """(last line of the list starting at line i, whether its last item ends in an open paragraph)."""
    n = len(lines)
    kind, content_indent, _, _, content_start = _list_marker(lines[i])
    last = i
    after_blank = False
    # fence: an open code fence inside the current item; html: an open HTML block inside it (its
    # end marker, or True); item_paragraph: the item's last block is a paragraph still open.
    fence, html, item_paragraph = _item_opening(lines[i][content_start:])
    j = i + 1
    while j < n:
        line = lines[j]
        if _blank(line):
            after_blank = True
            if html is True:
                html = None  # HTML blocks of kinds 6 and 7 end at a blank line
            j += 1
            continue
        indent = _indent(line)
        if indent >= content_indent:
            inner = line[_column_offset(line, content_indent) :]
            if html:
                if html is not True and html.search(inner):
                    html = None
                item_paragraph = False
            elif fence:
                if _closes_fence(inner, *fence):
                    fence = None
                item_paragraph = False
            elif (
                not after_blank
                and "|" not in inner
                and inner.lstrip(" \t")[:1] not in _SPECIAL_FIRST
            ):
                item_paragraph = True  # plain text (the common case): the item's paragraph goes on
            elif _fence(inner):
                fence = _fence(inner)
                item_paragraph = False
            elif after_blank or _interrupts_paragraph([inner], 0):
                item_paragraph = _opens_paragraph(inner)  # a new block inside the item
                html = _item_html(inner) if after_blank else None
            else:
                item_paragraph = True  # plain text: the item's paragraph goes on
            last, after_blank = j, False
            j += 1
            continue
        item = _list_marker(line)
        if item and item[0] == kind and indent < 4:
            content_indent = item[1]
            last, after_blank = j, False
            fence, html, item_paragraph = _item_opening(line[item[4] :])
            j += 1
            continue
        if after_blank or fence or not item_paragraph:
            break
        if _interrupts_paragraph(lines, j, lazy=True):
            break
        last = j  # lazy continuation of the item's paragraph
        j += 1
    return last, item_paragraph and fence is None


def _item_opening(content: str) -> tuple:
    """(open fence, open HTML block, opens a paragraph) for the first line of an item's content."""
    if content[:1] not in _SPECIAL_FIRST and content.strip():
        return None, None, True  # plain text, the common case: it can only open a paragraph
    return _fence(content), _item_html(content), _opens_paragraph(content)


def _item_html(content: str):
    """The end of an HTML block that a list item's content opens (see `_html_start`), or None."""
    pos, text_end = 0, len(content.rstrip(" \t\r"))
    while (m := LIST_ITEM.match(content, pos)) and m.end() < text_end:  # content after the marker
        pos = m.end()
    content = content[pos:]
    if _blank(content) or _indent(content) >= 4:
        return None
    end = _html_start(content, interrupting=False)
    if end is not None and end is not True and end.search(content):
        return None  # opened and closed on the same line
    return end


def _column_offset(line: str, columns: int) -> int:
    """Index in `line` where `columns` columns of indentation end (tabs count to the next stop)."""
    col = 0
    for k, ch in enumerate(line):
        if col >= columns or ch not in " \t":
            return k
        col += 1 if ch == " " else 4 - col % 4
    return len(line)


# --- making implicit structure explicit ----------------------------------------------------------

NUMBERED_TITLE = re.compile(r"(\d+(?:\.\d+)*)\.?[ \t]+(\S.*)")


def explicit_headings(source: str, title: bool = True) -> str:
    """Rewrite plain-text numbered titles ("2. Frequência", "2.1 Visual") as Markdown headings.

    Documents exported from word processors number their sections in plain text, which CommonMark
    reads as an ordered list. A line becomes a heading when it looks like a numbered title, stands
    after a blank line (or at the top), and is followed by a line of text that is not itself a
    numbered line. Its level comes from the depth of its number, not from its value: "2." and "3."
    are siblings at level 2, "2.1" sits under them at level 3. With `title`, a first line that is
    not a heading becomes the level-1 title.
    """
    lines = source.split("\n")
    out = list(lines)
    for k, line in enumerate(lines):
        m = NUMBERED_TITLE.fullmatch(line.strip())
        before_blank = k == 0 or not lines[k - 1].strip()
        after = lines[k + 1] if k + 1 < len(lines) else ""
        if m and before_blank and after.strip() and not NUMBERED_TITLE.fullmatch(after.strip()):
            out[k] = "#" * min(6, 2 + m.group(1).count(".")) + " " + line.strip()
    first = next((k for k, line in enumerate(lines) if line.strip()), None)
    if title and first is not None and not out[first].startswith("#"):
        out[first] = "# " + lines[first].strip()
    return "\n".join(out)


def with_explicit_headings(doc):
    """The same `Document`, its plain numbered titles rewritten as headings (`explicit_headings`)."""
    return doc.model_copy(update={"text": explicit_headings(doc.text)})
