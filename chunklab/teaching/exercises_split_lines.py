"""Companion 11b's exercise, 11b.1: the lines of a function its top chunks hold only together.

Section 1 of 11b holds a line when one chunk holds it whole (its first to its last non-blank
character inside the chunk); section 2's split-line check holds it when the top chunks cover its
non-blank characters together. 11b.1 asks for `split_lines(text, gold, top)`: the 1-based numbers
of the gold lines the second rule holds and the first does not, the lines a cut loses only by
splitting them. No cell of 11b computes them: a learner who copies section 1's scoring returns
(complete, recall), and is told so. The check cuts toolz's functions with character windows
(which split lines), in two at a line's end or inside its indentation, with a gap on the
spaces inside a line, and with chunks on both ends of a long line but not its middle;
`code_search`'s line rule is refused, and each known slip is named.
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral

from chunklab.documents.series import data_dir
from chunklab.teaching.checking import Cases, NotYet, consistent_slips, run_without, short
from chunklab.teaching.code_search import code_lines, complete_at, corpus, line_recall

Span = tuple[int, int]
Case = tuple[str, Span, list[Span]]


def _lines(text: str, span: Span) -> list[tuple[int, int, int, int]]:
    """(number, line start, first and last non-blank character) of each line meeting `span`."""
    out, pos = [], 0
    for n, line in enumerate(text.split("\n"), 1):
        first, last = pos + len(line) - len(line.lstrip()), pos + len(line.rstrip())
        if pos < span[1] and pos + len(line) >= span[0]:
            out.append((n, pos, first, last))
        pos += len(line) + 1
    return out


def _gold(text: str, gold: Span, blank: bool = False) -> list[tuple[int, int, int, int]]:
    """The function's lines: non-blank (or, with `blank`, every line), first to last inside gold."""
    return [
        x
        for x in _lines(text, gold)
        if (blank or x[2] < x[3]) and gold[0] <= x[2] and x[3] <= gold[1]
    ]


def _covered(text: str, top: list[Span], a: int, z: int) -> bool:
    """Whether the top chunks together cover every non-blank character of [a, z)."""
    return all(any(s <= c < e for s, e in top) for c in range(a, z) if not text[c].isspace())


def _whole(top: list[Span], first: int, last: int) -> bool:
    """Section 1's rule: one of the top chunks holds the line from its first to last character."""
    return any(s <= first and last <= e for s, e in top)


def _split(
    text: str, gold: Span, top: list[Span], one: Callable = _whole, **rule: bool
) -> list[int]:
    """The gold lines the top chunks cover together and no one of them holds whole."""
    lines = _gold(text, gold, rule.get("blank", False))
    return [n for n, p, f, z in lines if _covered(text, top, f, z) and not one(top, f, z, p)]


def split_lines_expected(text: str, gold: Span, top: list[Span]) -> list[int]:
    """11b.1's answer on one case."""
    return _split(text, gold, top, lambda t, f, z, p: _whole(t, f, z))


SLIPS: list[tuple[Callable[[str, Span, list[Span]], list[int]], str]] = [
    (
        lambda t, g, top: [n for n, p, f, z in _gold(t, g) if _covered(t, top, f, z)],
        "a line one chunk holds whole is not split: keep only the lines no one chunk holds, "
        "that the chunks cover together",
    ),
    (
        lambda t, g, top: [n for n, p, f, z in _gold(t, g) if not _whole(top, f, z)],
        "a line the top chunks do not reach, or reach only in part, is missing, not split: "
        "together they must cover every non-blank character of it",
    ),
    (
        lambda t, g, top: _split(
            t, g, top, lambda s, f, z, p: any(a <= p and z <= b for a, b in s)
        ),
        "a line runs from its first to its last non-blank character: a chunk that leaves out "
        "only its indentation holds it whole",
    ),
    (
        lambda t, g, top: _split(t, g, top, lambda s, f, z, p: _whole(s, f, z), blank=True),
        "blank lines are not lines of the function: count the non-blank ones only",
    ),
    (
        lambda t, g, top: [
            n
            for n, p, f, z in _gold(t, g)
            if all(any(a <= c < b for a, b in top) for c in range(f, z)) and not _whole(top, f, z)
        ],
        "only a line's non-blank characters need covering: a gap on the spaces inside a line "
        "loses none of its text",
    ),
    (
        lambda t, g, top: [
            n
            for n, p, f, z in _gold(t, g)
            if any(a <= f < b for a, b in top)
            and any(a < z <= b for a, b in top)
            and not _whole(top, f, z)
        ],
        "covering a line's first and last characters is not covering it: every non-blank "
        "character in between must be in some chunk too",
    ),
    (
        lambda t, g, top: [n - 1 for n in split_lines_expected(t, g, top)],
        "line numbers count from 1, as an editor shows them",
    ),
    (
        lambda t, g, top: _split(t, (0, len(t)), top, lambda s, f, z, p: _whole(s, f, z)),
        "only the function's lines: those whose text lies inside gold",
    ),
]


