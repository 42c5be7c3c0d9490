"""Check of exercise 02c.2, `glue_headings(text, spans, size)`: notebook 02c's glue, fixed.

Section 2's glue joins a chunk to the next when the chunk is ONE heading line and the joined span
fits; on a page whose headings stack (`## A` then `### B` before any text) it joins the first
heading to the second and stops, and the text after them is not glued on. The fix: a chunk is
heading-only when every non-blank line of `text[start:end]` is a heading (one to six `#` and a
space), and the glue keeps joining the next chunk while the chunk it builds is heading-only and
the joined span, first start to last end, is at most `size` characters.

The cases are Markdown pages built from a fixed seed (stacked headings, a heading with its text on
the next line, text with a heading as its last line, `#tag` lines that are no heading, blank lines
between chunks, an indented `  ## A` that is no heading, as in 02c.1, a line of seven `#`s, a
line of spaces between two headings) cut at their blank lines,
with sizes around the joined spans' lengths. An answer that calls the library's fixed glue
(`structural.glue_headings`) is refused; a wrong answer is named by the slip it makes on every
case (`checking.consistent_slips`), else the first case it got wrong is shown.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.structural import glue_headings, headings_only
from chunklab.teaching.checking import NotYet, consistent_slips, run_without, short
from chunklab.teaching.exercises_headings_apart import HEADING  # 02c.1's heading: `#`s, a space

Span = tuple[int, int]
TITLES = ["Scope", "Booking", "Per diem", "Visas", "Hours", "Leave", "Pay", "Notes", "Review"]
WORDS = ["staff", "travel", "book", "submit", "receipts", "approval", "days", "hotel", "cap"]


def _headings_only(
    text: str, heading: re.Pattern = HEADING, blank: Callable[[str], bool] = lambda x: not x.strip()
) -> bool:
    lines = [line for line in text.split("\n") if not blank(line)]
    return bool(lines) and all(heading.match(line) for line in lines)


def _glue(
    text: str,
    spans: list[Span],
    size: int,
    joins: Callable[[str], bool] = _headings_only,
    fits: Callable[[int, int, int], bool] = lambda first, end, size: end - first <= size,
) -> list[Span]:
    """Greedy: the next span joins the last one built when `joins` its text and the join `fits`."""
    out: list[Span] = []
    for a, b in spans:
        if out and joins(text[out[-1][0] : out[-1][1]]) and fits(out[-1][0], b, size):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def expected_glue(text: str, spans: list[Span], size: int) -> list[Span]:
    return _glue(text, spans, size)


def _section_3s(text: str, spans: list[Span], size: int) -> list[Span]:
    return _glue(text, spans, size, lambda t: bool(re.fullmatch(r"#{1,6} .*", t.strip())))


def _summed(text: str, spans: list[Span], size: int) -> list[Span]:
    """The joined size as the sum of the chunks' lengths, the gaps between them left out."""
    out: list[tuple[int, int, int]] = []
    for a, b in spans:
        if out and _headings_only(text[out[-1][0] : out[-1][1]]) and out[-1][2] + b - a <= size:
            out[-1] = (out[-1][0], b, out[-1][2] + b - a)
        else:
            out.append((a, b, b - a))
    return [(a, b) for a, b, _ in out]


def _backwards(text: str, spans: list[Span], size: int) -> list[Span]:
    """A heading-only chunk joined to the chunk BEFORE it."""
    out: list[Span] = []
    for a, b in spans:
        if out and _headings_only(text[a:b]) and b - out[-1][0] <= size:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _once(text: str, spans: list[Span], size: int) -> list[Span]:
    """A heading-only chunk joined to the next once, and no more, even if still heading-only."""
    out: list[Span] = []
    joined: list[bool] = []
    for a, b in spans:
        if out and not joined[-1] and _headings_only(text[out[-1][0] : out[-1][1]]):
            if b - out[-1][0] <= size:
                out[-1], joined[-1] = (out[-1][0], b), True
                continue
        out.append((a, b))
        joined.append(False)
    return out


