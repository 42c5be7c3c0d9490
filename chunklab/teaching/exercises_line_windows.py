"""Exercise 01d.2's check: windows with no overlap that end at a line break.

01d.2 asks for `line_windows(text, size)`: windows covering the text, each at most `size`
characters; a window holding a line break ends right after the last one it holds, one with none
keeps its full size, the last ends at the end of the text. The check runs the learner's function
on texts and sizes it has not seen, and names the usual slips (the newline left out of a window,
the first break taken for the last, the last window snapped too). In a module of its own so that
`exercises`, the registry, stays a registry.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, first_difference, short


def _line_texts(rng: random.Random, lines: int) -> str:
    words = ["pump", "valve", "30", "dias", "inspect", "0,08", "mm", "|", "log", "shaft", "limit"]
    out = []
    for _ in range(lines):
        out.append(" ".join(rng.choice(words) for _ in range(rng.choice([0, 1, 3, 6, 12, 30]))))
    return "\n".join(out) + rng.choice(["", "\n"])


def _snapped(text: str, size: int, end_at: Callable[[str, int, int], int]) -> list[tuple[int, int]]:
    """Windows of at most `size`; each but the last ends where `end_at` says, past its start."""
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if stop < len(text) and (k := end_at(text, start, stop)) > start:
            stop = k
        spans.append((start, stop))
        start = stop
    return spans


# Two slips the generic "window k should be" does not name: the learner's spans are recognised
# as those of the slip on the failing case, and the hint says what the slip was.
_LINE_WINDOW_SLIPS: tuple[tuple[Callable[[str, int, int], int], str], ...] = (
    (
        lambda text, a, b: text.find("\n", a, b) + 1,
        "your windows end after the FIRST line break they hold, one line per window; end after "
        "the last one (rfind), so a window holds every whole line that fits",
    ),
    (
        lambda text, a, b: text.rfind("\n", a, b),
        "your windows end just before the line break, leaving it to start the next window; "
        "end right after it, the newline inside the window",
    ),
    (
        lambda text, a, b: text.rfind("\n", a, b - 1) + 1,
        "a line break at the window's last character is missed: search all of "
        "text[start:start + size], its last character too",
    ),
)


def _snapped_to_the_end(text: str, size: int) -> list[tuple[int, int]]:
    """The rule applied to the last window too: it ends after its last line break."""
    spans, start = [], 0
    while start < len(text):
        stop = min(start + size, len(text))
        if (k := text.rfind("\n", start, stop) + 1) > start:
            stop = k
        spans.append((start, stop))
        start = stop
    return spans


def _line_window_slip(spans: list, text: str, size: int, fn: Callable | None = None) -> str:
    longer = [(a, b) for a, b in spans if b - a > size]
    if longer:
        a, b = longer[0]
        return (
            f" (window {longer[0]} is {b - a} characters, longer than size={size}: look for the "
            "line break inside text[start:start + size] only)"
        )
    if any(c < b for (_, b), (c, _) in zip(spans, spans[1:], strict=False)):  # steps back
        return " (two windows overlap: these have no overlap, start each where the last ended)"
    pairs = zip(spans, spans[1:], strict=False)
    skipped = [b for (_, b), (c, _) in pairs if c == b + 1 and b < len(text) and text[b] == "\n"]
    if skipped:  # ends at the break and starts the next window after it: the newline is lost
        return (
            f" (the line break at {skipped[0]} is in no window: end each window after the line "
            "break (k + 1), so the newline is inside a chunk and no character is lost)"
        )
    if spans == [(a, min(a + size, len(text))) for a in range(0, len(text), size)]:
        return (
            " (your windows never look for a line break: end each window but the last right "
            "after the last newline it holds)"
        )
    if spans == _snapped_to_the_end(text, size):
        return (
            " (you applied the rule to the last window too: the window that reaches the end of "
            "the text keeps its end there)"
        )
    whys = [
        (end_at, why) for end_at, why in _LINE_WINDOW_SLIPS if spans == _snapped(text, size, end_at)
    ]
    if len(whys) > 1 and fn is not None:  # one case fits two slips: keep those fn makes everywhere
        whys = [(e, why) for e, why in whys if _everywhere(fn, e)] or whys
    return f" ({'; or '.join(why for _, why in whys)})" if whys else ""


def _line_cases() -> list[tuple[str, int]]:
    rng = random.Random(1)
    return [
        (_line_texts(rng, rng.randint(1, 14)), size)
        for size in (20, 45, 80, 200)
        for _ in range(12)
    ]


def _everywhere(fn: Callable, end_at: Callable[[str, int, int], int]) -> bool:
    try:
        return all([tuple(s) for s in fn(t, n)] == _snapped(t, n, end_at) for t, n in _line_cases())
    except Exception:  # a learner's function may raise on some case: the slip is not its
        return False


def _ends_on_a_break(spans: list, expected: list, text: str) -> str:
    """The first wrong window ends one short, on a line break: the newline left out of it."""
    first = next((p for p in zip(spans, expected, strict=False) if p[0] != p[1]), None)
    (a, b), (_, end) = first if first and len(first[0]) == 2 else ((0, -1), (0, 0))
    if isinstance(b, int) and b == end - 1 and text[b : b + 1] == "\n":
        return f" (window ({a}, {b}) ends on the line break at {b}: end right after it, at k + 1)"
    return ""


def _check_line_windows(fn: Callable) -> int:
    cases = 0
    for text, size in _line_cases():
        spans = [tuple(s) for s in fn(text, size)]
        expected, start = [], 0
        while start < len(text):
            stop = min(start + size, len(text))
            if stop < len(text):
                last_break = text.rfind("\n", start, stop)
                if last_break >= 0:
                    stop = last_break + 1
            expected.append((start, stop))
            start = stop
        if spans != expected:
            k, should, got = first_difference(spans, expected, str)
            slip = _line_window_slip(spans, text, size, fn)
            slip = slip or _ends_on_a_break(spans, expected, text)
            raise NotYet(
                f"size={size}, text={short(text, 60)}: window {k} should be {should}, got {got}"
                + slip
            )
        cases += 1
    return cases


CHECKS_LINE_WINDOWS: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "01d.2": ("line_windows(text, size) -> list of (start, end)", _check_line_windows),
}
