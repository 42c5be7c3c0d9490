"""HTML to Markdown: parsed the way a browser parses it, converted in bounded recursion.

Parsing. Python's own `html.parser` (BeautifulSoup's default) keeps every unclosed `<p>` open,
so the paragraphs of an HTML5 page written without `</p>` came out nested one inside the other,
1,200 levels deep for 1,200 paragraphs, and markdownify, which recurses once per level, ended in
`RecursionError`. The page is parsed instead by `html5lib` (MIT, pure Python; pinned in
pyproject.toml and environment.yml as `html5lib==1.1`, with its `six` and `webencodings`), which
implements the WHATWG parsing algorithm browsers follow: implied end tags are closed, stray end
tags ignored, text misplaced in a table moved before it. (lxml, libxml2's parser, would close
them too, but it is a compiled package this project does not otherwise need, and its tree is
libxml2's own repair, not the algorithm browsers share.) BeautifulSoup's html5lib builder joins
text after text by looking the last string up among all its siblings, quadratic on a page such as
`a</a>a</a>...`; the builder here joins it in place.

Depth. The parser's stack of open elements is watched as it grows: past `MAX_DEPTH` elements the
file is refused, a `DocumentError` "nesting deeper than 256 elements". Two costs grow with depth:
every start tag of a block looks down that stack for a `<p>` to close (4,000 nested `<div>` took
3.1 s to parse and 1,000 took 0.15 s: quadratic), and markdownify recurses four calls per level.
Refused early, parsing stays linear in the page's size, and markdownify's recursion is bounded
(the interpreter's limit is raised for it, to what `MAX_DEPTH` levels need, if it is lower).
Pages nest a few dozen elements deep; Chromium's parser stops nesting at 512.

What is kept, and said. Scripts, styles, `<noscript>` and `<template>` are dropped (a browser
does not show them). A table without a header row (no `<th>`, no `<thead>`, as Word tables often
are) takes its first row as the header, and the document's `conversion_warnings` say so: a note
in the text (once written before the table) was read as the document's words, and in a table
nested in a cell it landed inside a row, in chunk text. A merged cell (`colspan`, `rowspan`) has
no form in a pipe table: its text is copied into each cell it covers, so every row still reads
against its header. Each table changed so gets one line in the document's `conversion_warnings`
(a table inside another's cell is said to be nested). An empty block
(what a stray `</p>` leaves) is read as a space, and a block inside a heading or a table cell is
kept apart from its neighbours by spaces: markdownify would otherwise glue the words beside it.
"""

from __future__ import annotations

import copy
import re
import sys
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import FrameType
from typing import NamedTuple

from chunklab.documents.files import DocumentError
from chunklab.parsing.blocks import is_template_expression

MAX_DEPTH = 256  # open elements, html and body included
MAX_SPAN = 1000  # columns one cell may span, as browsers clip `colspan`
_FRAMES_PER_LEVEL = 5  # process_tag (ours, markdownify's), its list comprehension, process_element
_HIDDEN = ["script", "style", "noscript", "template"]
# Blocks markdownify turns into nothing when they are empty, and then strips the spaces beside
# them: `alpha <p></p> alpha` (what a stray `</p>` leaves) would read "alphaalpha".
_BLOCKS = ["p", "div", "blockquote", "li", "ul", "ol", "dl", "dt", "dd", "pre", "section"]
_BLOCKS += ["article", "header", "footer", "nav", "aside", "main", "figure", "figcaption"]
_BLOCKS += ["h1", "h2", "h3", "h4", "h5", "h6", "address", "details", "summary", "caption"]
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_CONTENT = ["img", "br", "hr", "table", "input", "video", "audio", "iframe"]  # shown, no text


class HtmlMarkdown(NamedTuple):
    title: str
    markdown: str
    warnings: list[str]  # what the Markdown could not hold, one line each


class TooDeep(Exception):
    """The page nests more than `MAX_DEPTH` open elements."""


