"""PDF to Markdown, read with pypdfium2 (Apache-2.0/BSD-3, PDFium's own text layer).

A PDF stores characters at positions in fonts, not headings or paragraphs; this module infers
them. PDFium gives each page's text in the file's order (with the spaces and line ends it
infers from the gaps) and each character's box and font size: the words are read from that text
(one box at each end of a word, one font size per word), runs of words on one baseline become
fragments, and `pdf_layout` puts the fragments in reading order (columns, bands) and drops the
page furniture. Then:

  - a line whose font is larger than the body's is a heading (the largest size `#`, the next
    `##`, ...; `heading_levels`), and so is a short bold line at the body's size (as registers
    set their headings), as deep under those as its section number says (`3.3.1` is 3 deep);
  - a table drawn with rules (thin filled or stroked paths, the way browsers and most writers draw
    cell borders) is a grid: its cells are read from the words inside them and it becomes a
    Markdown table at its place in the reading order; a table without rules is found from its
    bold header and the rows lined up under it (`pdf_grid.aligned_tables`);
  - bullets become `-` items; lines closer than most of a line's height join into a paragraph.

Read as printed (issue 39): a page turned for reading (/Rotate) is read turned; digits PDFium
parts with a space of its own are one number when the gap is no wider than letter-spacing; a
column gap is found from where the words sit, so a file that writes its lines across the columns
is read column by column.

Measured on the PDFs of `data/formats/` (`make bench`): the same headings, tables and words as the
pdfplumber path it replaced, 10x to 40x faster; pdfplumber read every character through
pdfminer's Python parser. A page whose order could not be decided is named in the warnings
(`Document.metadata["conversion_warnings"]`).
"""

from __future__ import annotations

import ctypes
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from chunklab.documents.files import DocumentError
from chunklab.documents.pdf_grid import aligned_tables, ruled_tables
from chunklab.documents.pdf_layout import (
    COLUMN_GAP,
    Fragment,
    Line,
    Run,
    Turn,
    Word,
    gutters_between_words,
    reading_order,
    without_furniture,
)
from chunklab.parsing.blocks import is_template_expression


class PdfMarkdown(NamedTuple):
    title: str
    markdown: str
    warnings: list[str]  # one line per page whose reading order could not be decided


class _Line(NamedTuple):
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    em: float  # the font size in points on the page (the size scaled by the text's matrix)
    text: str
    table: bool = False
    weight: float = 0.0  # the lightest font weight on the line
    figure: bool = False  # inside a figure's box: a chart's labels, not headings or paragraphs


PDFIUM_ERRORS = {1: "unknown error", 2: "file not found or unreadable", 3: "not a PDF or corrupt"}


def _open_pdf(path: Path, password: str | None = None):
    """PDFium's raw handle on the file (pypdfium2's raw API: no Python object per page, which
    costs more than reading a small page), opened with `password` if given; an encrypted file
    without the right password, or an unreadable one, is a `DocumentError` (which never holds
    the password)."""
    import pypdfium2  # noqa: F401 (initialises PDFium)
    import pypdfium2.raw as pdfium_c

    secret = password.encode("utf-8") if password else None
    doc = pdfium_c.FPDF_LoadDocument(os.fsencode(path), secret)
    if not doc:
        error = pdfium_c.FPDF_GetLastError()
        if error == pdfium_c.FPDF_ERR_PASSWORD:
            raise DocumentError(
                f"{path}: the PDF is encrypted and the password given is wrong"
                if password
                else f"{path}: the PDF is encrypted: give its password (--password, or the "
                "CHUNKLAB_PDF_PASSWORD variable), or save an unprotected copy"
            )
        reason = PDFIUM_ERRORS.get(error, f"PDFium error {error}")
        raise DocumentError(f"{path}: not a readable PDF ({reason})")
    return doc


