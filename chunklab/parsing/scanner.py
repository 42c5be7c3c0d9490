"""The line-level primitives of the Markdown scanner: what one line (or its next) can start.

`chunklab.parsing.blocks` walks a document line by line; every question it asks of a single line
is answered here: how far it is indented, whether it opens or closes a code fence, whether it is
a list item, a heading, a thematic break, a table's delimiter row, the start of an HTML block.
Kept apart so that a reader can learn the block rules one line at a time, and so that the chunker
(`chunklab.chunkers.markdown`), which re-splits lists and fences, asks the very same questions.

Each test is a plain function or a compiled pattern, called directly in the scanner's hot loops:
no classes, no state. Patterns apply to a line without its newline; a "\\r" is ignored.
"""

from __future__ import annotations

import re
from typing import Literal

# --- line patterns (applied to a line without its newline) ------------------------------------

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
    rf" {{0,3}}(?:<[A-Za-z][A-Za-z0-9-]*{_ATTRIBUTE}*[ \t]*/?>"  # an opening tag, or
    r"|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"  # a closing tag, alone on its line
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
SPECIAL_FIRST = set("#`~>-*+_|<=[0123456789")
LIST_FIRST = set("-+*0123456789")
# First characters of the blocks that end a table or a quote's lazy line (after up to 3 spaces).
TERMINATOR_FIRST = set("`~>*-_#<+0123456789")

# --- helpers on single lines ------------------------------------------------------------------


def indent_width(line: str) -> int:
    """Columns of leading whitespace, tabs advancing to the next multiple of 4.

    Four columns make indented code, and list content is found by its column, so a tab cannot
    count as one character.
    """
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


def is_blank(line: str) -> bool:
    """Only spaces, tabs (and a "\\r"): CommonMark's blank line, which ends paragraphs and lists."""
    return not line.strip(" \t\r")


def split_cells(row: str) -> list[str]:
    """Cells of a pipe-table row; `\\|` is an escaped pipe, not a boundary; outer pipes optional.

    Shared by the scanner (a header has as many cells as its delimiter row has columns) and the
    table chunker, so both read a row the same way.
    """
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
    if not stripped or indent_width(line) >= 4 or stripped[0] not in "|-:":
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


def table_starts(lines: list[str], i: int) -> bool:
    """Line i is a table header: it has a pipe, and line i+1 is a delimiter row of as many columns.

    The one test that looks at two lines: GFM knows a table only by its second line.
    """
    if i + 1 >= len(lines) or "|" not in lines[i] or indent_width(lines[i]) >= 4:
        return False
    columns = delimiter_columns(lines[i + 1])
    return columns > 0 and columns == len(split_cells(lines[i]))


def opening_fence(line: str) -> tuple[str, int] | None:
    """(fence character, run length) if the line opens a code fence, else None.

    The run length matters: only a run of the same character at least as long closes the fence.
    """
    m = FENCE_OPEN.match(line)
    if not m:
        return None
    run = m.group(2)
    if run[0] == "`" and "`" in m.group(3):
        return None  # a backtick fence's info string may not contain backticks
    return run[0], len(run)


def closes_fence(line: str, char: str, length: int) -> bool:
    """Does `line` close a fence opened by `opening_fence` with (`char`, `length`)?

    Everything up to the closing fence is code, so this is the only test a fenced line needs.
    """
    stripped = line.strip(" \t\r")
    return indent_width(line) < 4 and len(stripped) >= length and stripped == char * len(stripped)


def list_marker(line: str) -> tuple[str, int, bool, bool, int] | None:
    """(list type, content indent, item is empty, ordered list starts at 1, where its content
    starts in the line) for a list item line, else None.

    The type decides which items belong to one list; the content indent, which lines belong to
    the item; the last two, whether the item may interrupt a paragraph.
    """
    if line.lstrip(" ")[:1] not in LIST_FIRST:
        return None
    m = LIST_ITEM.match(line)
    if not m:
        return None
    lead, marker, number, gap = m.groups()
    if marker in "-*" and RULE.fullmatch(line.rstrip("\r")):
        return None  # "- - -" and "* * *" are thematic breaks
    kind = marker if marker in "-+*" else marker[-1]  # bullets by character, ordered by delimiter
    empty = not line[m.end() :].strip(" \t\r")
    spaces = indent_width(gap) if "\t" in gap else len(gap)
    width = len(lead) + len(marker)
    content = width + 1 if empty or spaces > 4 else width + spaces
    starts_at_one = number is not None and int(number) == 1
    return kind, content, empty, starts_at_one, m.end()


def html_start(line: str, interrupting: bool) -> re.Pattern[str] | Literal[True] | None:
    """The end marker of an HTML block starting here, True for one ending at a blank line, else
    None.

    CommonMark's seven kinds of HTML block differ only in how they end: that is what is returned.
    """
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


