"""Companion 04c's section 4: how far three models agree on where to cut, at every percentile,
and how many of each model's cuts fall on a true topic change (sharing is not being right: two
models can cut different true changes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from chunklab.chunkers.semantic import SemanticChunker
from chunklab.embeddings.static import HashingEmbedder


def agreement_sweep(sims_of: dict[str, np.ndarray], true_gaps: set[int]) -> Any:
    """One row per percentile from 1 to 99: WordLlama's cuts, how many of them MiniLM and the
    hash share, the hash's own cut count (tied similarities can make it cut fewer), what random
    cuts of the same counts share on average with each (a * b / gaps, b that model's count), and
    each model's cuts on a true change. `sims_of` holds 'wordllama', 'minilm' and 'hash'
    similarities of one document; gap i is a cut after sentence i."""
    import pandas as pd

    rows = []
    for p in range(1, 100):
        rule = SemanticChunker(embedder=HashingEmbedder(), percentile=p)  # cuts() reads sims only
        cut = {name: set(rule.cuts(sims)) for name, sims in sims_of.items()}
        gaps = len(sims_of["wordllama"])
        rows.append(
            {
                "percentile": p,
                "WordLlama cuts": len(cut["wordllama"]),
                "shared with MiniLM": len(cut["wordllama"] & cut["minilm"]),
                "shared with the hash": len(cut["wordllama"] & cut["hash"]),
                "hash cuts": len(cut["hash"]),
                "by chance: MiniLM": len(cut["wordllama"]) * len(cut["minilm"]) / gaps,
                "by chance: hash": len(cut["wordllama"]) * len(cut["hash"]) / gaps,
                "on a true change: WordLlama": len(cut["wordllama"] & true_gaps),
                "MiniLM": len(cut["minilm"] & true_gaps),
                "hash": len(cut["hash"] & true_gaps),
            }
        )
    return pd.DataFrame(rows).set_index("percentile")
