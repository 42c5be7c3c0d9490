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

This module walks the lines and decides where each block ends. What a single line can start
(indentation, fences, list markers, headings, rules...) is asked of `chunklab.parsing.scanner`;
how far a list runs, of `chunklab.parsing.lists`.
"""

from __future__ import annotations

import re
from array import array
from itertools import accumulate
from typing import Literal, NamedTuple

from chunklab.parsing.lists import scan_list
from chunklab.parsing.scanner import (
    ATX,
    ATX_CLOSING,
    LIST_FIRST,
    QUOTE,
    REFERENCE,
    RULE,
    SETEXT,
    SPECIAL_FIRST,
    closes_fence,
    delimiter_columns,
    html_start,
    indent_width,
    interrupts_paragraph,
    is_blank,
    list_marker,
    opening_fence,
    quote_depth,
    split_cells,
    starts_container_terminator,
    table_starts,
    unquote,
)

# The table-row readers are re-exported: the table chunker and notebook 05 read rows from here.
__all__ = [
    "ATX",
    "ATX_CLOSING",
    "NUMBERED_TITLE",
    "TEMPLATE_ONLY",
    "Block",
    "delimiter_columns",
    "explicit_headings",
    "is_template_expression",
    "parse_blocks",
    "split_cells",
    "split_front_matter",
    "split_lines",
    "with_explicit_headings",
]


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
        """The block's text in `source`: a block keeps its span, not a copy of its text."""
        return source[self.start : self.end]