def _utf16(read, *args) -> str:
    """A string PDFium writes as UTF-16LE, asked for twice: its length, then its text."""
    size = read(*args, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    read(*args, buffer, size)
    return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")


# PDFium's mark for a hyphen that ends a line, in place of the line end. It cannot tell
# "documenta-tion" from "travel-and-leave" broken at its hyphen, so the hyphen is kept and the
# halves joined; the half before it ends a word and a line.
HYPHEN = "\ufffe"
WORD = re.compile(r"[\r\n]+|[^\s\ufffe]+\ufffe?|\ufffe")


def _page_words(page, turn: Turn) -> list[Word]:
    """The page's words in the file's order: each with the box from its first character's left
    to its last character's right as the page is read (`Turn`), its first character's font size
    and font weight, and whether a line ended before it. Digits set wide are one word
    (`_digits_go_on`)."""
    import pypdfium2.raw as pdfium_c

    raw = pdfium_c.FPDFText_LoadPage(page)
    try:
        count = pdfium_c.FPDFText_CountChars(raw)
        buffer = (ctypes.c_ushort * (count + 1))()
        pdfium_c.FPDFText_GetText(raw, 0, count, buffer)
        text = bytes(buffer)[: 2 * count].decode("utf-16-le", errors="replace")
        if len(text) != count:  # one character per index (a surrogate pair is two)
            text = "".join(chr(pdfium_c.FPDFText_GetUnicode(raw, i)) for i in range(count))
        box, matrix = pdfium_c.FS_RECTF(), pdfium_c.FS_MATRIX()
        boxed, font_size = ctypes.byref(box), pdfium_c.FPDFText_GetFontSize
        weights: dict[tuple[int, float], float] = {}
        loose_box = pdfium_c.FPDFText_GetLooseCharBox
        words: list[Word] = []
        newline, ems, height, quarters = True, {}, turn.height, turn.quarters
        line_weight = REGULAR
        for match in WORD.finditer(text):
            found, start = match.group(), match.start()
            if found[0] in "\r\n":
                newline = True
                continue
            loose_box(raw, start, boxed)
            if quarters:
                x0, top, _, bottom = turn.box(box.left, box.bottom, box.right, box.top)
                loose_box(raw, match.end() - 1, boxed)
                right = turn.box(box.left, box.bottom, box.right, box.top)[2]
            else:
                x0, top, bottom = box.left, height - box.top, height - box.bottom
                loose_box(raw, match.end() - 1, boxed)
                right = box.right
            if (
                found.isdigit()
                and words
                and words[-1].text.isdigit()
                and not newline
                and _digits_go_on(raw, words[-1], start, x0, turn)
            ):
                last = words[-1]
                words[-1] = last._replace(x1=max(right, last.x1), text=last.text + found)
                continue
            size = font_size(raw, start)
            if size not in ems:  # the size on the page: the font's, scaled by the text's matrix
                pdfium_c.FPDFText_GetMatrix(raw, start, matrix)
                ems[size] = size * abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
            found = found.replace("\x02", HYPHEN)
            if newline:  # a line's words weigh what its first and last words do (`_weight`)
                _weigh_last(raw, words, weights)
                line_weight = _weight(raw, start, round(size, 1), weights)
            words.append(
                Word(
                    x0,
                    max(right, x0),
                    top,
                    bottom,
                    round(size, 1),
                    ems[size],
                    found,
                    newline,
                    line_weight,
                    start,
                )
            )
            newline = found.endswith(HYPHEN)
        _weigh_last(raw, words, weights)
    finally:
        pdfium_c.FPDFText_ClosePage(raw)
    return words


def _weigh_last(raw, words: list[Word], known: dict[tuple[int, float], float]) -> None:
    """The last word of a line (the last one read) as light as its own font, if lighter than
    its line's first word."""
    if words:
        last = words[-1]
        weight = _weight(raw, last.start, last.size, known)
        if weight < last.weight:
            words[-1] = last._replace(weight=weight)


BOLD, REGULAR = 700.0, 400.0
BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|^(\w+\+)?CMBX?\d", re.I)


def _weight(raw, index: int, size: float, known: dict[tuple[int, float], float]) -> float:
    """The font weight of a character, 700 (bold) or 400 (`_weight_by_name`), asked of PDFium
    for a line's first and last words only: a line is bold when both are (bold words inside a
    line of body text make no heading). PDFium's own weight and the size tell a page's fonts
    apart cheaply: the font's name is read once for each pair."""
    import pypdfium2.raw as pdfium_c

    key = (pdfium_c.FPDFText_GetFontWeight(raw, index), size)
    weight = known.get(key)
    if weight is None:
        weight = known[key] = _weight_by_name(raw, index)
    return weight


def _weight_by_name(raw, index: int) -> float:
    """The font weight of a character, 700 (bold) or 400: bold when its font is forced bold or
    named so ("LiberationSerif-Bold", TeX's "CMBX10"). PDFium's own weight is guessed from the
    glyphs' stems where the file gives none, and puts a browser's italic (495) above its bold
    (415)."""
    import pypdfium2.raw as pdfium_c

    text_object = pdfium_c.FPDFText_GetTextObject(raw, index)
    font = pdfium_c.FPDFTextObj_GetFont(text_object) if text_object else None
    if not font:
        return REGULAR
    name = ctypes.create_string_buffer(128)
    pdfium_c.FPDFFont_GetBaseFontName(font, name, 128)
    flags = pdfium_c.FPDFFont_GetFlags(font)
    forced = flags > 0 and flags & 0x40000  # FontDescriptor /Flags: ForceBold
    return BOLD if forced or BOLD_NAME.search(name.value.decode("latin-1")) else REGULAR


DIGIT_GAP = 0.2  # digits closer than this many font sizes are one number, spaced wide


def _digits_go_on(raw, before: Word, start: int, x0: float, turn: Turn) -> bool:
    """Whether the digits at `start` go on with the number `before` them: PDFium put a space of
    its own between them (none in the file), for a gap narrower than `DIGIT_GAP` or no wider
    than the gaps between the digits of `before` (letter-spacing set wide: "98452" is not
    "98 452")."""
    import pypdfium2.raw as pdfium_c

    if start < 2 or not pdfium_c.FPDFText_IsGenerated(raw, start - 1):
        return False
    gap = x0 - before.x1
    if gap < DIGIT_GAP * before.em:
        return True
    if len(before.text) < 2:
        return False
    box = pdfium_c.FS_RECTF()
    edges = []
    for index in (start - 3, start - 2):  # the number's last two digits, the space after them
        pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(box))
        x_0, _, x_1, _ = turn.box(box.left, box.bottom, box.right, box.top)
        edges.append((x_0, x_1))
    inside = edges[1][0] - edges[0][1]
    return 0 < inside and gap <= 1.5 * inside