@cache
def _tree_builder():
    """BeautifulSoup's html5lib builder, with the stack of open elements capped at `MAX_DEPTH`."""
    from bs4.builder._html5lib import Element, HTML5TreeBuilder, TreeBuilderForHtml5lib
    from bs4.element import NavigableString

    class Node(Element):
        def appendChild(self, node):  # noqa: N802 (html5lib's name)
            """Text after text (`a</a>a</a>...`: the stray end tags split it) joined to the string
            before it in place; bs4 looks that string's index up among all its siblings, which
            made such a page quadratic."""
            contents = self.tag.contents if self.tag is not None else None
            if not (
                contents
                and type(node.string) is NavigableString
                and type(contents[-1]) is NavigableString
            ):
                return super().appendChild(node)
            node.parent = self
            last = len(contents) - 1
            joined = self.soup.new_string(contents[-1] + node.string)
            contents[-1].extract(_self_index=last)
            self.tag.insert(last, joined)
            self.soup._most_recent_element = joined
            return None

        def cloneNode(self):  # noqa: N802 (html5lib's name)
            clone = Node(
                self.soup.new_tag(self.tag.name, self.namespace), self.soup, self.namespace
            )
            for key, value in self.attributes:
                clone.attributes[key] = value
            return clone

    class CappedTree(TreeBuilderForHtml5lib):
        def elementClass(self, name, namespace):  # noqa: N802 (html5lib's name)
            tag = self.soup.new_tag(name, namespace)
            return Node(tag, self.soup, namespace)

        def insertElementNormal(self, token):  # noqa: N802 (html5lib's name)
            element = super().insertElementNormal(token)
            if len(self.openElements) > MAX_DEPTH:
                raise TooDeep
            return element

        def insertElementTable(self, token):  # noqa: N802 (html5lib's name)
            element = super().insertElementTable(token)
            if len(self.openElements) > MAX_DEPTH:
                raise TooDeep
            return element

    class CappedBuilder(HTML5TreeBuilder):
        def create_treebuilder(self, namespaceHTMLElements):  # noqa: N803 (bs4's name)
            self.underlying_builder = CappedTree(namespaceHTMLElements, self.soup)
            return self.underlying_builder

    return CappedBuilder


@cache
def _converter():
    """markdownify's converter, with a block inside a heading or a table cell (where markdownify
    writes it inline, without the spaces it strips beside blocks) kept apart from its
    neighbours: `<h2>a<h2>b` is "a b", not "ab"."""
    from markdownify import MarkdownConverter

    class Converter(MarkdownConverter):
        def convert_img(self, el, text, parent_tags):
            """An image in a heading kept as Markdown's `![alt](src)`, not written as its alt
            text (markdownify's default inside a heading), so `parsing.sections.plain_title`
            leaves it out of breadcrumbs, as it does a Markdown file's badges. An image stored
            in the page (a `data:` URI, as mammoth writes Word's pictures) keeps no source: a
            heading line is no place for kilobytes of base64."""
            if parent_tags and _HEADINGS & set(parent_tags):
                parent_tags = set(parent_tags) - {"_inline"}
                if str(el.attrs.get("src", "")).startswith("data:"):
                    el.attrs["src"] = ""
            return super().convert_img(el, text, parent_tags)

        def convert_li(self, el, text, parent_tags):
            """An item after the list's own text (`<ol> beta <li>one`, which a browser shows as
            "beta" above the item) starts on a line of its own: markdownify glued the two into
            "beta1. one", and the word "beta" was lost to search."""
            item = super().convert_li(el, text, parent_tags)
            before = el.previous_sibling
            shown = type(before).__name__ == "NavigableString"  # text, not a comment or CDATA
            if shown and before.strip() and not item.startswith("\n"):
                return "\n" + item
            return item

        def process_tag(self, node, parent_tags=None):
            text = super().process_tag(node, parent_tags)
            if parent_tags and "_inline" in parent_tags and node.name in _BLOCKS:
                return f" {text} "
            return text

    # Underscores are not escaped: `HANDLING\_INSTRUCTIONS` would render the same but search as
    # two words, and an underscore inside a word never starts emphasis in CommonMark.
    return Converter(
        heading_style="ATX", bullets="-", strong_em_symbol="*", escape_underscores=False
    )


def tree_depth(root) -> int:
    """How many elements deep the tree under `root` goes, counted without recursion."""
    deepest, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in getattr(node, "contents", ()) if child.name)
    return deepest


def parse(html: str, path: Path | str):
    """The page as a browser's tree (BeautifulSoup over html5lib), or a `DocumentError`."""
    from bs4 import BeautifulSoup

    too_deep = DocumentError(
        f"{path}: nesting deeper than {MAX_DEPTH} elements (chunklab converts pages nested up "
        f"to {MAX_DEPTH} deep, as a browser builds them)"
    )
    try:
        soup = BeautifulSoup(html, builder=_tree_builder()())
    except TooDeep:
        raise too_deep from None
    if tree_depth(soup) > MAX_DEPTH + 1:  # + 1: the soup itself is above <html>
        raise too_deep
    return soup