def scoring_cases() -> list[Case]:
    """(file, a function's span, the top chunks): character windows of three widths, every other
    case without the last window touching the function, the top filled to 5 from elsewhere; then
    functions cut in two at a line's end or inside a line's indentation, or with a gap on the
    spaces inside a line, or with a chunk on each end of its longest line and none on its middle."""
    files, questions = corpus(data_dir() / "code" / "toolz")
    cases = []
    for n, q in enumerate(questions[::3]):
        text, width = files[q.uri], (90, 160, 900)[n % 3]
        bounds = [0, *range(37 * n % width or width, len(text), width), len(text)]
        windows = [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if a < b]
        touching = [w for w in windows if w[0] < q.end and w[1] > q.start]
        top = touching[: max(1, len(touching) - n % 2)]
        top += [w for w in windows if w not in touching][: max(0, 5 - len(top))]
        cases.append((text, (q.start, q.end), top[:5]))
    for n, q in enumerate(questions[1::20]):  # split at a line end, or in an indent
        text = files[q.uri]
        ends = [i for i in range(q.start, q.end) if text[i : i + 5] == "\n    "]
        if ends:
            cut = ends[len(ends) // 2] + 3 * (n % 2)
            cases.append((text, (q.start, q.end), [(q.start, cut), (cut, q.end)]))
    for q in questions[2::20]:  # a gap exactly on a run of spaces inside a line
        text = files[q.uri]
        gaps = [i for i in range(q.start + 1, q.end) if text[i - 1 : i + 1] in ("= ", ", ")]
        if gaps:
            a = gaps[len(gaps) // 2]
            z = a + len(text[a : q.end]) - len(text[a : q.end].lstrip(" "))
            cases.append((text, (q.start, q.end), [(q.start, a), (z, q.end)]))
    for q in questions[3::20]:  # both ends of the longest line covered, its middle not
        text = files[q.uri]
        _, _, f, z = max(_gold(text, (q.start, q.end)), key=lambda x: x[3] - x[2])
        cases.append((text, (q.start, q.end), [(q.start, f + 5), (z - 5, q.end)]))
    return cases


def _as_lines(got: object) -> list[int] | None:
    """The learner's answer as a sorted list of ints, or None when it is not a collection of
    them (the order is checked apart: the task asks for the numbers sorted)."""
    if isinstance(got, list | tuple | set | frozenset) and all(
        isinstance(n, Integral) and not isinstance(n, bool) for n in got
    ):
        return sorted(int(n) for n in got)
    return None


def check_split_lines(fn: Callable) -> Cases:
    """The learner's `split_lines` on every case; a miss names the slip whose answer it gave."""
    cases = scoring_cases()
    refusal = "{name} is the library's line rule: write both rules yourself, line by line"
    for text, gold, top in cases:
        expected = split_lines_expected(text, gold, top)
        raw = run_without(fn, (text, gold, top), (code_lines, complete_at, line_recall), refusal)
        got = _as_lines(raw)
        if got == expected and (isinstance(raw, set | frozenset) or list(raw) == got):
            continue
        if got == expected:  # the right lines, out of order
            raise NotYet(f"got {short(raw)}: the right lines, but return them sorted, {expected}")
        where = f"lines {text.count(chr(10), 0, gold[0]) + 1}-{text.count(chr(10), 0, gold[1]) + 1}"
        if got is None:
            why = (
                "return the numbers of the split lines, not how many"
                if isinstance(raw, Integral) and raw == len(expected)
                else "return the split lines' 1-based numbers, a list of ints (section 1's scores, "
                "complete and recall, are not asked here)"
            )
            raise NotYet(f"the function at {where}, top chunks {top}: got {short(raw)}: {why}")
        matched = [why for slip, why in SLIPS if slip(text, gold, top) == got]
        if len(matched) > 1:
            matched = consistent_slips(fn, SLIPS, cases, shape=_as_lines) or matched
        why = "; or ".join(dict.fromkeys(matched)) or (
            "a split line is a gold line no one top chunk holds whole (first to last non-blank "
            "character inside it) that the top chunks cover together"
        )
        raise NotYet(
            f"the function at {where}, top chunks {top}: expected {expected}, got {got}: {why}"
        )
    return Cases(
        len(cases),
        "toolz's functions against character windows of three widths, and split in two at a "
        "line's end or in a line's indentation, with a gap on the spaces inside a line, or with "
        "chunks on both ends of a long line and not its middle",
    )


CHECKS_SPLIT_LINES: dict[str, tuple[str, Callable[[Callable], int | Cases]]] = {
    "11b.1": ("split_lines(text, gold, top) -> list of line numbers", check_split_lines),
}
