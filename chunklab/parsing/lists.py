"""How far a Markdown list runs: its items, their indented content, nested lists, lazy lines.

The one part of block scanning that must follow state from line to line inside a block: an item's
content indent, a fence or HTML block left open in it, whether its last paragraph is still open
(only an open paragraph takes lazy continuation lines). `chunklab.parsing.blocks` asks it where a
list ends, and whether a quote whose last block is a list still ends in a paragraph.
"""

from __future__ import annotations

from chunklab.parsing.scanner import (
    SPECIAL_FIRST,
    closes_fence,
    column_offset,
    indent_width,
    interrupts_paragraph,
    is_blank,
    item_html,
    item_opening,
    list_marker,
    opening_fence,
    opens_paragraph,
)


def scan_list(lines: list[str], i: int) -> tuple[int, bool]:
    """(last line of the list starting at line i, whether its last item ends in an open
    paragraph: only then may a line without `>` continue a quote around the list)."""
    n = len(lines)
    marker = list_marker(lines[i])
    assert marker is not None  # called at the first line of a list, a list item's line
    kind, content_indent, _, _, content_start = marker
    last, after_blank = i, False
    # fence: an open code fence inside the current item; html: an open HTML block inside it (its
    # end marker, or True); item_paragraph: the item's last block is a paragraph still open.
    fence, html, item_paragraph = item_opening(lines[i][content_start:])
    j = i + 1
    while j < n:
        line = lines[j]
        if is_blank(line):
            after_blank = True
            if html is True:
                html = None  # HTML blocks of kinds 6 and 7 end at a blank line
            j += 1
            continue
        indent = indent_width(line)
        if indent >= content_indent:
            inner = line[column_offset(line, content_indent) :]
            if html:
                if html is not True and html.search(inner):
                    html = None
                item_paragraph = False
            elif fence:
                if closes_fence(inner, *fence):
                    fence = None
                item_paragraph = False
            elif (
                not after_blank
                and "|" not in inner
                and inner.lstrip(" \t")[:1] not in SPECIAL_FIRST
            ):
                item_paragraph = True  # plain text (the common case): the item's paragraph goes on
            elif opening_fence(inner):
                fence = opening_fence(inner)
                item_paragraph = False
            elif after_blank or interrupts_paragraph([inner], 0):
                item_paragraph = opens_paragraph(inner)  # a new block inside the item
                html = item_html(inner) if after_blank else None
            else:
                item_paragraph = True  # plain text: the item's paragraph goes on
            last, after_blank = j, False
            j += 1
            continue
        item = list_marker(line)
        if item and item[0] == kind and indent < 4:
            content_indent = item[1]
            last, after_blank = j, False
            fence, html, item_paragraph = item_opening(line[item[4] :])
            j += 1
            continue
        if after_blank or fence or not item_paragraph or interrupts_paragraph(lines, j, lazy=True):
            break
        last = j  # lazy continuation of the item's paragraph
        j += 1
    return last, item_paragraph and fence is None
