"""PDFium's text layer as words, and words as fragments: what `pdf` reads a page from.

PDFium gives a page's text in the file's order, with the spaces and line ends it infers, and each
character's box, font size and font. A word here is a run of characters between those spaces:
one box from its first character's left to its last character's right (as the page is read, turned
by its /Rotate: `pdf_layout.Turn`), its first character's font size, and its line's weight (bold
or not, from the font's name or its ForceBold flag). Digits PDFium parts with a space of its own
are one word when the gap is letter-spacing. Words then run together into fragments while they
follow each other on one baseline, cut at the column gaps found from where the page's words sit.

Kept apart from `pdf`, which turns fragments into Markdown, because this is the only part that
talks to PDFium character by character, and where its cost is.
"""

from __future__ import annotations

import ctypes
import re
from collections import Counter

from chunklab.documents.pdf_layout import (
    COLUMN_GAP,
    Fragment,
    Turn,
    Word,
    gutters_between_words,
)


def page_turn(page) -> Turn:
    """The page's quarter turns and its size before them (PDFium gives it after them)."""
    import pypdfium2.raw as pdfium_c

    quarters = pdfium_c.FPDFPage_GetRotation(page) % 4
    width, height = pdfium_c.FPDF_GetPageWidthF(page), pdfium_c.FPDF_GetPageHeightF(page)
    return Turn(quarters, height, width) if quarters % 2 else Turn(quarters, width, height)


# PDFium's mark for a hyphen that ends a line, in place of the line end. It cannot tell
# "documenta-tion" from "travel-and-leave" broken at its hyphen, so the hyphen is kept and the
# halves joined; the half before it ends a word and a line.
HYPHEN = "\ufffe"
WORD = re.compile(r"[\r\n]+|[^\s\ufffe]+\ufffe?|\ufffe")


def page_words(page, turn: Turn) -> list[Word]:
    """The page's words in the file's order: each with the box from its first character's left
    to its last character's right as the page is read (`Turn`), its first character's font size
    and font weight, and whether a line ended before it. Digits set wide are one word
    (`_digits_go_on`)."""
    import pypdfium2.raw as pdfium_c

    raw = pdfium_c.FPDFText_LoadPage(page)
    try:
        text = _page_text(raw)
        box, matrix = pdfium_c.FS_RECTF(), pdfium_c.FS_MATRIX()
        font_size = pdfium_c.FPDFText_GetFontSize
        weights: dict[int, float] = {}
        words: list[Word] = []
        newline, ems = True, {}
        line_weight = REGULAR
        for match in WORD.finditer(text):
            found, start = match.group(), match.start()
            if found[0] in "\r\n":
                newline = True
                continue
            x0, top, bottom, right = _word_box(raw, start, match.end() - 1, turn, box)
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
                line_weight = _weight(raw, start, weights)
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


def _page_text(raw) -> str:
    """The page's text as PDFium infers it, one character per character index."""
    import pypdfium2.raw as pdfium_c

    count = pdfium_c.FPDFText_CountChars(raw)
    buffer = (ctypes.c_ushort * (count + 1))()
    pdfium_c.FPDFText_GetText(raw, 0, count, buffer)
    text = bytes(buffer)[: 2 * count].decode("utf-16-le", errors="replace")
    if len(text) != count:  # one character per index (a surrogate pair is two)
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(raw, i)) for i in range(count))
    return text


def _word_box(raw, first: int, last: int, turn: Turn, box) -> tuple[float, float, float, float]:
    """(x0, top, bottom, right) of the word from character `first` to `last`, as the page is
    read: its first character's box, and its last character's right edge."""
    import pypdfium2.raw as pdfium_c

    boxed = ctypes.byref(box)
    pdfium_c.FPDFText_GetLooseCharBox(raw, first, boxed)
    if turn.quarters:
        x0, top, _, bottom = turn.box(box.left, box.bottom, box.right, box.top)
        pdfium_c.FPDFText_GetLooseCharBox(raw, last, boxed)
        return x0, top, bottom, turn.box(box.left, box.bottom, box.right, box.top)[2]
    x0, top, bottom = box.left, turn.height - box.top, turn.height - box.bottom
    pdfium_c.FPDFText_GetLooseCharBox(raw, last, boxed)
    return x0, top, bottom, box.right


def _weigh_last(raw, words: list[Word], known: dict[int, float]) -> None:
    """The last word of a line (the last one read) as light as its own font, if lighter than
    its line's first word."""
    if words:
        last = words[-1]
        weight = _weight(raw, last.start, known)
        if weight < last.weight:
            words[-1] = last._replace(weight=weight)


BOLD, REGULAR = 700.0, 400.0
BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|^(\w+\+)?CMBX?\d", re.I)


def _weight(raw, index: int, known: dict[int, float]) -> float:
    """The font weight of a character, 700 (bold) or 400 (`_weight_by_name`), asked of PDFium
    for a line's first and last words only: a line is bold when both are (bold words inside a
    line of body text make no heading). The font's name is read once for each font on the page
    (PDFium's own weight cannot tell them apart: it is 0 for both Helvetica and Helvetica-Bold)."""
    import pypdfium2.raw as pdfium_c

    text_object = pdfium_c.FPDFText_GetTextObject(raw, index)
    font = pdfium_c.FPDFTextObj_GetFont(text_object) if text_object else None
    if not font:
        return REGULAR
    key = ctypes.cast(font, ctypes.c_void_p).value or 0
    weight = known.get(key)
    if weight is None:
        weight = known[key] = _weight_by_name(font)
    return weight


def _weight_by_name(font) -> float:
    """The font weight of a PDFium font, 700 (bold) or 400: bold when it is forced bold or
    named so ("LiberationSerif-Bold", TeX's "CMBX10"). PDFium's own weight is guessed from the
    glyphs' stems where the file gives none, and puts a browser's italic (495) above its bold
    (415)."""
    import pypdfium2.raw as pdfium_c

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


def fragments(words: list[Word]) -> list[Fragment]:
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
