"""Ruled tables in a PDF page: the grid its rules draw, and the words in each cell.

Browsers and most writers draw a table's cell borders as thin paths: a horizontal rule is a path
at most 2 points high, a vertical one at most 2 points wide (a stroked rectangle counts as its
four sides). Rules that touch form one grid; a grid of at least two cells is a table, its rows
and columns between the rules, each word in the cell its middle falls in. Reading the page's path
objects through pypdfium2 costs microseconds, where finding tables through pdfplumber meant
reading every character with pdfminer first. A page with more than `MAX_RULES` thin paths (a
chart, a drawing) is not searched (the caller says so in a warning).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple

from chunklab.documents.pdf_layout import Fragment


class Word(NamedTuple):
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    em: float  # the font size in points on the page
    text: str
    newline: bool  # a line ended before this word, in the file's order


class _Rule(NamedTuple):
    horizontal: bool
    at: float  # y of a horizontal rule (from the top), x of a vertical one
    start: float
    end: float


THIN = 2.0
TOUCH = 2.0
MAX_RULES = 600


def _paths(handle, pdfium_c, count, get, depth: int = 0):
    """Raw handles of the path objects of a page or a form (forms looked into, 4 deep at most),
    without a Python object for each of the page's many text objects."""
    for i in range(count(handle)):
        obj = get(handle, i)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
            yield obj
        elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < 4:
            yield from _paths(
                obj,
                pdfium_c,
                pdfium_c.FPDFFormObj_CountObjects,
                pdfium_c.FPDFFormObj_GetObject,
                depth + 1,
            )


def _rules(page, height: float) -> list[_Rule]:
    import ctypes

    import pypdfium2.raw as pdfium_c

    rules = []
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    raw = page  # PDFium's raw page handle
    for obj in _paths(raw, pdfium_c, pdfium_c.FPDFPage_CountObjects, pdfium_c.FPDFPage_GetObject):
        pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
        x0, y0, x1, y1 = left.value, bottom.value, right.value, top.value
        width, tall = x1 - x0, y1 - y0
        if tall <= THIN and width > 2 * THIN:
            rules.append(_Rule(True, height - (y1 + y0) / 2, x0, x1))
        elif width <= THIN and tall > 2 * THIN:
            rules.append(_Rule(False, (x0 + x1) / 2, height - y1, height - y0))
        elif width > 2 * THIN and tall > 2 * THIN and _stroked_rectangle(obj, pdfium_c):
            ya, yb = height - y1, height - y0
            rules += [_Rule(True, ya, x0, x1), _Rule(True, yb, x0, x1)]
            rules += [_Rule(False, x0, ya, yb), _Rule(False, x1, ya, yb)]
    return rules


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


def _cell_rows(ys: list[float], xs: list[float], words: list[Word]) -> tuple[list, list[Word]]:
    """Each cell's text (rows of cells), and the words outside the grid."""
    cells: list[list[list[str]]] = [[[] for _ in xs[1:]] for _ in ys[1:]]
    outside = []
    for w in words:
        x, y = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
        row, col = bisect_right(ys, y) - 1, bisect_right(xs, x) - 1
        if 0 <= row < len(ys) - 1 and 0 <= col < len(xs) - 1:
            cells[row][col].append(w.text)
        else:
            outside.append(w)
    return [[" ".join(cell) for cell in row] for row in cells], outside


def table_markdown(rows: list[list[str | None]]) -> str:
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


def ruled_tables(page, height: float, words: list[Word]) -> tuple[list[Fragment], list[Word], bool]:
    """(the page's ruled tables as fragments holding their Markdown, the words outside them,
    whether the page had too many rules to search)."""
    rules = _rules(page, height)
    if len(rules) > MAX_RULES:
        return [], words, True
    tables = []
    for group in _groups(rules) if len(rules) >= 4 else []:
        ys = _positions([r.at for r in group if r.horizontal])
        xs = _positions([r.at for r in group if not r.horizontal])
        if len(ys) < 2 or len(xs) < 2 or (len(ys) - 1) * (len(xs) - 1) < 2:
            continue
        rows, words = _cell_rows(ys, xs, words)
        markdown = table_markdown(rows)
        if markdown:
            tables.append(Fragment(xs[0], xs[-1], ys[0], ys[-1], 0.0, "", markdown))
    return tables, words, False
