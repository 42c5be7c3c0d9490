"""Companion 08d: a PDF's lines as the converter reads them, one column at a time,
and the line where a heading's title starts.

Bookkeeping kept out of the notebook, so its cell shows only the level rule (size, weight,
section number): reading the page by halves and finding a title's line are needed to apply the
rule, but teach nothing about it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber

from chunklab.documents.convert import heading_levels
from chunklab.teaching.conversion_measures import words


def title_line(lines: list[dict], title: str) -> dict:
    """The first of `lines` (pdfplumber's text lines) whose words, a leading section number left
    out, start `title`'s words."""

    def starts(line: dict) -> bool:
        got = words(re.sub(r"^[\d.]+ ", "", line["text"]))
        return bool(got) and words(title)[: len(got)] == got

    return next(line for line in lines if starts(line))


def page_lines(path: Path) -> tuple[dict[float, int], list[dict]]:
    """The sizes that make heading levels in the PDF at `path`, and its text lines with their
    characters; a file whose name holds ``2col`` is read one half-page column at a time, as the
    converter reads it."""
    halves = 2 if "2col" in path.name else 1
    with pdfplumber.open(path) as pdf:
        sizes = [round(c["size"], 1) for p in pdf.pages for c in p.chars if c["text"].strip()]
        boxes = [
            (p, (p.width * i / halves, 0, p.width * (i + 1) / halves, p.height))
            for p in pdf.pages
            for i in range(halves)
        ]
        lines = [
            line for p, box in boxes for line in p.crop(box).extract_text_lines(return_chars=True)
        ]
    return heading_levels(sizes), lines
