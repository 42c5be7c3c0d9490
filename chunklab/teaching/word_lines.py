"""A page's words as `pdfplumber` gives them, turned into the lines chunklab's PDF converter reads.

Notebook 08 writes the converter's rule for a table without rules from scratch on `pdfplumber`'s
words, then moves some of those words (numbers set flush right under their headers) to see where
a simpler rule parts from the converter's. The converter's rule, `pdf_grid.aligned_tables`,
reads lines of `Fragment`s made of `Word`s; `as_lines` builds them from the same word dicts, so
the library runs on exactly the page the notebook made.
"""

from __future__ import annotations

from chunklab.documents.pdf_layout import Fragment, Line, Word

BOLD, REGULAR = 700.0, 400.0  # the weights the converter gives a bold and a regular font


def as_lines(words: list[dict]) -> list[Line]:
    """`pdfplumber` words (`text`, `x0`, `x1`, `top`, `bottom`, `size`, `fontname`) as the
    converter's lines, top to bottom: one fragment per line, its words left to right, bold when
    the font's name says so."""
    by_top: dict[int, list[dict]] = {}
    for w in words:
        by_top.setdefault(round(w["top"]), []).append(w)
    lines: list[Line] = []
    for top in sorted(by_top):
        line = sorted(by_top[top], key=lambda w: w["x0"])
        placed = tuple(
            Word(
                w["x0"],
                w["x1"],
                w["top"],
                w["bottom"],
                w["size"],
                w["size"],
                w["text"],
                False,
                BOLD if "Bold" in w["fontname"] else REGULAR,
            )
            for w in line
        )
        lines.append(
            [
                Fragment(
                    placed[0].x0,
                    max(w.x1 for w in placed),
                    min(w.top for w in placed),
                    max(w.bottom for w in placed),
                    max(w.size for w in placed),
                    " ".join(w.text for w in placed),
                    "",
                    max(w.em for w in placed),
                    min(w.weight for w in placed),
                    placed,
                )
            ]
        )
    return lines
