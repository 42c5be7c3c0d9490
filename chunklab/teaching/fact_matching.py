"""Does one chunk hand the model every fact a question needs? The count notebooks 01 and 02 read.

Why whole words: folded (case and accents dropped), the manual's `Ação` is `acao`, which also
sits inside `vibracao` and `aprovacao`; a substring test would credit any chunk with `Vibração`
in it with the `Ação` header. Notebook 01 builds this from scratch; later notebooks import it so
the count is the same everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunklab.contracts import Chunk
from chunklab.evaluation.questions import Question
from chunklab.tokens.folding import fold


def holds_fact(fact: str, folded_text: str) -> bool:
    """`fact`, folded, occurs in `folded_text` as whole words (no word character on either side)."""
    return re.search(r"(?<!\w)" + re.escape(fold(fact)) + r"(?!\w)", folded_text) is not None


def answerable(chunks: Sequence[Chunk], questions: Sequence[Question]) -> list[int]:
    """Per question, 1 if one chunk holds all its facts (ignoring case and accents), else 0."""
    texts = [fold(c.text) for c in chunks]  # folded once per chunk, not once per fact
    return [int(any(all(holds_fact(f, t) for f in q.facts) for t in texts)) for q in questions]
