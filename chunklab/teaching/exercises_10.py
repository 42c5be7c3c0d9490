"""The coding exercise of notebook 10 (Chroma's benchmark): precision-Ω of fixed windows.

10.1 asks for `window_omega(excerpts, size, length)`: the precision-Ω of one question when a
document of `length` characters is cut into windows of `size` characters, [0, size),
[size, 2 size), ..., the last one ending at `length`. It shows that precision-Ω belongs to the cut
alone (no retriever, no model), and it keeps the report's boundary rule a learner is likely to
miss: a window that only *touches* an excerpt (ends where it starts, or starts where it ends)
counts among the windows, so its characters join the denominator. The expected value is the
library's `chroma.precision_omega` on the same windows.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chunklab.evaluation.chroma import Located, Question, precision_omega
from chunklab.teaching.checking import NotYet, short


def windows_of(size: int, length: int) -> list[tuple[int, int]]:
    """The windows 10.1 describes: [0, size), [size, 2 size), ..., the last ending at `length`."""
    return [(a, min(a + size, length)) for a in range(0, length, size)]


def expected_omega(excerpts: list[tuple[int, int]], size: int, length: int) -> float:
    chunks = [Located("", "doc", a, b) for a, b in windows_of(size, length)]
    return precision_omega(Question("q", "doc", tuple(excerpts)), chunks)


def _cases() -> list[tuple[list[tuple[int, int]], int, int]]:
    """Hand-picked boundary cases first, then random ones from a fixed seed."""
    cases = [
        ([(10, 20)], 10, 40),  # the excerpt is exactly one window; its neighbours touch it
        ([(5, 15)], 10, 30),  # two windows, half of each
        ([(0, 4), (30, 34)], 8, 40),  # two excerpts at both ends
        ([(12, 18)], 6, 20),  # the last window is short
    ]
    rng = np.random.default_rng(101)
    for _ in range(40):
        length = int(rng.integers(20, 200))
        size = int(rng.integers(3, 40))
        excerpts = []
        for _ in range(int(rng.integers(1, 3))):
            a = int(rng.integers(0, length - 1))
            excerpts.append((a, int(rng.integers(a + 1, min(length, a + 30) + 1))))
        cases.append((excerpts, size, length))
    return cases


def check_window_omega(fn: Callable) -> int:
    cases = 0
    for excerpts, size, length in _cases():
        expected = expected_omega(excerpts, size, length)
        got = fn(list(excerpts), size, length)
        try:
            ok = abs(float(got) - expected) <= 1e-9
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise NotYet(
                f"excerpts {excerpts}, windows of {size} over {length} characters: expected "
                f"{expected:.4f}, got {short(got)} (a window that only touches an excerpt, "
                "start <= excerpt end and end >= excerpt start, counts)"
            )
        cases += 1
    return cases


CHECKS_10: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "10.1": ("window_omega(excerpts, size, length) -> float", check_window_omega),
}