def interrupts_paragraph(lines: list[str], i: int, lazy: bool = False) -> bool:
    """Does line i start a block that ends a paragraph running above it?

    `lazy`: the paragraph is inside a list item and line i is not indented to the item's content.
    A table cannot start there (CommonMark's table rule needs the item's indentation), so such a
    line is lazy paragraph text, pipes and all.
    """
    line = lines[i]
    first = line.lstrip(" \t")[:1]
    if first not in SPECIAL_FIRST and "|" not in line:
        return False  # the common case: a line of text can start nothing
    if indent_width(line) >= 4:
        return False
    if (
        (not lazy and table_starts(lines, i))
        or opening_fence(line)
        or QUOTE.match(line)
        or ATX.match(line)
    ):
        return True
    if RULE.fullmatch(line.rstrip("\r")):
        return True
    item = list_marker(line)
    if item:
        # At the paragraph's own indentation an item must have content, and an ordered one must
        # start at 1; a lazy line is ended by any item at all (markdown-it's rule, too).
        kind, _, empty, starts_at_one, _ = item
        return lazy or (not empty and (kind in "-+*" or starts_at_one))
    return html_start(line, interrupting=True) is not None


def starts_container_terminator(line: str) -> bool:
    """Does the line start a block that ends a table, or a lazy line of a quote?

    The same set for both (markdown-it's "blockquote" terminators): a fence, a quote, a rule,
    a list item, an HTML block that may interrupt a paragraph, an ATX heading.
    """
    if line.lstrip(" ")[:1] not in TERMINATOR_FIRST:
        return False  # a table row or a line of text: none of these blocks can start with it
    return bool(
        opening_fence(line)
        or QUOTE.match(line)
        or RULE.fullmatch(line.rstrip("\r"))
        or ATX.match(line)
        or list_marker(line)
        or html_start(line, interrupting=True) is not None
    )


def rule_suffix_start(line: str) -> int:
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


def opens_paragraph(content: str) -> bool:
    """Does a block starting with this text (a list item's or a quote's content) open a paragraph?

    Lazy continuation lines only continue paragraphs: an item holding `<br>` alone (an HTML
    block), a heading, a fence, a rule or nothing at all takes no lazy line. Nested items
    (`- - - x`) are stepped through by position, so a line of n markers costs O(n), not O(n²).
    """
    content = content.rstrip("\r")
    rule_from = rule_suffix_start(content)
    pos = 0
    while True:
        if pos >= rule_from and RULE.fullmatch(content, pos):
            return False  # only ever tried on the rule-like tail: a bounded number of times
        m = LIST_ITEM.match(content, pos)
        if not m:
            break
        pos = m.end()  # a nested item: look at its content
    rest = content[pos:]
    if is_blank(rest) or opening_fence(rest) or ATX.match(rest):
        return False
    return not (indent_width(rest) < 4 and html_start(rest, interrupting=False) is not None)


QUOTE_MARKER = re.compile(r" {0,3}> ?")  # one level of quoting, with the one space it absorbs


def unquote(line: str, levels: int) -> str:
    """`line` without its first `levels` quote markers (a line without one loses a leading space).

    A quote's inner text is scanned again as a document of its own, one or more levels down.
    """
    pos = 0
    for _ in range(levels):
        m = QUOTE_MARKER.match(line, pos)
        if not m:
            return line[pos + 1 :] if line.startswith(" ", pos) else line[pos:]
        pos = m.end()
    return line[pos:]


def quote_depth(line: str) -> int:
    """How many quote markers (`> > x`) open the line: the levels that can be stripped at once."""
    depth, pos = 0, 0
    while m := QUOTE_MARKER.match(line, pos):
        depth, pos = depth + 1, m.end()
    return depth


def item_opening(
    content: str,
) -> tuple[tuple[str, int] | None, re.Pattern[str] | Literal[True] | None, bool]:
    """(open fence, open HTML block, opens a paragraph) for the first line of an item's content.

    The state a list scan carries from an item's first line into the lines that follow it.
    """
    if content[:1] not in SPECIAL_FIRST and content.strip():
        return None, None, True  # plain text, the common case: it can only open a paragraph
    return opening_fence(content), item_html(content), opens_paragraph(content)


def item_html(content: str) -> re.Pattern[str] | Literal[True] | None:
    """The end of an HTML block that a list item's content opens (see `html_start`), or None.

    Inside an open HTML block a list's lines are raw HTML, never new blocks.
    """
    pos, text_end = 0, len(content.rstrip(" \t\r"))
    while (m := LIST_ITEM.match(content, pos)) and m.end() < text_end:  # content after the marker
        pos = m.end()
    content = content[pos:]
    if is_blank(content) or indent_width(content) >= 4:
        return None
    end = html_start(content, interrupting=False)
    if end is not None and end is not True and end.search(content):
        return None  # opened and closed on the same line
    return end


def column_offset(line: str, columns: int) -> int:
    """Index in `line` where `columns` columns of indentation end (tabs count to the next stop).

    An item's content starts at a column, not a character: a tab may cover several columns.
    """
    col = 0
    for k, ch in enumerate(line):
        if col >= columns or ch not in " \t":
            return k
        col += 1 if ch == " " else 4 - col % 4
    return len(line)
