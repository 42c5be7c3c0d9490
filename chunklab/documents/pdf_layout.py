"""A PDF page's reading order: columns found from where its text sits, and the page furniture
(running heads, page footers, page numbers) that a reader skips.

A PDF stores pieces of text at positions, not columns. Reading them top to bottom splices the
lines of two columns together, so the order is rebuilt from the positions of the *fragments* (the
runs of words `pdf.py` reads in the file's own order, which never jump a column gap):

  - a column gap (gutter) is an interval of x that almost no fragment crosses, with text on both
    sides, side by side (a tenth of the characters each at least; on one side at least, lines
    that are long and fill most of their column, which a table's cells do not); the columns are
    read left to right, each top to bottom and each looked at again (a column may hold columns
    of its own); the few fragments that cross a gutter (a title) cut the page into bands, each
    read on its own;
  - without a gutter, a fragment wider than half the text's width spans any columns below it (a
    title, a one-column paragraph over a two-column part): the lines it is on are read in place,
    and what lies between two of them is a band, looked at again;
  - a figure (`pdf_grid`: a picture, or a frame) is an empty fragment that spans like a title,
    so the text inside it (a chart's labels) is read where it stands, not in a column;
  - the fragments themselves are cut at a column gap found from where the page's words sit
    (`gutters_between_words`), for files that write a line of each column in turn;
  - a band without a gutter is read line by line; if many of its lines still hold pieces of text
    far apart, side by side, the order could not be decided and the page is reported.

Page furniture: a fragment in the top or bottom eighth of its page whose text (digits aside) comes
back at the same height on at least 40% of the pages (two at least), or that is a page number
alone on its line but for such running heads (a register prints "47699" beside its running head),
is dropped, so it can never become a heading.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import accumulate
from typing import NamedTuple


class Word(NamedTuple):
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    em: float  # the font size in points on the page
    text: str
    newline: bool  # a line ended before this word, in the file's order
    weight: float = 0.0  # 700 bold, 400 regular: its line's first and last words' (`pdf._weight`)
    start: int = 0  # its first character's index in PDFium's text of the page


class Fragment(NamedTuple):
    """Words on one baseline, read in the file's order; `table` holds a table's Markdown."""

    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    text: str
    table: str = ""
    em: float = 0.0  # the font size in points on the page
    weight: float = 0.0  # the lightest of its words' font weights: bold only if all are
    words: tuple[Word, ...] = ()  # its words, where each sits (a table's cells are found in them)

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def alone(self) -> bool:
        """A table or a figure (no text): a line of its own."""
        return bool(self.table) or not self.text


class Turn(NamedTuple):
    """A page's quarter turns (its /Rotate: 1 is 90 degrees clockwise) and its unturned size:
    PDFium gives boxes where the file draws them, and a landscape page is often drawn on its
    side and turned for reading. `box` puts a box where the reader sees it."""

    quarters: int
    width: float
    height: float

    @property
    def reading_height(self) -> float:
        return self.width if self.quarters % 2 else self.height

    def box(self, left: float, bottom: float, right: float, top: float):
        """(x0, top, x1, bottom) as read, from the top left of the turned page, of a box
        given in the file's coordinates (from the bottom left, unturned)."""
        if self.quarters == 1:
            return bottom, left, top, right
        if self.quarters == 2:
            return self.width - right, bottom, self.width - left, top
        if self.quarters == 3:
            return self.height - top, self.width - right, self.height - bottom, self.width - left
        return left, self.height - top, right, self.height - bottom


Line = list[Fragment]  # fragments on one baseline, left to right
Run = list[Line]  # lines read one after another: a column of a band, or a band


SPANNING = 0.55  # wider than this share of the text's width: the fragment spans the columns
MIN_WORDS = 4  # a column's lines hold this many words or more (most of them)
MARGIN = 0.12  # running heads and page footers sit in the top and bottom eighths of a page
PAGE_NUMBER = re.compile(r"(page\s*)?#+(\s*(/|of)\s*#+)?|[-–—]\s*#+\s*[-–—]", re.I)


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.split())).lower()


def without_furniture(pages: list[tuple[float, list[Fragment]]]) -> list[list[Fragment]]:
    """Each page's fragments without its running heads, page footers and page numbers."""
    margins: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for number, (height, frags) in enumerate(pages):
        for f in frags:
            if not f.alone and _in_margin(f, height):
                margins[_key(f.text)].append((number, f.top))
    needed = max(2, round(0.4 * len(pages)))

    def repeated(f: Fragment, key: str) -> bool:
        if PAGE_NUMBER.fullmatch(key):
            return False
        pages_here = {n for n, top in margins[key] if abs(top - f.top) <= 3}
        return len(pages) >= 2 and len(pages_here) >= needed

    def page_number(f: Fragment, key: str, frags: list[Fragment], heads: set) -> bool:
        """A page number in a margin, alone on its line but for running heads (a register
        prints "47699" beside its running head): a "4" that starts a row is text."""
        if not PAGE_NUMBER.fullmatch(key):
            return False
        return not any(
            g is not f and id(g) not in heads and g.top < _middle(f) < g.bottom for g in frags
        )

    kept = []
    for height, frags in pages:
        margin = [(f, _key(f.text)) for f in frags if not f.alone and _in_margin(f, height)]
        heads = {id(f) for f, key in margin if repeated(f, key)}
        furniture = heads | {id(f) for f, key in margin if page_number(f, key, frags, heads)}
        kept.append([f for f in frags if id(f) not in furniture] if furniture else frags)
    return kept


