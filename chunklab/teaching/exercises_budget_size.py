"""Exercise 01c.1's check: the character size that fits a token budget, found by the learner.

Notebook 01c shows that one size in characters buys a different token budget in each language.
`size_for_budget(text, budget, count)` returns the largest size `s` in characters such that every
window of notebook 01's loop with no overlap, `text[k:k + s]` for k = 0, s, 2s, ..., costs at most
`budget` under `count` (0 when no size does). The check runs it on made-up Portuguese and English
texts with two counters (cl100k tokens and words), which the notebook never shows, and names the
predictable slips: stopping at the first size that does not fit (a larger one can fit again: the
window starts move with the size), testing the first window only, leaving the last, shorter window
out, `<` for "at most", one size too many, a chars-per-token rule of thumb, the text's own average
rate, capped at the text's length or not (01c's match, which over a third of its windows
overspend), never trying the whole text as one window, anything but 0 when no size fits,
overlapping windows (by 40, or by a fifth of the size as 01c's), and a search (bisection) that
takes the sizes that fit for one run.
No library function does this job, so nothing is refused for calling one.
"""

from __future__ import annotations

from collections.abc import Callable

from chunklab.teaching.checking import NotYet, short
from chunklab.tokens.counters import cl100k

Count = Callable[[str], int]


def _words(text: str) -> int:
    return len(text.split())


def _fits(text: str, size: int, budget: int, count: Count, last: bool = True) -> bool:
    ends = range(0, len(text), size) if last else range(0, len(text) - size + 1, size)
    return all(count(text[k : k + size]) <= budget for k in ends)


def expected_size(text: str, budget: int, count: Count) -> int:
    """The largest size whose every window fits the budget; 0 when none does."""
    return next((s for s in range(len(text), 0, -1) if _fits(text, s, budget, count)), 0)


def _first_failure(text: str, budget: int, count: Count) -> int:
    s = 1
    while s <= len(text) and _fits(text, s, budget, count):
        s += 1
    return s - 1


def _slips(text: str, budget: int, count: Count) -> list[tuple[int, str]]:
    right = expected_size(text, budget, count)
    strict = next((s for s in range(len(text), 0, -1) if _fits(text, s, budget - 1, count)), 0)
    first = next((s for s in range(len(text), 0, -1) if count(text[:s]) <= budget), 0)
    full = next((s for s in range(len(text), 0, -1) if _fits(text, s, budget, count, False)), 0)
    rate = budget * len(text) / max(count(text), 1)  # the whole text's characters per token
    average = (
        "that is the budget times the text's average rate (characters per token), and a rate "
        "averaged over the text is not a bound: a window dense in tokens costs more than the "
        "average (01c section 2): count each window instead"
    )
    return [
        (
            _first_failure(text, budget, count),
            "you stopped at the first size that does not fit, "
            "but a larger size can fit again (its window starts fall elsewhere): try every size "
            "up to len(text) and keep the largest that fits",
        ),
        (first, "you tested the first window only: every window of the cut must fit the budget"),
        (full, "you left out the last, shorter window: it is a chunk too, and must fit"),
        (strict, "a window of exactly `budget` tokens fits: 'at most' is <=, not <"),
        (right + 1, "one size too many: return the largest size that fits, not the next one"),
        (4 * budget, "that is a rule of thumb (4 characters a token): count each window instead"),
        (int(rate), average),
        (round(rate), average),
        (min(int(rate), len(text)), average),  # the same, kept within the text
        (min(round(rate), len(text)), average),
    ]


PT = (
    "2. Frequência\nA inspeção ocorre a cada 15 dias. A calibração ocorre a cada 60 dias.\n"
    "| Medida | Unidade | Limite |\n|---|---|---|\n| Pressão | bar | 7,5 |\n| Umidade | % | 65 |\n"
)
EN = (
    "2. Frequency\nInspection takes place every 15 days. Calibration every 60 days.\n"
    "| Measure | Unit | Limit |\n|---|---|---|\n| Pressure | bar | 7.5 |\n| Humidity | % | 65 |\n"
)
CASES: list[tuple[str, int, Count]] = [
    (PT, 20, cl100k),
    (EN, 20, cl100k),
    (PT, 35, cl100k),
    (EN, 12, cl100k),
    (PT, 6, _words),
    (EN, 9, _words),
    ("uma linha curta\n" * 3, 4, cl100k),
    ("Pressão 7,5 bar", 0, cl100k),  # no size fits: 0
    ("uma linha curta\n", 50, cl100k),  # the whole text fits: len(text)
]


