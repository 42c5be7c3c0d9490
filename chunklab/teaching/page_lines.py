"""Exercise 08.1: a PDF page's lines, each a (font size, text) pair, as Markdown; and the hints
that name each plausible slip (sizes counted per line, per word or without spaces, a tie given to
the larger size, no cap at level 6, a size below the body's taken for a heading, lines joined by
a newline, the last paragraph dropped, text stripped, sizes rounded), with where the two texts
first differ.

The rule is the one `chunklab.documents.pdf` applies (`heading_levels`); kept apart from
`exercises_measures` because the hints are most of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from chunklab.documents.convert import heading_levels
from chunklab.teaching.checking import NotYet

# --- 08.1: a PDF page's lines as Markdown ------------------------------------------------------


def _render(
    lines: list[tuple[float, str]],
    levels: dict[float, int],
    join: bool = True,
    last: bool = True,
    sep: str = " ",
) -> str:
    blocks: list[str] = []
    paragraph: list[str] = []
    for size, text in lines:
        if size in levels:
            blocks += [sep.join(paragraph)] if paragraph else []
            blocks.append("#" * levels[size] + " " + text)
            paragraph = []
        elif join:
            paragraph.append(text)
        else:
            blocks.append(text)
    blocks += [sep.join(paragraph)] if paragraph and last else []
    return "\n\n".join(blocks)


def lines_as_markdown(lines: list[tuple[float, str]]) -> str:
    """The exercise's rule: sizes weighed per character; headings by `heading_levels`; runs of body
    lines joined by a space into one paragraph; blocks separated by a blank line."""
    return _render(lines, heading_levels([size for size, text in lines for _ in text]))


def _page(rng: random.Random) -> list[tuple[float, str]]:
    """Short heading lines in few sizes, longer body lines: counted per line, a heading size can be
    the most common; counted per character, the body's always is."""
    body = rng.choice([9.0, 10.0, 11.0, 12.0])
    heads = sorted(rng.sample([13.0, 14.0, 16.0, 18.0, 20.0, 24.0, 28.0, 32.0], rng.randint(1, 7)))
    words = "the per diem covers meals lodging is paid against receipts up to a cap".split()
    lines = []
    for _ in range(rng.randint(2, 7)):
        for _ in range(rng.randint(1, 3)):
            lines.append((rng.choice(heads), rng.choice(["Scope", "Booking", "Per diem", "Notes"])))
        for _ in range(rng.randint(1, 3)):
            lines.append((body, " ".join(rng.choices(words, k=rng.randint(8, 14)))))
    return lines


def _tie_slips(
    weight: dict[float, int], above: Callable[[float], dict[float, int]]
) -> list[tuple[dict[float, int], str]]:
    """On a tie of characters: the larger size, or the first seen (what Counter.most_common
    keeps), taken for the body; one hint naming both where they pick the same size."""
    larger = max(weight, key=lambda size: (weight[size], size))
    first = max(weight, key=lambda size: weight[size])  # the first seen of the tied sizes
    tie = "on a tie of characters the body is the smaller size"
    most_common = "the first seen, which Counter.most_common keeps"
    if larger == first:
        return [(above(larger), f"{tie}, not the larger nor {most_common}")]
    return [(above(larger), f"{tie}, not the larger"), (above(first), f"{tie}, not {most_common}")]


def _wrong_levels(lines: list[tuple[float, str]]) -> list[tuple[dict[float, int], str]]:
    """Each predictable slip in the body's size or the levels: the levels it gives, its hint."""
    weight = {size: sum(len(t) for s, t in lines if s == size) for size, _ in lines}
    words = {size: sum(len(t.split()) for s, t in lines if s == size) for size, _ in lines}
    ink = {size: sum(len(t.replace(" ", "")) for s, t in lines if s == size) for size, _ in lines}
    levels = heading_levels([size for size, text in lines for _ in text])

    def above(body: float, cap: int = 6) -> dict[float, int]:  # the levels over a given body size
        larger = sorted((s for s in weight if s > body * 1.05), reverse=True)
        return {s: min(cap, n) for n, s in enumerate(larger, start=1)}

    per_character = min(weight, key=lambda size: (-weight[size], size))
    no_margin = sorted((s for s in weight if s > per_character), reverse=True)
    at_margin = sorted((s for s in weight if s >= per_character * 1.05), reverse=True)
    ascending = sorted(levels)  # the smallest heading size taken for level 1
    wrong: list[tuple[dict[float, int], str]] = [
        (
            {s: min(6, n) for n, s in enumerate(no_margin, start=1)},
            "only sizes more than 5% above the body's are headings (size > body * 1.05), "
            "not every size above it",
        ),
        (
            {s: min(6, n) for n, s in enumerate(at_margin, start=1)},
            "a size exactly 5% above the body's is body text: more than 5% above it "
            "(size > body * 1.05), not 5% or more",
        ),
        (
            {s: min(6, n) for n, s in enumerate(ascending, start=1)},
            "the levels go the wrong way: the largest size is level 1",
        ),
        (
            above(min(weight, key=lambda size: (-words[size], size))),
            "weigh each line by its characters, len(text), not by its words",
        ),
        (
            above(min(weight, key=lambda size: (-ink[size], size))),
            "weigh each line by all its characters, len(text), spaces included",
        ),
        (heading_levels([size for size, _ in lines]), "weigh each line by its length"),
        *_tie_slips(weight, above),
        (
            above(per_character, cap=99),
            "no heading is deeper than level 6 ('######'): cap the level at 6",
        ),
        (
            {s: min(6, n + 1) for s, n in levels.items()},
            "the largest heading size is level 1 (one #)",
        ),
        (
            {
                s: min(6, n)
                for n, s in enumerate(
                    sorted((s for s in weight if s != per_character), reverse=True), start=1
                )
            },
            "a size smaller than the body's is body text, not a heading: "
            "only sizes above body * 1.05 are headings",
        ),
    ]
    return wrong


