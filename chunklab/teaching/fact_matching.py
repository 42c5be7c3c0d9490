"""Does one chunk hand the model every fact a question needs? The count notebooks 01 and 02 read.

Why whole words: folded (case and accents dropped), the manual's `Ação` is `acao`, which also
sits inside `vibracao` and `aprovacao`; a substring test would credit any chunk with `Vibração`
in it with the `Ação` header. Notebook 01 builds this from scratch; later notebooks import it so
the count is the same everywhere.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from chunklab.contracts import Chunk
from chunklab.evaluation.questions import Question
from chunklab.tokens.folding import fold


@functools.cache
def _folded_pattern(fact: str) -> tuple[str, re.Pattern[str]]:
    folded = fold(fact)
    return folded, re.compile(r"(?<!\w)" + re.escape(folded) + r"(?!\w)")


def holds_fact(fact: str, folded_text: str) -> bool:
    """`fact`, folded, occurs in `folded_text` as whole words (no word character on either side).
    A plain substring test first: most chunks lack the fact, and that test is cheap."""
    folded, pattern = _folded_pattern(fact)
    return folded in folded_text and pattern.search(folded_text) is not None


def answerable(chunks: Sequence[Chunk], questions: Sequence[Question]) -> list[int]:
    """Per question, 1 if one chunk holds all its facts (ignoring case and accents), else 0."""
    texts = [fold(c.text) for c in chunks]  # folded once per chunk, not once per fact
    return [int(any(all(holds_fact(f, t) for f in q.facts) for t in texts)) for q in questions]
