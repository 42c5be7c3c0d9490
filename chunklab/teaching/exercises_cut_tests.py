"""The made-up pages two coding checks build their cases from: 01.1's (`exercises_won_lost`, two
cuts counted won/lost/tied) and 02c.1's (`exercises_headings_apart`, the headings no span keeps
with their text). Both draw words from one list in which no word occurs inside another, so a
match found is a whole word unless a case is built to say otherwise, and both cut the pages with
the same random windows and cut points.
"""

from __future__ import annotations

import random

Span = tuple[int, int]

# No word occurs inside another (01.1's check adds the one case where one does).
WORDS = ["pump", "valve", "gauge", "seal", "belt", "motor", "filter", "hose", "clamp", "rotor"]


def draw_words(rng: random.Random, n: int) -> list[str]:
    """`n` words drawn from `WORDS`, repeats allowed."""
    return [rng.choice(WORDS) for _ in range(n)]


def random_cut(rng: random.Random, n: int) -> list[Span]:
    """Windows with or without an overlap, or random cut points, over a text of n characters."""
    if rng.random() < 0.5:
        size = rng.randint(8, 40)
        step = size - rng.randint(0, size // 2)
        return [(s, min(s + size, n)) for s in range(0, n, step)]
    cuts = sorted(rng.sample(range(1, n), min(rng.randint(1, 6), n - 1)))
    return list(zip([0, *cuts], [*cuts, n], strict=True))
