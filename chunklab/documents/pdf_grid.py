"""Tables in a PDF page: the grid its rules draw and the words in each cell, or, without rules,
the columns its rows line up in.

Browsers and most writers draw a table's cell borders as thin paths: a horizontal rule is a path at
most 2 points high, a vertical one at most 2 points wide, give or take a hundredth: PDFium's
float32 bounds measure a 2-point rule as 2.00003 at some heights, and a strict test dropped it (a
stroked rectangle counts as its four sides). Rules that touch form one grid; a grid of at least two
cells is a table, its rows and columns between the rules, each word in the cell its middle falls
in. Reading the page's path objects through pypdfium2 costs microseconds, where finding tables
through pdfplumber meant reading every character with pdfminer first. A page with more than
`MAX_RULES` thin paths (a chart, a drawing) is not searched (the caller says so in a warning).

Pictures and frames (rules that close one box, too few cells for a table) of a figure's size are
handed on as empty fragments (`_figure`), so the reading order keeps a drawing's labels in place.

A table printed without rules (`aligned_tables`) has only its layout: a header row in bold over
rows of short cells lined up in its columns, found in the page's lines once they are in reading
order.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple

from chunklab.documents.pdf_layout import Fragment, Line, Turn, Word


class _Rule(NamedTuple):
    horizontal: bool
    at: float  # y of a horizontal rule (from the top), x of a vertical one
    start: float
    end: float


THIN = 2.0
SLACK = 0.01  # PDFium's bounds come back as float32 sums: a 2-point rule can measure 2.00003
TOUCH = 2.0
MAX_RULES = 600


def _paths(handle, pdfium_c, count, get, depth: int = 0):
    """Raw handles of the path and image objects of a page or a form (forms looked into, 4 deep
    at most), without a Python object for each of the page's many text objects."""
    for i in range(count(handle)):
        obj = get(handle, i)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_PATH or kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            yield obj, kind
        elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < 4:
            yield from _paths(
                obj,
                pdfium_c,
                pdfium_c.FPDFFormObj_CountObjects,
                pdfium_c.FPDFFormObj_GetObject,
                depth + 1,
            )


def _rules(page, turn: Turn) -> tuple[list[_Rule], list[tuple[float, float, float, float]]]:
    """The page's rules, and the boxes of its pictures (x0, top, x1, bottom)."""
    import ctypes

    import pypdfium2.raw as pdfium_c

    rules, pictures = [], []
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    raw = page  # PDFium's raw page handle
    objects = _paths(raw, pdfium_c, pdfium_c.FPDFPage_CountObjects, pdfium_c.FPDFPage_GetObject)
    for obj, kind in objects:
        pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
        x0, ya, x1, yb = turn.box(left.value, bottom.value, right.value, top.value)
        width, tall = x1 - x0, yb - ya
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            pictures.append((x0, ya, x1, yb))
        elif tall <= THIN + SLACK and width > 2 * THIN:
            rules.append(_Rule(True, (ya + yb) / 2, x0, x1))
        elif width <= THIN + SLACK and tall > 2 * THIN:
            rules.append(_Rule(False, (x0 + x1) / 2, ya, yb))
        elif width > 2 * THIN and tall > 2 * THIN and _stroked_rectangle(obj, pdfium_c):
            rules += [_Rule(True, ya, x0, x1), _Rule(True, yb, x0, x1)]
            rules += [_Rule(False, x0, ya, yb), _Rule(False, x1, ya, yb)]
    return rules, pictures


def _stroked_rectangle(obj, pdfium_c) -> bool:
    import ctypes

    fill, stroke = ctypes.c_int(), ctypes.c_int()
    if not pdfium_c.FPDFPath_GetDrawMode(obj, fill, stroke):
        return False
    return bool(stroke.value) and pdfium_c.FPDFPath_CountSegments(obj) in (4, 5)


