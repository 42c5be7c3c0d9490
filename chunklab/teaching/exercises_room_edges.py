"""Exercise 03d.1's check: the block that holds an answer when blocks overlap.

03d.1 asks for the edge check of 03d's section 2 when blocks overlap: `holding_block(excerpts,
size, step)`, the index of the first block of `size` characters (block i starts at i * step)
that holds every excerpt, or None. The slips named: blocks every `size` characters (no overlap),
the end read as inside, each excerpt alone, the first excerpt only, the excerpts taken in their
listed order, the answer's length alone, the last block instead of the first, a character offset
instead of an index. (03g.1, the children in a section's room, is in `exercises_room_order`.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from chunklab.teaching.checking import NotYet, short

# --- 03d.1: the first overlapping block that holds every excerpt ---------------------------------

Excerpts = list[tuple[int, int]]


def _block(excerpts: Excerpts, size: int, step: int, last: bool = False) -> int | None:
    lo, hi = min(a for a, _ in excerpts), max(b for _, b in excerpts)
    fits = [i for i in range(lo // step + 1) if i * step <= lo and hi <= i * step + size]
    return (fits[-1] if last else fits[0]) if fits else None


class _AnyOf(tuple):
    """A slip written more than one plausible way: an answer matches if it is any of them."""


def _span_block(lo: int, hi: int, size: int, step: int) -> int | None:
    """The first block i with i * step <= lo and hi <= i * step + size, lo and hi taken as given."""
    return next(
        (i for i in range(lo // step + 1) if i * step <= lo and hi <= i * step + size), None
    )


def _floored(lo: int, hi: int, size: int, step: int) -> int | None:
    """The first block's index rounded down, (hi - size) // step, where it must round up."""
    i = max(0, (hi - size) // step)
    return i if i * step <= lo and hi <= i * step + size else None


def _unclamped(lo: int, hi: int, size: int, step: int) -> int | None:
    """The first block's index rounded up, -((size - hi) // step), with no clamp at 0."""
    i = -(-(hi - size) // step)
    return i if i * step <= lo and hi <= i * step + size else None


def _block_slips(excerpts: Excerpts, size: int, step: int) -> dict[str, Any]:
    lo, hi = min(a for a, _ in excerpts), max(b for _, b in excerpts)
    alone = [_block([e], size, step) for e in excerpts]
    right = _block(excerpts, size, step)
    listed = excerpts[0][0], excerpts[-1][1]
    return {
        "block i starts at i * step, not i * size: the blocks overlap": _block(
            excerpts, size, size
        ),
        "an excerpt's end is exclusive: one that ends at the block's end fits": _block(
            [(a, b + 1) for a, b in excerpts], size, step
        ),
        "one block must hold every excerpt together, not each excerpt in a block of its own": (
            _AnyOf((alone[0], min(alone))) if None not in alone else None  # type: ignore[type-var]
        ),
        "one block must hold every excerpt, not only the first": _block(excerpts[:1], size, step),
        "the excerpts are not in order: take the smallest start and the largest end": _AnyOf(
            (
                _span_block(*listed, size, step),
                _block([listed], size, step) if listed[0] < listed[1] else None,
            )
        ),
        "the first block that reaches the answer's end is (end - size) / step rounded up, not "
        "down: rounded down, the block ends before the answer does": _AnyOf(
            (_floored(lo, hi, size, step), max(0, (hi - size) // step))
        ),
        "an answer that ends within the first block gives a negative (end - size) / step: block 0 "
        "is the first, clamp at 0": _AnyOf(
            (_unclamped(lo, hi, size, step), -(-(hi - size) // step))
        ),
        "the smallest start and the largest end bound what one block must hold, not the largest "
        "start and the smallest end": _span_block(
            max(a for a, _ in excerpts), min(b for _, b in excerpts), size, step
        ),
        "an answer shorter than a block can still cross every block's edge: check a block's "
        "start and end": lo // step if hi - lo <= size else None,
        "the first block that holds it, not the last": _block(excerpts, size, step, last=True),
        "return the block's index, not its first character": None
        if right is None
        else right * step,
    }


def _block_cases() -> list[tuple[Excerpts, int, int]]:
    """Hand-picked (an end on an edge, two excerpts in two blocks, out of order, no overlap),
    then random ones from a fixed seed."""
    cases = [
        ([(10, 40)], 40, 20),
        ([(30, 50)], 40, 20),
        ([(5, 15), (45, 55)], 40, 20),
        ([(70, 80), (50, 60)], 40, 20),
        ([(35, 45)], 40, 40),
        ([(0, 40)], 40, 40),
        ([(25, 60)], 40, 10),
        ([(10, 70)], 40, 20),
    ]
    rng = random.Random(303)
    for _ in range(60):
        size = rng.choice([20, 30, 40, 50])
        step = rng.choice([size, size // 2, size // 5, size * 3 // 4])
        excerpts = []
        for _ in range(rng.randint(1, 3)):
            a = rng.randint(0, 150)
            excerpts.append((a, a + rng.randint(1, size)))
        cases.append((excerpts, size, step))
    return cases


def _matches(answer: Any, slip: Any) -> bool:
    return answer in slip if isinstance(slip, _AnyOf) else answer == slip


def check_holding_block(fn: Callable) -> int:
    cases = _block_cases()
    got = [fn(list(e), size, step) for e, size, step in cases]
    for case, answer in zip(cases, got, strict=True):
        right = _block(*case)
        same = (
            answer is None
            if right is None
            else (answer is not None and answer == right and not isinstance(answer, bool))
        )
        if not same:
            named = [
                why
                for why in _block_slips(*case)
                if all(_matches(g, _block_slips(*c)[why]) for c, g in zip(cases, got, strict=True))
            ]
            raise NotYet(
                f"excerpts {case[0]}, size {case[1]}, step {case[2]}: expected {right}, got "
                f"{short(answer)}: "
                + (
                    "; or ".join(named)
                    if named
                    else "block i covers "
                    "[i * step, i * step + size); return the first i whose block holds every "
                    "excerpt, or None"
                )
            )
    return len(cases)


CHECKS_ROOM_EDGES: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03d.1": ("holding_block(excerpts, size, step) -> block index or None", check_holding_block),
}
