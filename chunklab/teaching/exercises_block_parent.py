"""Exercise 03d.2's check: the parent block of a child that does not nest, the block holding the
most of the child's characters (a tie to the earlier block), and the slips each refusal names.

Why a check of its own: companion 03d cuts children that nest in every block, so "the block that
holds the child's start" is right there; with 800-character children and 1200-character blocks it
is not, and each plausible shortcut (its first character, its last, its middle, a tie to the later
block) is right on most children and wrong on a few. The cases below are built to reach those few.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, short

Block = tuple[str, int, int]  # (block id, start, end): a span, end exclusive


def block_expected(child: tuple[int, int], blocks: list[Block]) -> str:
    """The answer: the id of the block sharing the most characters with the child; the earlier
    block on a tie."""
    start, end = child
    best, most = blocks[0][0], -1
    for block_id, a, b in blocks:
        shared = min(end, b) - max(start, a)
        if shared > most:
            best, most = block_id, shared
    return best


def _holding(position: int, blocks: list[Block]) -> str:
    return next((i for i, a, b in blocks if a <= position < b), blocks[-1][0])


def _why_block(got: object, child: tuple[int, int], blocks: list[Block], slips: list[str]) -> str:
    start, end = child
    ids = [i for i, _, _ in blocks]
    if got not in ids:
        if isinstance(got, int) and 0 <= got < len(blocks):
            return "you returned the block's position; return its id (the first item of its tuple)"
        return "not one of the blocks' ids"
    if slips:  # the slips the learner's answers match on every fixed case
        return "; or ".join(dict.fromkeys(slips))
    if got == _holding(start, blocks):
        return (
            "you took the block that holds the child's first character; a child that starts "
            "near a block's end has most of its characters in the next one: count the characters "
            "each block shares with it, min(ends) - max(starts)"
        )
    shared = {i: min(end, b) - max(start, a) for i, a, b in blocks}
    if shared[got] == shared[block_expected(child, blocks)]:
        return "a tie: two blocks share as many characters with the child; take the earlier one"
    if got == _holding(end - 1, blocks) or got == _holding(end, blocks):
        return (
            "you took the block that holds the child's last character; count the characters each "
            "block shares with the child instead"
        )
    if got == _holding((start + end) // 2, blocks):
        return (
            "you took the block that holds the child's middle: right when the child spans two "
            "blocks, not when it spans three; count the characters each block shares with it"
        )
    return "not the block expected"


def _pick(da: int = 0, db: int = 0, dc: int = 0, later: bool = False) -> Callable:
    """A slip: the most-shared block with the block's start, its end or the child's end moved by
    one (an overlap one character off), or with a tie going to the later block."""

    def pick(child: tuple[int, int], blocks: list[Block]) -> str:
        start, end = child
        shared = [
            (min(end + dc, b + db) - max(start, a + da), n if later else -n)
            for n, (_, a, b) in enumerate(blocks)
        ]
        return blocks[abs(max(shared)[1])][0]

    return pick


OFF_BY_ONE = (
    "your overlap is one character off (an end taken as included, or a -1 or +1): with ends "
    "exclusive, the characters shared are min(ends) - max(starts), nothing added"
)


def _largest_touched(child: tuple[int, int], blocks: list[Block]) -> str:
    """A slip: the longest block the child overlaps, not the one sharing most of the child."""
    touched = [
        (b - a, -n) for n, (_, a, b) in enumerate(blocks) if min(child[1], b) > max(child[0], a)
    ]
    return blocks[-max(touched)[1]][0]


def _smallest_id(child: tuple[int, int], blocks: list[Block]) -> str:
    """A slip: a tie broken to the smallest id, right only while ids sort in block order."""
    shared = {i: min(child[1], b) - max(child[0], a) for i, a, b in blocks}
    return min(i for i in shared if shared[i] == max(shared.values()))


def _abs_overlap(child: tuple[int, int], blocks: list[Block]) -> str:
    """A slip: the overlap taken with abs(), so a block far from the child, whose overlap is
    negative, counts as sharing characters."""
    shared = [abs(min(child[1], b) - max(child[0], a)) for _, a, b in blocks]
    return blocks[shared.index(max(shared))][0]


BLOCK_SLIPS = [  # (a plausible wrong method, its slip in words), named when it fits every case
    (
        _abs_overlap,
        "you took abs() of the overlap: a block that does not touch the child has a negative "
        "overlap, and abs() turns a far block's gap into shared characters; a block that does "
        "not touch shares 0 (max(0, ...))",
    ),
    (
        _smallest_id,
        "a tie broken to the smallest id: take the earlier block, the first in the list; ids "
        "need not sort in the text's order ('p10' sorts before 'p2')",
    ),
    (
        _largest_touched,
        "you took the longest block the child overlaps; count the characters each block shares "
        "with the child instead, min(ends) - max(starts)",
    ),
    (
        _pick(later=True),
        "a tie: two blocks share as many characters with the child; take the earlier one",
    ),
    *[(_pick(*d), OFF_BY_ONE) for d in [(0, -1, 0), (0, 1, 0), (1, 0, 0), (-1, 0, 0), (0, 0, -1)]],
]


def _blocks(rng: random.Random, length: int) -> list[Block]:
    cuts = sorted(rng.sample(range(1, length), rng.randint(1, 6)))
    edges = [0, *cuts, length]
    return [(f"b{n}", a, b) for n, (a, b) in enumerate(zip(edges, edges[1:], strict=False))]


FIXED = [  # (child, blocks), each reaching one slip before the others
    ((1100, 1900), [("b0", 0, 1200), ("b1", 1200, 2400)]),  # starts near an end: "b1"
    ((40, 160), [("a", 0, 100), ("b", 100, 110), ("c", 110, 300)]),  # 60, 10, 50; middle in "b"
    ((100, 1200), [("b0", 0, 1000), ("b1", 1000, 2000)]),  # ends in "b1", mostly in "b0"
    ((600, 1400), [("b0", 0, 1000), ("b1", 1000, 2000)]),  # 400 each: the earlier
    ((0, 340), [("w", 0, 100), ("x", 100, 200), ("y", 200, 300), ("z", 300, 400)]),  # 3-way tie
    ((10, 30), [("only", 0, 100)]),
    ((0, 10), [("a", 0, 100), ("b", 100, 1000)]),  # "b" is 90 away: abs() would pick it
    ((600, 1400), [("p2", 0, 1000), ("p10", 1000, 2000)]),  # a tie; "p10" sorts first, "p2" is
]


def check_parent_block(fn: Callable) -> int:
    rng, cases = random.Random(3), list(FIXED)
    for _ in range(60):
        length = rng.randint(20, 400)
        blocks = _blocks(rng, length)
        a = rng.randrange(0, length - 1)
        cases.append(((a, rng.randint(a + 1, length)), blocks))
    for child, blocks in cases:
        expected = block_expected(child, blocks)
        got = fn(tuple(child), [tuple(b) for b in blocks])
        if got != expected:
            slips = consistent_slips(fn, BLOCK_SLIPS, FIXED, shape=lambda x: x)
            raise NotYet(
                f"{_why_block(got, child, blocks, slips)}. Case: child {child}, blocks {blocks}: "
                f"expected {expected!r}, got {short(got)}"
            )
    return len(cases)