def _groups(rules: list[_Rule]) -> list[list[_Rule]]:
    """Rules that touch (their boxes, widened by `TOUCH`, overlap), directly or through others,
    in one group: union-find over a sweep from left to right."""
    boxes = [
        (r.start, r.at, r.end, r.at) if r.horizontal else (r.at, r.start, r.at, r.end)
        for r in rules
    ]
    boxes = [(x0 - TOUCH, y0 - TOUCH, x1 + TOUCH, y1 + TOUCH) for x0, y0, x1, y1 in boxes]
    parent = list(range(len(rules)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(rules)), key=lambda i: boxes[i][0])
    for k, i in enumerate(order):
        _, y0, x1, y1 = boxes[i]
        top = root(i)  # stays a root: the others are hung under it
        for j in order[k + 1 :]:
            bx0, by0, _, by1 = boxes[j]
            if bx0 > x1:
                break
            if by0 <= y1 and y0 <= by1:
                parent[root(j)] = top
    groups: dict[int, list[_Rule]] = {}
    for i, rule in enumerate(rules):
        groups.setdefault(root(i), []).append(rule)
    return list(groups.values())


def _positions(values: list[float]) -> list[float]:
    merged: list[float] = []
    for v in sorted(values):
        if not merged or v - merged[-1] > TOUCH:
            merged.append(v)
    return merged


def _cell_rows(
    ys: list[float], xs: list[float], words: list[Word]
) -> tuple[list, list[Word], list[Word]]:
    """Each cell's text (rows of cells), the words inside the grid, and those outside it."""
    cells: list[list[list[str]]] = [[[] for _ in xs[1:]] for _ in ys[1:]]
    inside, outside = [], []
    for w in words:
        x, y = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
        row, col = bisect_right(ys, y) - 1, bisect_right(xs, x) - 1
        if 0 <= row < len(ys) - 1 and 0 <= col < len(xs) - 1:
            cells[row][col].append(w.text)
            inside.append(w)
        else:
            outside.append(w)
    return [[" ".join(cell) for cell in row] for row in cells], inside, outside


def text_size(words: Sequence[Word]) -> float:
    """The size most of the words' characters are set in (0.0 for none): a table's, so the body's
    size is counted over its cells too, and a page of tables under one large title keeps the
    title a heading."""
    sizes: dict[float, int] = {}
    for w in words:
        sizes[w.size] = sizes.get(w.size, 0) + len(w.text)
    return min(sizes, key=lambda s: (-sizes[s], s)) if sizes else 0.0


def table_markdown(rows: Sequence[Sequence[str | None]]) -> str:
    """Rows of cells as a Markdown pipe table, the first row its header; empty rows dropped."""

    def cell(value: str | None) -> str:
        return " ".join((value or "").split()).replace("|", "\\|").replace("\ufffe", "-")

    kept = [[cell(v) for v in row] for row in rows if any((v or "").strip() for v in row)]
    if not kept:
        return ""
    width = max(len(r) for r in kept)
    kept = [r + [""] * (width - len(r)) for r in kept]
    out = ["| " + " | ".join(kept[0]) + " |", "|" + "---|" * width]
    out += ["| " + " | ".join(r) + " |" for r in kept[1:]]
    return "\n".join(out)


def ruled_tables(page, turn: Turn, words: list[Word]) -> tuple[list[Fragment], list[Word], bool]:
    """(the page's ruled tables as fragments holding their Markdown, and its figures as empty
    fragments (`figure_box`); the words outside the tables; whether the page had too many rules
    to search); positions as the page is read (`Turn`)."""
    rules, pictures = _rules(page, turn)
    figures = [_figure(box, turn) for box in pictures]
    if len(rules) > MAX_RULES:
        return [f for f in figures if f], words, True
    tables = []
    for group in _groups(rules) if len(rules) >= 4 else []:
        ys = _positions([r.at for r in group if r.horizontal])
        xs = _positions([r.at for r in group if not r.horizontal])
        if len(ys) == len(xs) == 2:  # a frame: a figure's, if it is one
            figures.append(_figure((xs[0], ys[0], xs[1], ys[1]), turn))
        if len(ys) < 2 or len(xs) < 2 or (len(ys) - 1) * (len(xs) - 1) < 2:
            continue
        rows, inside, words = _cell_rows(ys, xs, words)
        markdown = table_markdown(rows)
        if markdown:
            size = text_size(inside)
            tables.append(Fragment(xs[0], xs[-1], ys[0], ys[-1], size, "", markdown))
    return tables + [f for f in figures if f], words, False


FIGURE = (72.0, 36.0)  # a picture or a frame this wide and this high at least is a figure


def _figure(box: tuple[float, float, float, float], turn: Turn) -> Fragment | None:
    """A figure's box as an empty fragment (no text, no table): the page's reading order puts
    it, and any text inside it (a chart's labels), where it stands, between the columns above
    and below it, never inside a column. A box smaller than `FIGURE` (a rule, an icon) or
    covering half the page or more (a page's background) is none."""
    x0, top, x1, bottom = box
    width, tall = x1 - x0, bottom - top
    if width < FIGURE[0] or tall < FIGURE[1] or width * tall >= 0.5 * turn.width * turn.height:
        return None
    return Fragment(x0, x1, top, bottom, 0.0, "")