GAP = 1.5  # a gap wider than this many times the font size is not between words of a line


def _fragments(words: list[Word]) -> list[Fragment]:
    """Words run together while they follow each other on one baseline, less than `GAP` apart; a
    line end, a step back or a jump (a column gap) starts a new fragment, and so does a gap
    across a column gap found from where the page's words sit (`gutters_between_words`): a file
    that writes a line of each column in turn, the gap between them narrower than `GAP`, is
    read column by column all the same."""
    runs: list[list[Word]] = []
    wide: Counter[int] = Counter()  # where gaps as wide as a column gap sit inside runs
    for word in words:
        if runs:
            last = runs[-1][-1]
            em = max(last.em, 1.0)
            gap = word.x0 - last.x1
            if not (
                word.newline
                or word.x0 < last.x0
                or gap > em * GAP
                or abs(word.bottom - last.bottom) > em * 0.5
            ):
                runs[-1].append(word)
                if gap >= em * COLUMN_GAP:
                    wide[int(word.x0 + last.x1) // 8] += 1  # its middle, to 4 points
                continue
        runs.append([word])
    # a column gap inside runs comes back at one place, line after line (a justified line's
    # wide spaces do not): only then are the words' positions looked at
    lined_up = any(wide[at - 1] + wide[at] + wide[at + 1] >= max(3, len(runs) // 4) for at in wide)
    gutters = gutters_between_words(words) if lined_up else []
    if gutters:
        runs = [
            part
            for run in runs
            for part in (
                _cut_at(run, gutters) if any(run[0].x1 < x < run[-1].x0 for x in gutters) else [run]
            )
        ]
    return [_fragment(run) for run in runs]


def _cut_at(run: list[Word], gutters: list[float]) -> list[list[Word]]:
    """A run of words cut where a gap between two of them, as wide as a column gap, spans one
    (a title's ordinary space over the gutter is no cut)."""
    parts = [[run[0]]]
    for word in run[1:]:
        last = parts[-1][-1]
        wide = word.x0 - last.x1 >= COLUMN_GAP * max(last.em, 1.0)
        if wide and any(last.x1 <= x <= word.x0 for x in gutters):
            parts.append([word])
        else:
            parts[-1].append(word)
    return parts


def _fragment(run: list[Word]) -> Fragment:
    """A run of words as one fragment: its box, its most common size, and its weight, the
    lighter of its first and last words' (only a line's last word weighs apart from its first,
    `_weigh_last`, and a run never crosses a line's end)."""
    if len(run) == 1:
        w = run[0]
        return Fragment(
            w.x0, w.x1, w.top, w.bottom, w.size, w.text, em=w.em, weight=w.weight, words=(w,)
        )
    sizes: dict[float, int] = {}
    for w in run:
        sizes[w.size] = sizes.get(w.size, 0) + len(w.text)
    return Fragment(
        run[0].x0,
        max(w.x1 for w in run),
        min(w.top for w in run),
        max(w.bottom for w in run),
        min(sizes, key=lambda s: (-sizes[s], s)),
        " ".join(w.text for w in run),
        em=max(w.em for w in run),
        weight=min(run[0].weight, run[-1].weight),
        words=tuple(run),
    )


def _read_pdf(doc, path: Path) -> tuple[str, list[tuple[float, list[Fragment]]], list[str]]:
    """(metadata title, each page's (height, fragments and tables), warnings); a failure part way
    through is a `DocumentError`, not a half-converted document."""
    import pypdfium2.raw as pdfium_c

    try:
        title = _utf16(pdfium_c.FPDF_GetMetaText, doc, b"Title").strip()
        pages, warnings = [], []
        for number in range(pdfium_c.FPDF_GetPageCount(doc)):
            page = pdfium_c.FPDF_LoadPage(doc, number)
            try:
                turn = _turn(page)
                words = _page_words(page, turn)
                tables, words, crowded = ruled_tables(page, turn, words)
            finally:
                pdfium_c.FPDF_ClosePage(page)
            if crowded:
                warnings.append(
                    f"page {number + 1}: too many rules to look for tables; read as text"
                )
            pages.append((turn.reading_height, _fragments(words) + tables))
    except Exception as exc:
        raise DocumentError(
            f"{path}: the PDF could not be read to the end ({exc.__class__.__name__})"
        ) from None
    return title, pages, warnings


def _turn(page) -> Turn:
    """The page's quarter turns and its size before them (PDFium gives it after them)."""
    import pypdfium2.raw as pdfium_c

    quarters = pdfium_c.FPDFPage_GetRotation(page) % 4
    width, height = pdfium_c.FPDF_GetPageWidthF(page), pdfium_c.FPDF_GetPageHeightF(page)
    return Turn(quarters, height, width) if quarters % 2 else Turn(quarters, width, height)


def first_heading(markdown: str) -> str:
    """The text of the first `#` heading, the title a PDF without one in its metadata shows."""
    return next(
        (
            line[2:]
            for line in markdown.split("\n")
            if line.startswith("# ") and not is_template_expression(line[2:])
        ),
        "",
    )


def pdf_to_markdown(path: Path, password: str | None = None) -> PdfMarkdown:
    """(title, Markdown, warnings) of a PDF's text layer, opened with `password` if it is
    encrypted; see the module docstring."""
    import pypdfium2.raw as pdfium_c

    doc = _open_pdf(path, password)
    try:
        title, pages, warnings = _read_pdf(doc, path)
    finally:
        pdfium_c.FPDF_CloseDocument(doc)
    if not any(frags for _, frags in pages):
        raise DocumentError(
            f"{path}: the PDF has no text layer (a scan?): run OCR first (e.g. ocrmypdf, "
            "or Docling), then convert the result"
        )
    lines: list[_Line] = []
    for number, frags in enumerate(without_furniture(pages)):
        runs, undecided = reading_order(frags)
        if undecided:
            warnings.append(
                f"page {number + 1}: the reading order could not be decided (text side by side "
                "without a clear column gap); read line by line"
            )
        page_lines = _page_lines(number, runs)
        if any(line.figure for line in page_lines):
            warnings.append(
                f"page {number + 1}: text inside a figure (a chart's labels?) read line by line "
                "where the figure stands; its order is the page's, top to bottom"
            )
        lines += page_lines
    markdown = _pdf_lines_markdown(lines)
    return PdfMarkdown(title or first_heading(markdown), markdown, warnings)


def _page_lines(number: int, runs: list[Run]) -> list[_Line]:
    """The page's lines in reading order, rows printed as a table without rules made a table."""
    lines = []
    page: list[Line] = [line for run in runs for line in run]
    figures = [line[0] for line in page if not (line[0].text or line[0].table)]
    for line in aligned_tables(page):
        if not (line[0].text or line[0].table):  # a figure's box (a line of its own)
            continue
        if line[0].table:
            f = line[0]
            lines.append(_Line(number, f.x0, f.x1, f.top, f.bottom, 0.0, 0.0, f.table, True))
            continue
        sizes: Counter[float] = Counter()
        for f in line:
            sizes[f.size] += len(f.text)
        size = min(sizes, key=lambda s: (-sizes[s], s))
        text = " ".join(f.text for f in line)
        top, bottom = min(f.top for f in line), max(f.bottom for f in line)
        x0, x1 = line[0].x0, max(f.x1 for f in line)
        em = max(f.em for f in line)
        weight = min(f.weight for f in line)
        middle = (top + bottom) / 2
        figure = bool(figures) and any(
            g.x0 <= x0 and x1 <= g.x1 and g.top <= middle <= g.bottom for g in figures
        )
        lines.append(
            _Line(number, x0, x1, top, bottom, size, em, text, weight=weight, figure=figure)
        )
    return lines


BULLET = re.compile(r"^[•●▪◦‣∙·]\s*")
NUMBERED = re.compile(r"^\d{1,3}[.)]\s")
HEADING_RATIO = 1.05  # a font this much larger than the body's is a heading's
HEADING_WORDS = 14  # a bold line at the body's size this long or shorter may be a heading
SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+\S")  # "3.3.1 Types of ...": 3 deep
# Lines whose baselines are closer than this many times the font size are one paragraph: lines of
# a paragraph are 1.2-1.5 font sizes apart in the PDFs of data/formats/, paragraphs and table rows
# 1.8 or more. (pdfplumber's rule was a gap under 0.8 of a line's height, boxes as tall as their
# font: 1.8 sizes, which split the spec's references by a tenth of a point.)
LINE_SPACING = 1.7


def heading_levels(sizes: Sequence[float]) -> dict[float, int]:
    """Font size -> heading level, from the size of every character of a document.

    The body's size is the most common one (on a tie, the smaller). Every size clearly larger is
    a heading: the largest `#`, the next `##`, and so on, at most six levels. This is all a PDF
    says about structure: it stores characters at positions in fonts, not headings.
    """
    return _levels(Counter(sizes))


def _levels(counts: Counter) -> dict[float, int]:
    """`heading_levels` from each size's count of characters."""
    if not counts:
        return {}
    body = min(counts, key=lambda size: (-counts[size], size))
    larger = sorted((size for size in counts if size > body * HEADING_RATIO), reverse=True)
    return {size: min(6, rank) for rank, size in enumerate(larger, start=1)}


def _joins(previous: _Line | None, line: _Line, text: str) -> bool:
    """Whether `line` continues the paragraph of `previous`: close below it in the same column,
    or at the top of the next column of the page when the sentence plainly runs on."""
    if previous is None or previous.table:
        return False
    if previous.page != line.page or line.bottom < previous.top:  # next page or column
        return not re.search(r"[.!?:]\W*$", previous.text) and text[:1].islower()
    return line.bottom - previous.bottom < line.em * LINE_SPACING


def _heading_goes_on(previous: _Line | None, line: _Line, items: list) -> bool:
    """A heading's second line: the same size and weight, right under the first, on the same
    page, not numbered as a heading of its own."""
    return (
        previous is not None
        and items[-1:] != []
        and items[-1][0] == "heading"
        and previous.size == line.size
        and previous.weight == line.weight
        and not SECTION_NUMBER.match(line.text.strip())
        and previous.page == line.page
        and previous.top < line.top
        and line.bottom - previous.bottom < line.em * LINE_SPACING
    )


def _bold_level(lines: list[_Line], at: int, body_weight: float, below: int) -> int:
    """The heading level of a line at the body's size that is a heading by its weight: bold
    (heavier than the body's weight) with the lines that go on with it, short, starting with a
    letter or a section number, not ending as a sentence or a lead-in does, not an entry of a
    list of contents ("1 Introduction 1"). Numbered `1.2.3` it is that deep under the levels
    set by size (`below` of them), else just under them. 0 if it is not such a heading."""
    line = lines[at]
    if line.weight <= body_weight:
        return 0
    block = [line.text.strip()]
    for previous, after in zip(lines[at:], lines[at + 1 :], strict=False):
        if not (
            (after.page, after.size, after.weight, after.table)
            == (previous.page, previous.size, previous.weight, False)
            and 0 < after.bottom - previous.bottom < after.em * LINE_SPACING
            and not SECTION_NUMBER.match(after.text.strip())
        ):
            break
        block.append(after.text.strip())
    text = " ".join(block)
    number = SECTION_NUMBER.match(text)
    if (
        len(text.split()) > HEADING_WORDS
        or not text[:1].isalnum()
        or text.endswith((".", ",", ";", ":"))
        or (number and re.search(r"\s\d+$", text))
    ):
        return 0
    return min(6, below + (number.group(1).count(".") + 1 if number else 1))


def _pdf_lines_markdown(lines: list[_Line]) -> str:
    """Lines in reading order grouped into paragraphs; sizes above the body's become heading
    levels, and so do bold lines at the body's size (`_bold_level`); tables stay at their
    place."""
    chars: Counter[float] = Counter()
    weights: Counter[float] = Counter()
    for line in lines:
        if not line.table and not line.figure:
            chars[line.size] += len(line.text)
            weights[line.weight] += len(line.text)
    level = _levels(chars)
    body_weight = min(weights, key=lambda w: (-weights[w], w)) if weights else 0.0
    items: list[tuple[str, str]] = []  # (kind, Markdown)
    previous: _Line | None = None
    for at, line in enumerate(lines):
        text = line.text.strip()
        bold = 0
        if not (line.table or line.figure) and line.size not in level and line.weight > body_weight:
            runs_on = previous and previous.weight < line.weight and _joins(previous, line, text)
            bold = 0 if runs_on else _bold_level(lines, at, body_weight, len(set(level.values())))
        if line.table:
            kind = "table"
        elif line.figure:
            joins = items[-1:] != [] and items[-1][0] == "figure" and previous and previous.figure
            kind = "continued" if joins else "figure"
        elif (line.size in level or bold) and _heading_goes_on(previous, line, items):
            kind = "continued"
        elif line.size in level:
            kind, text = "heading", f"{'#' * level[line.size]} {text}"
        elif bold:
            kind, text = "heading", f"{'#' * bold} {text}"
        elif BULLET.match(text):
            kind, text = "item", "- " + BULLET.sub("", text)
        elif NUMBERED.match(text):
            kind = "item"
        elif _joins(previous, line, text) and items[-1:] and items[-1][0] in ("para", "item"):
            kind = "continued"
        else:
            kind = "para"
        if kind == "continued":
            joint = "" if items[-1][1].endswith(HYPHEN) else " "
            items[-1] = (items[-1][0], f"{items[-1][1]}{joint}{text}")
        elif kind == "item" and items and items[-1][0] == "item":
            items[-1] = ("item", f"{items[-1][1]}\n{text}")
        else:
            items.append((kind, text))
        previous = line
    return tidy("\n\n".join(md for _, md in items).replace(HYPHEN, "-"))


def tidy(markdown: str) -> str:
    """Trailing spaces and runs of blank lines gone, one newline at the end."""
    out = [line.rstrip() for line in markdown.replace("\r", "").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"