def _not_onto_a_heading(text: str, spans: list[Span], size: int) -> list[Span]:
    """A heading-only chunk joined to the next only when the next holds text: a stack stays."""
    out: list[Span] = []
    for a, b in spans:
        last = out[-1] if out else None
        if (
            last
            and _headings_only(text[last[0] : last[1]])
            and not _headings_only(text[a:b])
            and b - last[0] <= size
        ):
            out[-1] = (last[0], b)
        else:
            out.append((a, b))
    return out


GLUE_SLIPS: list[tuple[Callable[..., Any], str]] = [
    (
        _section_3s,
        "that is section 2's glue: a chunk of stacked headings (`## A`, then `### B`) is "
        "heading-only too; keep joining while every non-blank line of the chunk is a heading, so "
        "the text after the stack comes along",
    ),
    (
        _once,
        "you joined once and stopped: after a join the chunk may still be headings only (a stack "
        "of three, or two in one chunk); keep joining while it is",
    ),
    (
        _not_onto_a_heading,
        "you kept a heading from joining the heading below it, so the first one stays apart from "
        "the text: join the stack, then the text after it",
    ),
    (
        lambda t, sp, n: _glue(t, sp, n, fits=lambda first, end, size: True),
        "the joined span must fit: from its first start to its last end, at most size characters",
    ),
    (
        lambda t, sp, n: _glue(t, sp, n, fits=lambda first, end, size: end - first < size),
        "a joined span of exactly size characters fits: end - start <= size, not <",
    ),
    (
        _summed,
        "measure the joined span from its first start to its last end: the blank lines between "
        "the chunks are in it too, not only the chunks' lengths",
    ),
    (
        lambda t, sp, n: _glue(t, sp, n, lambda x: x.startswith("#")),
        "a chunk that starts with a heading and holds text after it keeps its heading already, and "
        "`#tag` is no heading (one to six `#`s and a space): join only chunks whose every "
        "non-blank line is a heading",
    ),
    (
        lambda t, sp, n: _glue(
            t, sp, n, lambda x: all(line.startswith("#") for line in x.split("\n") if line.strip())
        ),
        "`#tag` is no heading: a heading is one to six `#`s and a SPACE, then its title",
    ),
    (
        lambda t, sp, n: _glue(t, sp, n, lambda x: _headings_only(x, re.compile(r"#+ "))),
        "a heading has one to six `#`s: `####### x`, with seven, is no heading (`#{1,6} `)",
    ),
    (
        lambda t, sp, n: _glue(t, sp, n, lambda x: _headings_only(x, blank=lambda line: not line)),
        "a line of spaces only is blank, not text: skip each line whose strip() is empty "
        "(`if line.strip()`, not `if line`)",
    ),
    (
        lambda t, sp, n: _glue(t, sp, n, lambda x: bool(HEADING.match(x))),
        "a chunk that starts with a heading and holds text after it keeps its heading already: "
        "join only chunks whose every non-blank line is a heading",
    ),
    (
        lambda t, sp, n: _glue(t, sp, n, lambda x: bool(HEADING.match(x.rstrip().split("\n")[-1]))),
        "a chunk whose last line is a heading but that holds text before it is not heading-only: "
        "join only chunks whose every non-blank line is a heading",
    ),
    (
        lambda t, sp, n: _glue(
            t, sp, n, lambda x: _headings_only("\n".join(line.strip() for line in x.split("\n")))
        ),
        "an indented line (`  ## A`) is no heading, as in 02c.1: the `#`s come first on the line; "
        "do not strip a line before matching it",
    ),
    (
        lambda t, sp, n: _glue(t, sp, n, lambda x: True),
        "you joined chunks that hold text too: only a chunk of headings only is joined to the next",
    ),
    (
        _backwards,
        "a heading belongs with the text AFTER it: join a heading-only chunk to the next chunk, "
        "not to the one before",
    ),
]


def _blocks(text: str) -> list[Span]:
    """The page cut at its blank lines: each run of non-blank lines, its span."""
    return [(m.start(), m.end()) for m in re.finditer(r"[^\n]+(?:\n[^\n]+)*", text)]