def _middle(f: Fragment) -> float:
    return (f.top + f.bottom) / 2


def _in_margin(f: Fragment, height: float) -> bool:
    return f.top < height * MARGIN or f.bottom > height * (1 - MARGIN)


COLUMN_GAP = 0.8  # a column gap is at least this many font sizes wide, wider than a space


def gutters_between_words(words: Sequence[Word]) -> list[float]:
    """x of each column gap of a page, from where its words sit whatever their order in the file:
    a stretch of x at least `COLUMN_GAP` wide that (nearly) no word covers, inside the text,
    with a fifth of the words at least on each side. Counted on a one-point grid (the words'
    starts and ends, summed up), so a page costs one pass over its words."""
    if len(words) < 20:
        return []
    left = int(min(w.x0 for w in words))
    steps = [0] * (int(max(w.x1 for w in words)) - left + 2)
    starts = [0] * len(steps)
    for w in words:
        at = int(w.x0) - left
        steps[at] += 1
        starts[at] += 1
        steps[int(w.x1) - left + 1] -= 1
    coverage = list(accumulate(steps))
    before = list(accumulate(starts))
    em = sorted(w.em for w in words)[len(words) // 2]
    allowed, side, width = len(words) // 50, len(words) // 5, COLUMN_GAP * em
    gutters, start = [], None
    for x, covered in enumerate(coverage):
        if covered <= allowed:
            if start is None:
                start = x
        elif start is not None:
            if x - start >= width and before[start] >= side and len(words) - before[x - 1] >= side:
                gutters.append(left + (start + x) / 2)
            start = None
    return gutters


def reading_order(frags: list[Fragment]) -> tuple[list[Run], bool]:
    """The page's fragments as runs in reading order, and whether the order was left undecided."""
    runs: list[Run] = []
    undecided = _order(frags, runs, 0)
    return [run for run in runs if run], undecided


def _order(frags: list[Fragment], runs: list[Run], depth: int) -> bool:
    if len(frags) <= 1 or depth > 8:
        runs.append(_lines(frags))
        return False
    left, right = min(f.x0 for f in frags), max(f.x1 for f in frags)
    gutters = _gutters(frags, left, right)
    if gutters:
        crossing = [f for f in frags if any(f.x0 < g < f.x1 for g in gutters)]
        if crossing:
            return _bands(frags, crossing, runs, depth)
        undecided = False
        for low, high in zip([left - 1, *gutters], [*gutters, right + 1], strict=True):
            column = [f for f in frags if low <= (f.x0 + f.x1) / 2 < high]
            undecided |= _order(column, runs, depth + 1)
        return undecided
    spans = [f for f in frags if f.x1 - f.x0 > SPANNING * (right - left)]
    if spans and len(spans) < len(frags):
        return _bands(frags, spans, runs, depth)
    runs.append(_lines(frags))
    return _side_by_side(runs[-1])


def _bands(frags: list[Fragment], spans: list[Fragment], runs: list[Run], depth: int) -> bool:
    """Spanning fragments (and the fragments on their lines) in their place, read as lines; the
    fragments between two of them read as a band of their own."""
    spanning = {f for f in frags if any(s.top <= (f.top + f.bottom) / 2 <= s.bottom for s in spans)}
    if len(spanning) == len(frags):
        runs.append(_lines(frags))
        return False
    undecided = False
    band: list[Fragment] = []
    lines: list[Fragment] = []
    for f in sorted(frags, key=lambda f: (f.top, f.x0)):
        if f in spanning:
            if band:
                undecided |= _order(band, runs, depth + 1)
                band = []
            lines.append(f)
        else:
            if lines:
                runs.append(_lines(lines))
                lines = []
            band.append(f)
    if band:
        undecided |= _order(band, runs, depth + 1)
    if lines:
        runs.append(_lines(lines))
    return undecided


def _gutters(frags: list[Fragment], left: float, right: float) -> list[float]:
    """x of each column gap: the middle of the least crossed stretch of a low-coverage interval
    at least half a line high wide, with text on each side, side by side."""
    edges = sorted({x for f in frags for x in (f.x0, f.x1)})
    steps = [0] * (len(edges) + 1)  # fragments starting minus ending at each edge
    for f in frags:
        steps[bisect_left(edges, f.x0)] += 1
        steps[bisect_left(edges, f.x1)] -= 1
    coverage: Counter[float] = Counter()
    crossing = 0
    for edge, step in zip(edges, steps, strict=False):
        crossing += step
        coverage[edge] = crossing  # fragments over the stretch from this edge to the next
    allowed = len(frags) // 10
    size = sorted(f.height for f in frags)[len(frags) // 2]
    gutters, start = [], None
    for a, b in zip(edges, edges[1:], strict=False):
        if coverage[a] <= allowed and start is None:
            start = a
        if start is not None and (coverage[a] > allowed or b == edges[-1]):
            end = a if coverage[a] > allowed else b
            if start > left and end < right and end - start >= size * 0.5:
                x = _least_crossed(edges, coverage, start, end)
                if _columns_on_both_sides(frags, x):
                    gutters.append(x)
            start = None
    return _without_thin_columns(frags, gutters)


def _without_thin_columns(frags: list[Fragment], gutters: list[float]) -> list[float]:
    """Gutters whose columns each hold a tenth of the characters at least: page numbers next to
    a list of contents are not a column."""
    chars = sum(len(f.text) for f in frags)
    while gutters:
        bounds = [-float("inf"), *gutters, float("inf")]
        held = [
            sum(len(f.text) for f in frags if low <= (f.x0 + f.x1) / 2 < high)
            for low, high in zip(bounds, bounds[1:], strict=False)
        ]
        thin = min(range(len(held)), key=held.__getitem__)
        if held[thin] >= 0.1 * chars:
            break
        gutters = gutters[: thin - 1] + gutters[thin:] if thin else gutters[1:]
    return gutters


def _least_crossed(edges: list[float], coverage: Counter, start: float, end: float) -> float:
    inside = [(coverage[a], -(b - a), a, b) for a, b in zip(edges, edges[1:], strict=False)]
    inside = [c for c in inside if start <= c[2] and c[3] <= end]
    _, _, a, b = min(inside)
    return (a + b) / 2


def _columns_on_both_sides(frags: list[Fragment], x: float) -> bool:
    left = [f for f in frags if f.x1 <= x]
    right = [f for f in frags if f.x0 >= x]
    chars = sum(len(f.text) for f in frags)
    if min(len(left), len(right)) < 2:
        return False
    if not (_text_column(left) or _text_column(right)):  # the cells of a table, not columns
        return False
    if min(sum(len(f.text) for f in side) for side in (left, right)) < 0.1 * chars:
        return False
    top = max(min(f.top for f in left), min(f.top for f in right))
    bottom = min(max(f.bottom for f in left), max(f.bottom for f in right))
    shorter = min(max(f.bottom for f in s) - min(f.top for f in s) for s in (left, right))
    return bottom - top >= 0.3 * shorter


def _text_column(side: list[Fragment]) -> bool:
    """Whether most lines are long and fill most of the side's width, as a column's lines do
    (a table's cells, a list of contents' entries and their page numbers do not)."""
    lines = _lines(side)  # a justified line may be several fragments, its gaps wide
    widths = sorted(line[-1].x1 - line[0].x0 for line in lines)
    words = sorted(sum(len(f.text.split()) for f in line) for line in lines)
    width = max(f.x1 for f in side) - min(f.x0 for f in side)
    return widths[len(widths) // 2] >= 0.5 * width and words[len(words) // 2] >= MIN_WORDS


def _lines(frags: list[Fragment]) -> Run:
    """Fragments grouped into lines, top to bottom: on one line when their middles are within
    half a line of each other; a table is a line of its own."""
    lines: Run = []
    for f in sorted(frags, key=lambda f: ((f.top + f.bottom) / 2, f.x0)):
        last = lines[-1] if lines else None
        if (
            last
            and f.text  # a table or a figure is a line of its own (`alone`)
            and not f.table
            and last[0].text
            and not last[0].table
            and abs((f.top + f.bottom) / 2 - (last[0].top + last[0].bottom) / 2)
            < 0.5 * max(f.height, last[0].height)
        ):
            last.append(f)
            last.sort(key=lambda g: g.x0)
        else:
            lines.append([f])
    return lines


def _side_by_side(run: Run) -> bool:
    """Many lines holding two runs of words side by side, a gap apart, with no gutter found:
    columns that could not be told apart (which piece a reader takes first is not known)."""
    apart = 0
    for line in run:
        long = [f for f in line if len(f.text.split()) >= MIN_WORDS]
        if any(b.x0 - a.x1 > max(a.em, b.em) for a, b in zip(long, long[1:], strict=False)):
            apart += 1
    return len(run) >= 6 and apart >= 0.4 * len(run)