def _span(cell, name: str, most: int) -> int:
    """A cell's `colspan` or `rowspan` as a browser reads it: a whole number from 1 to `most`."""
    value = str(cell.get(name, "1")).strip()
    return max(1, min(most, int(value))) if value.isdigit() and len(value) <= 6 else 1


def _from_above(below: dict, column: int, placed: list) -> int:
    """Copies of the cells from rows above that span down into this row from `column` on, added
    to `placed`; the next free column."""
    while column in below:
        cell, left = below.pop(column)
        placed.append(copy.copy(cell))
        if left > 1:
            below[column] = (cell, left - 1)
        column += 1
    return column


def _expand_spans(table) -> int:
    """A merged cell's text copied into every cell it covers (a pipe table has no merged cells,
    and a row read against its header needs each column's value); returns how many merged."""
    rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
    below: dict[int, tuple[object, int]] = {}  # column -> (cell above that spans it, rows left)
    merged = 0
    for row in rows:
        placed: list = []
        column = 0
        cells = row.find_all(["td", "th"], recursive=False)
        for cell in cells:
            column = _from_above(below, column, placed)
            wide, tall = _span(cell, "colspan", MAX_SPAN), _span(cell, "rowspan", len(rows))
            del cell["colspan"], cell["rowspan"]
            merged += wide > 1 or tall > 1
            for k in range(wide):
                placed.append(cell if k == 0 else copy.copy(cell))
                if tall > 1:
                    below[column] = (placed[-1], tall - 1)
                column += 1
        _from_above(below, column, placed)
        if len(placed) != len(cells):  # copies added: the cells put back in column order
            for at in range(len(row.contents) - 1, -1, -1):  # its index known: no lookup
                child = row.contents[at]
                if child.name in ("td", "th") or (child.name is None and not child.strip()):
                    child.extract(_self_index=at)
            row.extend(placed)
    return merged


def _mark_tables(soup) -> list[str]:
    """Merged cells spread (`_expand_spans`); the first row of a table without a header row made
    its header. One warning per table changed; nothing is written into the text."""
    warnings = []
    for number, table in enumerate(soup.find_all("table"), start=1):
        if merged := _expand_spans(table):
            warnings.append(
                f"table {number}: {merged} merged cell(s), their text repeated in each cell "
                "they cover"
            )
        first = table.find("tr")
        if first is not None and not table.find(["th", "thead"]):
            for cell in first.find_all("td", recursive=False):
                cell.name = "th"
            nested = " (nested in a cell)" if table.find_parent("table") else ""
            warnings.append(
                f"table {number}{nested}: no header row, its first row used as the header"
            )
    return warnings


@contextmanager
def _recursion_for(levels: int):
    """The interpreter's recursion limit raised, if needed, so markdownify can go `levels` deep
    from here (it recurses per element; `MAX_DEPTH` bounds the levels)."""
    here = 0
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        here, frame = here + 1, frame.f_back
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, here + levels * _FRAMES_PER_LEVEL + 200))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def tidy(markdown: str) -> str:
    """Trailing spaces and runs of blank lines removed, one newline at the end."""
    lines = [line.rstrip() for line in markdown.replace("\r", "").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


def html_to_markdown(html: str, path: Path | str = "<html>") -> HtmlMarkdown:
    """(title, Markdown, warnings) of an HTML page: its <title> (or first <h1>), and its body.
    `path` names the file in a `DocumentError`."""
    soup = parse(html, path)
    for tag in soup(_HIDDEN):
        tag.clear()  # emptied, not removed: bs4 finds a tag's place among all its siblings
        tag.name = "script"  # which markdownify writes as nothing
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    body = soup.body or soup
    if (
        not title
        and (h1 := body.find("h1"))
        and not is_template_expression(h1.get_text(" ", strip=True))
    ):
        title = h1.get_text(" ", strip=True)
    for block in body.find_all(_BLOCKS):
        if block.parent is not None and not block.get_text().strip() and not block.find(_CONTENT):
            block.name, block.attrs = "span", {}  # inline: the spaces beside it stay
    warnings = _mark_tables(body)
    with _recursion_for(tree_depth(body)):
        markdown = _converter().convert_soup(body)
    return HtmlMarkdown(title, tidy(markdown), warnings)