# Tables drawn without rules: a header row set in bold (as a browser sets <th>, and most writers
# a table's head) over rows of short cells that line up under it.
CELL_GAP = 0.8  # words farther apart than this many font sizes on a line are in two cells
ROW_GAP = 1.2  # a row starts less than this many font sizes below the one above it
MAX_CELL_WORDS = 6  # a table's cells are short; a column of text's lines are not
MIN_ROWS = 2  # under the header
BOLD = 700.0  # a bold font's weight (`pdf._FontWeights`)


def _cells(line: Line) -> list[list[Word]]:
    """A line's words in cells, left to right: a gap wider than `CELL_GAP` starts a cell."""
    words = sorted((w for f in line for w in f.words), key=lambda w: w.x0)
    cells: list[list[Word]] = []
    for w in words:
        if cells and w.x0 - cells[-1][-1].x1 <= CELL_GAP * max(w.em, cells[-1][-1].em):
            cells[-1].append(w)
        else:
            cells.append([w])
    return cells


def _header(line: Line) -> list[float] | None:
    """Where the columns part (the middle of each gap between the cells of a line of two cells
    or more, all its words bold), if the line can head a table."""
    if line[0].table or any(f.weight < BOLD for f in line):
        return None
    cells = _cells(line)
    if len(cells) < 2 or any(len(cell) > MAX_CELL_WORDS for cell in cells):
        return None
    return [(a[-1].x1 + b[0].x0) / 2 for a, b in zip(cells, cells[1:], strict=False)]


def _row(line: Line, bounds: list[float], weight: float) -> list[str] | None:
    """The line's words in the header's columns (each word where it starts), if it is a row: in
    two columns at least, a few words in each, lighter than `weight`, inside the bounds."""
    if line[0].table or max(f.weight for f in line) >= weight:
        return None
    columns: list[list[str]] = [[] for _ in range(len(bounds) - 1)]
    for f in line:
        for w in f.words:
            if not (bounds[0] <= w.x0 and w.x1 <= bounds[-1]):
                return None
            columns[bisect_right(bounds, w.x0) - 1].append(w.text)
    if sum(1 for c in columns if c) < 2 or any(len(c) > MAX_CELL_WORDS for c in columns):
        return None
    return [" ".join(c) for c in columns]


def aligned_tables(lines: list[Line]) -> list[Line]:
    """A page's lines in reading order, each table printed without rules made one table line.

    A table is a bold header of two cells or more (a gap wider than an ordinary space parts
    them) over `MIN_ROWS` rows or more, each right under the one above, lighter, its words in
    the header's columns (each column reaches halfway to the next) a few to a column and none
    outside the header's width by more than a font size or two. The header stays the header, as
    in a ruled table, so each row chunk keeps it.
    """
    out: list[Line] = []
    i = 0
    while i < len(lines):
        parts = _header(lines[i])
        header, rows = None, []
        j = i + 1
        if parts is not None:
            head = lines[i]
            em = max(f.em for f in head)
            bounds = [min(f.x0 for f in head) - 2 * em, *parts, max(f.x1 for f in head) + 2 * em]
            weight = min(f.weight for f in head)
            header = _row(head, bounds, float("inf"))
            while j < len(lines):
                above = lines[j - 1]
                gap = lines[j][0].top - max(f.bottom for f in above)
                lighter = (
                    weight if j == i + 1 else float("inf")
                )  # the first row sets the head apart
                row = _row(lines[j], bounds, lighter) if gap < ROW_GAP * em else None
                if row is None:
                    break
                rows.append(row)
                j += 1
        if header is not None and len(rows) >= MIN_ROWS:
            frags = [f for line in lines[i:j] for f in line]
            markdown = table_markdown([header, *rows])
            box = (min(f.x0 for f in frags), max(f.x1 for f in frags))
            top, bottom = min(f.top for f in frags), max(f.bottom for f in frags)
            size = text_size([w for f in frags for w in f.words])
            out.append([Fragment(box[0], box[1], top, bottom, size, "", markdown)])
            i = j
        else:
            out.append(lines[i])
            i += 1
    return out