def _edge_hint(text: str, right: int, got: object) -> str | None:
    """The slips only the two edge cases show: no size fits, or the whole text does."""
    if right == 0 and got is not None and got != 0:
        return "no size fits here, not even one character: return 0"
    if right == len(text) and got == len(text) - 1:
        return "the whole text fits in one window: try size len(text) too"
    if right == len(text) and isinstance(got, int) and got > len(text):
        return "the whole text fits, and no size is larger than the text: return len(text)"
    return None


def _consistent_hint(fn: Callable) -> str | None:
    """The slip whose sizes equal the learner's on every case (one case can match several)."""
    try:
        got = [fn(text, budget, count) for text, budget, count in CASES]
    except Exception:  # a learner's function may raise on some case: no slip is named then
        return None
    table = [_slips(text, budget, count) for text, budget, count in CASES]
    return next(
        (
            table[0][k][1]
            for k in range(len(table[0]))
            if all(row[k][0] == g for row, g in zip(table, got, strict=True))
        ),
        None,
    )


def check_size_for_budget(fn: Callable) -> int:
    for text, budget, count in CASES:
        got = fn(text, budget, count)
        right = expected_size(text, budget, count)
        if got is None and right == 0:
            raise NotYet("no size fits a budget of 0 tokens: return 0 (an int), not None")
        if not isinstance(got, int) or isinstance(got, bool):
            raise NotYet(f"expected an int (a size in characters), got {short(got)}")
        if got == right:
            continue
        said = f"on a text of {len(text)} characters, budget {budget} {_name(count)}: "
        hint = _edge_hint(text, right, got) or _consistent_hint(fn)
        if hint is None and count is _words and got == expected_size(text, budget, cl100k):
            hint = "you counted cl100k tokens: count each window with the `count` passed in"
        if hint is None and 0 < got:
            hint = _hint_overlap(text, budget, count, got)
        if hint is None and 0 < got < right:
            hint = _hint_smaller(text, budget, count, got, right)
        if hint is None and right < got <= len(text):
            hint = f"at size {got} some window costs more than {budget}"
        raise NotYet(said + f"expected {right}, got {got}: " + (hint or _hint_larger(right)))
    return len(CASES)


def _name(count: Count) -> str:
    return "words" if count is _words else "cl100k tokens"


def _overlapped(text: str, budget: int, count: Count, overlap: Callable[[int], int]) -> int:
    """The largest size `s` whose windows, stepping `s - overlap(s)` as 01's and 01c's did, fit."""
    for s in range(len(text), 0, -1):
        starts = range(0, len(text), max(1, s - overlap(s)))
        if all(count(text[k : k + s]) <= budget for k in starts):
            return s
    return 0


def _hint_overlap(text: str, budget: int, count: Count, got: int) -> str | None:
    """Windows that overlap as section 2's (by 40) or 01c's pooled cuts (by a fifth of the size,
    rounded or floored) did: a size above or below the answer."""
    none = "these have none, text[k:k + s] for k = 0, s, 2s, ..."
    if got == _overlapped(text, budget, count, lambda s: 40):
        return f"your windows overlap by 40: {none}"
    if got in (
        _overlapped(text, budget, count, f) for f in (lambda s: round(s / 5), lambda s: s // 5)
    ):
        return f"your windows overlap by a fifth of the size: {none}"
    return None


def _hint_smaller(text: str, budget: int, count: Count, got: int, right: int) -> str | None:
    """A slip that returns a size below the answer: a search (such as bisection) that takes the
    sizes that fit for one run."""
    fails = next((s for s in range(got + 1, right) if not _fits(text, s, budget, count)), None)
    if fails is not None and _fits(text, got, budget, count):
        return (
            f"size {fails} fails but {right} fits: the sizes that fit are not one run, so a "
            "bisection, or a search that stops at a failure, misses the largest; try every size"
        )
    return None


def _hint_larger(right: int) -> str:
    return f"size {right} fits too (every window at most the budget), and it is the largest"


CHECKS_BUDGET_SIZE: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "01c.1": ("size_for_budget(text, budget, count) -> int", check_size_for_budget),
}