def _md_hint(lines: list[tuple[float, str]], got: Any) -> str:
    levels = heading_levels([size for size, text in lines for _ in text])
    for level, hint in _wrong_levels(lines):
        if got == _render(lines, level):
            return (
                f"the body's size is the most common per character: {hint}"
                if "weigh" in hint
                else hint
            )
    rounded = [(float(round(size)), text) for size, text in lines]
    if got == _render(rounded, heading_levels([size for size, text in rounded for _ in text])):
        return (
            "keep each size as it is, do not round it: rounded, two sizes can become one, and a "
            "size within 5% of the body's can pass body * 1.05"
        )
    if got == _render(lines, levels, last=False):
        return "the last run of body lines is a paragraph too: add it after the loop"
    if got == _render(lines, levels, join=False):
        return "consecutive body lines are one paragraph, joined by a single space"
    if got == _render(lines, levels, sep=""):
        return "a paragraph's lines are joined by a single space, not run together"
    if got.replace("\n\n", "\0").replace("\n", " ") == _render(lines, levels).replace("\n\n", "\0"):
        return "a paragraph's lines are joined by a single space, not a newline"
    if got in (_render(_merged(lines, levels, same), levels) for same in (True, False)):
        return "each heading line is its own heading, even when the line above is one too"
    if got == _render([(size, text.strip()) for size, text in lines], levels):
        return "keep each line's text as it is: do not strip it"
    return "headings as '#' * level + ' ' + text, paragraphs, one blank line between blocks"


def _merged(
    lines: list[tuple[float, str]], levels: dict[float, int], same: bool
) -> list[tuple[float, str]]:
    """Consecutive heading lines merged into one (of the same size only, or of any size)."""
    out: list[tuple[float, str]] = []
    for size, text in lines:
        if out and size in levels and out[-1][0] in levels and (not same or out[-1][0] == size):
            out[-1] = (out[-1][0], out[-1][1] + " " + text)
        else:
            out.append((size, text))
    return out


def _where(expected: str, got: str) -> str:
    """Both texts around the first character where they differ, so the slip is visible."""
    at = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b), len(got))
    around = slice(max(0, at - 20), at + 30)
    return f"they differ at character {at}: expected …{expected[around]!r}, got …{got[around]!r}"


def check_lines_as_markdown(fn: Callable) -> int:
    rng, cases = random.Random(8), 0
    crowded = [(14.0, "Scope"), (14.0, "Booking"), (14.0, "Notes"), (10.0, "the per diem " * 6)]
    # sizes 10 and 12 tie at 22 characters each: the body is the smaller, 10
    tied = [(16.0, "Travel"), (12.0, "Scope of it"), (10.0, "lodging cap"), (10.0, "per diem ok")]
    tied += [(12.0, "Booking now")]
    deep = [(float(s), f"Level {s}") for s in range(30, 14, -2)] + [
        (10.0, "the per diem covers meals " * 4)
    ]
    # a 10.3-point line in a 10-point body: larger, but within 5%, so body text, not a heading
    margin = [(16.0, "Travel"), (10.3, "Scope note"), (10.0, "the per diem covers meals " * 3)]
    margin += [(12.0, "Booking"), (10.0, "lodging is paid against receipts " * 2)]
    # few long body words against many short heading words: per word the heading size wins
    by_words = [(14.0, "a b c d"), (10.0, "internationalisation reimbursements"), (14.0, "e f g h")]
    # headings with many spaces: counted without spaces, the body's size wins instead
    by_ink = [(14.0, "a b c d e f g h i j"), (10.0, "reimbursements")]
    # 10.5 is exactly 5% above a 10-point body (body text), 10.2 less (body text too)
    boundary = [(16.0, "Travel"), (10.5, "Scope note"), (10.2, "Fine print")]
    boundary += [(10.0, "the per diem covers meals " * 3)]
    # sizes a rounding confuses: 14.4 and 13.6 are two levels; 10.6 is body text in a 10.4 body
    unrounded = [(14.4, "Travel"), (13.6, "Scope"), (10.6, "Fine print")]
    unrounded += [(10.4, "the per diem covers meals " * 3)]
    fixed_cases = [crowded * 2, tied, deep, margin, by_words, by_ink, boundary, unrounded]
    for lines in fixed_cases + [_page(rng) for _ in range(40)]:
        got, expected = fn(list(lines)), lines_as_markdown(lines)
        if got != expected:
            raise NotYet(
                f"{len(lines)} lines, sizes {sorted({s for s, _ in lines})}: "
                f"{_where(expected, got)} ({_md_hint(lines, got)})"
            )
        cases += 1
    return cases