def _page(rng: random.Random) -> str:
    parts: list[str] = []
    for title in rng.sample(TITLES, rng.randint(2, 5)):
        level = rng.randint(1, 3)
        parts.append("#" * level + " " + title)
        if rng.random() < 0.4:  # a stack: a subheading before any text
            parts.append("#" * (level + 1) + " " + rng.choice(TITLES))
        for _ in range(rng.randint(0, 2)):
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 9)))
            if rng.random() < 0.15:
                words = "#" + words  # a tag, no heading
            if rng.random() < 0.25:  # text on the heading's next line, no blank line
                parts[-1] += "\n" + words
            else:
                parts.append(words)
    return ("\n" * rng.choice([2, 2, 3])).join(parts)


def glue_cases() -> list[tuple[str, list[Span], int]]:
    stacked = "# Policy\n\n## Travel\n\n### Booking\n\nBook early.\n\n## Pay\n\nMonthly."
    exact = "## A\n\nabc"  # joined, 9 characters: fits at 9, not at 8
    gap = "## A\n\n\n\nabcdef"  # 14 with the gap, 10 without
    own = "## A\nbody\n\nnext para\n\n#tag line\n\nlast"  # a heading kept; a tag, no heading
    tail = "Intro text.\n## Next\n\nbody\n\nmore"  # text, then a heading, in one chunk
    cases = [(stacked, _blocks(stacked), 200), (stacked, _blocks(stacked), 30)]
    cases += [(exact, _blocks(exact), 9), (exact, _blocks(exact), 8), (gap, _blocks(gap), 12)]
    cases += [(own, _blocks(own), 100), (tail, _blocks(tail), 100)]
    cases += [("Intro.\n\n## Next\n\ntext", [(0, 6), (8, 15)], 50)]
    two = "## A\n### B\n\n#### C\n\nbody"  # two stacked in one chunk, a third: joined twice
    cases += [(two, _blocks(two), 100)]
    indented = "  ## A\n\nbody\n\n## B\n\ntext"  # an indented line is no heading; `## B` is
    cases += [(indented, _blocks(indented), 100)]
    seven = "####### Deep\n\nbody\n\n## B\n\ntext"  # seven `#`s: no heading, not joined
    spaces = "## A\n   \n## B\n\ntext"  # a line of spaces inside a chunk of headings: blank
    cases += [(seven, _blocks(seven), 100), (spaces, _blocks(spaces), 100)]
    rng = random.Random(2032)
    for _ in range(60):
        text = _page(rng)
        spans = _blocks(text)
        lengths = [b - a for a, b in spans]
        cases.append((text, spans, rng.randint(max(lengths), max(lengths) + 60)))
    return cases


def _as_spans(got: Any) -> list[Span]:
    return [(int(a), int(b)) for a, b in got]


def check_glue_headings(fn: Callable) -> int:
    cases = glue_cases()
    for text, spans, size in cases:
        got = run_without(
            fn,
            (text, list(spans), size),
            [glue_headings, headings_only],
            "you called chunklab's {name}: the exercise asks you to write the glue yourself",
        )
        try:
            joined = _as_spans(got)
        except (TypeError, ValueError):
            joined = None
        right = expected_glue(text, spans, size)
        if joined != right:
            slips = consistent_slips(fn, GLUE_SLIPS, cases, shape=_as_spans)
            why = "; or ".join(dict.fromkeys(slips)) or (
                "while the chunk being built has headings only and the joined span, first start "
                "to last end, is at most size characters, join the next chunk to it"
            )
            raise NotYet(
                f"text {short(text, 70)}, spans {short(spans, 50)}, size {size}: expected "
                f"{short(right, 60)}, got {short(joined if joined is not None else got, 60)}: {why}"
            )
    return len(cases)


CHECKS_HEADING_GLUE: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "02c.2": ("glue_headings(text, spans, size) -> list of (start, end)", check_glue_headings),
}