_new = tuple.__new__  # _new(Block, (...)) builds Block(...) without its Python-level constructor


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
    The rules are tried in CommonMark's (and markdown-it's) order, table first. Each kind of block
    has a helper below that appends it and returns the line after it.
    """
    lines, offsets = split_lines(source)

    def block(
        kind: str, first: int, last: int, level: int = 0, title: str = "", title_at: int = -1
    ) -> Block:
        end = offsets[last] + len(lines[last].rstrip("\r"))
        # = Block(...), faster
        return _new(Block, (kind, offsets[first], end, first, last, level, title, title_at))

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
        indent = indent_width(line) if line[0] in " \t" else 0
        pipe = "|" in line
        if first not in SPECIAL_FIRST and not pipe and indent < 4:
            i = _paragraph(lines, i, blocks, block)  # the common case, settled first
        elif pipe and table_starts(lines, i):
            i = _table(lines, i, blocks, block)
        elif indent >= 4:
            i = _indented_code(lines, i, blocks, block)
        # From here on the line has at most 3 spaces of indentation: `first` follows them.
        elif first in "`~" and (fence := opening_fence(line)):
            i = _fenced_code(lines, i, fence, blocks, block)
        elif first == ">":
            i = _quote(lines, i, blocks, block)
        elif first in "*-_" and RULE.fullmatch(line.rstrip("\r")):
            blocks.append(block("rule", i, i))
            i += 1
        elif first in LIST_FIRST and list_marker(line):
            i = _list(lines, i, blocks, block)
        elif first == "[" and REFERENCE.match(line):
            i = _references(lines, i, blocks, block)
        elif first == "<" and (html_end := html_start(line, interrupting=False)) is not None:
            i = _html(lines, i, html_end, blocks, block)
        elif first == "#" and (heading := ATX.match(line)):
            i = _atx_heading(heading, i, offsets[i], blocks, block)
        else:
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
        if is_blank(line):
            break
        if (
            line.lstrip(" ")[:1] in "=-"
            and indent_width(line) < 4
            and SETEXT.fullmatch(line.rstrip("\r"))
        ):
            level = 1 if line.strip()[0] == "=" else 2
            title = " ".join(lines[k].strip() for k in range(i, j))
            blocks.append(block("heading", i, j, level, title))
            return j + 1
        if interrupts_paragraph(lines, j):
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
        if is_blank(line) or indent_width(line) >= 4 or starts_container_terminator(line):
            break
        j += 1
    blocks.append(block("table", i, j - 1))
    return j


def _indented_code(lines, i, blocks, block) -> int:
    """Indented code: lines indented 4 columns or more, with the blank lines between them."""
    n = len(lines)
    last = j = i
    while j < n and (is_blank(lines[j]) or indent_width(lines[j]) >= 4):
        if not is_blank(lines[j]):
            last = j
        j += 1
    blocks.append(block("code", i, last))
    return last + 1


def _fenced_code(lines, i, fence: tuple[str, int], blocks, block) -> int:
    """Fenced code: from its opening fence (`fence`: character, run length) to its closing one."""
    char, length = fence
    n = len(lines)
    j = i + 1
    while j < n and not (char in lines[j] and closes_fence(lines[j], char, length)):
        j += 1
    last = j
    if j >= n:  # an unclosed fence runs to the end: to its last non-blank line
        last = n - 1
        while last > i and is_blank(lines[last]):
            last -= 1
    blocks.append(block("code", i, last))
    return last + 1


def _references(lines, i, blocks, block) -> int:
    """A run of link reference definitions: one block, kept as text."""
    n = len(lines)
    j = i
    while j + 1 < n and REFERENCE.match(lines[j + 1]):
        j += 1
    blocks.append(block("reference", i, j))
    return j + 1


def _html(lines, i, html_end: re.Pattern[str] | Literal[True], blocks, block) -> int:
    """An HTML block: to a blank line (`html_end` is True) or to the line with its end marker."""
    n = len(lines)
    j = i
    if html_end is True:
        while j + 1 < n and not is_blank(lines[j + 1]):
            j += 1
    else:
        while j < n - 1 and not html_end.search(lines[j]):
            j += 1
    blocks.append(block("html", i, j))
    return j + 1


def _atx_heading(heading: re.Match, i: int, line_start: int, blocks, block) -> int:
    """An ATX heading (`## Title ##`): its level, its title without markers, where that starts."""
    rest = heading.group(2)
    title = ATX_CLOSING.sub("", rest.rstrip("\r")).strip()
    title_at = line_start + heading.start(2) + len(rest) - len(rest.lstrip())
    blocks.append(block("heading", i, i, len(heading.group(1)), title, title_at if title else -1))
    return i + 1


def _quote(lines, i, blocks, block) -> int:
    """A block quote: `>` lines, and lazy continuation lines of a paragraph inside it."""
    n = len(lines)
    last = i
    empty_marker_line = is_blank(lines[i][lines[i].index(">") + 1 :])  # "> " alone ends a paragraph
    paragraph_open: bool | None = None  # known only once a lazy line asks; lazy lines keep it
    lazy: set[int] = set()
    j = i + 1
    while j < n:
        line = lines[j]
        if QUOTE.match(line):
            last = j
            empty_marker_line = is_blank(line[line.index(">") + 1 :])
            paragraph_open = None
        elif is_blank(line) or empty_marker_line:
            break
        elif indent_width(line) < 4 and starts_container_terminator(line):
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
        levels = min(quote_depth(line) for line in lines) if lines else 0
        inner = [unquote(line, max(1, levels)) for line in lines]
        blocks = parse_blocks("\n".join(inner))
        if not blocks or blocks[-1].last_line != len(inner) - 1:
            return False
        last = blocks[-1]
        if last.kind == "paragraph":
            return True
        if last.kind == "list":
            return scan_list(inner, last.first_line)[1]
        if last.kind != "quote":
            return False
        lines = inner[last.first_line :]


def _list(lines, i, blocks, block) -> int:
    """A list: items of one type, with their indented continuation, nested lists and lazy lines."""
    last, _ = scan_list(lines, i)
    blocks.append(block("list", i, last))
    return last + 1


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
    """The same `Document`, its plain numbered titles rewritten as headings
    (`explicit_headings`)."""
    return doc.model_copy(update={"text": explicit_headings(doc.text)})
